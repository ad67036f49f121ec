//! Tie sensitivity in `check` with runs, through the binary, on the TREC-COVID round-2 runs:
//! each side's figures equal the independent Python reference (`ties_reference.py`'s
//! `ties.reference.tsv`); a gate whose decision the order of tied scores could change is a
//! warning naming the order that flips it (and decides nothing); a gate no order changes is
//! quiet; every format carries the section; metric files and file order have none.

use crate::support;

use std::path::{Path, PathBuf};

use serde_json::Value;
use support::{toml_path, GateFile, TestContext};

fn covid(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/eval/fixtures/trec-covid-r2")
        .join(name)
}

/// A gate file on sim (baseline) vs t5 (candidate): map may drop 0.01 (no order changes it),
/// mrr must be at least 0.852 (t5's mrr is 0.8534 today, 0.8510 at its least favourable order).
fn sim_vs_t5(eval: &str) -> GateFile {
    GateFile::default()
        .path("qrels", covid("qrels.covid-round2.txt"))
        .input(
            "baseline",
            format!("{{ run = {} }}", toml_path(covid("run.covidex-sim.txt"))),
        )
        .input(
            "candidate",
            format!("{{ run = {} }}", toml_path(covid("run.covidex-t5.txt"))),
        )
        .resamples(500)
        .raw(eval)
        .gate("map", "max-drop = 0.01")
        .gate("mrr", "min-mean = 0.852")
}

/// The reference row of `run` and `metric`: (queries depending, mean, worst, best).
fn reference(run: &str, metric: &str) -> (u64, f64, f64, f64) {
    let text = std::fs::read_to_string(covid("ties.reference.tsv")).unwrap();
    let c: Vec<&str> = text
        .lines()
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|c| c[0] == run && c[1] == metric)
        .unwrap()
        .into_iter()
        .collect();
    let f = |i: usize| c[i].parse::<f64>().unwrap();
    (c[5].parse().unwrap(), f(6), f(7), f(8))
}

#[test]
fn each_side_equals_the_reference_and_the_mrr_gate_could_flip() {
    let ctx = TestContext::new();
    ctx.gate(sim_vs_t5(""));
    let out = ctx.check_json(&[]);
    let (code, r) = (out.verdict(), out.json());
    // The tie passes decide nothing: today both gates pass.
    assert_eq!(code, 0, "{r}");
    let ties = &r["ties"];
    for (side, run) in [
        ("baseline", "run.covidex-sim.txt"),
        ("candidate", "run.covidex-t5.txt"),
    ] {
        for metric in ["map", "mrr"] {
            let m = ties["metrics"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["side"] == side && m["metric"] == metric)
                .unwrap();
            let (dep, mean, lo, hi) = reference(run, metric);
            assert_eq!(m["queries_depending"], dep, "{side} {metric}");
            for (k, want) in [("mean", mean), ("worst_mean", lo), ("best_mean", hi)] {
                let got = m[k].as_f64().unwrap();
                assert!(
                    (got - want).abs() < 1e-12,
                    "{side} {metric} {k}: {got} vs {want}"
                );
            }
        }
    }
    let gates = ties["gates"].as_array().unwrap();
    let by = |metric: &str| gates.iter().find(|g| g["metric"] == metric).unwrap();
    let mrr = by("mrr");
    assert_eq!(
        (
            &mrr["decision"],
            &mrr["against"],
            &mrr["for"],
            &mrr["could_change"]
        ),
        (
            &Value::from("pass"),
            &Value::from("fail"),
            &Value::from("pass"),
            &Value::from(true)
        )
    );
    // Against the change the candidate's mrr is its least favourable mean.
    let (_, _, worst, _) = reference("run.covidex-t5.txt", "mrr");
    assert!((mrr["against_value"].as_f64().unwrap() - worst).abs() < 1e-12);
    assert_eq!(by("map")["could_change"], false);
    let warnings: Vec<&str> = r["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .filter(|w| w.contains("order of tied scores"))
        .collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with(
            "gate #2 mrr on all (min-mean): the order of tied scores could change its decision: pass (value \
             0.8534) with trec_eval's order (docid descending), fail (value 0.8510) with the \
             candidate's tied documents in their least favourable order and the baseline's in \
             their most favourable"
        ),
        "{}",
        warnings[0]
    );
}

#[test]
fn every_format_carries_the_section() {
    let ctx = TestContext::new();
    ctx.gate(sim_vs_t5(""));
    let text = ctx.check(&[]).expect(0).stdout;
    assert!(
        text.contains("\nTie sensitivity (the order of tied scores)\n"),
        "{text}"
    );
    assert!(
        text.contains("#2 mrr on all (min-mean)  pass (0.8534)  fail (0.8510)"),
        "{text}"
    );
    let md = ctx.check(&["--format", "markdown"]).expect(0).stdout;
    assert!(
        md.contains(
            "<summary>Tie sensitivity: 1 gate the order of tied scores could change</summary>"
        ),
        "{md}"
    );
    assert!(
        md.contains("| mrr | candidate | 2 of 35 (1487 tied groups) |"),
        "{md}"
    );
    ctx.check_json(&["--export-html", "r.html"]).expect(0);
    let page = ctx.read("r.html");
    assert!(page.contains("<h2>Tie sensitivity</h2>"));
    roxmltree::Document::parse(page.trim_start_matches("<!DOCTYPE html>\n")).unwrap();
}

#[test]
fn file_order_and_metric_files_have_no_tie_section() {
    let ctx = TestContext::new();
    ctx.gate(sim_vs_t5("[eval]\norder = \"given\""));
    let r = ctx.check_json(&[]).expect(0).json();
    assert!(r.get("ties").is_none(), "{}", r["ties"]);
    let notes = r["notes"].to_string();
    assert!(
        notes.contains("tie sensitivity not assessed: the runs are kept in file order"),
        "{notes}"
    );
    // Per-query metric files carry no ranking: nothing to assess.
    let example = support::example_gate();
    let r = ctx
        .run(&["check", example.to_str().unwrap(), "--format", "json"])
        .json();
    assert!(r.get("ties").is_none());
}
