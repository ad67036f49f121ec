//! `--check-run`: the verdict as a GitHub check run (the Checks API) on the judged commit,
//! against a local mock of the GitHub REST API (wiremock): created once, then updated in place;
//! success / failure / neutral; the headline as the title and the Markdown report, trimmed to
//! the API's limit with its marker kept, as the summary; a refusal is a warning naming the
//! permission, and never shows the token.

use crate::support;

use rag_gate::model::Verdict;
use rag_gate::publish::{publish, CommentMode, GithubEnv, PublishArgs};
use serde_json::{json, Value};
use support::github::*;
use support::report::{failing_report, huge_report, passing_report};
use wiremock::matchers::{body_partial_json, header, method, path, query_param};
use wiremock::{Mock, ResponseTemplate};

const SHA: &str = "0123456789abcdef0123456789abcdef01234567";
const RUNS: &str = "/repos/octo/repo/check-runs";

fn listing() -> String {
    format!("/repos/octo/repo/commits/{SHA}/check-runs")
}

fn check_args() -> PublishArgs {
    PublishArgs {
        check_run: true,
        ..args(CommentMode::Off)
    }
}

fn env(gh: &Gh) -> GithubEnv {
    gh.env(&[("GITHUB_SHA", SHA)])
}

fn run(report: &rag_gate::model::Report, env: &GithubEnv) -> Vec<String> {
    publish(report, None, &check_args(), env)
        .unwrap()
        .iter()
        .map(|l| l.shown().into_owned())
        .collect()
}

fn listed(runs: Vec<Value>) -> ResponseTemplate {
    ResponseTemplate::new(200)
        .set_body_json(json!({ "total_count": runs.len(), "check_runs": runs }))
}

/// The body of the one request sent with `verb`.
fn sent(gh: &Gh, verb: &str) -> Value {
    let reqs: Vec<_> = gh
        .requests()
        .into_iter()
        .filter(|r| r.method.as_str() == verb)
        .collect();
    assert_eq!(reqs.len(), 1, "{verb} requests");
    serde_json::from_slice(&reqs[0].body).unwrap()
}

#[test]
fn a_first_run_creates_a_failing_check_run_named_for_the_gate() {
    let gh = Gh::start();
    let report = failing_report();
    let name = format!("rag-gate: {}", report.gate_id);
    gh.mount(
        Mock::given(method("GET"))
            .and(path(listing()))
            .and(query_param("check_name", name.as_str()))
            .and(header("authorization", format!("Bearer {TOKEN}").as_str()))
            .respond_with(listed(vec![]))
            .expect(1),
    );
    gh.mount(
        Mock::given(method("POST"))
            .and(path(RUNS))
            .and(body_partial_json(json!({
                "name": name,
                "head_sha": SHA,
                "status": "completed",
                "conclusion": "failure",
                "output": { "title": report.headline },
            })))
            .respond_with(ResponseTemplate::new(201).set_body_json(json!({ "id": 55 })))
            .expect(1),
    );
    gh.mount(never("PATCH"));
    let lines = run(&report, &env(&gh));
    assert_eq!(
        lines,
        [format!("rag-gate: created check run 55 ({name}, failure)")]
    );
    gh.verify();
    // The summary is the Markdown report, its marker first.
    let body = sent(&gh, "POST");
    let summary = body["output"]["summary"].as_str().unwrap();
    assert!(summary.starts_with("<!-- rag-gate"), "{summary}");
    assert!(summary.contains("rag-gate fail"), "{summary}");
}

#[test]
fn a_rerun_on_the_same_commit_updates_the_check_run_in_place() {
    let gh = Gh::start();
    let report = passing_report();
    let name = format!("rag-gate: {}", report.gate_id);
    gh.mount(
        Mock::given(method("GET"))
            .and(path(listing()))
            .respond_with(listed(vec![
                json!({ "id": 9, "name": "other check" }),
                json!({ "id": 55, "name": name }),
            ]))
            .expect(1),
    );
    gh.mount(
        Mock::given(method("PATCH"))
            .and(path(format!("{RUNS}/55")))
            .and(body_partial_json(json!({
                "name": name,
                "status": "completed",
                "conclusion": "success",
                "output": { "title": report.headline },
            })))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "id": 55 })))
            .expect(1),
    );
    gh.mount(never("POST"));
    let lines = run(&report, &env(&gh));
    assert_eq!(
        lines,
        [format!("rag-gate: updated check run 55 ({name}, success)")]
    );
    gh.verify();
}

#[test]
fn each_verdict_has_its_conclusion() {
    for (verdict, on_inconclusive, want) in [
        (Verdict::Pass, "pass", "success"),
        (Verdict::Untouched, "pass", "success"),
        (Verdict::Fail, "pass", "failure"),
        (Verdict::Inconclusive, "pass", "neutral"),
        (Verdict::Inconclusive, "fail", "failure"),
    ] {
        let gh = Gh::start();
        let mut report = passing_report();
        report.verdict = verdict;
        report.on_inconclusive = on_inconclusive.into();
        gh.mount(
            Mock::given(method("GET"))
                .and(path(listing()))
                .respond_with(listed(vec![])),
        );
        gh.mount(
            Mock::given(method("POST"))
                .and(path(RUNS))
                .and(body_partial_json(json!({ "conclusion": want })))
                .respond_with(ResponseTemplate::new(201).set_body_json(json!({ "id": 1 })))
                .expect(1),
        );
        run(&report, &env(&gh));
        gh.verify();
    }
}

#[test]
fn a_large_report_is_trimmed_to_the_summary_limit_with_its_marker_kept() {
    let gh = Gh::start();
    let report = huge_report(400);
    assert!(rag_gate::report::markdown::render(&report).chars().count() > 65_535);
    gh.mount(
        Mock::given(method("GET"))
            .and(path(listing()))
            .respond_with(listed(vec![])),
    );
    gh.mount(
        Mock::given(method("POST"))
            .and(path(RUNS))
            .respond_with(ResponseTemplate::new(201).set_body_json(json!({ "id": 2 }))),
    );
    run(&report, &env(&gh));
    let body = sent(&gh, "POST");
    let summary = body["output"]["summary"].as_str().unwrap();
    assert!(summary.chars().count() <= 65_535, "{}", summary.len());
    assert!(summary.starts_with("<!-- rag-gate"), "marker lost");
    assert!(summary.contains("to fit the size limit"), "no trim note");
}

#[test]
fn a_refusal_is_a_warning_naming_the_permission_without_the_token() {
    let gh = Gh::start();
    gh.mount(
        Mock::given(method("GET"))
            .and(path(listing()))
            .respond_with(listed(vec![])),
    );
    gh.mount(Mock::given(method("POST")).and(path(RUNS)).respond_with(
        ResponseTemplate::new(403).set_body_json(
            json!({ "message": format!("Resource not accessible by integration {TOKEN}") }),
        ),
    ));
    let lines = run(&failing_report(), &env(&gh));
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].contains("the check run was not posted"),
        "{lines:?}"
    );
    assert!(lines[0].contains("checks: write"), "{lines:?}");
    assert_no_token(&lines);
}

#[test]
fn without_a_commit_nothing_is_sent_and_the_warning_says_why() {
    let gh = Gh::start();
    gh.forbid_writes();
    gh.mount(never("GET"));
    let lines = run(&failing_report(), &gh.env(&[]));
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("no commit to attach it to"), "{lines:?}");
    gh.verify();
}

#[test]
fn check_with_the_flag_posts_the_check_run_and_keeps_the_exit_code() {
    // Through the binary: the example gate fails (exit 1), and the check run says failure.
    let gh = Gh::start();
    gh.mount(
        Mock::given(method("GET"))
            .and(path(listing()))
            .respond_with(listed(vec![]))
            .expect(1),
    );
    gh.mount(
        Mock::given(method("POST"))
            .and(path(RUNS))
            .and(body_partial_json(
                json!({ "conclusion": "failure", "head_sha": SHA }),
            ))
            .respond_with(ResponseTemplate::new(201).set_body_json(json!({ "id": 77 })))
            .expect(1),
    );
    // The context runs in an empty environment: no GITHUB_EVENT_PATH, no GITHUB_ACTIONS.
    let out = support::TestContext::new()
        .env_clear()
        .env("GITHUB_TOKEN", TOKEN)
        .env("GITHUB_REPOSITORY", "octo/repo")
        .env("GITHUB_API_URL", gh.server.uri())
        .env("GITHUB_SHA", SHA)
        .check_example(&["--check-run", "--resamples", "2000"])
        .expect(1);
    assert!(
        out.stderr.contains("created check run 77"),
        "{}",
        out.stderr
    );
    assert_no_token(&[out.stderr]);
    gh.verify();
}
