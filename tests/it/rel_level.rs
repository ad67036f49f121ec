//! `--rel-level N` and queries whose gold is only graded below N: nDCG scores by grades (trec_eval
//! `-l` does not change nDCG), so such a query keeps its nDCG, with the binary metrics at 0 as
//! trec_eval `-l N` gives them; without nDCG it is empty gold and excluded as before.

use std::path::Path;

use crate::support;
use support::cli::{exit, rag_gate, write};

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/eval/fixtures/trec-covid-r2"
);

/// The TREC-COVID round-2 qrels with query 1's grade-2 judgments lowered to 1: query 1 then has
/// no doc at rel ≥ 2, and graded gold.
fn lowered_qrels(dir: &Path) -> std::path::PathBuf {
    let text = std::fs::read_to_string(format!("{DATA}/qrels.covid-round2.txt")).unwrap();
    let lowered: String = text
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            match f.as_slice() {
                ["1", z, d, "2"] => format!("1 {z} {d} 1\n"),
                _ => format!("{l}\n"),
            }
        })
        .collect();
    assert_ne!(lowered, text);
    write(dir, "qrels.txt", lowered)
}

/// `eval` of the `sim` run on `qrels`: (stdout rows by query id, stderr).
fn eval(
    qrels: &Path,
    level: &str,
    metrics: &str,
) -> (serde_json::Map<String, serde_json::Value>, String) {
    let out = exit(
        rag_gate()
            .arg("eval")
            .arg("--qrels")
            .arg(qrels)
            .args(["--run", &format!("{DATA}/run.covidex-sim.txt")])
            .args(["--rel-level", level, "--metrics", metrics]),
        0,
    );
    let rows = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (v["query_id"].as_str().unwrap().to_string(), v)
        })
        .collect();
    (rows, String::from_utf8(out.stderr).unwrap())
}

#[test]
fn a_query_judged_only_below_the_level_keeps_its_ndcg() {
    let dir = tempfile::tempdir().unwrap();
    let qrels = lowered_qrels(dir.path());
    let (l1, _) = eval(&qrels, "1", "ndcg@10,recall@100");
    let (l2, err) = eval(&qrels, "2", "ndcg@10,recall@100");
    // Kept: trec_eval -l 2 gives nDCG by grades (the -l 1 value, checked against trec_eval by
    // eval_fixtures) and recall 0 (R = 0 at rel ≥ 2).
    assert_eq!(l2.len(), 35, "{err}");
    let q1 = &l2["1"];
    assert_eq!(q1["ndcg@10"], l1["1"]["ndcg@10"]);
    assert!(q1["ndcg@10"].as_f64().unwrap() > 0.0, "{q1}");
    assert_eq!(q1["recall@100"].as_f64(), Some(0.0));
    assert!(
        err.contains("note: 1 query with no doc at rel >= 2 but graded judgments kept for nDCG"),
        "{err}"
    );
    // Without nDCG among the metrics, query 1 has no gold for any of them: excluded and listed.
    let (binary, err) = eval(&qrels, "2", "recall@100");
    assert_eq!(binary.len(), 34, "{err}");
    assert!(!binary.contains_key("1"));
    assert!(
        err.contains("without a relevant doc excluded (--empty-gold exclude): \"1\""),
        "{err}"
    );
}
