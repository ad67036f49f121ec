//! A local mock of the GitHub REST API (wiremock) for the publish tests, and helpers.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::time::Duration;

use rag_gate::publish::{CommentMode, GithubEnv, PublishArgs};
use serde_json::{json, Value};
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

    pub fn requests(&self) -> Vec<wiremock::Request> {
        self.rt.block_on(self.server.received_requests()).unwrap()
    }

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
        env
    }
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

pub fn no_writes() -> [Mock; 2] {
    [
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(201))
            .expect(0),
        Mock::given(method("PATCH"))
            .respond_with(ResponseTemplate::new(200))
            .expect(0),
    ]
}

pub fn assert_no_token(lines: &[String]) {
    for l in lines {
        assert!(!l.contains(TOKEN), "token leaked: {l}");
    }
}
