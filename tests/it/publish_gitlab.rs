//! GitLab merge-request notes through the binary, against a local stand-in of GitLab's REST API
//! v4 (wiremock): `check --comment` in a merge-request pipeline creates one sticky note, edits it
//! in place, pages through the notes, leaves another user's note with our marker alone, turns
//! 401/403/429 into warnings that never change the exit code, refuses CI_JOB_TOKEN with a
//! sentence, and never prints the token. Routes and verbs as GitLab documents them: `GET /user`,
//! `GET|POST /projects/:id/merge_requests/:iid/notes`, `PUT .../notes/:note_id`.

use crate::support;

use std::path::Path;

use serde_json::{json, Value};
use support::output::assert_contains;
use support::{command_in, repo};
use wiremock::matchers::{header, method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

const TOKEN: &str = "glpat-TOPSECRET-0123456789";
const BOT: &str = "project_42_bot_rag";
const NOTES: &str = "/api/v4/projects/42/merge_requests/7/notes";
const SHA: &str = "0123456789abcdef0123456789abcdef01234567";

struct Lab {
    rt: tokio::runtime::Runtime,
    server: MockServer,
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Lab {
    fn start() -> Lab {
        let rt = tokio::runtime::Runtime::new().unwrap();
        let server = rt.block_on(MockServer::start());
        let lab = Lab { rt, server };
        lab.mount(
            Mock::given(method("GET"))
                .and(path("/api/v4/user"))
                .and(header("private-token", TOKEN))
                .respond_with(
                    ResponseTemplate::new(200).set_body_json(json!({ "id": 9, "username": BOT })),
                ),
        );
        lab
    }

    fn mount(&self, mock: Mock) {
        self.rt.block_on(mock.mount(&self.server));
    }

    fn requests(&self) -> Vec<wiremock::Request> {
        self.rt.block_on(self.server.received_requests()).unwrap()
    }

    fn verify(&self) {
        self.rt.block_on(self.server.verify());
    }

    /// `rag-gate check GATES --comment` from the repository root in a merge-request pipeline
    /// pointing at this server.
    fn comment_run(&self, gates: &[&str], extra: &[&str], token_var: &str) -> Run {
        let out = command_in(&repo(""))
            .arg("check")
            .args(gates)
            .args(["--resamples", "500", "--comment"])
            .args(extra)
            .env("GITLAB_CI", "true")
            .env("CI_API_V4_URL", format!("{}/api/v4", self.server.uri()))
            .env("CI_PROJECT_ID", "42")
            .env("CI_MERGE_REQUEST_IID", "7")
            .env("CI_COMMIT_SHA", SHA)
            .env(token_var, TOKEN)
            .output()
            .unwrap();
        let run = Run {
            code: out.status.code().unwrap(),
            stdout: String::from_utf8(out.stdout).unwrap(),
            stderr: String::from_utf8(out.stderr).unwrap(),
        };
        assert!(
            !run.stdout.contains(TOKEN) && !run.stderr.contains(TOKEN),
            "the token was printed: {}",
            run.stderr
        );
        run
    }

    /// The bodies of the POSTs and PUTs (path, body).
    fn writes(&self) -> Vec<(String, String, String)> {
        self.requests()
            .into_iter()
            .filter(|r| matches!(r.method.as_str(), "POST" | "PUT"))
            .map(|r| {
                let v: Value = serde_json::from_slice(&r.body).unwrap();
                (
                    r.method.to_string(),
                    r.url.path().to_string(),
                    v["body"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    }
}

fn note(id: u64, author: &str, body: &str) -> Value {
    json!({ "id": id, "body": body, "author": { "id": 1, "username": author }, "system": false })
}

fn list(notes: Vec<Value>) -> Mock {
    Mock::given(method("GET"))
        .and(path(NOTES))
        .and(query_param("per_page", "100"))
        .respond_with(ResponseTemplate::new(200).set_body_json(Value::Array(notes)))
}

fn created(id: u64) -> Mock {
    Mock::given(method("POST"))
        .and(path(NOTES))
        .and(header("private-token", TOKEN))
        .respond_with(ResponseTemplate::new(201).set_body_json(note(id, BOT, "x")))
}

/// The body rag-gate posts for the example gate file (first run against an empty list).
fn first_body() -> String {
    let lab = Lab::start();
    lab.mount(list(vec![]));
    lab.mount(created(500));
    let run = lab.comment_run(&["gates/prod.toml"], &[], "GITLAB_TOKEN");
    assert_eq!(run.code, 1, "{}", run.stderr);
    lab.writes().remove(0).2
}

#[test]
fn a_merge_request_pipeline_creates_one_note_and_keeps_the_verdict() {
    let lab = Lab::start();
    // Listed twice: the note's state is read before the analysis, then again before the write.
    lab.mount(list(vec![note(1, "alice", "LGTM")]).expect(2));
    lab.mount(created(501).expect(1));
    let run = lab.comment_run(&["gates/prod.toml"], &[], "GITLAB_TOKEN");
    assert_eq!(
        run.code, 1,
        "the failing example still exits 1: {}",
        run.stderr
    );
    assert_contains(&run.stderr, "posted the report as merge-request note 501");
    let writes = lab.writes();
    assert_eq!(writes.len(), 1);
    let (verb, at, body) = &writes[0];
    assert_eq!((verb.as_str(), at.as_str()), ("POST", NOTES));
    assert!(body.starts_with("<!-- rag-gate:v1 id=prod."), "{body}");
    assert_contains(body, "### ❌ rag-gate fail: ndcg@10 dropped");
    assert_contains(body, &format!("judged commit {SHA}"));
    lab.verify();
}

#[test]
fn our_note_is_edited_in_place_or_left_alone_when_it_shows_this_report() {
    let body = first_body();
    // The same report: nothing written.
    let lab = Lab::start();
    lab.mount(list(vec![note(9, BOT, &body)]));
    let run = lab.comment_run(&["gates/prod.toml"], &[], "GITLAB_TOKEN");
    assert_contains(
        &run.stderr,
        "merge-request note 9 already shows this report",
    );
    assert!(lab.writes().is_empty());
    // An older report under our marker: edited with PUT, never a second note.
    let lab = Lab::start();
    let old = body.replacen("ndcg@10 dropped", "ndcg@10 fell", 1);
    lab.mount(list(vec![note(9, BOT, &old)]));
    lab.mount(
        Mock::given(method("PUT"))
            .and(path(format!("{NOTES}/9")))
            .respond_with(ResponseTemplate::new(200).set_body_json(note(9, BOT, "x")))
            .expect(1),
    );
    let run = lab.comment_run(&["gates/prod.toml"], &[], "GITLAB_TOKEN");
    assert_eq!(run.code, 1);
    assert_contains(&run.stderr, "updated merge-request note 9");
    assert_eq!(lab.writes().len(), 1);
    lab.verify();
}

#[test]
fn notes_are_paged_through_on_the_same_host() {
    let body = first_body().replacen("ndcg@10 dropped", "ndcg@10 fell", 1);
    let lab = Lab::start();
    let page1: Vec<Value> = (1..=100).map(|i| note(i, "alice", "chatter")).collect();
    let next = format!(
        "<{}{NOTES}?per_page=100&sort=asc&order_by=created_at&page=2>; rel=\"next\"",
        lab.server.uri()
    );
    lab.mount(
        Mock::given(method("GET"))
            .and(path(NOTES))
            .and(query_param("page", "2"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!([note(150, BOT, &body)])))
            .with_priority(1)
            .expect(2),
    );
    lab.mount(
        Mock::given(method("GET"))
            .and(path(NOTES))
            .and(query_param("per_page", "100"))
            .respond_with(
                ResponseTemplate::new(200)
                    .insert_header("link", next.as_str())
                    .set_body_json(Value::Array(page1)),
            )
            .expect(2),
    );
    lab.mount(
        Mock::given(method("PUT"))
            .and(path(format!("{NOTES}/150")))
            .respond_with(ResponseTemplate::new(200).set_body_json(note(150, BOT, "x")))
            .expect(1),
    );
    let run = lab.comment_run(&["gates/prod.toml"], &[], "GITLAB_TOKEN");
    assert_contains(&run.stderr, "updated merge-request note 150");
    lab.verify();
}

#[test]
fn another_users_note_with_our_marker_is_left_alone() {
    let body = first_body();
    let lab = Lab::start();
    lab.mount(list(vec![note(
        3,
        "mallory",
        &body.replacen("❌", "✅", 1),
    )]));
    lab.mount(created(502).expect(1));
    lab.mount(
        Mock::given(method("PUT"))
            .respond_with(ResponseTemplate::new(500))
            .expect(0),
    );
    let run = lab.comment_run(&["gates/prod.toml"], &[], "GITLAB_TOKEN");
    assert_contains(&run.stderr, "posted the report as merge-request note 502");
    lab.verify();
}

#[test]
fn refusals_are_warnings_that_keep_the_exit_code_and_hide_the_token() {
    for (status, words) in [
        (401, "GitLab rejected the token (401"),
        (403, "the token needs the api scope"),
        (429, "GitLab's rate limit for this token is used up"),
    ] {
        let lab = Lab::start();
        lab.mount(
            Mock::given(method("GET")).and(path(NOTES)).respond_with(
                ResponseTemplate::new(status)
                    .set_body_json(json!({ "message": format!("denied for {TOKEN}") })),
            ),
        );
        lab.mount(
            Mock::given(method("POST"))
                .respond_with(ResponseTemplate::new(500))
                .expect(0),
        );
        let run = lab.comment_run(&["gates/prod.toml"], &[], "GITLAB_TOKEN");
        assert_eq!(
            run.code, 1,
            "{status}: the verdict's exit code stands: {}",
            run.stderr
        );
        assert_contains(&run.stderr, words);
        assert_contains(&run.stderr, "the verdict stands");
        lab.verify();
    }
}

#[test]
fn a_required_note_that_fails_is_exit_2() {
    let lab = Lab::start();
    lab.mount(
        Mock::given(method("GET"))
            .and(path(NOTES))
            .respond_with(ResponseTemplate::new(403)),
    );
    let run = lab.comment_run(
        &["gates/prod.toml"],
        &["--comment=required"],
        "GITLAB_TOKEN",
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
}

#[test]
fn ci_job_token_cannot_write_notes_and_says_so() {
    let lab = Lab::start();
    let run = lab.comment_run(
        &["gates/prod.toml"],
        &["--token-env", "CI_JOB_TOKEN"],
        "CI_JOB_TOKEN",
    );
    assert_eq!(run.code, 1);
    assert_contains(&run.stderr, "CI_JOB_TOKEN cannot write merge-request notes");
    assert!(
        lab.requests().is_empty(),
        "nothing is sent with the job token"
    );
}

#[test]
fn three_gate_files_make_one_note_with_three_sections() {
    let lab = Lab::start();
    lab.mount(list(vec![]));
    lab.mount(created(503).expect(1));
    let gates = [
        "gates/prod.toml",
        "tests/data/junit/pass.toml",
        "tests/data/junit/not-judged.toml",
    ];
    let run = lab.comment_run(&gates, &[], "GITLAB_TOKEN");
    assert_eq!(run.code, 1, "{}", run.stderr);
    let writes = lab.writes();
    assert_eq!(writes.len(), 1);
    let body = &writes[0].2;
    assert_eq!(body.matches("<!-- rag-gate:v1 ").count(), 1);
    assert!(body
        .lines()
        .nth(1)
        .unwrap()
        .starts_with("## ❌ rag-gate fail: 1 of 3 gate files failed"));
    for g in gates {
        assert_eq!(body.matches(&format!("#### `{g}`")).count(), 1, "{body}");
    }
    assert!(Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(gates[2])
        .exists());
    lab.verify();
}

#[test]
fn a_run_that_stops_with_an_error_marks_our_note_stale() {
    let body = first_body();
    let lab = Lab::start();
    lab.mount(list(vec![note(9, BOT, &body)]));
    lab.mount(
        Mock::given(method("PUT"))
            .and(path(format!("{NOTES}/9")))
            .respond_with(ResponseTemplate::new(200).set_body_json(note(9, BOT, "x")))
            .expect(1),
    );
    // A seed no gate file can hold is refused (exit 2) after the gate file is read: no verdict
    // for this commit.
    let run = lab.comment_run(
        &["gates/prod.toml"],
        &["--seed", "18446744073709551615"],
        "GITLAB_TOKEN",
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    let writes = lab.writes();
    assert_eq!(writes.len(), 1, "{}", run.stderr);
    assert_contains(&writes[0].2, "**Stale verdict.**");
    assert_contains(&writes[0].2, &format!("commit {SHA}"));
    lab.verify();
}

/// A retried job (same commit, new `CI_JOB_ID`) is judged on both attempts' results: the note's
/// hidden state carries the first attempt's, checked before it is trusted.
#[test]
fn a_retried_job_is_judged_on_both_attempts() {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let gate = dir.path().join("gl.toml");
    std::fs::write(
        &gate,
        format!(
            "id = \"gl\"\n[inputs]\nbaseline = {:?}\ncandidate = \"cand.jsonl\"\n[bootstrap]\nresamples = 500\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.05\n",
            root.join("examples/baseline.jsonl").display().to_string()
        ),
    )
    .unwrap();
    let candidate = std::fs::read_to_string(root.join("examples/candidate.jsonl")).unwrap();
    let scaled = |f: f64| -> String {
        candidate
            .lines()
            .map(|l| {
                let mut v: Value = serde_json::from_str(l).unwrap();
                let x = v["ndcg@10"].as_f64().unwrap();
                v["ndcg@10"] = json!(x * f);
                format!("{v}\n")
            })
            .collect()
    };
    let gate = gate.to_str().unwrap();
    let run = |job: &str, lab: &Lab| {
        let out = command_in(dir.path())
            .arg("check")
            .arg(gate)
            .args(["--comment", "--format", "json"])
            .env("GITLAB_CI", "true")
            .env("CI_API_V4_URL", format!("{}/api/v4", lab.server.uri()))
            .env("CI_PROJECT_ID", "42")
            .env("CI_MERGE_REQUEST_IID", "7")
            .env("CI_COMMIT_SHA", SHA)
            .env("CI_PIPELINE_ID", "900")
            .env("CI_JOB_ID", job)
            .env("GITLAB_TOKEN", TOKEN)
            .output()
            .unwrap();
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        report
    };
    std::fs::write(dir.path().join("cand.jsonl"), scaled(1.0)).unwrap();
    let lab = Lab::start();
    lab.mount(list(vec![]));
    lab.mount(created(600));
    let first = run("1", &lab);
    assert!(first.get("attempts").is_none());
    let body = lab.writes().remove(0).2;
    assert_contains(&body, "<!-- rag-gate:state v1 check=sha256:");

    std::fs::write(dir.path().join("cand.jsonl"), scaled(0.97)).unwrap();
    let lab = Lab::start();
    lab.mount(list(vec![note(600, BOT, &body)]));
    lab.mount(
        Mock::given(method("PUT"))
            .and(path(format!("{NOTES}/600")))
            .respond_with(ResponseTemplate::new(200).set_body_json(note(600, BOT, "x")))
            .expect(1),
    );
    let second = run("2", &lab);
    assert_eq!(second["attempts"]["runs"], 2, "{second}");
    let edited = lab.writes().remove(0).2;
    assert_contains(
        &edited,
        "**attempt 2 of 0123456: judged on 2 runs (earlier verdict",
    );
    lab.verify();
}

/// The note as GitLab gets it for the shipped example: the Markdown report under its hidden
/// marker, byte for byte.
#[test]
fn the_note_as_posted() {
    insta::assert_snapshot!("the_note_as_posted", first_body());
}
