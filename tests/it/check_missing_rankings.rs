//! Queries one side's run has no ranking for, and queries no qrels judge. A judged query the
//! candidate's run lacks (a crashed or truncated retriever) scores 0 and is named in a warning
//! and counted in the header; a query the runs rank but the qrels do not judge is unjudged:
//! ignored and counted in a note, never an error, even when a queries file lists it.

use crate::support;
use support::output::{assert_contains, assert_input_error};
use support::{GateFile, TestContext};

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/eval/fixtures/trec-covid-r2"
);

/// `run` with the queries in `drop` left out and the rankings of query 1 repeated as `extra`.
fn edited_run(ctx: &TestContext, run: &str, name: &str, drop: &[&str], extra: Option<&str>) {
    let text = std::fs::read_to_string(format!("{DATA}/{run}")).unwrap();
    let mut out = String::new();
    for line in text.lines() {
        let qid = line.split_whitespace().next().unwrap();
        if !drop.contains(&qid) {
            out.push_str(line);
            out.push('\n');
        }
        if let (Some(e), "1") = (extra, qid) {
            out.push_str(&line.replacen('1', e, 1));
            out.push('\n');
        }
    }
    ctx.write(name, out);
}

/// b.txt vs c.txt on the qrels (with q.jsonl when `queries`), ndcg@10 gated on a 0.1 drop.
fn edited_runs(queries: bool) -> GateFile {
    let gate = GateFile::default()
        .path("qrels", format!("{DATA}/qrels.covid-round2.txt"))
        .input("baseline", "{ run = \"b.txt\" }")
        .input("candidate", "{ run = \"c.txt\" }");
    let gate = if queries {
        gate.queries("q.jsonl")
    } else {
        gate
    };
    gate.resamples(200)
        .table("judged", "on-unreliable = \"warn\"")
        .gate("ndcg@10", "max-drop = 0.1")
}

#[test]
fn a_candidate_missing_judged_queries_names_them_and_counts_them_in_the_header() {
    let ctx = TestContext::new();
    edited_run(&ctx, "run.covidex-sim.txt", "b.txt", &[], None);
    edited_run(&ctx, "run.covidex-t5.txt", "c.txt", &["2", "3", "4"], None);
    ctx.gate(edited_runs(false));
    let text = ctx.check(&["--format", "text"]);
    assert!(matches!(text.code, Some(0 | 1)), "{}", text.stderr);
    assert_contains(
        &text.stdout,
        "35 queries paired (3 without a candidate ranking, scored 0)",
    );
    assert_contains(
        &text.stdout,
        "the candidate run c.txt has no ranking for 3 judged queries of the qrels (each scored 0): \"2\", \"3\", \"4\"",
    );
    ctx.gate(edited_runs(false));
    let json = ctx.check(&["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["pairing"]["candidate_unranked"], 3);
    assert!(v["pairing"].get("baseline_unranked").is_none());
}

#[test]
fn unjudged_queries_in_the_queries_file_are_ignored_and_counted_not_blamed_on_the_user() {
    let ctx = TestContext::new();
    // Both runs rank a query 900 that the qrels do not judge; the queries file lists it.
    edited_run(&ctx, "run.covidex-sim.txt", "b.txt", &[], Some("900"));
    edited_run(&ctx, "run.covidex-t5.txt", "c.txt", &[], Some("900"));
    let mut q: String = (1..=35)
        .map(|i| format!("{{\"query_id\": \"{i}\", \"slices\": {{\"round\": \"2\"}}}}\n"))
        .collect();
    q.push_str("{\"query_id\": \"900\", \"slices\": {\"round\": \"3\"}}\n");
    ctx.write("q.jsonl", &q);
    ctx.gate(edited_runs(true));
    let o = ctx.check(&["--format", "json"]);
    assert!(matches!(o.code, Some(0 | 1)), "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    let notes = v["notes"].to_string();
    assert_contains(
        &notes,
        "q.jsonl: 1 row of queries in the run but not in the qrels (unjudged) ignored: \\\"900\\\" (line 36)",
    );
    assert_eq!(v["pairing"]["paired"], 35);
    // A row naming a query no file has is still the user's mistake.
    q.push_str("{\"query_id\": \"35 \", \"slices\": {\"round\": \"2\"}}\n");
    ctx.write("q.jsonl", &q);
    ctx.gate(edited_runs(true));
    let o = ctx.check(&["--format", "json"]);
    assert_input_error(&o, &["q.jsonl", "1 row match no query", "\"35 \""]);
}
