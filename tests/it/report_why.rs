//! Why a query regressed: when a gate file names runs, each worst regression carries the rank
//! movement of its relevant documents, from the eval stage through the model to the Markdown
//! and the HTML. Checked by hand against the runs for query 15 of TREC-COVID round 2.

use crate::support;

use support::{GateFile, TestContext};

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/eval/fixtures/trec-covid-r2"
);

/// sim vs t5, as runs (`runs`) or as their trec_eval per-query files, gated on ndcg@10.
fn sim_vs_t5(runs: bool) -> GateFile {
    let gate = if runs {
        GateFile::default()
            .path("qrels", format!("{DATA}/qrels.covid-round2.txt"))
            .input(
                "baseline",
                format!("{{ run = \"{DATA}/run.covidex-sim.txt\" }}"),
            )
            .input(
                "candidate",
                format!("{{ run = \"{DATA}/run.covidex-t5.txt\" }}"),
            )
    } else {
        GateFile::new(
            format!("{DATA}/run.covidex-sim.te.txt"),
            format!("{DATA}/run.covidex-t5.te.txt"),
        )
    };
    gate.resamples(300)
        .table("slices", "min-queries = 30")
        .gate("ndcg@10", "max-drop = 0.01")
}

/// The Markdown report, the JSON report and the HTML report of [`sim_vs_t5`].
fn reports(runs: bool) -> (String, serde_json::Value, String) {
    let ctx = TestContext::new();
    ctx.gate(sim_vs_t5(runs));
    let out = ctx.check(&[
        "--format",
        "markdown",
        "--export-json",
        "r.json",
        "--export-html",
        "r.html",
    ]);
    out.verdict();
    let json = serde_json::from_str(&ctx.read("r.json")).unwrap();
    (out.stdout, json, ctx.read("r.html"))
}

#[test]
fn worst_regressions_of_runs_say_how_relevant_documents_moved() {
    let (md, json, html) = reports(true);
    let worst = &json["comparisons"][0]["worst"][0];
    assert_eq!(worst["query_id"], "15");
    // The baseline ranked h9gj814e (rel 2) first; the candidate's 1,000 do not contain it.
    assert_eq!(
        worst["moves"][0],
        serde_json::json!({"doc": "h9gj814e", "rel": 2, "baseline_rank": 1, "candidate_rank": null, "cutoff": 10})
    );
    let line = "h9gj814e (rel 2) dropped out of the top 10 (rank 1 → not retrieved)";
    assert!(
        md.contains(&format!("| 15 | 0.2940 → 0.0000 | −0.2940 | all | {line};")),
        "{md}"
    );
    assert!(html.contains(line));
}

#[test]
fn metric_files_have_no_moves_and_no_why_column() {
    let (md, json, _) = reports(false);
    assert!(json["comparisons"][0]["worst"][0].get("moves").is_none());
    assert!(md.contains("| query | baseline → candidate | Δ | slices |\n"));
}
