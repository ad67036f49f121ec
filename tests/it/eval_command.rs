//! `rag-gate eval` through the binary: bad input exits 2 naming file:line and what was expected;
//! the policies (order, ties, duplicates, chunk map, corpus, empty gold, run-only queries,
//! unsorted runs, CRLF/BOM, ann-recall) and `-o` output.

use crate::support;
use support::{Out, TestContext};

use std::path::Path;

use predicates::str::contains;

/// `rag-gate eval` of `run` against `qrels` (files of one folder, named relative to it, as the
/// messages name them), run from that folder.
fn eval(qrels: &Path, run: &Path, metrics: &str, extra: &[&str]) -> assert_cmd::assert::Assert {
    TestContext::new()
        .cwd(qrels.parent().unwrap())
        .command()
        .args(["eval", "--metrics", metrics, "--qrels"])
        .arg(qrels.file_name().unwrap())
        .arg("--run")
        .arg(run.file_name().unwrap())
        .args(extra)
        .assert()
}

fn stdout(a: assert_cmd::assert::Assert) -> String {
    String::from_utf8(a.success().get_output().stdout.clone()).unwrap()
}

const QRELS: &str = "q1 0 D1 1\nq1 0 D2 2\nq1 0 D3 0\nq2 0 D4 1\n";

#[test]
fn bad_input_exits_2_naming_file_line_and_expectation() {
    let f = TestContext::new();
    let q = f.write("q.txt", QRELS);
    let cases: &[(&str, &str, &str)] = &[
        ("r1.txt", "q1 Q0 D1 1 0.5 t\nq1 Q0 D2 2 0.4\n", "r1.txt:2: expected 6 fields `qid Q0 docid rank score tag`, found 5"),
        ("r2.txt", "q1 Q0 D1 1 high t\n", "r2.txt:1: expected a number score in field 5, found \"high\""),
        ("r3.txt", "q1 Q0 D1 one 0.5 t\n", "r3.txt:1: expected an integer rank in field 4"),
        ("r4.txt", "q1 Q0 D1 1 0.5 t\nq1 Q0 D2 2 0.4 t\nq1 Q0 D1 3 0.3 t\n", "r4.txt:3: doc \"D1\" appears twice in the ranking of query \"q1\" (lines 1 and 3)"),
        ("r5.txt", "\n\n", "r5.txt: empty run file"),
        ("r6.jsonl", "{\"query_id\":\"q1\",\"ranked\":[\"D1\",\"D1\"]}\n", "r6.jsonl:1: doc \"D1\" appears twice in the ranking of query \"q1\" (positions 1 and 2)"),
        ("r7.jsonl", "{\"query_id\":\"q1\"}\n", "r7.jsonl:1: expected a \"ranked\" list"),
        ("r8.jsonl", "{\"query_id\":\"q1\",\"ranked\":[]}\n{\"query_id\":\"q1\",\"ranked\":[]}\n", "r8.jsonl:2: query \"q1\" already has a ranking at line 1"),
        ("r9.jsonl", "{\"query_id\":\"q1\",\"ranked\":[\"D1\"]\n", "r9.jsonl:1: invalid JSON"),
        ("r10.txt", "q1 Q0 D1 1 NaN t\n", "r10.txt:1: score is NaN"),
        ("r11.jsonl", "\r\n\n", "r11.jsonl: empty run file"),
    ];
    for (name, content, msg) in cases {
        let r = f.write(name, content);
        eval(&q, &r, "ndcg@10", &[]).code(2).stderr(contains(*msg));
    }
    let r = f.write("ok.txt", "q1 Q0 D1 1 0.5 t\n");
    for (content, msg) in [
        (
            "q1 0 D1\n",
            "bad.txt:1: expected 4 fields `qid 0 docid rel`, found 3",
        ),
        (
            "q1 0 D1 yes\n",
            "bad.txt:1: expected an integer rel in field 4, found \"yes\"",
        ),
        (
            "q1 0 D1 1\nq1 0 D1 2\n",
            "bad.txt:2: query \"q1\" doc \"D1\" judged again with rel 2",
        ),
        ("", "bad.txt: empty qrels file"),
        ("\n \n", "bad.txt: empty qrels file"),
    ] {
        let bad = f.write("bad.txt", content);
        eval(&bad, &r, "ndcg@10", &[]).code(2).stderr(contains(msg));
    }
    eval(&q, &r, "ndcg", &["--rel-level", "0"]).code(2);
    eval(&q, &r, "bleu@4", &[])
        .code(2)
        .stderr(contains("unknown metric \"bleu@4\""));
    eval(&q, &r, "ann-recall@10", &[])
        .code(2)
        .stderr(contains("needs --exact-run"));
    eval(&q, &f.path().join("nope.txt"), "map", &[])
        .code(2)
        .stderr(contains("nope.txt: opening"));
}

#[test]
fn ties_break_by_docid_descending_and_order_flag_overrides() {
    let f = TestContext::new();
    let q = f.write("q.txt", "q1 0 A 1\n");
    // Equal scores: trec_eval puts B before A (docid descending), ignoring rank and line order.
    let r = f.write("r.txt", "q1 Q0 A 1 0.5 t\nq1 Q0 B 2 0.5 t\n");
    assert_eq!(
        stdout(eval(&q, &r, "mrr", &[])),
        "{\"query_id\":\"q1\",\"mrr\":0.5}\n"
    );
    assert_eq!(
        stdout(eval(&q, &r, "mrr", &["--order", "rank"])),
        "{\"query_id\":\"q1\",\"mrr\":1.0}\n"
    );
    assert_eq!(
        stdout(eval(&q, &r, "mrr", &["--order", "given"])),
        "{\"query_id\":\"q1\",\"mrr\":1.0}\n"
    );
    let j = f.write("r.jsonl", "{\"query_id\":\"q1\",\"ranked\":[{\"doc_id\":\"A\",\"score\":0.1},{\"doc_id\":\"B\",\"score\":0.9}]}\n");
    assert_eq!(
        stdout(eval(&q, &j, "mrr", &[])),
        "{\"query_id\":\"q1\",\"mrr\":1.0}\n"
    );
    assert_eq!(
        stdout(eval(&q, &j, "mrr", &["--order", "score"])),
        "{\"query_id\":\"q1\",\"mrr\":0.5}\n"
    );
    let plain = f.write("p.jsonl", "{\"query_id\":\"q1\",\"ranked\":[\"A\"]}\n");
    eval(&q, &plain, "mrr", &["--order", "score"])
        .code(2)
        .stderr(contains("--order score needs scores"));
}

#[test]
fn unsorted_run_equals_grouped_run() {
    let f = TestContext::new();
    let q = f.write("q.txt", QRELS);
    let grouped = f.write(
        "g.txt",
        "q1 Q0 D3 1 0.9 t\nq1 Q0 D1 2 0.8 t\nq2 Q0 D4 1 0.7 t\nq2 Q0 D9 2 0.6 t\n",
    );
    let mixed = f.write(
        "m.txt",
        "q2 Q0 D9 2 0.6 t\nq1 Q0 D1 2 0.8 t\nq2 Q0 D4 1 0.7 t\nq1 Q0 D3 1 0.9 t\n",
    );
    let a = stdout(eval(&q, &grouped, "ndcg@5,map,recall@1", &[]));
    assert_eq!(a, stdout(eval(&q, &mixed, "ndcg@5,map,recall@1", &[])));
    assert!(a.contains("\"query_id\":\"q2\",\"ndcg@5\":1.0"), "{a}");
    // Duplicates are still found when a query's lines are split across the file.
    let dup = f.write(
        "d.txt",
        "q1 Q0 D1 1 0.9 t\nq2 Q0 D4 1 0.7 t\nq1 Q0 D1 2 0.8 t\n",
    );
    eval(&q, &dup, "map", &[])
        .code(2)
        .stderr(contains("d.txt:3: doc \"D1\" appears twice"));
}

#[test]
fn crlf_and_bom_are_tolerated() {
    let f = TestContext::new();
    let q = f.write("q.txt", "\u{feff}q1 0 D1 1\r\nq1 0 D2 1\r\n");
    let r = f.write("r.txt", "\u{feff}q1 Q0 D1 1 2 t\r\nq1 Q0 D5 2 1 t\r\n");
    assert_eq!(
        stdout(eval(&q, &r, "recall@2", &[])),
        "{\"query_id\":\"q1\",\"recall@2\":0.5}\n"
    );
}

#[test]
fn empty_gold_policies_and_run_only_count() {
    let f = TestContext::new();
    let q = f.write("q.txt", "q1 0 D1 1\nq2 0 D2 0\n");
    let r = f.write("r.txt", "q1 Q0 D1 1 2 t\nq2 Q0 D2 1 2 t\nq9 Q0 D2 1 2 t\n");
    let s: serde_json::Value = serde_json::from_str(&stdout(eval(
        &q,
        &r,
        "p@1",
        &["--summary", "--empty-gold", "exclude"],
    )))
    .unwrap();
    assert_eq!(
        (s["evaluated"].as_u64(), s["run_only_ignored"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(s["means"]["p@1"], 1.0);
    // The default is trec_eval's: q2 (no relevant doc) kept with 0 and listed.
    let s: serde_json::Value =
        serde_json::from_str(&stdout(eval(&q, &r, "p@1", &["--format", "json"]))).unwrap();
    assert_eq!(
        (s["evaluated"].as_u64(), s["means"]["p@1"].as_f64()),
        (Some(2), Some(0.5))
    );
    assert_eq!(s["policies"]["empty_gold"], "zero");
    assert_eq!(s["no_relevant"], serde_json::json!(["q2"]));
    eval(&q, &r, "p@1", &["--empty-gold", "error"])
        .code(2)
        .stderr(contains(
            "q.txt:2: query \"q2\" has no relevant doc (rel >= 1)",
        ));
}

#[test]
fn chunk_map_dedupes_before_cutoff_and_corpus_is_enforced() {
    let f = TestContext::new();
    let q = f.write("q.txt", "q1 0 D1 1\nq1 0 D2 1\n");
    let cm = f.write("chunks.tsv", "c1\tD1\nc2\tD1\nc3\tD2\n");
    let r = f.write("r.txt", "q1 Q0 c1 1 3 t\nq1 Q0 c2 2 2 t\nq1 Q0 c3 3 1 t\n");
    let out = stdout(eval(&q, &r, "recall@2", &["--chunk-map", "chunks.tsv"]));
    assert_eq!(
        out, "{\"query_id\":\"q1\",\"recall@2\":1.0}\n",
        "c2 folds into D1, so D2 is rank 2"
    );
    assert_eq!(
        stdout(eval(
            &q,
            &r,
            "recall@2",
            &["--chunk-map", cm.to_str().unwrap(), "--order", "given"]
        )),
        out
    );
    let r2 = f.write("r2.txt", "q1 Q0 c1 1 3 t\nq1 Q0 c7 2 2 t\n");
    eval(&q, &r2, "map", &["--chunk-map", "chunks.tsv"])
        .code(2)
        .stderr(contains(
            "r2.txt:2: chunk id \"c7\" is not in the chunk map",
        ));
    f.write("corpus.txt", "D1\nD2\n");
    let r3 = f.write("r3.txt", "q1 Q0 D1 1 3 t\nq1 Q0 D8 2 2 t\n");
    eval(&q, &r3, "map", &["--corpus", "corpus.txt"])
        .code(2)
        .stderr(contains(
            "r3.txt:2: doc id \"D8\" is not in the corpus corpus.txt",
        ));
}

#[test]
fn output_file_is_written_and_summary_goes_to_stdout() {
    let f = TestContext::new();
    let q = f.write("q.txt", QRELS);
    let r = f.write("r.txt", "q1 Q0 D2 1 2 t\nq1 Q0 D1 2 1 t\n");
    let a = eval(
        &q,
        &r,
        "ndcg@10,recall@5",
        &["-o", "rows.csv", "--format", "csv", "--summary"],
    );
    let s: serde_json::Value = serde_json::from_str(&stdout(a)).unwrap();
    assert_eq!(s["missing_from_run"], serde_json::json!(["q2"]));
    assert_eq!(s["pooled"]["recall@5"], 2.0 / 3.0);
    let rows = f.read("rows.csv");
    assert_eq!(rows, "query_id,ndcg@10,recall@5\nq1,1,1\nq2,0,0\n");
}

#[test]
fn ann_recall_against_exact_run() {
    let f = TestContext::new();
    let exact = f.write(
        "exact.txt",
        "q1 Q0 A 1 9 t\nq1 Q0 B 2 8 t\nq1 Q0 C 3 7 t\nq2 Q0 A 1 9 t\n",
    );
    let ann = f.write(
        "ann.txt",
        "q1 Q0 A 1 9 t\nq1 Q0 C 2 8 t\nq1 Q0 X 3 7 t\nq3 Q0 A 1 1 t\n",
    );
    let s = Out::of(f.command().args([
        "eval",
        "--metrics",
        "ann-recall@2,ann-recall@3",
        "--run",
        "ann.txt",
        "--exact-run",
        "exact.txt",
        "--summary",
        "-o",
        "ann.jsonl",
    ]))
    .expect(0)
    .json();
    assert_eq!(s["run_only_ignored"], 1);
    assert_eq!(s["missing_from_run"], serde_json::json!(["q2"]));
    let rows = f.read("ann.jsonl");
    assert_eq!(rows, "{\"query_id\":\"q1\",\"ann-recall@2\":0.5,\"ann-recall@3\":0.6666666666666666}\n{\"query_id\":\"q2\",\"ann-recall@2\":0.0,\"ann-recall@3\":0.0}\n");
    let _ = (exact, ann);
}

/// With -l 2 a query judged only rel 1 has R = 0: trec_eval keeps it (binary measures 0, nDCG
/// from the raw grades); our default excludes it and lists it.
#[test]
fn rel_level_above_every_grade_follows_empty_gold_policy() {
    let f = TestContext::new();
    let q = f.write("q.txt", "q1 0 D1 1\n");
    let r = f.write("r.txt", "q1 Q0 D1 1 2 t\n");
    let zero = stdout(eval(
        &q,
        &r,
        "ndcg@5,recall@5",
        &["--rel-level", "2", "--empty-gold", "zero"],
    ));
    assert_eq!(
        zero,
        "{\"query_id\":\"q1\",\"ndcg@5\":1.0,\"recall@5\":0.0}\n"
    );
    // nDCG scores by grades whatever the level (trec_eval -l leaves it alone): q1's grade 1 is
    // gold for nDCG, so q1 is kept (listed as graded_only), not excluded.
    let s: serde_json::Value = serde_json::from_str(&stdout(eval(
        &q,
        &r,
        "ndcg@5",
        &["--rel-level", "2", "--summary", "--empty-gold", "exclude"],
    )))
    .unwrap();
    assert_eq!(s["excluded"], serde_json::json!([]));
    assert_eq!(s["graded_only"], serde_json::json!(["q1"]));
    assert_eq!(s["means"]["ndcg@5"], 1.0);
    assert_eq!(s["policies"]["rel_level"], 2);
    // A binary metric alone: q1 has no doc at rel >= 2, empty gold for every asked metric.
    let s: serde_json::Value = serde_json::from_str(&stdout(eval(
        &q,
        &r,
        "recall@5",
        &["--rel-level", "2", "--summary", "--empty-gold", "exclude"],
    )))
    .unwrap();
    assert_eq!(s["excluded"], serde_json::json!(["q1"]));
    assert_eq!(s["means"]["recall@5"], serde_json::Value::Null);
}

/// A cutoff deeper than the run ranks counts only the ranked documents (trec_eval's values),
/// with a note saying what it reads like; judged@k is not named.
#[test]
fn a_cutoff_deeper_than_the_run_is_noted() {
    let f = TestContext::new();
    let q = f.write("q.txt", QRELS);
    let r = f.write("r.txt", "q1 Q0 D1 1 2 t\nq1 Q0 D9 2 1 t\nq2 Q0 D4 1 2 t\n");
    let out = eval(&q, &r, "recall@1000,recall@2,judged@1000", &[]).success();
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        err.contains(
            "note: r.txt ranks at most 2 documents a query, fewer than recall@1000 cuts at"
        ),
        "{err}"
    );
    assert!(
        err.contains("so here it reads like a cutoff of 2; rank 1000 documents a query"),
        "{err}"
    );
    assert!(!err.contains("judged@1000 cut"), "{err}");
    let out = eval(&q, &r, "recall@2", &[]).success();
    assert!(!String::from_utf8_lossy(&out.get_output().stderr).contains("ranks at most"));
}
