//! Publish stage: the report reaches GitHub. Job summary, step outputs and `::error`
//! annotations whenever Actions provides them; one sticky PR comment with `--comment`.
//!
//! Nothing here prints: [`publish`] returns the lines for stderr. A failure to publish is a
//! warning and leaves the verdict's exit code alone, unless `--comment=required`. The token is
//! never part of a returned line or error.

pub mod actions;
pub mod args;
#[cfg(feature = "github")]
pub mod sticky;

// The GitHub client and environment are shared with `baseline fetch` (src/github/).
#[cfg(feature = "github")]
pub use crate::github::client;
pub use crate::github::env;

use std::path::Path;

pub use crate::github::{GithubEnv, Token};
pub use args::{CommentMode, CommentWhen, PublishArgs};

use crate::error::{Error, Result};
use crate::github::redact;
use crate::model::Report;
use crate::report::markdown::{self, Page};
use crate::safe_text::Line;
#[cfg(feature = "github")]
use sticky::{Action, Wanted};

/// GitHub accepts up to 1 MiB of job summary per step; keep a little room.
pub const SUMMARY_LIMIT: usize = 1024 * 1024 - 4096;

/// Publishes a finished report: appends it to the job summary (`GITHUB_STEP_SUMMARY`), writes
/// `verdict` and `report` to `GITHUB_OUTPUT`, returns `::error` annotations for failed gates
/// (under Actions), and with `--comment` creates or updates the sticky PR comment.
///
/// Returns the lines for stderr. `Err` only with `--comment=required` when the comment failed.
/// Creates its own current-thread Tokio runtime: call it from synchronous code, not from
/// inside another runtime.
pub fn publish(
    report: &Report,
    report_path: Option<&Path>,
    args: &PublishArgs,
    env: &GithubEnv,
) -> Result<Vec<Line>> {
    let mut lines: Vec<Line> = Vec::new();
    if env.actions {
        lines.extend(actions::gate_annotations(report));
    }
    if let Some(p) = &env.step_summary {
        let md = markdown::render_page(report, &summary_page(report_path, args, env));
        if let Err(e) = actions::append_summary(p, &md) {
            let msg = format!("could not append the job summary to {}: {e}", p.display());
            lines.push(actions::warning(env.actions, &msg));
        }
    }
    if let Some(p) = &env.output {
        if let Err(e) = actions::write_outputs(p, report.verdict, report_path) {
            let msg = format!("could not write the step outputs to {}: {e}", p.display());
            lines.push(actions::warning(env.actions, &msg));
        }
    }
    if args.comment != CommentMode::Off {
        match comment(report, args, env) {
            Ok(line) => lines.push(line.into()),
            Err(msg) => {
                let msg = redact(&msg, env.token.as_ref());
                if args.comment == CommentMode::Required {
                    return Err(Error::Publish(msg));
                }
                let msg = format!("the PR comment was not posted ({msg}); the verdict stands");
                lines.push(actions::warning(env.actions, &msg));
            }
        }
    }
    Ok(lines
        .into_iter()
        .map(|l| l.map(|t| redact(t, env.token.as_ref())))
        .collect())
}

/// Without the GitHub client (no `github` feature) a comment is never posted: the warning, or
/// with `--comment=required` the error, says why.
#[cfg(not(feature = "github"))]
fn comment(_: &Report, _: &PublishArgs, _: &GithubEnv) -> Result<String, String> {
    Err(NOT_BUILT.to_string())
}

#[cfg(not(feature = "github"))]
fn stale_comment(_: &str, _: &str, _: &PublishArgs, _: &GithubEnv) -> Result<Option<u64>, String> {
    Err(NOT_BUILT.to_string())
}

#[cfg(not(feature = "github"))]
const NOT_BUILT: &str =
    "this rag-gate was built without the GitHub client (cargo feature `github`)";

/// Creates or updates the sticky comment; returns the line saying what it did.
#[cfg(feature = "github")]
fn comment(report: &Report, args: &PublishArgs, env: &GithubEnv) -> Result<String, String> {
    let token = env
        .token
        .as_ref()
        .ok_or_else(|| format!("no GitHub token: {} is not set", env.token_var))?;
    let repo = env
        .repository
        .as_deref()
        .ok_or("GITHUB_REPOSITORY (owner/repo) is not set")?;
    let pr = env.pr_number(args.pr)?;
    let page = markdown::render_page(report, &comment_page(args, env));
    let body = crate::safe_text::printable(&page);
    let marker = markdown::marker(args.comment_key.as_deref().unwrap_or(&report.gate_id));
    let (id, _) = markdown::parse_marker(&marker).expect("our own marker parses");
    let state = markdown::state_digest(report);
    let legacy = markdown::marker(&report.gate_id);
    let legacy_id = markdown::parse_marker(&legacy)
        .map(|(l, _)| l)
        .filter(|l| *l != id);
    let want = Wanted {
        body: &body,
        id,
        legacy_id,
        state: &state,
        failing: report.verdict == crate::model::Verdict::Fail,
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("could not start the async runtime: {e}"))?;
    rt.block_on(async {
        let client = client::Client::new(env, token, repo)?;
        let deadline = env.deadline;
        let upsert = sticky::upsert(&client, pr, &want, args.comment_mode);
        tokio::time::timeout(deadline, upsert)
            .await
            .map_err(|_| format!("gave up on GitHub after {} s", deadline.as_secs_f64()))?
    })
    .map(done)
}

#[cfg(feature = "github")]
fn done(action: Action) -> String {
    match action {
        Action::Created(id) => format!("rag-gate: posted the report as PR comment {id}"),
        Action::Updated(id) => format!("rag-gate: updated PR comment {id}"),
        Action::Unchanged(id) => format!("rag-gate: PR comment {id} already shows this report"),
        Action::SameState(id) => format!(
            "rag-gate: PR comment {id} left as it is: the verdict and the gated rows did not \
             change (--comment-mode on-change)"
        ),
        Action::Skipped => {
            "rag-gate: no PR comment: the gate passed (--comment-mode on-failure)".to_string()
        }
    }
}

/// Where the artifact with the HTML report is, in words ("the `NAME` artifact of [this
/// run](URL)"), when the Action uploads one.
fn artifact_words(args: &PublishArgs, env: &GithubEnv) -> Option<String> {
    let name = args.html_artifact.as_deref()?;
    let name = markdown::code(name);
    Some(match &env.run_url {
        Some(url) => format!("the HTML report in the {name} artifact of [this run]({url})"),
        None => format!("the HTML report in the {name} artifact of this run"),
    })
}

#[cfg(feature = "github")]
/// The comment: when trimmed, it points at the job summary and the HTML artifact.
fn comment_page(args: &PublishArgs, env: &GithubEnv) -> Page {
    let summary = match &env.run_url {
        Some(url) => format!("the job summary of [this run]({url})"),
        None => "the job summary of this run".to_string(),
    };
    let full = match artifact_words(args, env) {
        Some(a) => format!("{summary} and {a}"),
        None => summary,
    };
    Page {
        limit: Some(markdown::GITHUB_COMMENT_LIMIT),
        full_report: Some(full),
        link: env.run_url.clone(),
        commit: env.judged_commit(),
        key: args.comment_key.clone(),
    }
}

/// After a run that stopped with an error (exit 2) under `--comment`: this gate's sticky
/// comment (keyed `key`) gets a banner saying its verdict is stale, naming the commit and
/// `error`'s first line, so an earlier ✅ never stands for a commit nothing judged. Best effort
/// whatever the comment mode (the run fails with exit 2 anyway); returns the lines for stderr.
pub fn mark_stale(key: &str, error: &str, args: &PublishArgs, env: &GithubEnv) -> Vec<Line> {
    let commit = env
        .judged_commit()
        .map_or("the latest commit".to_string(), |c| format!("commit {c}"));
    let first = crate::safe_text::shown(error.lines().next().unwrap_or(""));
    let first = markdown::escape(&first);
    let banner = format!(
        "The run on {commit} stopped with an error before a verdict (exit 2): {first}\n> The \
         report below is from an earlier run and does not judge {commit}."
    );
    let line = match stale_comment(key, &banner, args, env) {
        Ok(Some(id)) => {
            format!("rag-gate: marked PR comment {id} stale (this run has no verdict)").into()
        }
        Ok(None) => return Vec::new(),
        Err(msg) => actions::warning(
            env.actions,
            &format!(
                "the PR comment could not be marked stale ({})",
                redact(&msg, env.token.as_ref())
            ),
        ),
    };
    vec![line.map(|t| redact(t, env.token.as_ref()))]
}

#[cfg(feature = "github")]
fn stale_comment(
    key: &str,
    banner: &str,
    args: &PublishArgs,
    env: &GithubEnv,
) -> Result<Option<u64>, String> {
    let token = env.token.as_ref().ok_or("no GitHub token")?;
    let repo = env
        .repository
        .as_deref()
        .ok_or("GITHUB_REPOSITORY is not set")?;
    let pr = env.pr_number(args.pr)?;
    let marker = markdown::marker(key);
    let (id, _) = markdown::parse_marker(&marker).expect("our own marker parses");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("could not start the async runtime: {e}"))?;
    rt.block_on(async {
        let client = client::Client::new(env, token, repo)?;
        let deadline = env.deadline;
        let work = sticky::mark_stale(&client, pr, id, banner);
        tokio::time::timeout(deadline, work)
            .await
            .map_err(|_| format!("gave up on GitHub after {} s", deadline.as_secs_f64()))?
    })
}

/// The job summary: when trimmed (over 1 MiB), it points at the report file and the HTML
/// artifact, never at itself.
fn summary_page(report_path: Option<&Path>, args: &PublishArgs, env: &GithubEnv) -> Page {
    let mut places = Vec::new();
    if let Some(p) = report_path {
        places.push(format!(
            "the report file {}",
            markdown::code(&p.display().to_string())
        ));
    }
    places.extend(artifact_words(args, env));
    if places.is_empty() {
        places.push("`rag-gate check … --export-html FILE` (run it locally)".to_string());
    }
    Page {
        limit: Some(SUMMARY_LIMIT),
        full_report: Some(places.join(" and ")),
        link: None,
        commit: env.judged_commit(),
        key: args.comment_key.clone(),
    }
}
