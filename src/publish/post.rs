//! Posting the sticky comment: a GitHub PR comment, or a GitLab merge-request note in a GitLab
//! pipeline, through the forge clients (the `github` feature); the comment's page and the stale
//! banner's edit; the verdict's check run (`--check-run`).

use super::*;
use crate::report::markdown::GITHUB_COMMENT_LIMIT;
use sticky::{Action, Wanted};

/// Creates or updates the sticky comment on the forge the run is on; the line saying what it did.
pub(super) fn comment_line(
    the: &Rendered,
    args: &PublishArgs,
    env: &GithubEnv,
) -> Result<String, String> {
    comment(the, args, env).map(|action| done(action, on_gitlab(args, env)))
}

/// The sticky comment on the forge the run is on: a GitLab merge-request note in a GitLab
/// pipeline (outside GitHub Actions), else a GitHub PR comment.
fn comment(the: &Rendered, args: &PublishArgs, env: &GithubEnv) -> Result<Action, String> {
    match crate::forge::gitlab::GitlabEnv::from_process(&args.token_env).filter(|_| !env.actions) {
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
    gl: &'a crate::forge::gitlab::GitlabEnv,
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
    gl: &crate::forge::gitlab::GitlabEnv,
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
    let hidden = the.hidden.as_deref().unwrap_or("");
    let page = Page {
        limit: page.limit.map(|l| l.saturating_sub(hidden.len())),
        ..page
    };
    let body = (the.markdown)(&page);
    let body = with_hidden(&crate::safe_text::printable(&body), hidden);
    let (id, legacy) = marker_ids(the);
    let want = Wanted {
        body: &body,
        id: &id,
        legacy_id: legacy.as_deref(),
        state: &the.state,
        failing: the.verdict == Verdict::Fail,
    };
    let result = on_runtime(env.deadline, "GitLab", async {
        let client = crate::forge::gitlab::Client::new(gl, token, env.retries, mr)?;
        sticky::upsert(&client, mr, &want, args.comment_mode).await
    });
    result.map_err(|e| redact(&e, Some(token)))
}

/// GitLab keeps notes up to 1,000,000 characters; keep a little room.
pub(super) const GITLAB_NOTE_LIMIT: usize = 1_000_000 - 4096;

/// The token and the `owner/repo` a GitHub call needs, or what is missing.
fn github_target(env: &GithubEnv) -> Result<(&Token, &str), String> {
    let token = env
        .token
        .as_ref()
        .ok_or_else(|| format!("no GitHub token: {} is not set", env.token_var))?;
    let repo = env
        .repository
        .as_deref()
        .ok_or("GITHUB_REPOSITORY (owner/repo) is not set")?;
    Ok((token, repo))
}

fn github_comment(the: &Rendered, args: &PublishArgs, env: &GithubEnv) -> Result<Action, String> {
    let (token, repo) = github_target(env)?;
    let pr = env.pr_number(args.pr)?;
    let hidden = the.hidden.as_deref().unwrap_or("");
    let mut page = comment_page(args, env);
    page.limit = page.limit.map(|l| l.saturating_sub(hidden.len()));
    let page = (the.markdown)(&page);
    let body = with_hidden(&crate::safe_text::printable(&page), hidden);
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

/// Creates or updates the verdict's check run on the judged commit; the line saying what it did.
pub(super) fn check_run_line(
    the: &Rendered,
    args: &PublishArgs,
    env: &GithubEnv,
) -> Result<String, String> {
    use crate::forge::github::checks::{self, CheckRun, Done};
    let (token, repo) = github_target(env)?;
    let sha = env.judged_commit().ok_or(
        "no commit to attach it to: neither the event's pull request head nor GITHUB_SHA is a \
         40-hex-digit commit id",
    )?;
    let mut page = comment_page(args, env);
    page.limit = Some(checks::SUMMARY_LIMIT);
    let summary = crate::safe_text::printable(&(the.markdown)(&page)).into_owned();
    let name = format!("rag-gate: {}", crate::safe_text::shown(&the.key));
    let title = crate::safe_text::one_line(&the.headline);
    let run = CheckRun {
        name: &name,
        head_sha: &sha,
        conclusion: the.conclusion,
        title: &title,
        summary: &summary,
    };
    let done = on_runtime(env.deadline, "GitHub", async {
        let client = client::Client::new(env, token, repo)?;
        checks::upsert(&client, &run).await
    })?;
    Ok(match done {
        Done::Created(id) => format!(
            "rag-gate: created check run {id} ({}, {})",
            name, the.conclusion
        ),
        Done::Updated(id) => format!(
            "rag-gate: updated check run {id} ({}, {})",
            name, the.conclusion
        ),
    })
}

/// The comment's body: the report, then the hidden state block (when there is one).
fn with_hidden(page: &str, hidden: &str) -> String {
    if hidden.is_empty() {
        return page.to_string();
    }
    let mut body = page.trim_end().to_string();
    body.push_str("\n\n");
    body.push_str(hidden);
    body
}

/// Before the analysis: where this check runs, and the body of this gate's sticky comment
/// (None when there is none yet), on the forge the run is on. Without a token, a repository or a
/// request number there is nothing to read (publishing says what is missing): no context.
pub(super) fn read_comment(
    args: &PublishArgs,
    env: &GithubEnv,
) -> Result<(history::Context, Option<String>), String> {
    let key = args.comment_key.clone().unwrap_or_default();
    let marker = markdown::marker(&key);
    let (id, _) = markdown::parse_marker(&marker).expect("our own marker parses");
    if let Some(gl) =
        crate::forge::gitlab::GitlabEnv::from_process(&args.token_env).filter(|_| !env.actions)
    {
        return read_note(args, env, &gl, id);
    }
    let (Some(token), Some(repo), Ok(pr)) = (
        env.token.as_ref(),
        env.repository.as_deref(),
        env.pr_number(args.pr),
    ) else {
        return Ok(Default::default());
    };
    let ctx = history::Context {
        commit: env.judged_commit(),
        run: env.run.as_ref().map(|(r, a)| format!("{r}/{a}")),
        scope: format!("{repo}#{pr}/{id}"),
        key: None,
        change: None,
        standing: None,
    };
    // The pull request's own run: on `workflow_run` (fork-safe part 2) the triggering one.
    let run_id = env
        .triggering_run()
        .or_else(|| env.run.as_ref().and_then(|(r, _)| r.parse().ok()));
    let read = on_runtime(env.deadline, "GitHub", async {
        let client = client::Client::new(env, token, repo)?;
        // The runs first: a run listed as finished posted before it finished, so the comment
        // read after it holds its state (no false alarm for a run that ends in between).
        let standing = match (keyed(args), run_id) {
            (true, Some(r)) => Some(crate::forge::runs::github(&client, r).await),
            (true, None) => Some(Err("GITHUB_RUN_ID is not set".into())),
            (false, _) => None,
        };
        let body = first_body(&client, pr, id).await?;
        let change = crate::forge::change::github(&client, pr).await;
        Ok((body, change, standing))
    });
    read.map(|read| with_read(ctx, read, token))
}

/// [`read_comment`] in a GitLab merge-request pipeline: the note's body, and the context.
fn read_note(
    args: &PublishArgs,
    env: &GithubEnv,
    gl: &crate::forge::gitlab::GitlabEnv,
    id: &str,
) -> Result<(history::Context, Option<String>), String> {
    let Ok((mr, token)) = gitlab_target(args, gl) else {
        return Ok(Default::default());
    };
    let ctx = history::Context {
        commit: gl.judged_commit(),
        run: gl
            .pipeline_job
            .as_ref()
            .map(|(p, j)| format!("pipeline {p} job {j}")),
        scope: format!("{}!{mr}/{id}", gl.project),
        key: None,
        change: None,
        standing: None,
    };
    let pipeline = gl.pipeline_job.as_ref().and_then(|(p, _)| p.parse().ok());
    let read = on_runtime(env.deadline, "GitLab", async {
        let client = crate::forge::gitlab::Client::new(gl, token, env.retries, mr)?;
        // The runs first: a pipeline listed as finished posted before it finished, so the note
        // read after it holds its state (no false alarm for a pipeline that ends in between).
        let standing = match (keyed(args), pipeline) {
            (true, Some(p)) => Some(crate::forge::runs::gitlab(&client, mr, p).await),
            (true, None) => Some(Err("CI_PIPELINE_ID is not set".into())),
            (false, _) => None,
        };
        let body = first_body(&client, mr, id).await?;
        let change = crate::forge::change::gitlab(&client, mr).await;
        Ok((body, change, standing))
    });
    read.map(|read| with_read(ctx, read, token))
        .map_err(|e| redact(&e, Some(token)))
}

/// What a forge read gives: the comment's body, the change list's key, this run's standing.
type Read = (
    Option<String>,
    Result<String, String>,
    Option<Result<crate::model::looks::Standing, String>>,
);

/// `ctx` with the change and the standing read from the forge, their errors without the token.
fn with_read(
    ctx: history::Context,
    (body, change, standing): Read,
    token: &Token,
) -> (history::Context, Option<String>) {
    let change = change.map_err(|e| redact(&e, Some(token)));
    let standing = standing.map(|s| s.map_err(|e| redact(&e, Some(token))));
    (
        history::Context {
            change: Some(change),
            standing,
            ..ctx
        },
        body,
    )
}

/// A state key is set (`--state-key-env`): only then is the state checked against the forge's
/// runs.
fn keyed(args: &PublishArgs) -> bool {
    std::env::var(&args.state_key_env).is_ok_and(|k| !k.trim().is_empty())
}

/// The body of the oldest comment that is ours (see [`sticky::is_ours`]).
async fn first_body(
    client: &impl crate::forge::Notes,
    pr: u64,
    id: &str,
) -> Result<Option<String>, String> {
    let me = client.identity().await?;
    let ours = |c: &crate::forge::RawComment| sticky::is_ours(c, &me, id);
    let comments = client.list_comments(pr, &ours).await?;
    Ok(comments.into_iter().next().and_then(|c| c.body))
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

pub(super) fn stale_comment(
    key: &str,
    banner: &str,
    args: &PublishArgs,
    env: &GithubEnv,
) -> Result<Option<u64>, String> {
    if let Some(gl) =
        crate::forge::gitlab::GitlabEnv::from_process(&args.token_env).filter(|_| !env.actions)
    {
        let (mr, token) = gitlab_target(args, &gl)?;
        let marker = markdown::marker(key);
        let (id, _) = markdown::parse_marker(&marker).expect("our own marker parses");
        let result = on_runtime(env.deadline, "GitLab", async {
            let client = crate::forge::gitlab::Client::new(&gl, token, env.retries, mr)?;
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
