//! A local mock of the GitHub REST API (wiremock) for the publish tests, and the mocks they
//! mount again and again: the PR's comment list, a create, an update, a verb never called.

use std::collections::BTreeMap;
use std::time::Duration;

use rag_gate::model::Report;
use rag_gate::publish::{publish, CommentMode, GithubEnv, PublishArgs};
use serde_json::{json, Value};

use super::TestContext;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockBuilder, MockServer, ResponseTemplate};

pub const TOKEN: &str = "ghs_TOPSECRET_1234567890";
pub const LIST: &str = "/repos/octo/repo/issues/7/comments";

/// A mock server on its own runtime; `publish` builds its own runtime, so tests stay synchronous.
pub struct Gh {
    pub rt: tokio::runtime::Runtime,
    pub server: MockServer,
}

impl Gh {
    pub fn start() -> Gh {
        let rt = tokio::runtime::Runtime::new().unwrap();
        let server = rt.block_on(MockServer::start());
        Gh { rt, server }
    }

    pub fn mount(&self, mock: Mock) {
        self.rt.block_on(mock.mount(&self.server));
    }

    pub fn verify(&self) {
        self.rt.block_on(self.server.verify());
    }

    pub fn reset(&self) {
        self.rt.block_on(self.server.reset());
    }

    /// Mounts [`no_writes`]: neither a create nor an update may happen on this server.
    pub fn forbid_writes(&self) {
        for m in no_writes() {
            self.mount(m);
        }
    }

    pub fn requests(&self) -> Vec<wiremock::Request> {
        self.rt.block_on(self.server.received_requests()).unwrap()
    }

    /// The GitHub environment pointing at this server (token, `octo/repo`), plus `extra`.
    pub fn env(&self, extra: &[(&str, &str)]) -> GithubEnv {
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
        // Retries wait a millisecond, not a second: the stand-in answers at once.
        env.backoff = Duration::from_millis(1);
        env
    }

    /// `ctx` set up as a pull-request run against this server: the token, `octo/repo`, this
    /// server as the API, and an event file (`event.json` in the folder) for PR 7 at `sha`.
    pub fn pull_request(&self, ctx: TestContext, sha: &str) -> TestContext {
        let event = json!({ "pull_request": { "number": 7, "head": { "sha": sha } } });
        let path = ctx.write("event.json", event.to_string());
        ctx.env("GITHUB_TOKEN", TOKEN)
            .env("GITHUB_REPOSITORY", "octo/repo")
            .env("GITHUB_API_URL", self.server.uri())
            .env("GITHUB_EVENT_PATH", path)
    }

    /// Publishes `report` to PR 7 of this server in `mode`; the lines it would print.
    pub fn publish(&self, report: &Report, mode: CommentMode) -> Vec<String> {
        publish_to(report, mode, &self.env(&[]))
    }
}

/// Publishes `report` to PR 7 in `mode` through `env`, expecting no error; the lines printed.
pub fn publish_to(report: &Report, mode: CommentMode, env: &GithubEnv) -> Vec<String> {
    // The lines as printed.
    publish(report, None, &args(mode), env)
        .unwrap()
        .iter()
        .map(|l| l.shown().into_owned())
        .collect()
}

pub fn args(mode: CommentMode) -> PublishArgs {
    PublishArgs {
        comment: mode,
        pr: Some(7),
        ..PublishArgs::default()
    }
}

pub fn comment(id: u64, body: &str) -> Value {
    json!({ "id": id, "body": body, "user": { "login": "github-actions[bot]" } })
}

/// `GET` of the PR's comments (chain more matchers, then `respond_with`).
pub fn list_get() -> MockBuilder {
    Mock::given(method("GET")).and(path(LIST))
}

pub fn list(items: Vec<Value>) -> Mock {
    list_get().respond_with(ResponseTemplate::new(200).set_body_json(items))
}

/// `POST` of a new comment on the PR (chain more matchers, then `respond_with`).
pub fn create() -> MockBuilder {
    Mock::given(method("POST")).and(path(LIST))
}

/// GitHub's answer to a create: 201 and the new comment `id`.
pub fn created(id: u64) -> ResponseTemplate {
    ResponseTemplate::new(201).set_body_json(comment(id, "x"))
}

/// `PATCH` of comment `id` (chain more matchers, then `respond_with`).
pub fn update(id: u64) -> MockBuilder {
    Mock::given(method("PATCH")).and(path(format!("/repos/octo/repo/issues/comments/{id}")))
}

/// GitHub's answer to an update of comment `id`: 200 and the comment.
pub fn updated(id: u64) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(comment(id, "x"))
}

/// Fails the test (on `verify`, or when the server is dropped) if `verb` is ever called.
pub fn never(verb: &str) -> Mock {
    let status = if verb == "POST" { 201 } else { 200 };
    Mock::given(method(verb))
        .respond_with(ResponseTemplate::new(status))
        .expect(0)
}

/// Neither a create nor an update may happen.
pub fn no_writes() -> [Mock; 2] {
    [never("POST"), never("PATCH")]
}

pub fn assert_no_token(lines: &[String]) {
    for l in lines {
        assert!(!l.contains(TOKEN), "token leaked: {l}");
    }
}
