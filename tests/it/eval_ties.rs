//! Tie sensitivity through the binary (`rag-gate eval`): on the TREC-COVID round-2 runs (hundreds
//! of tied-score groups) the summary's `ties` equals the independent plain-Python reference
//! `tests/data/eval/fixtures/trec-covid-r2/ties_reference.py` (its output `ties.reference.tsv`):
//! counts exactly, means within 1e-12; the stderr note names the metrics that depend on the tie
//! rule and only those; the default values stay trec_eval's; file order assesses no tie.

use crate::support;

use std::path::PathBuf;

use serde_json::Value;
use support::{Out, TestContext};

const METRICS: &str =
    "ndcg@10,ndcg,p@5,recall@100,map,ap@10,mrr,mrr@10,rprec,hit@1,complete@100,judged@10";

fn covid(name: &str) -> PathBuf {
    PathBuf::from("tests/data/eval/fixtures/trec-covid-r2").join(name)
}

/// `rag-gate eval` of `run` with `extra`, from the repository (the paths are relative to it).
fn eval(run: &str, extra: &[&str]) -> Out {
    Out::of(
        TestContext::new()
            .cwd(support::repo(""))
            .command()
            .arg("eval")
            .arg("--qrels")
            .arg(covid("qrels.covid-round2.txt"))
            .arg("--run")
            .arg(covid(run))
            .args(["--metrics", METRICS])
            .args(extra),
    )
}

/// The reference rows of one run: metric → the TSV's cells.
fn reference(run: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(covid("ties.reference.tsv")).unwrap();
    text.lines()
        .skip(1)
        .map(|l| l.split('\t').map(str::to_string).collect::<Vec<_>>())
        .filter(|c| c[0] == run)
        .collect()
}

fn close(a: &Value, b: &str) -> bool {
    (a.as_f64().unwrap() - b.parse::<f64>().unwrap()).abs() < 1e-12
}

#[test]
fn covid_ties_equal_the_python_reference() {
    for run in ["run.covidex-sim.txt", "run.covidex-t5.txt"] {
        let s = eval(run, &["--summary"]).expect(0).json();
        let ties = &s["ties"];
        let rows = reference(run);
        assert_eq!(rows.len(), 12, "{run}");
        let count = |k: &str| ties[k].as_u64().unwrap().to_string();
        assert_eq!(count("tie_groups"), rows[0][2], "{run}");
        assert_eq!(count("queries_with_ties"), rows[0][3], "{run}");
        assert_eq!(count("evaluated"), rows[0][4], "{run}");
        for r in &rows {
            let m = ties["metrics"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["metric"] == r[1].as_str())
                .unwrap_or_else(|| panic!("{run} {}: no ties entry", r[1]));
            assert_eq!(m["queries_depending"].as_u64().unwrap().to_string(), r[5]);
            assert!(close(&m["mean"], &r[6]), "{run} {}: mean", r[1]);
            assert!(close(&m["worst_mean"], &r[7]), "{run} {}: worst", r[1]);
            assert!(close(&m["best_mean"], &r[8]), "{run} {}: best", r[1]);
            // Today's mean is the summary's mean: ties never change the default values.
            assert_eq!(m["mean"], s["means"][r[1].as_str()], "{run} {}", r[1]);
        }
    }
    // The reference is not trivial: the t5 run's nDCG@10 moves on 4 queries, its map on 21.
    let t5 = reference("run.covidex-t5.txt");
    let dep = |m: &str| t5.iter().find(|r| r[1] == m).unwrap()[5].clone();
    assert_eq!((dep("ndcg@10"), dep("map")), ("4".into(), "21".into()));
}

#[test]
fn the_note_names_each_metric_that_depends_on_the_tie_rule() {
    let out = eval("run.covidex-t5.txt", &["--format", "trec"]).expect(0);
    let err = &out.stderr;
    let notes: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("note: ties:"))
        .collect();
    // ndcg@10, ndcg, map, ap@10, mrr, mrr@10, hit@1 depend on it; p@5, recall@100, ... do not.
    assert_eq!(notes.len(), 7, "{err}");
    assert!(notes[0].starts_with(
        "note: ties: ndcg@10 depends on the order of tied scores for 4 of 35 queries: mean 0.6250 \
         with trec_eval's order (docid descending), 0.6245 to 0.6264"
    ));
    assert!(!err.contains("ties: p@5"), "{err}");
    // The rows on stdout are trec_eval -q's, untouched.
    let rows = &out.stdout;
    assert!(
        rows.contains("ndcg_cut_10\tall\t0.6249802081055077\n"),
        "{rows}"
    );
}

#[test]
fn file_order_assesses_no_tie() {
    let s = eval("run.covidex-t5.txt", &["--summary", "--order", "given"])
        .expect(0)
        .json();
    assert!(s.get("ties").is_none(), "{s}");
    let out = eval("run.covidex-t5.txt", &["--order", "given"]).expect(0);
    assert!(!out.stderr.contains("note: ties"));
}

#[test]
fn condensed_lists_keep_their_ties_and_ranks_tie_on_equal_rank() {
    // -J removes unjudged docs first; the tied groups are renumbered, never out of range.
    let s = eval("run.covidex-t5.txt", &["--summary", "--judged-only"])
        .expect(0)
        .json();
    let m = &s["ties"]["metrics"][0];
    let (lo, mean, hi) = (
        m["worst_mean"].as_f64().unwrap(),
        m["mean"].as_f64().unwrap(),
        m["best_mean"].as_f64().unwrap(),
    );
    assert!(lo <= mean && mean <= hi, "{m}");
    // --order rank: the run's ranks are distinct, so no group and nothing depends on ties.
    let s = eval("run.covidex-t5.txt", &["--summary", "--order", "rank"])
        .expect(0)
        .json();
    assert_eq!(s["ties"]["tie_groups"], 0, "{s}");
}
