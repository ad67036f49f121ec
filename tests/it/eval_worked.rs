//! The worked example (tests/data/eval/worked), with its exact numbers, through the library API that `check`
//! calls (`evaluate_to_table`) and through the `rag-gate eval` binary.

use crate::support;

use std::path::{Path, PathBuf};

use rag_gate::eval::{evaluate_to_table, EvalOptions};
use support::{Out, TestContext};

fn worked(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/eval/worked")
        .join(name)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 5e-7
}

fn metrics(s: &[&str]) -> Vec<String> {
    s.iter().map(|x| x.to_string()).collect()
}

#[test]
fn worked_example_at_k3_and_k5() {
    let opts = EvalOptions {
        corpus: Some(worked("corpus.txt")),
        ..Default::default()
    };
    let ms = metrics(&["recall@3", "mrr@3", "recall@5", "mrr@5", "mrr"]);
    let (table, s) = evaluate_to_table(
        &worked("qrels.jsonl"),
        "qrels.jsonl",
        &worked("run.jsonl"),
        "run.jsonl",
        &ms,
        &opts,
    )
    .unwrap();
    assert_eq!(s.evaluated, 3);
    assert_eq!(s.excluded, vec!["q4".to_string()]);
    assert!(close(s.means["recall@3"].unwrap(), 0.444444));
    assert!(close(s.means["mrr@3"].unwrap(), 0.277778));
    assert!(close(s.pooled["recall@3"].unwrap(), 0.333333));
    assert!(close(s.means["recall@5"].unwrap(), 1.0));
    assert!(close(s.means["mrr@5"].unwrap(), 0.361111));
    assert!(close(s.pooled["recall@5"].unwrap(), 1.0));
    // First relevant ranks [2, 3, none within 3] (q3's first relevant doc is at rank 4).
    let ids: Vec<&str> = table.rows.iter().map(|r| r.query_id).collect();
    assert_eq!(ids, ["q1", "q2", "q3"]);
    assert_eq!(
        table.metrics["mrr@3"],
        vec![Some(0.5), Some(1.0 / 3.0), Some(0.0)]
    );
    assert_eq!(
        table.metrics["mrr"],
        vec![Some(0.5), Some(1.0 / 3.0), Some(0.25)]
    );
    assert_eq!(table.rows.line(0), 1, "row line is the query's qrels line");
    assert_eq!(table.source, "run.jsonl");
}

#[test]
fn gold_with_empty_ranking_scores_zero() {
    let d = tempfile::tempdir().unwrap();
    let (q, r) = (d.path().join("q.jsonl"), d.path().join("r.jsonl"));
    std::fs::write(
        &q,
        "{\"query_id\":\"a\",\"gold\":[\"D1\"]}\n{\"query_id\":\"b\",\"gold\":[\"D1\"]}\n",
    )
    .unwrap();
    std::fs::write(&r, "{\"query_id\":\"a\",\"ranked\":[]}\n").unwrap();
    let (t, s) = evaluate_to_table(
        &q,
        "q",
        &r,
        "r",
        &metrics(&["recall@5", "mrr"]),
        &EvalOptions::default(),
    )
    .unwrap();
    assert_eq!(t.metrics["recall@5"], vec![Some(0.0), Some(0.0)]);
    assert_eq!(t.metrics["mrr"], vec![Some(0.0), Some(0.0)]);
    assert_eq!(
        s.missing_from_run,
        vec!["b".to_string()],
        "a had an (empty) ranking, b none"
    );
}

#[test]
fn only_empty_gold_query_gives_null_means() {
    let ctx = TestContext::new();
    let q = ctx.write("q.jsonl", "{\"query_id\":\"q4\",\"gold\":[]}\n");
    let v = Out::of(
        ctx.command()
            .args([
                "eval",
                "--metrics",
                "recall@3,mrr@3",
                "--summary",
                "--empty-gold",
                "exclude",
                "--qrels",
            ])
            .arg(&q)
            .arg("--run")
            .arg(worked("run.jsonl")),
    )
    .expect(0)
    .json();
    assert_eq!(v["evaluated"], 0);
    assert_eq!(v["excluded"], serde_json::json!(["q4"]));
    assert_eq!(
        v["means"],
        serde_json::json!({"mrr@3": null, "recall@3": null})
    );
    assert_eq!(v["pooled"], serde_json::json!({"recall@3": null}));
    assert_eq!(v["run_only_ignored"], 3);
    assert_eq!(v["policies"]["empty_gold"], "exclude");
}

#[test]
fn worked_example_cli_rows_in_every_format() {
    let ctx = TestContext::new();
    let run = |fmt: &str| {
        let out = Out::of(
            ctx.command()
                .args([
                    "eval",
                    "--metrics",
                    "recall@3,mrr@3",
                    "--format",
                    fmt,
                    "--empty-gold",
                    "exclude",
                    "--qrels",
                ])
                .arg(worked("qrels.jsonl"))
                .arg("--run")
                .arg(worked("run.jsonl")),
        )
        .expect(0)
        .utf8();
        assert!(
            out.stderr
                .contains("excluded (--empty-gold exclude): \"q4\""),
            "{}",
            out.stderr
        );
        out.stdout
    };
    assert_eq!(
        run("jsonl"),
        "{\"query_id\":\"q1\",\"recall@3\":0.3333333333333333,\"mrr@3\":0.5}\n\
         {\"query_id\":\"q2\",\"recall@3\":1.0,\"mrr@3\":0.3333333333333333}\n\
         {\"query_id\":\"q3\",\"recall@3\":0.0,\"mrr@3\":0.0}\n"
    );
    assert_eq!(
        run("csv"),
        "query_id,recall@3,mrr@3\nq1,0.3333333333333333,0.5\nq2,1,0.3333333333333333\nq3,0,0\n"
    );
    let trec = run("trec");
    assert!(
        trec.starts_with("recall_3\tq1\t0.3333333333333333\nrecip_rank_cut_3\tq1\t0.5\n"),
        "{trec}"
    );
    assert!(
        trec.ends_with(
            "recall_3\tall\t0.4444444444444444\nrecip_rank_cut_3\tall\t0.27777777777777773\n"
        ),
        "{trec}"
    );
    let summary: serde_json::Value = serde_json::from_str(&run("json")).unwrap();
    assert_eq!(summary["evaluated"], 3);
}
