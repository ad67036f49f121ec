//! A hostile or broken GitHub, against a local mock server: capped bodies and pages, no blind
//! retry of a create, only our own identity's comment is sticky, and GitHub's text is redacted
//! before it is cut. Each test is a row of docs/hostile.md, listed in `hostile_cases.rs`.

use crate::support;

use rag_gate::publish::{publish, CommentMode};
use serde_json::json;
use support::github::*;
use support::report::failing_report;
use wiremock::matchers::{method, path};
use wiremock::{Mock, ResponseTemplate};

const MARKER: &str = "<!-- rag-gate:v1 id=prod -->";

fn best_effort(gh: &Gh) -> Vec<String> {
    publish(
        &failing_report(),
        None,
        &args(CommentMode::BestEffort),
        &gh.env(&[]),
    )
    .unwrap()
    .iter()
    .map(|l| l.shown().into_owned())
    .collect()
}

fn count(gh: &Gh, verb: &str) -> usize {
    gh.requests()
        .iter()
        .filter(|r| r.method.as_str() == verb)
        .count()
}

/// `GET /user` answers `login`.
fn user(login: &str) -> Mock {
    Mock::given(method("GET"))
        .and(path("/user"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "login": login })))
}

#[test]
fn github_error_redacted_then_cut() {
    let gh = Gh::start();
    gh.mount(list(vec![]));
    // The token starts at character 195: cutting at 200 before redacting would leave a prefix.
    let msg = format!("{}{TOKEN}", "x".repeat(195));
    gh.mount(
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(422).set_body_json(json!({ "message": msg }))),
    );
    let lines = best_effort(&gh);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("422"), "{}", lines[0]);
    assert!(
        !lines[0].contains(&TOKEN[..5]),
        "a prefix of the token leaked: {}",
        lines[0]
    );
}

#[test]
fn github_huge_body() {
    let gh = Gh::start();
    // 33 MiB of comments: past the cap, so not read into memory.
    let big = vec![comment(1, &"y".repeat(1 << 20)); 33];
    gh.mount(list(big));
    let lines = best_effort(&gh);
    assert!(lines[0].contains("larger than 32 MiB"), "{lines:?}");
    assert_eq!(count(&gh, "POST") + count(&gh, "PATCH"), 0);
}

#[test]
fn github_endless_pages() {
    let gh = Gh::start();
    let again = format!(
        "<{}{LIST}?per_page=100&page=2>; rel=\"next\"",
        gh.server.uri()
    );
    gh.mount(
        list_get().respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!([]))
                .insert_header("link", again.as_str()),
        ),
    );
    let lines = best_effort(&gh);
    assert!(lines[0].contains("more than 300 pages"), "{lines:?}");
    assert_eq!(count(&gh, "GET"), 1 + 300, "GET /user, then 300 pages");
    assert_eq!(count(&gh, "POST"), 0);
}

#[test]
fn github_post_502_stored() {
    let gh = Gh::start();
    let body = rag_gate::report::markdown::render_trimmed(
        &failing_report(),
        rag_gate::report::markdown::GITHUB_COMMENT_LIMIT,
    );
    // First listing: nothing. The create answers 502, but GitHub stored it: the second
    // listing shows it, so it is not posted again.
    gh.mount(list(vec![]).up_to_n_times(1));
    gh.mount(list(vec![comment(900, &body)]));
    gh.mount(create().respond_with(ResponseTemplate::new(502)).expect(1));
    let lines = best_effort(&gh);
    assert_eq!(lines, ["rag-gate: posted the report as PR comment 900"]);
    gh.verify();
}

#[test]
fn github_planted_marker() {
    let gh = Gh::start();
    let fake = json!({ "id": 66, "body": format!("{MARKER}\n### ✅ rag-gate: pass"), "user": { "login": "mallory" } });
    gh.mount(list_get().respond_with(ResponseTemplate::new(200).set_body_json(vec![fake])));
    gh.mount(never("PATCH"));
    gh.mount(create().respond_with(created(67)).expect(1));
    let lines = best_effort(&gh);
    assert_eq!(lines, ["rag-gate: posted the report as PR comment 67"]);
    gh.verify();
}

#[test]
fn github_token_identity() {
    let gh = Gh::start();
    gh.mount(user("rag-bot"));
    // A marker comment by github-actions[bot] is not ours when the token is rag-bot's...
    let bot = comment(10, &format!("{MARKER}\nold"));
    let ours =
        json!({ "id": 11, "body": format!("{MARKER}\nold"), "user": { "login": "rag-bot" } });
    gh.mount(list(vec![bot, ours]));
    gh.mount(update(11).respond_with(updated(11)).expect(1));
    gh.mount(never("POST"));
    let lines = best_effort(&gh);
    // ...so rag-bot's own comment 11 is the one edited.
    assert_eq!(lines, ["rag-gate: updated PR comment 11"]);
    gh.verify();
}
