//! The probe's calibration (`calibration/probe.rs`): per pull-request design, the exit-0 rate
//! on regressions at the `max-drop` margin (escape) and the exit-1 rate on honest changes
//! (friction), for the gate file with `[probe]` (labelled set and probe combined) beside the
//! same gate file without it (the labelled set alone), each with its Wilson 95% interval.
//!
//!     nice -n 10 cargo run --release --example calibration_probe -- SETS [RESAMPLES [DATA_SEED [LABELLED [PROBE [METRIC]]]]]
//!
//! SETS pull requests per design; RESAMPLES per check (default 1,000); LABELLED queries in the
//! labelled set (default 50); PROBE unlabelled queries (default 2,000); METRIC `p@10` (default)
//! or `ndcg@10`.

#[path = "../calibration/probe.rs"]
mod probe;

use probe::{gate_text, labelled, rng, DESIGNS, MARGIN};

/// The Wilson 95% interval of k of n (Wilson 1927), in percent.
fn wilson(k: usize, n: usize) -> (f64, f64) {
    let (k, n, z) = (k as f64, n as f64, 1.959_963_984_540_054_f64);
    let p = k / n;
    let c = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (100.0 * (c - h).max(0.0), 100.0 * (c + h).min(1.0))
}

fn arg(args: &[String], i: usize, default: u64) -> u64 {
    args.get(i)
        .map_or(default, |a| a.parse().expect("a number"))
}

/// The exit code of `check` on the gate file in `dir`.
fn exit_code(dir: &std::path::Path, gate: &str) -> i32 {
    let cfg = rag_gate::config::load(&dir.join(gate)).expect("valid gate file");
    let r = rag_gate::check::analyze(&cfg).expect("analysed");
    rag_gate::check::exit_code(r.verdict, cfg.verdict.on_inconclusive.as_str())
}

fn cell(line: &mut String, what: &str, k: usize, n: usize, target: f64) {
    let (lo, hi) = wilson(k, n);
    let rate = 100.0 * k as f64 / n as f64;
    let mark = if lo > target {
        "*"
    } else if hi > target {
        "?"
    } else {
        " "
    };
    line.push_str(&format!(
        " | {what} {k:>4}/{n} {rate:>5.2}% [{lo:>5.2}, {hi:>5.2}]{mark}"
    ));
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sets = arg(&args, 0, 200) as usize;
    let resamples = arg(&args, 1, 1000);
    let seed = arg(&args, 2, 2026);
    let n = arg(&args, 3, 50) as usize;
    let big = arg(&args, 4, 2000) as usize;
    let metric = args.get(5).map_or("p@10", String::as_str);
    let dir = tempfile::tempdir().expect("temp folder");
    std::fs::write(
        dir.path().join("alone.toml"),
        gate_text(metric, false, resamples),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("probe.toml"),
        gate_text(metric, true, resamples),
    )
    .unwrap();
    println!(
        "Probe calibration: {sets} pull requests per design, {n} labelled queries, {big} probe queries, {metric} max-drop {MARGIN}, resamples {resamples}, data seed {seed}"
    );
    println!("regressions: exit 0 (escape, target ≤ 2.5%); honest: exit 1 (friction, target ≤ 1%); Wilson 95% interval; * wholly above the target, ? holds it");
    for (i, d) in DESIGNS.iter().enumerate() {
        let (mut alone, mut combined) = (0usize, 0usize);
        for s in 0..sets {
            let mut g = rng(seed, i, s);
            let [b, c] = labelled(&mut g, d, n, metric);
            let [pb, pc] = probe::probe(&mut g, d, big);
            for (name, text) in [
                ("b.jsonl", b),
                ("c.jsonl", c),
                ("probe-b.txt", pb),
                ("probe-c.txt", pc),
            ] {
                std::fs::write(dir.path().join(name), text).unwrap();
            }
            let bad = |code: i32| if d.honest() { code == 1 } else { code == 0 };
            alone += usize::from(bad(exit_code(dir.path(), "alone.toml")));
            combined += usize::from(bad(exit_code(dir.path(), "probe.toml")));
        }
        let (what, target) = if d.honest() {
            ("friction", 1.0)
        } else {
            ("escape", 2.5)
        };
        let mut line = format!("  {:<32}", d.name);
        cell(
            &mut line,
            &format!("{what} labelled alone"),
            alone,
            sets,
            target,
        );
        cell(&mut line, "with the probe", combined, sets, target);
        println!("{line}");
    }
}
