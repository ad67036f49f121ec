//! Numbers are read correctly rounded by every reader: the same per-query values written as
//! JSONL, CSV and Parquet (tests/data/number_parsing/make.py, pyarrow) give byte-identical JSON
//! reports. The values are 17-digit decimals such as 0.39285714285714285, which a JSON parser
//! that is not correctly rounded reads one ULP off.

use std::path::Path;

use crate::support;
use support::cli::{rag_gate, write};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/number_parsing");

const GATE: &str = "[inputs]\nbaseline = \"baseline\"\ncandidate = \"candidate\"\n\
                    [bootstrap]\nresamples = 500\n[[gate]]\nmetric = \"ndcg@10\"\n\
                    max-drop = 0.05\nmin-mean = 0.45\n";

/// The JSON report of `check` on the files of `format` (named alike in every folder).
fn report(format: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    for side in ["baseline", "candidate"] {
        std::fs::copy(
            Path::new(DATA).join(format).join(side),
            dir.path().join(side),
        )
        .unwrap();
    }
    write(dir.path(), "gate.toml", GATE);
    let out = rag_gate()
        .current_dir(dir.path())
        .args(["check", "gate.toml", "--format", "json"])
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{format}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
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
    let v: serde_json::Value = serde_json::from_slice(&jsonl).unwrap();
    let c = &v["comparisons"][0];
    assert_eq!(c["baseline_mean"].as_f64().unwrap(), mean);
}

#[test]
fn a_17_digit_jsonl_value_is_the_double_its_text_denotes() {
    // 11/28 as Python prints it: the JSONL reader must give exactly `str::parse`'s double, which
    // the report prints back (full precision in the per-query worst list) as the same text.
    let dir = tempfile::tempdir().unwrap();
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
    write(dir.path(), "b.jsonl", rows("0.39285714285714285"));
    write(dir.path(), "c.jsonl", rows("0.5"));
    let out = rag_gate()
        .current_dir(dir.path())
        .args(["compare", "b.jsonl", "c.jsonl", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let want: f64 = "0.39285714285714285".parse().unwrap();
    let mean = (want + 39.0 * 0.5) / 40.0;
    assert_eq!(v["comparisons"][0]["baseline_mean"].as_f64().unwrap(), mean);
}
