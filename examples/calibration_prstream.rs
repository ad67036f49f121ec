//! The pull-request stream calibration (`calibration/prstream.rs`): per team gate file (set
//! size, unit, critical slices, `max-drop` margin, guarantee), friction on honest pull requests,
//! escape at the margin (green / amber), the amber rate, and the resolution p*.
//!
//!     nice -n 10 cargo run --release --example calibration_prstream -- SETS [RESAMPLES [DATA_SEED [GUARANTEES [SIZES [SLICES [KINDS [UNITS]]]]]]]
//!
//! SETS pull requests per kind and gate file (a quarter of them, at least 50, from 500 queries
//! on); RESAMPLES per check (0: the gate file's default, 10,000); GUARANTEES `none` (no
//! `[verdict]` table: the engine's only behaviour), or a comma list of `regular`,
//! `distribution-free`; SIZES a comma list of set sizes (default every profile); SLICES `plain`
//! (the gate files without a critical slice), `critical` (those with one) or `both` (default);
//! KINDS `all` (default), `honest` (the honest kinds only: friction and amber) or `escape`: only
//! the regressions at the margin, each printed with its exit-0 count and the Wilson 95% interval
//! of the escape rate (Wilson 1927), so a cell is called out of band only when the whole
//! interval lies above 2.5% (`*`), in band when it lies below (blank), and not settled by this
//! many pull requests otherwise (`?`); UNITS `query`, `group` or `both` (default).

#[path = "../calibration/prstream.rs"]
mod prstream;

use prstream::{ending, resolution, sample, tables, Kind, Tally, Team};
use std::path::Path;

/// Targets under `regular` (and the escape target under both).
const FRICTION_QUIET: f64 = 0.01;
const FRICTION_JITTER: f64 = 0.05;
const ESCAPE: f64 = 0.025;
const AMBER: f64 = 0.10;

struct Args {
    sets: usize,
    resamples: Option<u64>,
    seed: u64,
    guarantees: Vec<Option<&'static str>>,
    sizes: Vec<usize>,
    /// Which critical-slice settings to run: without, with, or both.
    critical: Vec<bool>,
    /// Only the regressions at the margin (no honest kinds), with their Wilson intervals.
    escape_only: bool,
    /// Only the honest kinds (no regressions).
    honest_only: bool,
    /// Which units to run: the query unit, the group unit, or both.
    groups: Vec<bool>,
}

fn args() -> Args {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, d: u64| a.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let guarantees = match a.get(3).map(String::as_str) {
        None | Some("none") => vec![None],
        Some(list) => list
            .split(',')
            .map(|g| match g {
                "regular" => Some("regular"),
                "distribution-free" => Some("distribution-free"),
                other => panic!("unknown guarantee {other}"),
            })
            .collect(),
    };
    let sizes = match a.get(4) {
        Some(list) => list
            .split(',')
            .map(|s| s.parse().expect("a size"))
            .collect(),
        None => prstream::PROFILES.to_vec(),
    };
    let critical = match a.get(5).map(String::as_str) {
        None | Some("both") => vec![false, true],
        Some("plain") => vec![false],
        Some("critical") => vec![true],
        Some(other) => panic!("unknown SLICES {other}: plain, critical or both"),
    };
    let (escape_only, honest_only) = match a.get(6).map(String::as_str) {
        None | Some("all") => (false, false),
        Some("escape") => (true, false),
        Some("honest") => (false, true),
        Some(other) => panic!("unknown KINDS {other}: all, honest or escape"),
    };
    let groups = match a.get(7).map(String::as_str) {
        None | Some("both") => vec![false, true],
        Some("query") => vec![false],
        Some("group") => vec![true],
        Some(other) => panic!("unknown UNITS {other}: query, group or both"),
    };
    Args {
        critical,
        escape_only,
        honest_only,
        groups,
        sets: num(0, 200) as usize,
        resamples: Some(num(1, 0)).filter(|&r| r > 0),
        seed: num(2, 2026),
        guarantees,
        sizes,
    }
}

fn pct(x: f64) -> String {
    format!("{:5.1}", 100.0 * x)
}

/// Runs every kind on one gate file.
fn run_team(team: &Team, a: &Args, dir: &std::path::Path) -> Vec<(Kind, Tally)> {
    let cfg = prstream::config(team, dir, a.resamples);
    let sets = if team.n >= 500 {
        (a.sets / 4).max(50)
    } else {
        a.sets
    };
    let honest: &[Kind] = if a.escape_only { &[] } else { &Kind::HONEST };
    let drops: &[Kind] = if a.honest_only { &[] } else { &Kind::DROPS };
    let kinds = honest.iter().chain(drops);
    kinds
        .filter(|k| team.critical || **k != Kind::DropCritical)
        .map(|&kind| {
            let mut t = Tally::default();
            for set in 0..sets {
                let s = sample(a.seed, team, kind, set);
                if set == 0 {
                    dump(team, kind, &s);
                }
                let e = ending(&cfg, prstream::verdict(&cfg, &tables(&s, team.groups)));
                t.add(e);
            }
            (kind, t)
        })
        .collect()
}

/// With `PRSTREAM_DUMP=FOLDER`, the first pull request of every kind and gate file written
/// as the metric files and gate file `check` reads (FOLDER/N-UNIT-SLICES-MARGIN-KIND/).
fn dump(team: &Team, kind: Kind, s: &prstream::Sample) {
    let Some(root) = std::env::var_os("PRSTREAM_DUMP") else {
        return;
    };
    let dir = Path::new(&root).join(format!(
        "{}-{}-{}-{}-{}",
        team.n,
        if team.groups { "group" } else { "query" },
        if team.critical { "crit" } else { "all" },
        team.margin,
        kind.name()
    ));
    std::fs::create_dir_all(&dir).expect("dump folder");
    std::fs::write(dir.join("gate.toml"), prstream::gate_text(team)).expect("dump");
    prstream::write_files(s, team.groups, &dir);
}

/// The gate file's units (queries, or groups at the mean run length of 3.5) and those of its
/// critical slice (a quarter), for p*.
fn units(team: &Team) -> (usize, usize) {
    let u = if team.groups {
        (team.n as f64 / 3.5).round() as usize
    } else {
        team.n
    };
    (u, (u / 4).max(1))
}

fn flag(ok: bool) -> &'static str {
    if ok {
        "  "
    } else {
        " *"
    }
}

/// The start of a gate file's line: its size, unit, slices, margin and guarantee, and the
/// resolution p* of the whole set (and of the critical slice); returns the text and both p*.
fn line_head(team: &Team) -> (String, f64, f64) {
    let (u, us) = units(team);
    let p_all = resolution(u);
    let p_crit = if team.critical { resolution(us) } else { p_all };
    let s = format!(
        "{:>5} {:5} {:4} {:.2} {:17} p*={:5.1}%{} |",
        team.n,
        if team.groups { "group" } else { "query" },
        if team.critical { "crit" } else { "-" },
        team.margin,
        team.guarantee.unwrap_or("(engine)"),
        100.0 * p_all,
        if team.critical {
            format!("/{:.1}%", 100.0 * p_crit)
        } else {
            String::new()
        }
    );
    (s, p_all, p_crit)
}

/// One line per gate file.
fn line(team: &Team, res: &[(Kind, Tally)]) -> String {
    let (mut s, p_all, p_crit) = line_head(team);
    let regular = team.guarantee != Some("distribution-free");
    let (mut amber, mut honest) = (0, 0);
    for (kind, t) in res.iter().filter(|(k, _)| k.honest()) {
        let target = match kind {
            Kind::Jitter1 | Kind::Jitter100 => FRICTION_JITTER,
            _ => FRICTION_QUIET,
        };
        let friction = t.rate(t.red);
        s += &format!(" {}{}", pct(friction), flag(!regular || friction <= target));
        amber += t.amber;
        honest += t.sets;
    }
    let amber_rate = amber as f64 / honest.max(1) as f64;
    s += &format!(" | {}{} |", pct(amber_rate), flag(amber_rate <= AMBER));
    for (kind, t) in res.iter().filter(|(k, _)| !k.honest()) {
        let p = if *kind == Kind::DropCritical {
            p_crit
        } else {
            p_all
        };
        let above = kind.touched(team.margin, team.groups).unwrap_or(1.0) >= p;
        let bound = !regular || above;
        s += &format!(
            " {}/{}{}{}",
            pct(t.rate(t.green)).trim_start(),
            pct(t.rate(t.amber)).trim_start(),
            if above { "" } else { "b" },
            flag(!bound || t.exit0() <= ESCAPE)
        );
    }
    s
}

/// The Wilson score interval (Wilson 1927) of a binomial share k / n at 95% (z = 1.96): the
/// centre (p + z²/2n) / (1 + z²/n), the half-width z·√(p(1 − p)/n + z²/4n²) / (1 + z²/n).
/// Checked against scipy.stats.binomtest(k, n).proportion_ci(method="wilson"): 2 of 60 gives
/// [0.00919, 0.11364], 15 of 600 [0.01521, 0.04084], 0 of 150 [0, 0.02497].
fn wilson(k: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (z, n) = (1.959_963_984_540_054_f64, n as f64);
    let p = k as f64 / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    ((c - h).max(0.0), (c + h).min(1.0))
}

/// One line per gate file with only the regressions at the margin: per kind, exit 0 as
/// green + amber of the pull requests, the rate and its Wilson 95% interval, and `*` (the
/// interval lies above 2.5%), `?` (it holds 2.5%) or blank (below), for a design above the
/// resolution; `b` marks one below it (not bound by the 2.5%).
fn escape_line(team: &Team, res: &[(Kind, Tally)]) -> String {
    let (mut s, p_all, p_crit) = line_head(team);
    for (kind, t) in res {
        let p = if *kind == Kind::DropCritical {
            p_crit
        } else {
            p_all
        };
        let above = kind.touched(team.margin, team.groups).unwrap_or(1.0) >= p;
        let (lo, hi) = wilson(t.green + t.amber, t.sets);
        let mark = if !above {
            "b"
        } else if lo > ESCAPE {
            "*"
        } else if hi >= ESCAPE {
            "?"
        } else {
            " "
        };
        s += &format!(
            " {} {:>3}+{:<3}/{:<4} {:5.2}% [{:5.2}, {:5.2}]{mark} |",
            kind.name(),
            t.green,
            t.amber,
            t.sets,
            100.0 * t.exit0(),
            100.0 * lo,
            100.0 * hi
        );
    }
    s
}

fn main() {
    let a = args();
    let dir = std::env::temp_dir().join(format!("rag-gate-prstream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp folder");
    println!(
        "PR-stream calibration: {} pull requests per kind and gate file ({} from 500 queries on), resamples {}, data seed {}, 95%, max-drop on {} ([0, 1])",
        a.sets,
        (a.sets / 4).max(50),
        a.resamples.map_or("10000 (default)".into(), |r| r.to_string()),
        a.seed,
        prstream::METRIC
    );
    if a.escape_only {
        println!("escape (exit 0) per regression at the margin: green+amber/pull requests, rate, Wilson 95% interval; * the interval lies above 2.5% (out of band), ? it holds 2.5% (not settled), blank below (in band), b the design moves fewer units than p* (below the resolution, not bound)");
    } else {
        println!("friction % (exit 1) per honest kind: identical refactor net-zero jitter-1% jitter-100% gain re-run | amber % of honest | escape green/amber % at the margin: drop-all drop-few drop-large [drop-critical]");
        println!("* out of band (regular: friction > 1% quiet / 5% jitter, amber > 10%, escape > 2.5% above the resolution; distribution-free: escape > 2.5% on every design); b: the design moves fewer units than p* (below the resolution)");
    }
    for &n in &a.sizes {
        for &groups in &a.groups {
            for &critical in &a.critical {
                for &margin in &prstream::MARGINS {
                    for &guarantee in &a.guarantees {
                        let team = Team {
                            n,
                            groups,
                            critical,
                            margin,
                            guarantee,
                        };
                        let res = run_team(&team, &a, &dir);
                        if a.escape_only {
                            println!("{}", escape_line(&team, &res));
                        } else {
                            println!("{}", line(&team, &res));
                        }
                    }
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
