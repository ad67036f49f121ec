//! Ids that never meet: qrels, runs, metric files and queries files that name the same queries
//! spelled two ways (`0001` and `1`) or not at all are input errors (exit 2) naming ids of each
//! side, never a comparison of zeros that passes. Real data: the TREC-COVID round-2 qrels and two
//! of its runs, with the qrels' ids padded as a user's export might.

use std::path::{Path, PathBuf};

use crate::support;
use support::output::assert_input_error;
use support::{Out, TestContext};

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/eval/fixtures/trec-covid-r2"
);

/// The TREC-COVID round-2 qrels with every id below `below` zero-padded to `width` digits.
fn padded_qrels(ctx: &TestContext, width: usize, below: u32) -> PathBuf {
    let text = std::fs::read_to_string(format!("{DATA}/qrels.covid-round2.txt")).unwrap();
    let mut out = String::new();
    for line in text.lines() {
        let (qid, rest) = line.split_once(' ').unwrap();
        let n: u32 = qid.parse().unwrap();
        match n < below {
            true => out.push_str(&format!("{n:0width$} {rest}\n")),
            false => out.push_str(&format!("{qid} {rest}\n")),
        }
    }
    ctx.write("qrels.txt", out)
}

fn eval(ctx: &TestContext, qrels: &Path) -> Out {
    Out::of(
        ctx.command()
            .arg("eval")
            .arg("--qrels")
            .arg(qrels)
            .args(["--run", &format!("{DATA}/run.covidex-sim.txt")])
            .args(["--metrics", "ndcg@10", "--format", "json"]),
    )
}

#[test]
fn eval_refuses_qrels_whose_ids_are_all_padded() {
    let ctx = TestContext::new();
    let qrels = padded_qrels(&ctx, 4, 1000);
    let o = eval(&ctx, &qrels);
    assert_input_error(
        &o,
        &[
            "run.covidex-sim.txt",
            "no query id of the run is in the qrels",
            "35 queries in the run",
            "\"0001\"",
            "35 ids are written two ways",
            "\"0001\" in",
            "is \"1\" in",
        ],
    );
}

#[test]
fn eval_refuses_a_partial_overlap_that_is_the_same_ids_spelled_another_way() {
    // Ids 1–9 padded to two digits: 26 of 35 queries meet, the other 9 would score 0.
    let ctx = TestContext::new();
    let qrels = padded_qrels(&ctx, 2, 10);
    let o = eval(&ctx, &qrels);
    assert_input_error(
        &o,
        &[
            "9 queries of the qrels",
            "have no ranking here",
            "9 ids are written two ways",
            "\"01\" in",
            "is \"1\" in",
        ],
    );
    // The same qrels unpadded evaluate every query: the refusal is about the spelling.
    let clean = eval(&ctx, Path::new(&format!("{DATA}/qrels.covid-round2.txt")));
    assert_eq!(clean.code, Some(0), "{}", clean.stderr);
    assert!(
        clean.stdout.contains("\"evaluated\": 35"),
        "{}",
        clean.stdout
    );
}

#[test]
fn check_on_runs_refuses_padded_qrels_instead_of_passing_on_zeros() {
    let ctx = TestContext::new();
    let qrels = padded_qrels(&ctx, 4, 1000);
    let gate = format!(
        "[inputs]\nqrels = \"{}\"\nbaseline = {{ run = \"{DATA}/run.covidex-sim.txt\" }}\n\
         candidate = {{ run = \"{DATA}/run.covidex-t5.txt\" }}\n[bootstrap]\nresamples = 200\n\
         [[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n",
        qrels.display()
    );
    ctx.write("gate.toml", gate);
    let o = ctx.run(&["check", "gate.toml"]);
    assert_input_error(
        &o,
        &["no query id of the run is in the qrels", "\"0001\" in"],
    );
}

/// Two per-query metric files: `b` ids in the baseline, `c` ids in the candidate.
fn metric_files(ctx: &TestContext, b: &[&str], c: &[&str]) {
    let rows = |ids: &[&str], v: f64| -> String {
        ids.iter()
            .enumerate()
            .map(|(i, q)| {
                format!(
                    "{{\"query_id\": \"{q}\", \"ndcg@10\": {}}}\n",
                    v + i as f64 / 100.0
                )
            })
            .collect()
    };
    ctx.write("b.jsonl", rows(b, 0.3));
    ctx.write("c.jsonl", rows(c, 0.31));
}

fn check_files(ctx: &TestContext, missing: &str, queries: bool) -> Out {
    let q = if queries {
        "queries = \"q.jsonl\"\n"
    } else {
        ""
    };
    let gate = format!(
        "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n{q}missing = \"{missing}\"\n\
         [bootstrap]\nresamples = 200\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.05\n"
    );
    ctx.write("gate.toml", gate);
    ctx.run(&["check", "gate.toml"])
}

fn ids(prefix: &str, width: usize, n: usize) -> Vec<String> {
    (1..=n).map(|i| format!("{prefix}{i:0width$}")).collect()
}

#[test]
fn metric_files_that_never_meet_are_refused_in_both_missing_modes() {
    let ctx = TestContext::new();
    let (b, c) = (ids("q", 3, 40), ids("Q", 1, 40));
    let b: Vec<&str> = b.iter().map(String::as_str).collect();
    let c: Vec<&str> = c.iter().map(String::as_str).collect();
    metric_files(&ctx, &b, &c);
    for missing in ["error", "intersect"] {
        let o = check_files(&ctx, missing, false);
        assert_input_error(
            &o,
            &[
                "c.jsonl",
                "40 ids are written two ways",
                "\"q001\" in b.jsonl is \"Q1\" in c.jsonl",
            ],
        );
    }
    // Ids with nothing in common even after normalising: no overlap, ids of each side named.
    let other = ids("x", 1, 40);
    let other: Vec<&str> = other.iter().map(String::as_str).collect();
    metric_files(&ctx, &b, &other);
    let o = check_files(&ctx, "intersect", false);
    assert_input_error(
        &o,
        &[
            "c.jsonl",
            "no query id in common with b.jsonl",
            "\"x1\"",
            "\"q001\"",
        ],
    );
}

#[test]
fn a_partial_respelling_is_refused_even_under_intersect() {
    // 35 ids meet, 5 differ only by a trailing space: intersecting would drop them silently.
    let ctx = TestContext::new();
    let b = ids("q", 2, 40);
    let mut c = b.clone();
    for id in c.iter_mut().take(5) {
        id.push(' ');
    }
    let b: Vec<&str> = b.iter().map(String::as_str).collect();
    let c: Vec<&str> = c.iter().map(String::as_str).collect();
    metric_files(&ctx, &b, &c);
    let o = check_files(&ctx, "intersect", false);
    assert_input_error(
        &o,
        &[
            "c.jsonl",
            "5 ids are written two ways",
            "\"q01\" in b.jsonl",
        ],
    );
}

#[test]
fn a_queries_file_with_padded_ids_is_refused_naming_the_pair() {
    let ctx = TestContext::new();
    let b = ids("", 1, 40);
    let b: Vec<&str> = b.iter().map(String::as_str).collect();
    metric_files(&ctx, &b, &b);
    let q: String = ids("", 4, 40)
        .iter()
        .map(|id| format!("{{\"query_id\": \"{id}\", \"slices\": {{\"risk\": \"high\"}}}}\n"))
        .collect();
    ctx.write("q.jsonl", q);
    for missing in ["error", "intersect"] {
        let o = check_files(&ctx, missing, true);
        assert_input_error(
            &o,
            &[
                "q.jsonl",
                "40 rows match no query",
                "\"0001\" in q.jsonl is \"1\" in b.jsonl",
            ],
        );
    }
}
