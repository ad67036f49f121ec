//! `--comment-mode` against a local mock of the GitHub REST API (wiremock): `always` edits
//! whenever the body changed, `on-change` only when the verdict or a gated row changed,
//! `on-failure` posts only failing reports but corrects an existing comment once the PR passes.

use crate::support;

use rag_gate::model::Report;
use rag_gate::publish::{publish, CommentMode, CommentWhen, PublishArgs};
use rag_gate::report::markdown::render;
use serde_json::json;
use support::github::*;
use support::report::{failing_report, passing_report};
use wiremock::matchers::body_partial_json;
use wiremock::Mock;

fn mode(when: CommentWhen) -> PublishArgs {
    PublishArgs {
        comment_mode: when,
        ..args(CommentMode::Required)
    }
}

/// The failing report with other figures but the same verdict and gated rows.
fn same_state_other_figures() -> String {
    let mut r = failing_report();
    r.comparisons[0].estimate += 0.001;
    r.comparisons[0].ci[0] += 0.001;
    let body = render(&r);
    assert_ne!(body, render(&failing_report()), "the figures differ");
    body
}

/// One update of comment `id` to `body`.
fn patch(id: u64, body: &str) -> Mock {
    update(id)
        .and(body_partial_json(json!({ "body": body })))
        .respond_with(updated(id))
        .expect(1)
}

/// Publishes `report` to PR 7 of `gh` with `--comment-mode when`; the lines it would print.
fn publish_when(gh: &Gh, report: &Report, when: CommentWhen) -> Vec<String> {
    let lines = publish(report, None, &mode(when), &gh.env(&[])).unwrap();
    lines.iter().map(ToString::to_string).collect()
}

#[test]
fn on_change_leaves_a_comment_with_the_same_verdict_and_gated_rows_alone() {
    let gh = Gh::start();
    gh.mount(list(vec![comment(5, &same_state_other_figures())]).expect(1));
    gh.forbid_writes();
    let lines = publish_when(&gh, &failing_report(), CommentWhen::OnChange);
    assert_eq!(
        lines,
        ["rag-gate: PR comment 5 left as it is: the verdict and the gated rows did not change (--comment-mode on-change)"]
    );
    gh.verify();
}

#[test]
fn on_change_edits_the_comment_when_a_gated_row_changed() {
    let gh = Gh::start();
    let mut before = failing_report();
    before.gates[1].status = rag_gate::model::GateStatus::Fail;
    before.gates[1].passed = false;
    gh.mount(list(vec![comment(5, &render(&before))]));
    let now = failing_report();
    gh.mount(patch(5, &render(&now)));
    let lines = publish_when(&gh, &now, CommentWhen::OnChange);
    assert_eq!(lines, ["rag-gate: updated PR comment 5"]);
    gh.verify();
}

#[test]
fn always_edits_the_comment_when_only_the_figures_changed() {
    let gh = Gh::start();
    gh.mount(list(vec![comment(5, &same_state_other_figures())]));
    gh.mount(patch(5, &render(&failing_report())));
    let lines = publish_when(&gh, &failing_report(), CommentWhen::Always);
    assert_eq!(lines, ["rag-gate: updated PR comment 5"]);
    gh.verify();
}

#[test]
fn on_failure_does_not_post_a_passing_report() {
    let gh = Gh::start();
    gh.mount(list(vec![comment(1, "LGTM")]).expect(1));
    gh.forbid_writes();
    let lines = publish_when(&gh, &passing_report(), CommentWhen::OnFailure);
    assert_eq!(
        lines,
        ["rag-gate: no PR comment: the gate passed (--comment-mode on-failure)"]
    );
    gh.verify();
}

#[test]
fn on_failure_corrects_an_earlier_failure_comment_once_the_pr_passes() {
    let gh = Gh::start();
    gh.mount(list(vec![comment(9, &render(&failing_report()))]));
    let pass = passing_report();
    gh.mount(patch(9, &render(&pass)));
    let lines = publish_when(&gh, &pass, CommentWhen::OnFailure);
    assert_eq!(lines, ["rag-gate: updated PR comment 9"]);
    assert!(render(&pass).contains("### ✅ rag-gate pass"));
    gh.verify();
}

#[test]
fn on_failure_posts_a_failing_report() {
    let gh = Gh::start();
    gh.mount(list(vec![]));
    gh.mount(
        create()
            .and(body_partial_json(
                json!({ "body": render(&failing_report()) }),
            ))
            .respond_with(created(11))
            .expect(1),
    );
    let lines = publish_when(&gh, &failing_report(), CommentWhen::OnFailure);
    assert_eq!(lines, ["rag-gate: posted the report as PR comment 11"]);
    gh.verify();
}

#[test]
fn the_job_summary_is_written_even_when_no_comment_is_posted() {
    let gh = Gh::start();
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("summary.md");
    gh.mount(list(vec![]));
    gh.forbid_writes();
    let env = gh.env(&[("GITHUB_STEP_SUMMARY", summary.to_str().unwrap())]);
    publish(&passing_report(), None, &mode(CommentWhen::OnFailure), &env).unwrap();
    assert_eq!(
        std::fs::read_to_string(&summary).unwrap(),
        render(&passing_report())
    );
    gh.verify();
}
