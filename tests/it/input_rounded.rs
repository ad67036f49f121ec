//! Per-query values rounded by their writer (`trec_eval -q` prints `%.4f`) are noted as rounded
//! in the report, with what that means for ties and small deltas; full-precision files are not.

use crate::support;
use support::{Out, TestContext};

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/eval/fixtures/trec-covid-r2"
);

/// `compare` of two per-query files of the fixtures: the JSON report's notes.
fn notes(baseline: &str, candidate: &str, extra: &[&str]) -> Vec<String> {
    let v = Out::of(
        TestContext::new()
            .cwd(DATA)
            .command()
            .args(["compare", baseline, candidate])
            .args(extra)
            .args([
                "--metric",
                "ndcg@10",
                "--resamples",
                "300",
                "--format",
                "json",
            ]),
    )
    .verdict_json()
    .1;
    v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn trec_eval_q_output_is_noted_as_rounded_to_4_decimals() {
    let notes = notes("run.covidex-sim.te.txt", "run.covidex-t5.te.txt", &[]);
    for side in ["run.covidex-sim.te.txt", "run.covidex-t5.te.txt"] {
        let want = format!(
            "{side}: every value carries 4 decimals (trec_eval -q prints 4): each per-query \
             value is rounded, off by up to ±0.00005, so queries that differ by less than 0.0001 \
             read as ties"
        );
        assert!(notes.iter().any(|n| n.starts_with(&want)), "{notes:?}");
    }
}

#[test]
fn full_precision_values_get_no_rounding_note() {
    // The same measures at full double precision (pytrec_eval, `measure<TAB>qid<TAB>value`).
    let notes = notes(
        "run.covidex-sim.pte.tsv",
        "run.covidex-t5.pte.tsv",
        &["--input-format", "trec-eval"],
    );
    assert!(!notes.iter().any(|n| n.contains("decimals")), "{notes:?}");
}
