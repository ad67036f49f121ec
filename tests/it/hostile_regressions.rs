//! One test per bug found with hostile inputs, named after what broke (through the library).

use crate::support;
use support::{GateFile, Out, TestContext};

use rag_gate::load::{load_metrics, parse_metrics_bytes, Format};

fn err(text: &str, shown: &str, format: Format) -> String {
    parse_metrics_bytes(text.as_bytes().to_vec(), shown, Some(format), "query_id")
        .unwrap_err()
        .to_string()
}

#[test]
fn regression_a_10mb_value_became_a_10mb_error_message() {
    let big = "7".repeat(10 << 20) + "x";
    for (text, shown, format) in [
        (format!("query_id,m\nq1,{big}\n"), "m.csv", Format::Csv),
        (
            format!("{{\"query_id\":\"{big}\",\"m\":1}}\n{{\"query_id\":\"{big}\",\"m\":1}}\n"),
            "m.jsonl",
            Format::Jsonl,
        ),
        (
            format!(
                "{{\"query_id\":\"q\",\"m\":\"{}\"}}\n",
                "7".repeat(10 << 20)
            ),
            "m.jsonl",
            Format::Jsonl,
        ),
        (
            format!("map\t{big}\t1\nmap\t{big}\t1\n"),
            "m.te",
            Format::TrecEval,
        ),
        (format!("{big},m\nq1,1\n"), "m.csv", Format::Csv),
    ] {
        let e = err(&text, shown, format);
        assert!(e.len() < 400, "{} bytes: {}", e.len(), &e[..200]);
        assert!(
            e.contains("(10485") && e.contains(" bytes)"),
            "the length is given: {e}"
        );
    }
}

#[test]
fn regression_json_errors_said_line_1_whatever_the_line() {
    let e = err(
        "{\"query_id\":\"a\",\"m\":1}\n\n{\"query_id\":\"b\",\"m\":}\n",
        "m.jsonl",
        Format::Jsonl,
    );
    assert_eq!(e, "m.jsonl:3: not valid JSON at column 21 (expected value); expected one JSON object per line");
}

#[test]
fn regression_a_header_only_csv_blamed_the_other_file() {
    let e = err("query_id,ndcg@10\n", "m.csv", Format::Csv);
    assert_eq!(
        e,
        "m.csv: no rows after the header; expected one row per query"
    );
}

#[test]
fn regression_a_comma_separated_tsv_gave_no_hint() {
    let e = err("query_id,ndcg@10\nq1,0.5\n", "m.tsv", Format::Tsv);
    assert!(
        e.contains("the header is one column: expected fields separated by tabs"),
        "{e}"
    );
}

#[test]
fn regression_dev_zero_was_read_until_memory_ran_out() {
    let start = std::time::Instant::now();
    let e = load_metrics(
        std::path::Path::new("/dev/zero"),
        "/dev/zero",
        Some(Format::Jsonl),
        "query_id",
        &Default::default(),
    )
    .unwrap_err()
    .to_string();
    assert_eq!(e, "/dev/zero:1: a NUL byte (byte 0): binary data, not text; expected per-query metrics (JSONL, CSV/TSV, Parquet, or trec_eval/ir_measures -q output)");
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
}

#[test]
fn regression_utf16_and_gzip_were_only_not_utf8() {
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain("query_id".encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let e = parse_metrics_bytes(utf16, "m.csv", Some(Format::Csv), "query_id")
        .unwrap_err()
        .to_string();
    assert!(e.contains("it is UTF-16: convert it to UTF-8"), "{e}");
    let e = parse_metrics_bytes(vec![0x1f, 0x8b, 8, 0], "m.jsonl", None, "query_id")
        .unwrap_err()
        .to_string();
    assert!(e.contains("it is gzip-compressed"), "{e}");
}

/// The duplicate check moved after parsing (to borrow ids instead of copying them): it must
/// still name the second occurrence's line and the first one's.
#[test]
fn duplicate_ids_still_name_both_lines_after_the_memory_rewrite() {
    let e = err("{\"query_id\":\"a\",\"m\":1}\n{\"query_id\":\"b\",\"m\":1}\n{\"query_id\":\"a\",\"m\":1}\n", "m.jsonl", Format::Jsonl);
    assert_eq!(e, "m.jsonl:3: duplicate query_id \"a\" (first on line 1)");
    let e = err("query_id,m\na,1\nb,1\nb,2\n", "m.csv", Format::Csv);
    assert_eq!(e, "m.csv:4: duplicate query id \"b\" (first on line 3)");
    let e = err(
        "map\ta\t1\nP_5\ta\t1\nmap\tb\t1\nmap\ta\t0.5\n",
        "m.te",
        Format::TrecEval,
    );
    assert_eq!(
        e,
        "m.te:4: query \"a\" has measure \"map\" twice (first on line 1)"
    );
    let e = err(
        "a\tnDCG@10\t1\na\tndcg_cut_10\t0.5\n",
        "m.irm",
        Format::IrMeasures,
    );
    assert_eq!(
        e,
        "m.irm:2: query \"a\" has measure \"ndcg_cut_10\" twice (first on line 1)"
    );
}

#[test]
fn regression_values_near_f64_max_made_an_infinite_mean() {
    let e = err(
        "{\"query_id\":\"a\",\"latency_ms\":1.7e308}\n",
        "m.jsonl",
        Format::Jsonl,
    );
    assert_eq!(e, "m.jsonl:1: metric \"latency_ms\" is 1.7e308; expected a magnitude below 1e300 (sums of such values overflow to infinity)");
    let e = err("query_id,latency_ms\na,-1e300\n", "m.csv", Format::Csv);
    assert!(
        e.starts_with("m.csv:2: metric \"latency_ms\" is -1e300; expected a magnitude below 1e300"),
        "{e}"
    );
    let ok = parse_metrics_bytes(
        b"query_id,latency_ms\na,9.9e299\n".to_vec(),
        "m.csv",
        Some(Format::Csv),
        "query_id",
    );
    assert!(ok.is_ok());
}

/// Found by the `pair` fuzz target: in JSONL, a metric absent from the last row(s) left its
/// column shorter than the rows, and pairing indexed past its end: exit 101 instead of 2.
#[test]
fn regression_a_metric_missing_on_the_last_row_panicked() {
    let t = parse_metrics_bytes(
        b"{\"query_id\":\"q1\",\"ndcg@10\":0.5}\n{\"query_id\":\"q2\",\"map\":0.5}\n".to_vec(),
        "b.jsonl",
        Some(Format::Jsonl),
        "query_id",
    )
    .unwrap();
    for col in t.metrics.values() {
        assert_eq!(col.len(), t.rows.len());
    }
    let ctx = TestContext::new();
    ctx.write(
        "b.jsonl",
        "{\"query_id\":\"q1\",\"ndcg@10\":0.5}\n{\"query_id\":\"q2\",\"map\":0.5}\n",
    );
    ctx.write(
        "c.jsonl",
        "{\"query_id\":\"q1\",\"ndcg@10\":0.5}\n{\"query_id\":\"q2\",\"ndcg@10\":0.7}\n",
    );
    let out = ctx
        .run(&["compare", "b.jsonl", "c.jsonl", "--metric", "ndcg@10"])
        .expect(2);
    let err = out.stderr.as_str();
    assert!(
        err.starts_with(
            "error: b.jsonl:2: metric \"ndcg@10\" is missing for 1 query: \"q2\" (line 2)"
        ),
        "{err}"
    );
}

/// `rag-gate eval --run /dev/zero` read without end (no line end, no NUL check) and grew its
/// buffer until memory ran out; a NUL byte in a run line was accepted as part of a doc id.
#[test]
fn regression_eval_read_binary_runs_without_end() {
    let ctx = TestContext::new();
    let qrels = ctx.write("qrels.txt", "q1 0 D1 1\n");
    let run = ctx.write("run.trec", b"q1 Q0 D\x001 1 1.0 t\n");
    let out = Out::of(
        ctx.command()
            .args(["eval", "--metrics", "recall@5", "--qrels"])
            .arg(&qrels)
            .arg("--run")
            .arg(&run),
    )
    .expect(2);
    let err = out.stderr.as_str();
    assert!(
        err.contains("run.trec:1: binary data (a NUL byte)"),
        "{err}"
    );
    if std::path::Path::new("/dev/zero").exists() {
        let out = Out::of(
            ctx.command()
                .args(["eval", "--metrics", "recall@5", "--qrels"])
                .arg(&qrels)
                .args(["--run", "/dev/zero"])
                .timeout(std::time::Duration::from_secs(60)),
        )
        .expect(2);
        assert!(out.stderr.contains("/dev/zero"));
    }
}

/// 40 queries, the same on both sides, and their gate file (`extra` before the gate).
fn small_gate(ctx: &TestContext, extra: &str) -> std::path::PathBuf {
    let mut b = String::new();
    for i in 0..40 {
        b.push_str(&format!(
            "{{\"query_id\":\"q{i}\",\"ndcg@10\":0.{}}}\n",
            i % 10
        ));
    }
    ctx.write("b.jsonl", &b);
    ctx.write("c.jsonl", &b);
    ctx.gate(
        GateFile::new("b.jsonl", "c.jsonl")
            .resamples(200)
            .raw(extra)
            .gate("ndcg@10", "max-drop = 0.01"),
    )
}

/// An unknown key under `[eval]` was accepted silently when no input was a run.
#[test]
fn regression_unknown_eval_keys_were_silent_without_run_inputs() {
    let ctx = TestContext::new();
    let gate = small_gate(&ctx, "[eval]\nrel-levle = 2\n");
    let out = ctx.check_file(&gate, &[]).expect(2);
    let err = out.stderr.as_str();
    assert!(err.contains("[eval]: unknown field `rel-levle`"), "{err}");
}

/// `-o` naming one of the inputs overwrote that input with the report.
#[test]
fn regression_output_over_an_input_overwrote_it() {
    let ctx = TestContext::new();
    let gate = small_gate(&ctx, "");
    let before = std::fs::read(ctx.path().join("b.jsonl")).unwrap();
    let out = Out::of(
        ctx.command()
            .arg("check")
            .arg(&gate)
            .arg("-o")
            .arg(ctx.path().join("b.jsonl")),
    )
    .expect(2);
    let err = out.stderr.as_str();
    assert!(err.contains("refusing to overwrite it"), "{err}");
    assert_eq!(std::fs::read(ctx.path().join("b.jsonl")).unwrap(), before);
    // The gate file itself is an input too.
    Out::of(
        ctx.command()
            .arg("check")
            .arg(&gate)
            .arg("--export-json")
            .arg(&gate),
    )
    .expect(2);
}
