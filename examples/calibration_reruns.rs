//! Re-running until it passes: the false-pass rate of a noisy retriever at a gate's margin when
//! its author re-triggers the check up to 1, 3 or 10 times (re-runs, empty commits, amends and
//! rebases, in turn) and stops at the first pass.
//!
//!     nice -n 10 cargo run --release --example calibration_reruns [-- SETS RESAMPLES DATA_SEED [STATISTIC [SHIFT [levels]]]]
//!
//! STATISTIC is the gated statistic (`mean`, the default; `median`; `p95`), SHIFT the true
//! change (`margin`, the default: exactly at the gate's margin, where a pass is a false pass;
//! `zero`: an honest pull request that changes nothing, where a fail is friction; `gain`: an
//! honest one better by half the margin). `levels`: only the two pooled columns (the level
//! spent over the attempts, and not), which are all the level rule changes.
//!
//! Each set is one pull request of 200 queries.
//! - `mean`: a baseline uniform in [0.3, 0.7] (one run, no noise), and a candidate system whose
//!   true mean change is exactly −0.02 (`max-drop = 0.02` on `ndcg@10`): a fixed per-query
//!   effect N(0, 0.01²) around −0.02, and on every attempt fresh run-to-run noise N(0, 0.1²)
//!   per query (a noisy retriever: the run-to-run noise dominates).
//! - `median`: `statistic = "median"`, `max-drop = 0.02` on `ndcg@10`; each query's expected
//!   value uniform in [0.3, 0.7]; the baseline's one run and every candidate attempt add their
//!   own N(0, 0.1²) per query (clamped to [0, 1], which leaves the median alone), the candidate
//!   shifted by −0.02: the median of one run's values (the quantity both sides estimate) moves
//!   by exactly the margin.
//! - `p95`: `statistic = "p95"`, `max-drop = 5` on `latency_ms` (lower is better); each query's
//!   expected latency uniform in [40, 100] ms, every run adding N(0, 15²) ms per query, the
//!   candidate shifted by +5 ms: the p95 of one run's latencies rises by exactly the margin.
//!
//! Each attempt goes through what `check --comment` does: the sticky comment's state read
//! (`publish::across_runs`), the earlier attempts pooled (`check::analyze_with`), the next state
//! written within its budget and read back. Compared:
//! - pooled: attempts keyed by the pull request's change (what rag-gate does: every trigger is
//!   an attempt of one candidate), each judged at the level left after the candidate's failing
//!   attempts (`stats::spending`);
//! - pooled, level not spent: the same, every attempt judged at the configured level (the rule
//!   before the spending; obtained by handing the analysis the earlier attempts with their
//!   verdicts read as passes, the only thing the level reads);
//! - averaged: each query's value averaged over the attempts so far, judged as one run (what
//!   "average the attempts, then apply the rule" gives; for a mean it is the pooled verdict, for
//!   a quantile it judges another quantity: the averaged values spread less than one run's);
//! - fresh: each attempt judged alone (what keying by head commit gave an empty commit, an amend
//!   or a rebase).
//!
//! Figures carry their Monte-Carlo standard error (binomial, over the sets).

use rag_gate::model::Verdict;
use rag_gate::publish::across_runs::{Context, History};
use rag_gate::publish::state;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const QUERIES: usize = 200;
const TRIES: [usize; 3] = [1, 3, 10];

/// The gated statistic and the scenario it is calibrated on.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Mean,
    Median,
    P95,
}

impl Kind {
    fn metric(self) -> &'static str {
        match self {
            Kind::P95 => "latency_ms",
            _ => "ndcg@10",
        }
    }

    /// The gate's margin, in the metric's units.
    fn margin(self) -> f64 {
        match self {
            Kind::P95 => 5.0,
            _ => 0.02,
        }
    }

    fn gate(self) -> String {
        let m = self.margin();
        match self {
            Kind::Mean => format!("[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = {m}\n"),
            Kind::Median => {
                format!("[[gate]]\nmetric = \"ndcg@10\"\nstatistic = \"median\"\nmax-drop = {m}\n")
            }
            Kind::P95 => format!(
                "[[gate]]\nmetric = \"latency_ms\"\nhigher-is-better = false\nstatistic = \"p95\"\nmax-drop = {m}\n"
            ),
        }
    }

    /// One run's value of a query whose expected value is `e`.
    fn run(self, e: f64, rng: &mut ChaCha8Rng) -> f64 {
        match self {
            Kind::P95 => e + 15.0 * normal(rng),
            _ => (e + 0.1 * normal(rng)).clamp(0.0, 1.0),
        }
    }
}

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let (u, v): (f64, f64) = (rng.random::<f64>().max(1e-300), rng.random());
    (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
}

fn write(path: &std::path::Path, metric: &str, values: &[f64]) {
    let text: String = values
        .iter()
        .enumerate()
        .map(|(i, v)| format!("{{\"query_id\":\"q{i:03}\",\"{metric}\":{v}}}\n"))
        .collect();
    std::fs::write(path, text).unwrap();
}

/// The triggers, in turn: (new head commit?, new CI run?).
const TRIGGERS: [(&str, bool); 4] = [
    ("re-run", false),
    ("empty commit", true),
    ("amend", true),
    ("rebase", true),
];

/// How the attempts are judged.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Pooled,
    Unspent,
    Averaged,
    Fresh,
}

const MODES: [Mode; 4] = [Mode::Pooled, Mode::Unspent, Mode::Averaged, Mode::Fresh];
const HEADS: [&str; 4] = [
    "pooled, level spent",
    "pooled, level not spent",
    "averaged per query",
    "fresh (each attempt alone)",
];

/// `earlier` as the rule before the spending judged it: every attempt at the configured level
/// (the level reads nothing else of the earlier verdicts).
fn unspent(mut earlier: rag_gate::model::looks::Earlier) -> rag_gate::model::looks::Earlier {
    for a in &mut earlier.attempts {
        a.verdict = Verdict::Pass;
    }
    if let Some(s) = earlier.summary.as_mut() {
        let n: u32 = s.verdicts.values().sum();
        s.verdicts = [("pass".to_string(), n)].into_iter().collect();
    }
    earlier
}

/// Each attempt's verdict (pass?), `max` attempts of `set`.
fn verdicts(dir: &std::path::Path, set: &Set, max: usize, mode: Mode, seed: u64) -> Vec<bool> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut history = History {
        ctx: Context {
            commit: Some(format!("{:040x}", 1)),
            run: Some("1/1".into()),
            scope: "o/r#1/prod".into(),
            key: None,
            change: Some(Ok("change".into())),
            standing: None,
        },
        ..Default::default()
    };
    let (mut commit, mut run) = (1u64, 1u64);
    let mut sums = vec![0.0; QUERIES];
    let mut out = Vec::new();
    for k in 1..=max {
        let (_, new_commit) = TRIGGERS[(k - 1) % TRIGGERS.len()];
        if k > 1 {
            run += 1;
            commit += u64::from(new_commit);
        }
        history.ctx.commit = Some(format!("{commit:040x}"));
        history.ctx.run = Some(format!("{run}/1"));
        let cand: Vec<f64> = set
            .effect
            .iter()
            .map(|&e| set.kind.run(e, &mut rng))
            .collect();
        sums.iter_mut().zip(&cand).for_each(|(s, c)| *s += c);
        let judged: Vec<f64> = match mode {
            Mode::Averaged => sums.iter().map(|s| s / k as f64).collect(),
            _ => cand,
        };
        write(&dir.join("candidate.jsonl"), set.kind.metric(), &judged);
        let cfg = rag_gate::config::load(&dir.join("gate.toml")).unwrap();
        let earlier = match mode {
            Mode::Pooled => history.earlier(),
            Mode::Unspent => unspent(history.earlier()),
            _ => Default::default(),
        };
        let a = rag_gate::check::analyze_with(&cfg, &earlier).unwrap();
        out.push(a.report.verdict == Verdict::Pass);
        if matches!(mode, Mode::Pooled | Mode::Unspent) {
            let mut next = history
                .next(&a.report, earlier.attempt.max(1), (&a.own, &a.extra))
                .unwrap();
            let block = state::block_within(&mut next, &history.ctx.scope, None);
            history.state = match state::read(&block, &history.ctx.scope, None) {
                state::Found::Trusted(s) => Some(s),
                other => panic!("the state did not read back: {other:?}"),
            };
        }
    }
    out
}

struct Set {
    kind: Kind,
    /// The candidate's expected value per query.
    effect: Vec<f64>,
}

/// One set's baseline (written) and candidate's expected values.
/// `shift`: the true change as a multiple of the margin, worse (1: at the margin; 0: none;
/// −0.5: better by half of it).
fn make_set(kind: Kind, shift: f64, rng: &mut ChaCha8Rng, dir: &std::path::Path) -> Set {
    let margin = shift * kind.margin();
    if kind == Kind::Mean {
        let base: Vec<f64> = (0..QUERIES)
            .map(|_| 0.3 + 0.4 * rng.random::<f64>())
            .collect();
        write(&dir.join("baseline.jsonl"), kind.metric(), &base);
        let effect: Vec<f64> = base
            .iter()
            .map(|b| b - margin + 0.01 * normal(rng))
            .collect();
        // Centre the per-query effects so the true mean change is exactly the shift.
        let shift =
            effect.iter().zip(&base).map(|(e, b)| e - b).sum::<f64>() / QUERIES as f64 + margin;
        return Set {
            kind,
            effect: effect.iter().map(|e| e - shift).collect(),
        };
    }
    let expected: Vec<f64> = (0..QUERIES)
        .map(|_| match kind {
            Kind::P95 => 40.0 + 60.0 * rng.random::<f64>(),
            _ => 0.3 + 0.4 * rng.random::<f64>(),
        })
        .collect();
    let base: Vec<f64> = expected.iter().map(|&e| kind.run(e, rng)).collect();
    write(&dir.join("baseline.jsonl"), kind.metric(), &base);
    // Worse by the margin: lower for nDCG, higher for a latency.
    let worse = if kind == Kind::P95 { margin } else { -margin };
    Set {
        kind,
        effect: expected.iter().map(|e| e + worse).collect(),
    }
}

fn main() {
    let all: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<u64> = all.iter().filter_map(|a| a.parse().ok()).collect();
    let sets = args.first().copied().unwrap_or(200) as usize;
    let b = args.get(1).copied().unwrap_or(1000);
    let seed = args.get(2).copied().unwrap_or(2026);
    let kind = match all
        .iter()
        .find(|a| a.parse::<u64>().is_err())
        .map(String::as_str)
    {
        None | Some("mean") => Kind::Mean,
        Some("median") => Kind::Median,
        Some("p95") => Kind::P95,
        Some(other) => panic!("unknown statistic {other}: mean, median or p95"),
    };
    let shift = if all.iter().any(|a| a == "zero") {
        0.0
    } else if all.iter().any(|a| a == "gain") {
        -0.5
    } else {
        1.0
    };
    let honest = shift < 1.0;
    let modes: Vec<usize> = if all.iter().any(|a| a == "levels") {
        vec![0, 1]
    } else {
        (0..MODES.len()).collect()
    };
    let (name, m) = (kind.metric(), kind.margin());
    let stat = match kind {
        Kind::Mean => "mean",
        Kind::Median => "median",
        Kind::P95 => "p95",
    };
    let truth = if shift == 0.0 {
        "0: honest".to_string()
    } else if honest {
        format!("better by {}: honest", m / 2.0)
    } else {
        "at the margin".to_string()
    };
    println!(
        "re-runs: {sets} sets, {QUERIES} queries, {b} resamples, data seed {seed}, {stat} max-drop {m} on {name}, true change {truth}"
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("gate.toml"),
        format!(
            "id = \"prod\"\n[inputs]\nbaseline = \"baseline.jsonl\"\ncandidate = \"candidate.jsonl\"\n\
             [bootstrap]\nresamples = {b}\n{}",
            kind.gate()
        ),
    )
    .unwrap();
    let max = *TRIES.iter().max().unwrap();
    // passes[mode][set]: each attempt's verdict.
    let mut passes: [Vec<Vec<bool>>; 4] = Default::default();
    let t = std::time::Instant::now();
    for s in 0..sets {
        let mut rng =
            ChaCha8Rng::seed_from_u64(seed.wrapping_mul(1_000_003).wrapping_add(s as u64));
        let set = make_set(kind, shift, &mut rng, dir.path());
        let attempt_seed: u64 = rng.random();
        for &i in &modes {
            passes[i].push(verdicts(dir.path(), &set, max, MODES[i], attempt_seed));
        }
    }
    let rate = |k: usize| {
        let p = k as f64 / sets as f64;
        let se = (p * (1.0 - p) / sets as f64).sqrt();
        format!("{:.1}% ± {:.1} ({k}/{sets})", 100.0 * p, 100.0 * se)
    };
    let heads: Vec<&str> = modes.iter().map(|&i| HEADS[i]).collect();
    let table = |title: &str, first: &str, count: &dyn Fn(&[bool], usize) -> bool| {
        println!("{title}");
        println!("| {first} | {} |", heads.join(" | "));
        println!("|---|{}", "---|".repeat(heads.len()));
        for tries in TRIES {
            let cells: Vec<String> = modes
                .iter()
                .map(|&i| rate(passes[i].iter().filter(|v| count(v, tries)).count()))
                .collect();
            println!("| {tries} | {} |", cells.join(" | "));
        }
    };
    if honest {
        table(
            "blocked (exit 1) on attempt k of an honest pull request:",
            "attempt",
            &|v, k| !v[k - 1],
        );
        table(
            "still blocked after k tries of an honest pull request (no pass among them):",
            "tries",
            &|v, k| v[..k].iter().all(|&p| !p),
        );
        table(
            "blocked on attempt k of an honest pull request whose first attempt failed, of all sets:",
            "attempt",
            &|v, k| !v[0] && !v[k - 1],
        );
    } else {
        table(
            "false pass at the margin within k tries (stopping at the first pass):",
            "tries",
            &|v, k| v[..k].iter().any(|&p| p),
        );
    }
    eprintln!("{:.0} s", t.elapsed().as_secs_f64());
}
