//! Publish stage: the report reaches GitHub. Job summary, step outputs and `::error`
//! annotations whenever Actions provides them; one sticky PR comment with `--comment`.
//!
//! Nothing here prints: [`publish`] returns the lines for stderr. A failure to publish is a
//! warning and leaves the verdict's exit code alone, unless `--comment=required`. The token is
//! never part of a returned line or error.

pub mod actions;
pub mod args;
pub mod sticky;

// The GitHub client and environment are shared with `baseline fetch` (src/github/).
pub use crate::github::{client, env};

use std::path::Path;

pub use crate::github::{GithubEnv, Token};
pub use args::{CommentMode, CommentWhen, PublishArgs};

use crate::error::{Error, Result};
use crate::github::redact;
use crate::model::{Report, Verdict};
use crate::report::markdown::{self, Page, GITHUB_COMMENT_LIMIT};
use crate::safe_text::Line;
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
    let annotations = match env.actions {
        true => actions::gate_annotations(report),
        false => Vec::new(),
    };
    let the = Rendered {
        verdict: report.verdict,
        annotations,
        markdown: &|page| markdown::render_page(report, page),
        key: args.comment_key.clone().unwrap_or(report.gate_id.clone()),
        legacy_key: Some(report.gate_id.clone()),
        state: markdown::state_digest(report),
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
        true => c
            .gate_files
            .iter()
            .flat_map(|f| actions::gate_annotations(&f.report))
            .collect(),
        false => Vec::new(),
    };
    let key = combined::key(c);
    let the = Rendered {
        verdict: c.verdict,
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
    };
    publish_rendered(&the, report_path, args, env)
}

/// What publishing needs of a report: its verdict, its annotations, its Markdown for a page, and
/// the sticky comment's key and state.
struct Rendered<'a> {
    verdict: Verdict,
    annotations: Vec<Line>,
    markdown: &'a dyn Fn(&Page) -> String,
    key: String,
    /// A comment found under this key (a gate's id, before keys could differ) is ours too.
    legacy_key: Option<String>,
    state: String,
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
    if args.comment != CommentMode::Off {
        match comment(the, args, env) {
            Ok(action) => lines.push(done(action, on_gitlab(args, env)).into()),
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

/// The sticky comment on the forge the run is on: a GitLab merge-request note in a GitLab
/// pipeline (outside GitHub Actions), else a GitHub PR comment.
fn comment(the: &Rendered, args: &PublishArgs, env: &GithubEnv) -> Result<Action, String> {
    match crate::gitlab::GitlabEnv::from_process(&args.token_env).filter(|_| !env.actions) {
        Some(gl) => gitlab_note(the, args, &gl, env),
        None => github_comment(the, args, env),
    }
}

/// The marker's id of this report's comment, and the legacy id also taken as ours.
fn marker_ids(the: &Rendered) -> (String, Option<String>) {
    let marker = markdown::marker(&the.key);
    let (id, _) = markdown::parse_marker(&marker).expect("our own marker parses");
    let legacy = the
        .legacy_key
        .as_deref()
        .map(markdown::marker)
        .and_then(|l| markdown::parse_marker(&l).map(|(l, _)| l.to_string()))
        .filter(|l| l != id);
    (id.to_string(), legacy)
}

/// Runs `work` on a current-thread runtime within the step's deadline.
fn on_runtime<T>(
    deadline: std::time::Duration,
    host: &str,
    work: impl std::future::Future<Output = Result<T, String>>,
) -> Result<T, String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("could not start the async runtime: {e}"))?;
    rt.block_on(async {
        tokio::time::timeout(deadline, work)
            .await
            .map_err(|_| format!("gave up on {host} after {} s", deadline.as_secs_f64()))?
    })
}

/// The merge request's iid (`--pr`, else `CI_MERGE_REQUEST_IID`) and the GitLab token.
fn gitlab_target<'a>(
    args: &PublishArgs,
    gl: &'a crate::gitlab::GitlabEnv,
) -> Result<(u64, &'a Token), String> {
    if let Some(problem) = gl.job_token_problem() {
        return Err(problem);
    }
    let token = gl.token.as_ref().ok_or_else(|| {
        format!(
            "no GitLab token: {} is not set (a project or group access token with the api scope, \
             as a masked CI/CD variable)",
            gl.token_var
        )
    })?;
    let mr = args.pr.or(gl.mr_iid).ok_or(
        "no merge request: CI_MERGE_REQUEST_IID is not set (run the job in merge-request \
         pipelines, `rules: - if: $CI_PIPELINE_SOURCE == \"merge_request_event\"`, or pass --pr IID)",
    )?;
    Ok((mr, token))
}

fn gitlab_note(
    the: &Rendered,
    args: &PublishArgs,
    gl: &crate::gitlab::GitlabEnv,
    env: &GithubEnv,
) -> Result<Action, String> {
    let (mr, token) = gitlab_target(args, gl)?;
    let page = Page {
        limit: Some(GITLAB_NOTE_LIMIT),
        full_report: Some(match &gl.job_url {
            Some(url) => format!("the report files of [this job]({url})"),
            None => "the report files of this job".to_string(),
        }),
        link: gl.job_url.clone(),
        commit: gl.judged_commit(),
        key: args.comment_key.clone(),
    };
    let body = (the.markdown)(&page);
    let body = crate::safe_text::printable(&body);
    let (id, legacy) = marker_ids(the);
    let want = Wanted {
        body: &body,
        id: &id,
        legacy_id: legacy.as_deref(),
        state: &the.state,
        failing: the.verdict == Verdict::Fail,
    };
    let result = on_runtime(env.deadline, "GitLab", async {
        let client = crate::gitlab::Client::new(gl, token, env.retries, mr)?;
        sticky::upsert(&client, mr, &want, args.comment_mode).await
    });
    result.map_err(|e| redact(&e, Some(token)))
}

/// GitLab keeps notes up to 1,000,000 characters; keep a little room.
pub const GITLAB_NOTE_LIMIT: usize = 1_000_000 - 4096;

fn github_comment(the: &Rendered, args: &PublishArgs, env: &GithubEnv) -> Result<Action, String> {
    let token = env
        .token
        .as_ref()
        .ok_or_else(|| format!("no GitHub token: {} is not set", env.token_var))?;
    let repo = env
        .repository
        .as_deref()
        .ok_or("GITHUB_REPOSITORY (owner/repo) is not set")?;
    let pr = env.pr_number(args.pr)?;
    let page = (the.markdown)(&comment_page(args, env));
    let body = crate::safe_text::printable(&page);
    let (id, legacy) = marker_ids(the);
    let want = Wanted {
        body: &body,
        id: &id,
        legacy_id: legacy.as_deref(),
        state: &the.state,
        failing: the.verdict == Verdict::Fail,
    };
    on_runtime(env.deadline, "GitHub", async {
        let client = client::Client::new(env, token, repo)?;
        sticky::upsert(&client, pr, &want, args.comment_mode).await
    })
}

/// A GitLab merge-request pipeline (outside GitHub Actions): the sticky comment is a note there.
fn on_gitlab(args: &PublishArgs, env: &GithubEnv) -> bool {
    !env.actions && crate::gitlab::GitlabEnv::from_process(&args.token_env).is_some()
}

fn done(action: Action, gitlab: bool) -> String {
    let noun = if gitlab {
        "merge-request note"
    } else {
        "PR comment"
    };
    match action {
        Action::Created(id) => format!("rag-gate: posted the report as {noun} {id}"),
        Action::Updated(id) => format!("rag-gate: updated {noun} {id}"),
        Action::Unchanged(id) => format!("rag-gate: {noun} {id} already shows this report"),
        Action::SameState(id) => format!(
            "rag-gate: {noun} {id} left as it is: the verdict and the gated rows did not \
             change (--comment-mode on-change)"
        ),
        Action::Skipped => {
            format!("rag-gate: no {noun}: the gate passed (--comment-mode on-failure)")
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
        limit: Some(GITHUB_COMMENT_LIMIT),
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
    let gitlab = crate::gitlab::GitlabEnv::from_process(&args.token_env).filter(|_| !env.actions);
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
    let line = match stale_comment(key, banner, args, env) {
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

fn stale_comment(
    key: &str,
    banner: &str,
    args: &PublishArgs,
    env: &GithubEnv,
) -> Result<Option<u64>, String> {
    if let Some(gl) =
        crate::gitlab::GitlabEnv::from_process(&args.token_env).filter(|_| !env.actions)
    {
        let (mr, token) = gitlab_target(args, &gl)?;
        let marker = markdown::marker(key);
        let (id, _) = markdown::parse_marker(&marker).expect("our own marker parses");
        let result = on_runtime(env.deadline, "GitLab", async {
            let client = crate::gitlab::Client::new(&gl, token, env.retries, mr)?;
            sticky::mark_stale(&client, mr, id, banner).await
        });
        return result.map_err(|e| redact(&e, Some(token)));
    }
    let token = env.token.as_ref().ok_or("no GitHub token")?;
    let repo = env
        .repository
        .as_deref()
        .ok_or("GITHUB_REPOSITORY is not set")?;
    let pr = env.pr_number(args.pr)?;
    let marker = markdown::marker(key);
    let (id, _) = markdown::parse_marker(&marker).expect("our own marker parses");
    on_runtime(env.deadline, "GitHub", async {
        let client = client::Client::new(env, token, repo)?;
        sticky::mark_stale(&client, pr, id, banner).await
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
