//! Every `--format` of every command, byte for byte, as an insta snapshot of what the binary
//! prints for the shipped examples (run from the repository root, so the paths in the reports
//! are the README's): a change of wording or layout shows as a snapshot diff to review with
//! `cargo insta review`, and a refactor that changes a byte fails here.
//!
//! The snapshots that live beside the behaviour they document: `check --format markdown` is the
//! PR comment (`report_comment::example_comment`), `check --format junit` is `report_junit`'s,
//! `plan`'s text and Markdown are `plan_command`'s, `init`'s gate file is `init_command`'s and the
//! GitLab merge-request note as posted is `publish_gitlab::the_note_as_posted`, the GitHub PR
//! comment as posted `publish_e2e::the_comment_as_posted`. `aa` writes `text` and `json` only
//! (`noise_aa::aa_refuses_a_format_it_cannot_write`).

use crate::support;

use support::in_repo;

/// `rag-gate ARGS` from the repository root, asserted to exit `code`: its stdout.
fn stdout(args: &[&str], code: i32) -> String {
    in_repo(args).expect(code).stdout
}

/// `check gates/prod.toml --format FORMAT` (the shipped example fails one gate: exit 1).
fn check_example(format: &str) -> String {
    stdout(&["check", "gates/prod.toml", "--format", format], 1)
}

#[test]
fn check_text() {
    insta::assert_snapshot!("check_text", check_example("text"));
}

#[test]
fn check_json() {
    insta::assert_snapshot!("check_json", check_example("json"));
}

#[test]
fn check_html() {
    let ctx = support::TestContext::new();
    let html = ctx.join("report.html");
    in_repo(&[
        "check",
        "gates/prod.toml",
        "--format",
        "json",
        "--export-html",
        html.to_str().unwrap(),
    ])
    .expect(1);
    insta::assert_snapshot!("check_html", ctx.read("report.html"));
}

/// `compare` of the shipped example's files by `risk`, with the queries file (1,000 resamples:
/// the layout is under test, not the interval).
fn compare(format: &str) -> String {
    stdout(
        &[
            "compare",
            "examples/baseline.jsonl",
            "examples/candidate.jsonl",
            "--queries",
            "examples/queries.jsonl",
            "--by",
            "risk",
            "--resamples",
            "1000",
            "--format",
            format,
        ],
        0,
    )
}

#[test]
fn compare_text() {
    insta::assert_snapshot!("compare_text", compare("text"));
}

#[test]
fn compare_markdown() {
    insta::assert_snapshot!("compare_markdown", compare("markdown"));
}

#[test]
fn compare_json() {
    insta::assert_snapshot!("compare_json", compare("json"));
}

#[test]
fn compare_junit() {
    insta::assert_snapshot!("compare_junit", compare("junit"));
}

/// `eval` of the worked example of docs/eval.md (four queries, one without a relevant doc).
fn eval(format: &str) -> String {
    stdout(
        &[
            "eval",
            "--run",
            "tests/data/eval/worked/run.jsonl",
            "--qrels",
            "tests/data/eval/worked/qrels.jsonl",
            "--metrics",
            "ndcg@10,recall@5,mrr@10",
            "--format",
            format,
        ],
        0,
    )
}

#[test]
fn eval_jsonl() {
    insta::assert_snapshot!("eval_jsonl", eval("jsonl"));
}

#[test]
fn eval_csv() {
    insta::assert_snapshot!("eval_csv", eval("csv"));
}

#[test]
fn eval_trec() {
    insta::assert_snapshot!("eval_trec", eval("trec"));
}

#[test]
fn eval_json() {
    insta::assert_snapshot!("eval_json", eval("json"));
}

#[test]
fn plan_json() {
    let json = stdout(
        &[
            "plan",
            "gates/prod.toml",
            "--pull-requests",
            "0",
            "--format",
            "json",
        ],
        0,
    );
    insta::assert_snapshot!("plan_json", json);
}

/// `aa` on three replicate runs of one commit (tests/data/noise/ann), 1,000 resamples.
fn aa(format: &str) -> String {
    stdout(
        &[
            "aa",
            "tests/data/noise/ann/main-1.jsonl",
            "tests/data/noise/ann/main-2.jsonl",
            "tests/data/noise/ann/main-3.jsonl",
            "--resamples",
            "1000",
            "--format",
            format,
        ],
        0,
    )
}

#[test]
fn aa_text() {
    insta::assert_snapshot!("aa_text", aa("text"));
}

#[test]
fn aa_json() {
    insta::assert_snapshot!("aa_json", aa("json"));
}

/// `label-plan` of the corrected-judge gate file of tests/data/judges.
fn label_plan(format: &str) -> String {
    stdout(
        &[
            "label-plan",
            "tests/data/judges/corrected.toml",
            "--format",
            format,
        ],
        0,
    )
}

#[test]
fn label_plan_text() {
    insta::assert_snapshot!("label_plan_text", label_plan("text"));
}

#[test]
fn label_plan_json() {
    insta::assert_snapshot!("label_plan_json", label_plan("json"));
}
