//! A critical slice too small to judge fails the build by default, saying why and what would be
//! needed; `on-small-slice = "warn"` keeps the warning. A slice's size comes from the trusted
//! side (the baseline and the queries file): a candidate that leaves queries out under
//! `missing = "intersect"` cannot shrink a critical slice below `min-queries` to escape it.

use std::path::Path;

use crate::support;
use support::cli::{assert_contains, rag_gate, run_in, write, Out};

/// 60 queries, 8 of them in `risk=legal` (so below the default `min-queries` 30 when small),
/// or `legal` of them; the candidate is a little worse on average (−0.001, give or take 0.001).
fn files(dir: &Path, legal: usize, dropped_from_candidate: usize) {
    let mut b = String::new();
    let mut c = String::new();
    let mut q = String::new();
    for i in 0..60 {
        let v = 0.3 + (i % 7) as f64 / 20.0;
        b.push_str(&format!("{{\"query_id\": \"q{i}\", \"ndcg@10\": {v}}}\n"));
        let risk = if i < legal { "legal" } else { "standard" };
        q.push_str(&format!(
            "{{\"query_id\": \"q{i}\", \"slices\": {{\"risk\": \"{risk}\"}}}}\n"
        ));
        if i >= dropped_from_candidate {
            c.push_str(&format!(
                "{{\"query_id\": \"q{i}\", \"ndcg@10\": {}}}\n",
                v - 0.001 + 0.0005 * ((i * 3 % 5) as f64 - 2.0)
            ));
        }
    }
    write(dir, "b.jsonl", b);
    write(dir, "c.jsonl", c);
    write(dir, "q.jsonl", q);
}

fn check(dir: &Path, extra: &str) -> Out {
    let gate = format!(
        "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\nqueries = \"q.jsonl\"\n{extra}\n\
         [bootstrap]\nresamples = 200\n[slices]\ncritical = [\"risk=legal\"]\nmin-moved = 1\n\
         [[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.05\nslices = \"critical\"\n"
    );
    write(dir, "gate.toml", gate);
    run_in(rag_gate().args(["check", "gate.toml"]), dir)
}

#[test]
fn a_too_small_critical_slice_fails_by_default_and_says_what_is_needed() {
    let dir = tempfile::tempdir().unwrap();
    files(dir.path(), 8, 0);
    let o = check(dir.path(), "");
    assert_eq!(o.code, Some(1), "{}\n{}", o.stdout, o.stderr);
    assert_contains(&o.stdout, "FAIL");
    assert_contains(&o.stdout, "8 queries < min-queries 30");
    assert_contains(
        &o.stdout,
        "give the slice enough queries, or set on-small-slice = \"warn\"",
    );
}

#[test]
fn on_small_slice_warn_keeps_the_warning() {
    let dir = tempfile::tempdir().unwrap();
    files(dir.path(), 8, 0);
    let o = {
        let gate = "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\nqueries = \"q.jsonl\"\n\
             [bootstrap]\nresamples = 200\n[slices]\ncritical = [\"risk=legal\"]\nmin-moved = 1\n\
             on-small-slice = \"warn\"\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.05\nslices = \"critical\"\n";
        write(dir.path(), "gate.toml", gate);
        run_in(rag_gate().args(["check", "gate.toml"]), dir.path())
    };
    assert_eq!(o.code, Some(0), "{}\n{}", o.stdout, o.stderr);
    assert_contains(
        &o.stdout,
        "a warning (on-small-slice = \"warn\"), not a pass",
    );
}

#[test]
fn a_fork_cannot_shrink_a_critical_slice_out_of_judgement() {
    // 30 legal queries in the baseline and the queries file (= min-queries: judged); the
    // candidate leaves 5 of them out under missing = "intersect", so 25 would be paired.
    let dir = tempfile::tempdir().unwrap();
    files(dir.path(), 30, 0);
    let whole = check(dir.path(), "missing = \"intersect\"");
    assert_eq!(whole.code, Some(0), "{}\n{}", whole.stdout, whole.stderr);
    files(dir.path(), 30, 5);
    let gate = "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\nqueries = \"q.jsonl\"\n\
                missing = \"intersect\"\n[bootstrap]\nresamples = 200\n[slices]\n\
                critical = [\"risk=legal\"]\nmin-moved = 1\non-small-slice = \"warn\"\n\
                [[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.05\nslices = \"critical\"\n";
    write(dir.path(), "gate.toml", gate);
    let o = run_in(rag_gate().args(["check", "gate.toml"]), dir.path());
    // Even with on-small-slice = "warn" the shrunk slice fails the build.
    assert_eq!(o.code, Some(1), "{}\n{}", o.stdout, o.stderr);
    assert_contains(
        &o.stdout,
        "the baseline and queries file give the slice 30 queries (≥ min-queries 30) but the candidate lacks 5 of them",
    );
}
