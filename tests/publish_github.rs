//! The sticky comment, outputs, summary and annotations against a local mock of the GitHub REST
//! API (wiremock), reached through `GITHUB_API_URL`. No network.

mod publish_support;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use publish_support::failing_report;
use rag_gate::publish::{publish, CommentMode, GithubEnv, PublishArgs};
use rag_gate::report::markdown::render;
use serde_json::{json, Value};
use wiremock::matchers::{
    body_partial_json, header, method, path, query_param, query_param_is_missing,
};
use wiremock::{Mock, MockBuilder, MockServer, ResponseTemplate};

const TOKEN: &str = "ghs_TOPSECRET_1234567890";
const LIST: &str = "/repos/octo/repo/issues/7/comments";

/// A mock server on its own runtime; `publish` builds its own runtime, so tests stay synchronous.
struct Gh {
    rt: tokio::runtime::Runtime,
    server: MockServer,
}

impl Gh {
    fn start() -> Gh {
        let rt = tokio::runtime::Runtime::new().unwrap();
        let server = rt.block_on(MockServer::start());
        Gh { rt, server }
    }

    fn mount(&self, mock: Mock) {
        self.rt.block_on(mock.mount(&self.server));
    }

    fn verify(&self) {
        self.rt.block_on(self.server.verify());
    }

    fn reset(&self) {
        self.rt.block_on(self.server.reset());
    }

    fn requests(&self) -> Vec<wiremock::Request> {
        self.rt.block_on(self.server.received_requests()).unwrap()
    }

    fn env(&self, extra: &[(&str, &str)]) -> GithubEnv {
        let mut vars: BTreeMap<String, String> = [
            ("GITHUB_TOKEN", TOKEN),
            ("GITHUB_REPOSITORY", "octo/repo"),
            ("GITHUB_API_URL", self.server.uri().as_str()),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        for (k, v) in extra {
            vars.insert(k.to_string(), v.to_string());
        }
        let mut env = GithubEnv::from_lookup("GITHUB_TOKEN", |k| vars.get(k).cloned());
        env.read_timeout = Duration::from_secs(5);
        env
    }
}

fn args(mode: CommentMode) -> PublishArgs {
    PublishArgs {
        comment: mode,
        pr: Some(7),
        ..PublishArgs::default()
    }
}

fn comment(id: u64, body: &str) -> Value {
    json!({ "id": id, "body": body, "user": { "login": "github-actions[bot]" } })
}

/// `GET` of the PR's comments (chain more matchers, then `respond_with`).
fn list_get() -> MockBuilder {
    Mock::given(method("GET")).and(path(LIST))
}

fn list(items: Vec<Value>) -> Mock {
    list_get().respond_with(ResponseTemplate::new(200).set_body_json(items))
}

fn no_writes() -> [Mock; 2] {
    [
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(201))
            .expect(0),
        Mock::given(method("PATCH"))
            .respond_with(ResponseTemplate::new(200))
            .expect(0),
    ]
}

fn assert_no_token(lines: &[String]) {
    for l in lines {
        assert!(!l.contains(TOKEN), "token leaked: {l}");
    }
}

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
        Mock::given(method("POST"))
            .and(path(LIST))
            .and(body_partial_json(json!({ "body": render(&report) })))
            .respond_with(ResponseTemplate::new(201).set_body_json(comment(101, "x")))
            .expect(1),
    );
    let lines = publish(&report, None, &args(CommentMode::BestEffort), &gh.env(&[])).unwrap();
    assert_eq!(lines, ["rag-gate: posted the report as PR comment 101"]);
    gh.verify();
}

#[test]
fn second_run_with_a_changed_body_patches_the_same_comment() {
    let gh = Gh::start();
    let first = failing_report();
    gh.mount(list(vec![]));
    gh.mount(
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(201).set_body_json(comment(101, "x"))),
    );
    publish(&first, None, &args(CommentMode::BestEffort), &gh.env(&[])).unwrap();

    gh.reset();
    let mut second = failing_report();
    second.comparisons[0].delta = 0.02;
    gh.mount(list(vec![comment(100, "first!"), comment(101, &render(&first))]).expect(1));
    gh.mount(
        Mock::given(method("PATCH"))
            .and(path("/repos/octo/repo/issues/comments/101"))
            .and(body_partial_json(json!({ "body": render(&second) })))
            .respond_with(ResponseTemplate::new(200).set_body_json(comment(101, "x")))
            .expect(1),
    );
    gh.mount(
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(201))
            .expect(0),
    );
    let lines = publish(&second, None, &args(CommentMode::BestEffort), &gh.env(&[])).unwrap();
    assert_eq!(lines, ["rag-gate: updated PR comment 101"]);
    gh.verify();
}

#[test]
fn identical_body_writes_nothing() {
    let gh = Gh::start();
    let report = failing_report();
    gh.mount(list(vec![comment(101, &render(&report).replace('\n', "\r\n"))]).expect(1));
    for m in no_writes() {
        gh.mount(m);
    }
    let lines = publish(&report, None, &args(CommentMode::Required), &gh.env(&[])).unwrap();
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
    gh.mount(
        Mock::given(method("PATCH"))
            .and(path("/repos/octo/repo/issues/comments/555"))
            .respond_with(ResponseTemplate::new(200).set_body_json(comment(555, "x")))
            .expect(1),
    );
    gh.mount(
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(201))
            .expect(0),
    );
    let lines = publish(
        &failing_report(),
        None,
        &args(CommentMode::BestEffort),
        &gh.env(&[]),
    )
    .unwrap();
    assert_eq!(lines, ["rag-gate: updated PR comment 555"]);
    gh.verify();
}

#[test]
fn a_next_link_to_another_host_is_not_followed_with_the_token() {
    let gh = Gh::start();
    let elsewhere = gh.rt.block_on(MockServer::start());
    gh.rt.block_on(
        Mock::given(method("GET"))
            .respond_with(ResponseTemplate::new(200))
            .expect(0)
            .mount(&elsewhere),
    );
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
    let lines = publish(
        &failing_report(),
        None,
        &args(CommentMode::BestEffort),
        &gh.env(&[]),
    )
    .unwrap();
    assert!(
        lines[0].contains("next-page link points to another host"),
        "{lines:?}"
    );
    gh.rt.block_on(elsewhere.verify());
}

#[test]
fn forbidden_create_is_a_warning_and_the_token_never_shows() {
    let gh = Gh::start();
    gh.mount(list(vec![]));
    // A hostile or buggy server echoing the token back must not get it into our output.
    let echo = json!({ "message": format!("Resource not accessible by integration ({TOKEN})") });
    gh.mount(
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(403).set_body_json(echo))
            .expect(2),
    );
    let env = gh.env(&[("GITHUB_ACTIONS", "true")]);
    let lines = publish(
        &failing_report(),
        None,
        &args(CommentMode::BestEffort),
        &env,
    )
    .unwrap();
    let warning = lines
        .iter()
        .find(|l| l.starts_with("::warning title=rag-gate::"))
        .unwrap();
    assert!(
        warning.contains("403") && warning.contains("two-workflow setup"),
        "{warning}"
    );
    assert!(warning.contains("***"), "{warning}");
    assert_no_token(&lines);

    let err = publish(&failing_report(), None, &args(CommentMode::Required), &env).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.starts_with("publishing to GitHub failed: creating a comment on PR #7"),
        "{msg}"
    );
    assert!(
        !msg.contains(TOKEN) && !format!("{err:?}").contains(TOKEN),
        "{msg}"
    );
    assert_eq!(err.exit_code(), 2);
    gh.verify();
}

#[test]
fn server_errors_are_retried_then_a_warning() {
    let gh = Gh::start();
    gh.mount(
        list_get()
            .respond_with(ResponseTemplate::new(502))
            .expect(3),
    );
    gh.mount(
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(201))
            .expect(0),
    );
    let lines = publish(
        &failing_report(),
        None,
        &args(CommentMode::BestEffort),
        &gh.env(&[]),
    )
    .unwrap();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0]
        .starts_with("warning: the PR comment was not posted (listing the comments of PR #7"));
    assert!(
        lines[0].contains("502 Bad Gateway after 2 retries"),
        "{}",
        lines[0]
    );
    gh.verify();
}

#[test]
fn not_found_names_what_to_check() {
    let gh = Gh::start();
    gh.mount(
        list_get().respond_with(
            ResponseTemplate::new(404).set_body_json(json!({"message": "Not Found"})),
        ),
    );
    let lines = publish(
        &failing_report(),
        None,
        &args(CommentMode::BestEffort),
        &gh.env(&[]),
    )
    .unwrap();
    assert!(
        lines[0].contains("404") && lines[0].contains("GITHUB_REPOSITORY"),
        "{lines:?}"
    );
}

#[test]
fn a_slow_server_times_out_into_a_warning() {
    let gh = Gh::start();
    gh.mount(list_get().respond_with(ResponseTemplate::new(200).set_delay(Duration::from_secs(3))));
    let mut env = gh.env(&[]);
    env.read_timeout = Duration::from_millis(200);
    env.retries = 0;
    let started = std::time::Instant::now();
    let lines = publish(
        &failing_report(),
        None,
        &args(CommentMode::BestEffort),
        &env,
    )
    .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    assert!(lines[0].contains("could not reach GitHub"), "{lines:?}");
}

#[test]
fn missing_token_or_pr_is_a_warning_without_any_request() {
    let gh = Gh::start();
    for m in no_writes() {
        gh.mount(m);
    }
    gh.mount(
        Mock::given(method("GET"))
            .respond_with(ResponseTemplate::new(200))
            .expect(0),
    );
    let mut env = gh.env(&[]);
    env.token = None;
    let lines = publish(
        &failing_report(),
        None,
        &args(CommentMode::BestEffort),
        &env,
    )
    .unwrap();
    assert_eq!(lines, ["warning: the PR comment was not posted (no GitHub token: GITHUB_TOKEN is not set); the verdict stands"]);
    let err = publish(&failing_report(), None, &args(CommentMode::Required), &env).unwrap_err();
    assert!(err.to_string().contains("no GitHub token"), "{err}");

    let no_pr = PublishArgs {
        pr: None,
        ..args(CommentMode::BestEffort)
    };
    let lines = publish(&failing_report(), None, &no_pr, &gh.env(&[])).unwrap();
    assert!(
        lines[0].contains("no pull request number: pass --pr N"),
        "{lines:?}"
    );
    gh.verify();
}

#[test]
fn comment_off_makes_no_request() {
    let gh = Gh::start();
    let lines = publish(
        &failing_report(),
        None,
        &PublishArgs::default(),
        &gh.env(&[]),
    )
    .unwrap();
    assert!(lines.is_empty(), "{lines:?}");
    assert!(gh.requests().is_empty());
}

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
    assert_eq!(std::fs::read_to_string(&summary).unwrap(), render(&report));
    assert_eq!(
        std::fs::read_to_string(&output).unwrap(),
        "earlier=1\nverdict=fail\nreport=out/report.json\n"
    );
    assert_eq!(
        lines,
        ["::error title=rag-gate::gate 3 failed: ndcg@10 on risk=compliance (max-drop 0.01): CI lower bound −0.0480 < −0.01"]
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
    assert_eq!(lines.len(), 10);
    assert!(
        lines[9].ends_with("and 16 more failed gates: see the job summary or the report"),
        "{}",
        lines[9]
    );
}
