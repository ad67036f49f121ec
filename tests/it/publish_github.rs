//! The sticky comment against a local mock of the GitHub REST API (wiremock), reached through
//! `GITHUB_API_URL`: create, update in place with PATCH, leave alone, find on a later page.

use crate::support;

use rag_gate::publish::CommentMode;
use rag_gate::report::markdown::render;
use serde_json::json;
use support::github::*;
use support::report::failing_report;
use wiremock::matchers::{
    body_partial_json, header, method, path, query_param, query_param_is_missing,
};
use wiremock::{Mock, MockServer, ResponseTemplate};

#[test]
fn first_run_creates_one_comment_with_the_marker() {
    let gh = Gh::start();
    let report = failing_report();
    gh.mount(
        list_get()
            .and(query_param("per_page", "100"))
            .and(header("authorization", format!("Bearer {TOKEN}").as_str()))
            .respond_with(ResponseTemplate::new(200).set_body_json(vec![comment(1, "LGTM")]))
            .expect(1),
    );
    gh.mount(
        create()
            .and(body_partial_json(json!({ "body": render(&report) })))
            .respond_with(created(101))
            .expect(1),
    );
    let lines = gh.publish(&report, CommentMode::BestEffort);
    assert_eq!(lines, ["rag-gate: posted the report as PR comment 101"]);
    gh.verify();
}

#[test]
fn second_run_with_a_changed_body_patches_the_same_comment() {
    let gh = Gh::start();
    let first = failing_report();
    gh.mount(list(vec![]));
    gh.mount(create().respond_with(created(101)));
    gh.publish(&first, CommentMode::BestEffort);

    gh.reset();
    let mut second = failing_report();
    second.comparisons[0].delta = 0.02;
    second.comparisons[0].estimate = 0.02;
    gh.mount(list(vec![comment(100, "first!"), comment(101, &render(&first))]).expect(1));
    gh.mount(
        update(101)
            .and(body_partial_json(json!({ "body": render(&second) })))
            .respond_with(updated(101))
            .expect(1),
    );
    gh.mount(never("POST"));
    let lines = gh.publish(&second, CommentMode::BestEffort);
    assert_eq!(lines, ["rag-gate: updated PR comment 101"]);
    gh.verify();
}

#[test]
fn identical_body_writes_nothing() {
    let gh = Gh::start();
    let report = failing_report();
    gh.mount(list(vec![comment(101, &render(&report).replace('\n', "\r\n"))]).expect(1));
    gh.forbid_writes();
    let lines = gh.publish(&report, CommentMode::Required);
    assert_eq!(
        lines,
        ["rag-gate: PR comment 101 already shows this report"]
    );
    gh.verify();
}

#[test]
fn marker_on_the_second_page_is_found_and_updated() {
    let gh = Gh::start();
    let page2 = format!("{}{LIST}?per_page=100&page=2", gh.server.uri());
    gh.mount(
        list_get()
            .and(query_param_is_missing("page"))
            .respond_with(
                ResponseTemplate::new(200)
                    .set_body_json((1..=100).map(|i| comment(i, "chatter")).collect::<Vec<_>>())
                    .insert_header(
                        "link",
                        format!("<{page2}>; rel=\"next\", <{page2}>; rel=\"last\"").as_str(),
                    ),
            )
            .expect(1),
    );
    gh.mount(
        list_get()
            .and(query_param("page", "2"))
            .and(header("authorization", format!("Bearer {TOKEN}").as_str()))
            .respond_with(ResponseTemplate::new(200).set_body_json(vec![comment(
                555,
                "<!-- rag-gate:v1 id=prod -->\nold report",
            )]))
            .expect(1),
    );
    gh.mount(update(555).respond_with(updated(555)).expect(1));
    gh.mount(never("POST"));
    let lines = gh.publish(&failing_report(), CommentMode::BestEffort);
    assert_eq!(lines, ["rag-gate: updated PR comment 555"]);
    gh.verify();
}

#[test]
fn a_next_link_to_another_host_is_not_followed_with_the_token() {
    let gh = Gh::start();
    let elsewhere = gh.rt.block_on(MockServer::start());
    gh.rt.block_on(never("GET").mount(&elsewhere));
    let next = format!(
        "<{}/steal?page=2>; rel=\"next\"",
        elsewhere.uri().replace("127.0.0.1", "localhost")
    );
    gh.mount(
        list_get().respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!([]))
                .insert_header("link", next.as_str()),
        ),
    );
    let lines = gh.publish(&failing_report(), CommentMode::BestEffort);
    assert!(
        lines[0].contains("next-page link points to another host"),
        "{lines:?}"
    );
    gh.rt.block_on(elsewhere.verify());
}

#[test]
fn github_enterprise_api_path_is_kept_on_every_page() {
    let gh = Gh::start();
    let ghe = format!("{}/api/v3", gh.server.uri());
    let page2 = format!("{ghe}/repositories/99/issues/7/comments?per_page=100&page=2");
    gh.mount(
        Mock::given(method("GET"))
            .and(path(format!("/api/v3{LIST}")))
            .respond_with(
                ResponseTemplate::new(200)
                    .set_body_json(json!([comment(1, "hi")]))
                    .insert_header("link", format!("<{page2}>; rel=\"next\"").as_str()),
            )
            .expect(1),
    );
    gh.mount(
        Mock::given(method("GET"))
            .and(path("/api/v3/repositories/99/issues/7/comments"))
            .and(query_param("page", "2"))
            .and(header("authorization", format!("Bearer {TOKEN}").as_str()))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
            .expect(1),
    );
    gh.mount(
        Mock::given(method("POST"))
            .and(path(format!("/api/v3{LIST}")))
            .respond_with(created(9))
            .expect(1),
    );
    let env = gh.env(&[("GITHUB_API_URL", ghe.as_str())]);
    let lines = publish_to(&failing_report(), CommentMode::BestEffort, &env);
    assert_eq!(lines, ["rag-gate: posted the report as PR comment 9"]);
    gh.verify();
}
