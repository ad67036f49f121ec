//! Publish stage: the report reaches GitHub. Job summary, step outputs and `::error`
//! annotations whenever Actions provides them; one sticky PR comment with `--comment`; a check
//! run for the verdict with `--check-run`.
//!
//! Nothing here prints: [`publish`] returns the lines for stderr. A failure to publish is a
//! warning and leaves the verdict's exit code alone, unless `--comment=required`. The token is
//! never part of a returned line or error.

pub mod actions;
pub mod args;
pub mod history;
pub mod state;
#[cfg(feature = "github")]
pub mod sticky;
#[cfg(feature = "github")]
mod post;

// The GitHub client and environment are shared with `baseline fetch` (src/github/).
#[cfg(feature = "github")]
pub use crate::forge::github::client;
pub use crate::forge::github::env;

use std::path::Path;

pub use crate::forge::github::GithubEnv;
pub use crate::forge::Token;
pub use args::{CommentMode, CommentWhen, PublishArgs};

use crate::error::{Error, Result};
use crate::forge::redact;
use crate::model::{Report, Verdict};
use crate::report::markdown::{self, Page};
use crate::safe_text::Line;

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
    publish_with_state(report, report_path, args, env, None)
}

/// [`publish`], the sticky comment ending with `hidden` (the state block, [`state::block`]).
pub fn publish_with_state(
    report: &Report,
    report_path: Option<&Path>,
    args: &PublishArgs,
    env: &GithubEnv,
    hidden: Option<String>,
) -> Result<Vec<Line>> {
    let annotations = match env.actions {
        true => actions::gate_annotations(report),
        false => Vec::new(),
    };
    let the = Rendered {
        verdict: report.verdict,
        conclusion: report.verdict.conclusion(&report.on_inconclusive),
        headline: report.headline.clone(),
        annotations,
        markdown: &|page| markdown::render_page(report, page),
        key: args.comment_key.clone().unwrap_or(report.gate_id.clone()),
        legacy_key: Some(report.gate_id.clone()),
        state: markdown::state_digest(report),
        hidden,
    };
    publish_rendered(&the, report_path, args, env)
}

/// [`publish`] for several gate files checked in one run: the annotations of every file, one
/// job summary and one sticky comment (keyed by the set of files) with a combined headline and a
/// section per file.
pub fn publish_combined(
    c: &crate::model::CombinedReport,
    report_path: Option<&Path>,
    args: &PublishArgs,
    env: &GithubEnv,
) -> Result<Vec<Line>> {
    use crate::report::combined;
    let annotations = match env.actions {
        true => actions::combined_annotations(c),
        false => Vec::new(),
    };
    let key = combined::key(c);
    let conclusion = c
        .gate_files
        .iter()
        .map(|f| f.report.verdict.conclusion(&f.report.on_inconclusive))
        .min_by_key(|c| {
            ["failure", "neutral", "success"]
                .iter()
                .position(|k| k == c)
        })
        .unwrap_or("success");
    let the = Rendered {
        verdict: c.verdict,
        conclusion,
        headline: c.headline.clone(),
        annotations,
        markdown: &|page| {
            combined::markdown(
                c,
                &Page {
                    key: Some(key.clone()),
                    ..page.clone()
                },
            )
        },
        key: key.clone(),
        legacy_key: None,
        state: combined::state_digest(c),
        hidden: None,
    };
    publish_rendered(&the, report_path, args, env)
}

/// What publishing needs of a report: its verdict, its annotations, its Markdown for a page, and
/// the sticky comment's key and state.
#[cfg_attr(not(feature = "github"), allow(dead_code))] // read when posting the comment
struct Rendered<'a> {
    verdict: Verdict,
    /// The check run's conclusion (`Verdict::conclusion`) and title.
    conclusion: &'static str,
    headline: String,
    annotations: Vec<Line>,
    markdown: &'a dyn Fn(&Page) -> String,
    key: String,
    /// A comment found under this key (a gate's id, before keys could differ) is ours too.
    legacy_key: Option<String>,
    state: String,
    /// The hidden state block the comment ends with (not the job summary).
    hidden: Option<String>,
}

fn publish_rendered(
    the: &Rendered,
    report_path: Option<&Path>,
    args: &PublishArgs,
    env: &GithubEnv,
) -> Result<Vec<Line>> {
    let mut lines: Vec<Line> = the.annotations.clone();
    if let Some(p) = &env.step_summary {
        let md = (the.markdown)(&summary_page(report_path, args, env));
        if let Err(e) = actions::append_summary(p, &md) {
            let msg = format!("could not append the job summary to {}: {e}", p.display());
            lines.push(actions::warning(env.actions, &msg));
        }
    }
    if let Some(p) = &env.output {
        if let Err(e) = actions::write_outputs(p, the.verdict, report_path) {
            let msg = format!("could not write the step outputs to {}: {e}", p.display());
            lines.push(actions::warning(env.actions, &msg));
        }
    }
    if args.check_run {
        match post::check_run_line(the, args, env) {
            Ok(line) => lines.push(line.into()),
            Err(msg) => {
                let msg = redact(&msg, env.token.as_ref());
                let msg = format!("the check run was not posted ({msg}); the verdict stands");
                lines.push(actions::warning(env.actions, &msg));
            }
        }
    }
    if args.comment != CommentMode::Off {
        match post::comment_line(the, args, env) {
            Ok(line) => lines.push(line.into()),
            Err(msg) => {
                let msg = redact(&msg, env.token.as_ref());
                if args.comment == CommentMode::Required {
                    return Err(Error::Publish(msg));
                }
                let noun = if on_gitlab(args, env) {
                    "merge-request note"
                } else {
                    "PR comment"
                };
                let msg = format!("the {noun} was not posted ({msg}); the verdict stands");
                lines.push(actions::warning(env.actions, &msg));
            }
        }
    }
    Ok(lines
        .into_iter()
        .map(|l| l.map(|t| redact(t, env.token.as_ref())))
        .collect())
}

/// A GitLab merge-request pipeline (outside GitHub Actions): the sticky comment is a note there.
fn on_gitlab(args: &PublishArgs, env: &GithubEnv) -> bool {
    !env.actions && crate::forge::gitlab::GitlabEnv::from_process(&args.token_env).is_some()
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

/// After a run that stopped with an error (exit 2) under `--comment`: this gate's sticky
/// comment (keyed `key`) gets a banner saying its verdict is stale, naming the commit and
/// `error`'s first line, so an earlier ✅ never stands for a commit nothing judged. Best effort
/// whatever the comment mode (the run fails with exit 2 anyway); returns the lines for stderr.
pub fn mark_stale(key: &str, error: &str, args: &PublishArgs, env: &GithubEnv) -> Vec<Line> {
    let gitlab =
        crate::forge::gitlab::GitlabEnv::from_process(&args.token_env).filter(|_| !env.actions);
    let commit = match &gitlab {
        Some(gl) => gl.judged_commit(),
        None => env.judged_commit(),
    }
    .map_or("the latest commit".to_string(), |c| format!("commit {c}"));
    let first = crate::safe_text::shown(error.lines().next().unwrap_or(""));
    let first = markdown::escape(&first);
    let banner = format!(
        "The run on {commit} stopped with an error before a verdict (exit 2): {first}\n> The \
         report below is from an earlier run and does not judge {commit}."
    );
    stale_lines(key, &banner, args, env)
}

fn judged(env: &GithubEnv) -> String {
    env.judged_commit()
        .map_or("the latest commit".to_string(), |c| format!("commit {c}"))
}

/// No baseline under `[baseline] on-missing = "warn"`: nothing was checked, so nothing may look
/// checked. The job summary says so, the step output `verdict` is `not-checked`, and under
/// `--comment` this gate's sticky comment (an earlier ✅ among them) gets the stale banner saying
/// the commit was not checked. `message` is the warning printed; returns the lines for stderr.
pub fn not_checked(message: &str, args: &PublishArgs, env: &GithubEnv) -> Vec<Line> {
    let mut lines = Vec::new();
    let commit = judged(env);
    // The reason, whole and on one line (the warning's "rag-gate ID: not checked: " left out).
    let reason = message
        .split_once("not checked: ")
        .map_or(message, |(_, r)| r);
    let said = markdown::escape(&crate::safe_text::one_line(reason));
    if let Some(p) = &env.step_summary {
        let key = args.comment_key.as_deref().unwrap_or("rag-gate");
        let md = format!(
            "### ⚠️ rag-gate not checked ({})\n\n{said}\n\nNo verdict for {commit}: nothing \
             was compared.\n",
            markdown::escape(&crate::safe_text::shown(key))
        );
        if let Err(e) = actions::append_summary(p, &md) {
            let msg = format!("could not append the job summary to {}: {e}", p.display());
            lines.push(actions::warning(env.actions, &msg));
        }
    }
    if let Some(p) = &env.output {
        if let Err(e) = actions::write_verdict(p, "not-checked") {
            let msg = format!("could not write the step outputs to {}: {e}", p.display());
            lines.push(actions::warning(env.actions, &msg));
        }
    }
    if args.comment != CommentMode::Off {
        let key = args.comment_key.clone().unwrap_or_default();
        let banner = format!(
            "The run on {commit} was not checked: {said}\n> The report below is from an earlier run and \
             does not judge {commit}."
        );
        lines.extend(stale_lines(&key, &banner, args, env));
    }
    lines
        .into_iter()
        .map(|l| l.map(|t| redact(t, env.token.as_ref())))
        .collect()
}

/// Puts `banner` on this gate's sticky comment (best effort); the line saying what happened.
fn stale_lines(key: &str, banner: &str, args: &PublishArgs, env: &GithubEnv) -> Vec<Line> {
    let line = match post::stale_comment(key, banner, args, env) {
        Ok(Some(id)) => {
            let noun = if on_gitlab(args, env) {
                "merge-request note"
            } else {
                "PR comment"
            };
            format!("rag-gate: marked {noun} {id} stale (this run has no verdict)").into()
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

/// Without the forge clients (no `github` feature) a comment is never posted: the warning, or
/// with `--comment=required` the error, says why.
#[cfg(not(feature = "github"))]
mod post {
    use super::{GithubEnv, PublishArgs, Rendered};

    const NOT_BUILT: &str =
        "this rag-gate was built without the forge clients (cargo feature `github`)";

    pub(super) fn comment_line(
        _: &Rendered,
        _: &PublishArgs,
        _: &GithubEnv,
    ) -> Result<String, String> {
        Err(NOT_BUILT.to_string())
    }

    pub(super) fn check_run_line(
        _: &Rendered,
        _: &PublishArgs,
        _: &GithubEnv,
    ) -> Result<String, String> {
        Err(NOT_BUILT.to_string())
    }

    pub(super) fn read_comment(
        _: &PublishArgs,
        _: &GithubEnv,
    ) -> Result<(crate::publish::history::Context, Option<String>), String> {
        Ok(Default::default())
    }

    pub(super) fn stale_comment(
        _: &str,
        _: &str,
        _: &PublishArgs,
        _: &GithubEnv,
    ) -> Result<Option<u64>, String> {
        Err(NOT_BUILT.to_string())
    }
}
