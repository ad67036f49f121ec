//! Why a query regressed: when a gate file names runs, each worst regression carries the rank
//! movement of its relevant documents, from the eval stage through the model to the Markdown
//! and the HTML. Checked by hand against the runs for query 15 of TREC-COVID round 2.

use crate::support;

use support::cli::rag_gate;

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/eval/fixtures/trec-covid-r2"
);

fn check(dir: &std::path::Path, runs: bool) -> (String, serde_json::Value, String) {
    let inputs = if runs {
        format!("[inputs]\nqrels = \"{DATA}/qrels.covid-round2.txt\"\nbaseline = {{ run = \"{DATA}/run.covidex-sim.txt\" }}\ncandidate = {{ run = \"{DATA}/run.covidex-t5.txt\" }}\n")
    } else {
        format!("[inputs]\nbaseline = \"{DATA}/run.covidex-sim.te.txt\"\ncandidate = \"{DATA}/run.covidex-t5.te.txt\"\n")
    };
    let gate = dir.join("g.toml");
    std::fs::write(
        &gate,
        format!("{inputs}[bootstrap]\nresamples = 300\n[slices]\nmin-queries = 30\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n"),
    )
    .unwrap();
    let (json, html) = (dir.join("r.json"), dir.join("r.html"));
    let out = rag_gate()
        .arg("check")
        .arg(&gate)
        .args(["--format", "markdown", "--export-json"])
        .arg(&json)
        .arg("--export-html")
        .arg(&html)
        .output()
        .unwrap();
    assert!(
        out.status.code().unwrap() <= 1,
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).unwrap(),
        serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap(),
        std::fs::read_to_string(html).unwrap(),
    )
}

#[test]
fn worst_regressions_of_runs_say_how_relevant_documents_moved() {
    let dir = tempfile::tempdir().unwrap();
    let (md, json, html) = check(dir.path(), true);
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
    let dir = tempfile::tempdir().unwrap();
    let (md, json, _) = check(dir.path(), false);
    assert!(json["comparisons"][0]["worst"][0].get("moves").is_none());
    assert!(md.contains("| query | baseline → candidate | Δ | slices |\n"));
}
