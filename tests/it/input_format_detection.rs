//! Per-query metric files are recognised from their content on pipes and under any name: JSONL,
//! CSV/TSV with a header, trec_eval -q. `rag-gate eval … | rag-gate compare - cand.jsonl` works,
//! and each side of `compare` can take its own format flag.

use crate::support;
use support::{Out, TestContext};

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/eval/fixtures/trec-covid-r2"
);

/// `rag-gate eval` of one run on the TREC-COVID round-2 qrels, as JSONL rows.
fn eval_rows(run: &str, format: &str) -> String {
    TestContext::new()
        .run(&[
            "eval",
            "--qrels",
            &format!("{DATA}/qrels.covid-round2.txt"),
            "--run",
            &format!("{DATA}/{run}"),
            "--metrics",
            "ndcg@10,recall@100",
            "--format",
            format,
        ])
        .expect(0)
        .utf8()
        .stdout
}

/// `compare BASELINE CANDIDATE --format json` with `stdin` piped in: the report.
fn compare(ctx: &TestContext, args: &[&str], stdin: &[u8]) -> (Option<i32>, String, String) {
    let out = Out::of(
        ctx.command()
            .arg("compare")
            .args(args)
            .args(["--format", "json", "--resamples", "300"])
            .write_stdin(stdin),
    );
    (out.code, out.stdout, out.stderr)
}

fn comparisons(report: &str) -> serde_json::Value {
    let v: serde_json::Value = serde_json::from_str(report).unwrap();
    v["comparisons"].clone()
}

#[test]
fn eval_piped_into_compare_gives_the_report_of_the_files() {
    let ctx = TestContext::new();
    ctx.write("b.jsonl", eval_rows("run.covidex-sim.txt", "jsonl"));
    ctx.write("c.jsonl", eval_rows("run.covidex-t5.txt", "jsonl"));
    let (code, files, err) = compare(&ctx, &["b.jsonl", "c.jsonl"], b"");
    assert_eq!(code, Some(0), "{err}");
    let piped = eval_rows("run.covidex-sim.txt", "jsonl");
    let (code, from_pipe, err) = compare(&ctx, &["-", "c.jsonl"], piped.as_bytes());
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(comparisons(&from_pipe), comparisons(&files));
    let (code, dev_stdin, err) = compare(&ctx, &["/dev/stdin", "c.jsonl"], piped.as_bytes());
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(comparisons(&dev_stdin), comparisons(&files));
}

#[test]
fn any_name_is_read_by_its_content() {
    let ctx = TestContext::new();
    ctx.write("b.jsonl", eval_rows("run.covidex-sim.txt", "jsonl"));
    ctx.write("c.jsonl", eval_rows("run.covidex-t5.txt", "jsonl"));
    let (_, want, err) = compare(&ctx, &["b.jsonl", "c.jsonl"], b"");
    assert!(!want.is_empty(), "{err}");
    // JSONL, CSV and trec_eval -q rows under names that say nothing.
    ctx.write("base.txt", eval_rows("run.covidex-sim.txt", "jsonl"));
    ctx.write("cand.out", eval_rows("run.covidex-t5.txt", "csv"));
    ctx.write("cand.data", eval_rows("run.covidex-t5.txt", "trec"));
    for (b, c) in [("base.txt", "cand.out"), ("base.txt", "cand.data")] {
        let (code, got, err) = compare(&ctx, &[b, c], b"");
        assert_eq!(code, Some(0), "{b} {c}: {err}");
        assert_eq!(comparisons(&got), comparisons(&want), "{b} {c}");
    }
}

#[test]
fn q_output_named_tsv_is_read_by_its_content() {
    // pytrec_eval's `measure<TAB>qid<TAB>value` rows (no header) saved as `.tsv`: read as
    // trec_eval -q output, the same comparison as with the format given.
    let ctx = TestContext::new();
    let (b, c) = (
        format!("{DATA}/run.covidex-sim.pte.tsv"),
        format!("{DATA}/run.covidex-t5.pte.tsv"),
    );
    let (code, got, err) = compare(&ctx, &[&b, &c], b"");
    assert_eq!(code, Some(0), "{err}");
    let flags = ["--input-format", "trec-eval"];
    let (_, want, _) = compare(&ctx, &[&b, &c, flags[0], flags[1]], b"");
    assert_eq!(comparisons(&got), comparisons(&want));
    assert!(comparisons(&got).as_array().unwrap().len() > 5);
    // A real TSV table keeps its header.
    ctx.write("t.tsv", "query_id\tmap\n1\t0.5\n2\t0.25\n");
    let (code, _, err) = compare(&ctx, &["t.tsv", "t.tsv"], b"");
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn each_side_of_compare_takes_its_own_format_flag() {
    let ctx = TestContext::new();
    ctx.write("b.rows", eval_rows("run.covidex-sim.txt", "jsonl"));
    ctx.write("c.rows", eval_rows("run.covidex-t5.txt", "csv"));
    let (code, _, err) = compare(
        &ctx,
        &[
            "b.rows",
            "c.rows",
            "--baseline-format",
            "jsonl",
            "--candidate-format",
            "csv",
        ],
        b"",
    );
    assert_eq!(code, Some(0), "{err}");
    // One flag for both forces the wrong reader on one of them: an error naming that file.
    let (code, _, err) = compare(&ctx, &["b.rows", "c.rows", "--input-format", "jsonl"], b"");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("c.rows"), "{err}");
}
