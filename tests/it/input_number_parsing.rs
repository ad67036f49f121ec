//! Numbers are read correctly rounded by every reader: the same per-query values written as
//! JSONL, CSV and Parquet (tests/data/number_parsing/make.py, pyarrow) give byte-identical JSON
//! reports. The values are 17-digit decimals such as 0.39285714285714285, which a JSON parser
//! that is not correctly rounded reads one ULP off.

use std::path::Path;

use crate::support;
use support::{GateFile, TestContext};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/number_parsing");

/// The JSON report of `check` on the files of `format` (named alike in every folder).
fn report(format: &str) -> String {
    let ctx = TestContext::new();
    for side in ["baseline", "candidate"] {
        ctx.copy(Path::new(DATA).join(format).join(side), side);
    }
    ctx.gate(
        GateFile::new("baseline", "candidate")
            .resamples(500)
            .gate("ndcg@10", "max-drop = 0.05\nmin-mean = 0.45"),
    );
    let out = ctx.check_json(&[]).utf8();
    assert!(matches!(out.code, Some(0 | 1)), "{format}: {}", out.stderr);
    out.stdout
}

#[test]
fn the_same_values_as_jsonl_csv_and_parquet_give_byte_identical_reports() {
    let jsonl = report("jsonl");
    assert!(!jsonl.is_empty());
    for other in ["csv", "parquet"] {
        assert!(
            report(other) == jsonl,
            "the {other} report differs from the JSONL one"
        );
    }
    // The report's means are the means of the doubles the texts denote (Rust's correctly rounded
    // `str::parse`, the same as Python's `float`).
    let text = std::fs::read_to_string(Path::new(DATA).join("csv/baseline")).unwrap();
    let vals: Vec<f64> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
        .collect();
    let mean = vals.iter().sum::<f64>() / vals.len() as f64;
    let v: serde_json::Value = serde_json::from_str(&jsonl).unwrap();
    let c = &v["comparisons"][0];
    assert_eq!(c["baseline_mean"].as_f64().unwrap(), mean);
}

#[test]
fn a_17_digit_jsonl_value_is_the_double_its_text_denotes() {
    // 11/28 as Python prints it: the JSONL reader must give exactly `str::parse`'s double, which
    // the report prints back (full precision in the per-query worst list) as the same text.
    let ctx = TestContext::new();
    let rows = |v: &str| {
        (0..40)
            .map(|i| {
                format!(
                    "{{\"query_id\": \"q{i}\", \"ndcg@10\": {}}}\n",
                    if i == 0 { v } else { "0.5" }
                )
            })
            .collect::<String>()
    };
    ctx.write("b.jsonl", rows("0.39285714285714285"));
    ctx.write("c.jsonl", rows("0.5"));
    let v = ctx
        .run(&["compare", "b.jsonl", "c.jsonl", "--format", "json"])
        .expect(0)
        .json();
    let want: f64 = "0.39285714285714285".parse().unwrap();
    let mean = (want + 39.0 * 0.5) / 40.0;
    assert_eq!(v["comparisons"][0]["baseline_mean"].as_f64().unwrap(), mean);
}
