//! End to end through the binary: `rag-gate check gates/prod.toml --comment` with the GitHub
//! Actions environment pointing at temp files and a local mock of the GitHub API.
//! The example gate fails (ndcg@10 on risk=compliance), so the verdict's exit code is 1.

use crate::support;

use std::path::PathBuf;

use serde_json::json;
use support::github::*;
use support::output::assert_contains;
use support::Out;
use support::TestContext;
use wiremock::matchers::{header, method};
use wiremock::{Mock, ResponseTemplate};

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
    summary: String,
    outputs: String,
    report: PathBuf,
}

/// `rag-gate check gates/prod.toml COMMENT --format json --output report.json` in `ctx`, as a
/// GitHub Actions run of PR 7 against the mock (job summary and step outputs in the folder).
fn on_pull_request(gh: &Gh, comment: &str, ctx: &TestContext) -> Run {
    let event = ctx.write(
        "event.json",
        json!({ "pull_request": { "number": 7 } }).to_string(),
    );
    let (summary, outputs, report) = (
        ctx.join("summary.md"),
        ctx.join("output.txt"),
        ctx.join("report.json"),
    );
    let out: Out = ctx
        .command()
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_TOKEN", TOKEN)
        .env("GITHUB_REPOSITORY", "octo/repo")
        .env("GITHUB_API_URL", gh.server.uri())
        .env("GITHUB_EVENT_PATH", &event)
        .env("GITHUB_STEP_SUMMARY", &summary)
        .env("GITHUB_OUTPUT", &outputs)
        .arg("check")
        .arg(support::example_gate())
        .args([
            comment,
            "--resamples",
            "2000",
            "--format",
            "json",
            "--output",
        ])
        .arg(&report)
        .output()
        .unwrap()
        .into();
    Run {
        code: out.code.unwrap(),
        stdout: out.stdout,
        stderr: out.stderr,
        summary: std::fs::read_to_string(&summary).unwrap_or_default(),
        outputs: std::fs::read_to_string(&outputs).unwrap_or_default(),
        report,
    }
}

/// Neither stdout nor stderr shows the token.
fn assert_no_token_printed(r: &Run) {
    assert_no_token(&[r.stdout.clone(), r.stderr.clone()]);
}

#[test]
fn check_posts_the_comment_writes_summary_and_outputs_and_keeps_the_verdict() {
    let gh = Gh::start();
    // Listed twice: the comment's state is read before the analysis, and the comments are
    // listed again right before the write.
    gh.mount(list(vec![]).expect(2));
    gh.mount(
        create()
            .and(header("authorization", format!("Bearer {TOKEN}").as_str()))
            .respond_with(ResponseTemplate::new(201).set_body_json(json!({ "id": 101 })))
            .expect(1),
    );
    let ctx = TestContext::new();
    let r = on_pull_request(&gh, "--comment", &ctx);

    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        // The key: the gate id and 8 hex digits of the gate file's path.
        r.summary.starts_with("<!-- rag-gate:v1 id=prod.")
            && r.summary
                .contains(" -->\n### ❌ rag-gate fail: ndcg@10 dropped"),
        "{}",
        r.summary
    );
    assert_eq!(
        r.outputs,
        format!("verdict=fail\nreport={}\n", r.report.display())
    );
    assert!(r.report.exists());
    assert_contains(
        &r.stderr,
        "::error title=rag-gate::gate 3 failed: ndcg@10 on risk=compliance",
    );
    assert_contains(&r.stderr, "rag-gate: posted the report as PR comment 101");
    let posted = gh.requests();
    // (GET /user and the listing come first; the POST is the one write.)
    let post = posted
        .iter()
        .find(|r| r.method.as_str() == "POST")
        .expect("a POST");
    let body: serde_json::Value = serde_json::from_slice(&post.body).unwrap();
    assert_eq!(
        body["body"].as_str().unwrap(),
        r.summary.as_str(),
        "the comment is the summary"
    );
    insta::assert_snapshot!("the_comment_as_posted", body["body"].as_str().unwrap());
    assert_no_token_printed(&r);
    gh.verify();
}

#[test]
fn a_forbidden_comment_warns_and_keeps_exit_1_unless_required() {
    let gh = Gh::start();
    let refusal = json!({ "message": format!("Resource not accessible by integration {TOKEN}") });
    gh.mount(
        Mock::given(method("GET")).respond_with(ResponseTemplate::new(403).set_body_json(refusal)),
    );
    let ctx = TestContext::new();
    let r = on_pull_request(&gh, "--comment", &ctx);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_contains(
        &r.stderr,
        "::warning title=rag-gate::the PR comment was not posted",
    );
    assert!(r.outputs.starts_with("verdict=fail\n"), "{}", r.outputs);
    assert_no_token_printed(&r);

    let ctx = TestContext::new();
    let r = on_pull_request(&gh, "--comment=required", &ctx);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_contains(
        &r.stderr,
        "error: publishing to GitHub failed: listing the comments of PR #7",
    );
    assert_no_token_printed(&r);
}
