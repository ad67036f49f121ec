//! GitHub failing in every way it can: each is one warning and the verdict stands, or an
//! error with `--comment=required`; the token never shows.

use crate::support;

use std::time::Duration;

use rag_gate::publish::{publish, CommentMode, PublishArgs};
use serde_json::json;
use support::github::*;
use support::report::failing_report;
use wiremock::matchers::method;
use wiremock::{Mock, ResponseTemplate};

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
    let lines = publish_to(&failing_report(), CommentMode::BestEffort, &env);
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
    gh.mount(never("POST"));
    let lines = gh.publish(&failing_report(), CommentMode::BestEffort);
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
    let lines = gh.publish(&failing_report(), CommentMode::BestEffort);
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
    let lines = publish_to(&failing_report(), CommentMode::BestEffort, &env);
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
    gh.forbid_writes();
    gh.mount(never("GET"));
    let mut env = gh.env(&[]);
    env.token = None;
    let lines = publish_to(&failing_report(), CommentMode::BestEffort, &env);
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

/// The transport's waits recorded instead of slept: a 502 backs off, a 503 with `Retry-After: 7`
/// waits 7 s, then the answer is read; no test time is spent waiting.
#[test]
fn retries_wait_the_backoff_then_what_retry_after_says_without_sleeping_in_tests() {
    use rag_gate::forge::retry::Policy;
    use rag_gate::forge::transport::{Transport, Waits};
    use std::sync::{Arc, Mutex};

    let gh = Gh::start();
    let answers = [
        ResponseTemplate::new(502),
        ResponseTemplate::new(503).insert_header("retry-after", "7"),
    ];
    for (i, answer) in answers.into_iter().enumerate() {
        gh.mount(
            list_get()
                .respond_with(answer)
                .up_to_n_times(1)
                .with_priority(1 + i as u8),
        );
    }
    gh.mount(list(vec![]));
    let slept = Arc::new(Mutex::new(Vec::new()));
    let record = slept.clone();
    let waits = Waits {
        policy: Policy::with_retries(2),
        sleep: Arc::new(move |d| {
            record.lock().unwrap().push(d);
            Box::pin(std::future::ready(()))
        }),
        now: || 1_800_000_000,
    };
    let token = rag_gate::forge::Token::new(TOKEN);
    let uri = gh.server.uri();
    let status = gh.rt.block_on(async {
        let crab = octocrab::Octocrab::builder()
            .base_uri(uri.as_str())
            .unwrap()
            .add_retry_config(octocrab::service::middleware::retry::RetryConfig::None)
            .build()
            .unwrap();
        let authority = uri.trim_start_matches("http://").to_string();
        let http = Transport::new(
            crab,
            "GitHub",
            &uri,
            authority,
            (2, (Duration::from_secs(5), Duration::from_secs(5))),
            &token,
        )
        .with_waits(waits);
        http.get(support::github::LIST, "listing", 1 << 20)
            .await
            .map(|r| r.status)
    });
    assert_eq!(status, Ok(200));
    assert_eq!(
        *slept.lock().unwrap(),
        [Duration::from_secs(1), Duration::from_secs(7)]
    );
    assert_eq!(gh.requests().len(), 3);
}
