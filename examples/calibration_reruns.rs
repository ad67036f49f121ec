//! Re-running until it passes: the false-pass rate of a noisy retriever at the `max-drop`
//! margin when its author re-triggers the check up to 1, 3 or 10 times (re-runs, empty
//! commits, amends and rebases, in turn) and stops at the first pass.
//!
//!     nice -n 10 cargo run --release --example calibration_reruns [-- SETS RESAMPLES DATA_SEED]
//!
//! Each set is one pull request: a baseline of 200 queries (uniform in [0.3, 0.7]), and a
//! candidate system whose true mean change is exactly −0.02 (the `max-drop = 0.02` margin): a
//! fixed per-query effect N(0, 0.01²) around −0.02, and on every attempt fresh run-to-run noise
//! N(0, 0.1²) per query (a noisy retriever: the run-to-run noise dominates, so one attempt passes
//! about 2.5% of the time). Each attempt goes through what `check --comment`
//! does: the sticky comment's state read (`publish::history`), the earlier attempts pooled
//! (`check::analyze_with`), the next state written within its budget and read back. Compared:
//! - pooled: attempts keyed by the pull request's change (what rag-gate does: every trigger is
//!   an attempt of one candidate);
//! - fresh: each attempt judged alone (what keying by head commit gave an empty commit, an amend
//!   or a rebase).
//!
//! Figures carry their Monte-Carlo standard error (binomial, over the sets).

use rag_gate::model::Verdict;
use rag_gate::publish::history::{Context, History};
use rag_gate::publish::state;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const QUERIES: usize = 200;
const MARGIN: f64 = 0.02;
const TRIES: [usize; 3] = [1, 3, 10];

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let (u, v): (f64, f64) = (rng.random::<f64>().max(1e-300), rng.random());
    (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
}

fn write(path: &std::path::Path, values: &[f64]) {
    let text: String = values
        .iter()
        .enumerate()
        .map(|(i, v)| format!("{{\"query_id\":\"q{i:03}\",\"ndcg@10\":{v}}}\n"))
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

/// The first attempt (1-based) that passes, within `max` tries; None if none does.
fn first_pass(
    dir: &std::path::Path,
    set: &Set,
    max: usize,
    pooled: bool,
    seed: u64,
) -> Option<usize> {
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
            .map(|e| (e + 0.1 * normal(&mut rng)).clamp(0.0, 1.0))
            .collect();
        write(&dir.join("candidate.jsonl"), &cand);
        let cfg = rag_gate::config::load(&dir.join("gate.toml")).unwrap();
        let earlier = match pooled {
            true => history.earlier(),
            false => Default::default(),
        };
        let a = rag_gate::check::analyze_with(&cfg, &earlier).unwrap();
        if a.report.verdict == Verdict::Pass {
            return Some(k);
        }
        if pooled {
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
    None
}

struct Set {
    /// The candidate's expected value per query (baseline + per-query effect − margin).
    effect: Vec<f64>,
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sets = args.first().copied().unwrap_or(200) as usize;
    let b = args.get(1).copied().unwrap_or(1000);
    let seed = args.get(2).copied().unwrap_or(2026);
    println!(
        "re-runs until a pass: {sets} sets, {QUERIES} queries, {b} resamples, data seed {seed}, max-drop {MARGIN} at its margin (true change −{MARGIN})"
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("gate.toml"),
        format!(
            "id = \"prod\"\n[inputs]\nbaseline = \"baseline.jsonl\"\ncandidate = \"candidate.jsonl\"\n\
             [bootstrap]\nresamples = {b}\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = {MARGIN}\n"
        ),
    )
    .unwrap();
    let max = *TRIES.iter().max().unwrap();
    // firsts[mode][set]: the first passing attempt, if any within `max`.
    let mut firsts: [Vec<Option<usize>>; 2] = [Vec::new(), Vec::new()];
    let t = std::time::Instant::now();
    for s in 0..sets {
        let mut rng =
            ChaCha8Rng::seed_from_u64(seed.wrapping_mul(1_000_003).wrapping_add(s as u64));
        let base: Vec<f64> = (0..QUERIES)
            .map(|_| 0.3 + 0.4 * rng.random::<f64>())
            .collect();
        write(&dir.path().join("baseline.jsonl"), &base);
        let effect: Vec<f64> = base
            .iter()
            .map(|b| b - MARGIN + 0.01 * normal(&mut rng))
            .collect();
        // Centre the per-query effects so the true mean change is exactly the margin.
        let shift =
            effect.iter().zip(&base).map(|(e, b)| e - b).sum::<f64>() / QUERIES as f64 + MARGIN;
        let set = Set {
            effect: effect.iter().map(|e| e - shift).collect(),
        };
        for (m, pooled) in [(0, true), (1, false)] {
            firsts[m].push(first_pass(dir.path(), &set, max, pooled, rng.random()));
        }
    }
    println!("| tries | pooled (keyed by the change) | fresh (each attempt alone) |");
    println!("|---|---|---|");
    for tries in TRIES {
        let rate = |m: usize| {
            let k = firsts[m]
                .iter()
                .filter(|f| f.is_some_and(|f| f <= tries))
                .count();
            let p = k as f64 / sets as f64;
            let se = (p * (1.0 - p) / sets as f64).sqrt();
            format!("{:.1}% ± {:.1} ({k}/{sets})", 100.0 * p, 100.0 * se)
        };
        println!("| {tries} | {} | {} |", rate(0), rate(1));
    }
    eprintln!("{:.0} s", t.elapsed().as_secs_f64());
}
