//! Without the network: the job summary, the step outputs and the `::error` annotations.

use crate::support;

use std::path::Path;

use rag_gate::publish::{publish, GithubEnv, PublishArgs};
use rag_gate::report::markdown::render;
use support::report::failing_report;

#[test]
fn summary_outputs_and_annotations_are_written_as_promised() {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("summary.md");
    let output = dir.path().join("output");
    std::fs::write(&output, "earlier=1\n").unwrap();
    let env = GithubEnv::from_lookup("GITHUB_TOKEN", |k| match k {
        "GITHUB_ACTIONS" => Some("true".into()),
        "GITHUB_STEP_SUMMARY" => Some(summary.display().to_string()),
        "GITHUB_OUTPUT" => Some(output.display().to_string()),
        _ => None,
    });
    let report = failing_report();
    let lines = publish(
        &report,
        Some(Path::new("out/report.json")),
        &PublishArgs::default(),
        &env,
    )
    .unwrap();
    let lines: Vec<String> = lines.iter().map(ToString::to_string).collect();
    assert_eq!(std::fs::read_to_string(&summary).unwrap(), render(&report));
    assert_eq!(
        std::fs::read_to_string(&output).unwrap(),
        "earlier=1\nverdict=fail\nreport=out/report.json\n"
    );
    assert_eq!(
        lines,
        ["::error title=rag-gate::gate 3 failed: ndcg@10 on risk=compliance (max-drop -0.01): CI lower bound −0.0480 < −0.01"]
    );
}

#[test]
fn annotations_are_capped_at_ten() {
    let mut report = failing_report();
    let failed = report.gates[2].clone();
    report.gates = vec![failed; 25];
    let env = GithubEnv::from_lookup("GITHUB_TOKEN", |k| {
        (k == "GITHUB_ACTIONS").then(|| "true".into())
    });
    let lines = publish(&report, None, &PublishArgs::default(), &env).unwrap();
    let lines: Vec<String> = lines.iter().map(ToString::to_string).collect();
    assert_eq!(lines.len(), 10);
    assert!(
        lines[9].ends_with("and 16 more failed gates: see the job summary or the report"),
        "{}",
        lines[9]
    );
}
