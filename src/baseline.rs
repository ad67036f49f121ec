//! `rag-gate baseline fetch`: the pull request's merge-base → the base branch's successful run
//! of the evaluation workflow for it (or the nearest older ancestor) → that run's artifact,
//! unpacked safely into `--to` → `rag-gate-baseline.json` beside it (`provenance`).
//!
//! Everything GitHub-specific is in `github::artifacts`; the zip's checks in `unzip`.

use std::path::Path;

use crate::cli::FetchArgs;
use crate::error::{Error, Result};
use crate::forge::github::artifacts::{self, Wanted};
use crate::forge::github::client::Client;
use crate::forge::github::GithubEnv;
use crate::forge::stored::{short, FoundRun, Problem};
use crate::outcome::Outcome;
use crate::provenance::{self, Provenance};

/// Runs the fetch. A missing baseline is exit 2, or with `--missing-ok` a warning and exit 0;
/// either way the reason is written to the provenance file for `check`.
pub fn fetch(args: &FetchArgs) -> Result<Outcome> {
    // `.github/workflows/eval.yml` (the path people copy) means the file name the API wants.
    let mut args = args.clone();
    if let Some(name) = args.workflow.strip_prefix(".github/workflows/") {
        args.workflow = name.to_string();
    }
    let args = &args;
    check_args(args)?;
    let env = GithubEnv::from_process(&args.token_env);
    if let Some(gl) =
        crate::forge::gitlab::GitlabEnv::from_process(&args.token_env).filter(|_| !env.actions)
    {
        return fetch_gitlab(args, &gl, &env);
    }
    let fail = |m: String| Error::Fetch(crate::forge::redact(&m, env.token.as_ref()));
    let token = env.token.clone().ok_or_else(|| {
        fail(format!(
            "no GitHub token: {} is not set (in Actions: `env: GITHUB_TOKEN: ${{{{ github.token }}}}` \
             and `permissions: {{ actions: read, contents: read }}`)",
            env.token_var
        ))
    })?;
    let repository = env
        .repository
        .clone()
        .ok_or_else(|| fail("GITHUB_REPOSITORY (owner/repo) is not set".into()))?;
    prepare_destination(&args.to)?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| fail(format!("could not start the async runtime: {e}")))?;
    let want = Wanted {
        workflow: &args.workflow,
        branch: &args.branch,
        artifact: &args.artifact,
    };
    let fetched = rt.block_on(async {
        let client =
            Client::new(&env, &token, &repository).map_err(|m| (None, Problem::Failed(m)))?;
        let work = fetch_with(&client, &env, args, &repository, &want);
        tokio::time::timeout(env.deadline * 3, work)
            .await
            .map_err(|_| {
                let m = format!("gave up on GitHub after {} s", (env.deadline * 3).as_secs());
                (None, Problem::Failed(m))
            })?
    });
    let record = Provenance {
        provenance_format: provenance::FORMAT,
        repository,
        workflow: args.workflow.clone(),
        branch: args.branch.clone(),
        artifact: args.artifact.clone(),
        merge_base: String::new(),
        merge_base_behind: None,
        found: None,
        missing: None,
    };
    conclude(
        args,
        record,
        fetched,
        (env.actions, "GitHub"),
        env.token.as_ref(),
    )
}

/// The fetch's end, the same on every forge: the zip unpacked and the provenance written, or
/// the reason there is none written for `check` (exit 2, or a warning with `--missing-ok`).
fn conclude(
    args: &FetchArgs,
    mut record: Provenance,
    fetched: std::result::Result<Fetched, (Option<MergeBase>, Problem)>,
    (actions, forge): (bool, &str),
    token: Option<&crate::forge::Token>,
) -> Result<Outcome> {
    match fetched {
        Ok((base, run, zip)) => {
            (record.merge_base, record.merge_base_behind) = base;
            finish(args, record, (run, forge), &zip)
        }
        Err((base, Problem::Missing(why))) => {
            (record.merge_base, record.merge_base_behind) = base.unwrap_or_default();
            let why = crate::forge::redact(&why, token);
            record.missing = Some(why.clone());
            write_record(&args.to, &record)?;
            if !args.missing_ok {
                return Err(Error::Fetch(why));
            }
            Ok(Outcome {
                stderr: vec![crate::publish::actions::warning(
                    actions,
                    &format!("no baseline fetched: {why} (--missing-ok: [baseline] on-missing decides in check)"),
                )],
                ..Default::default()
            })
        }
        Err((_, Problem::Failed(m))) => Err(Error::Fetch(crate::forge::redact(&m, token))),
    }
}

/// `baseline fetch` in a GitLab merge-request pipeline: `--artifact` names the job of the
/// target branch's pipeline that keeps the results as artifacts; the merge-base is `--base-sha`
/// or `CI_MERGE_REQUEST_DIFF_BASE_SHA`.
fn fetch_gitlab(
    args: &FetchArgs,
    gl: &crate::forge::gitlab::GitlabEnv,
    env: &GithubEnv,
) -> Result<Outcome> {
    use crate::forge::gitlab::artifacts;
    let token = gl.token.clone();
    let fail = |m: String| Error::Fetch(crate::forge::redact(&m, token.as_ref()));
    if gl.token_var == "CI_JOB_TOKEN" {
        return Err(fail(
            "CI_JOB_TOKEN cannot list the target branch's pipelines; use a project or group \
             access token with the read_api scope (a masked CI/CD variable GITLAB_TOKEN)"
                .into(),
        ));
    }
    let token = token.clone().ok_or_else(|| {
        fail(format!(
            "no GitLab token: {} is not set (a project or group access token with the read_api \
             scope, as a masked CI/CD variable)",
            gl.token_var
        ))
    })?;
    let merge_base = args
        .base_sha
        .clone()
        .or_else(|| gl.diff_base_sha.clone())
        .ok_or_else(|| {
            fail(
                "no merge-base: CI_MERGE_REQUEST_DIFF_BASE_SHA is not set (run in a \
                 merge-request pipeline, or pass --base-sha SHA)"
                    .into(),
            )
        })?;
    prepare_destination(&args.to)?;
    let fetched = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| fail(format!("could not start the async runtime: {e}")))?
        .block_on(async {
            let known = |p: Problem| (Some((merge_base.clone(), None)), p);
            let client = crate::forge::gitlab::Client::new(gl, &token, env.retries, 0)
                .map_err(|m| known(Problem::Failed(m)))?;
            // How far the target branch moved on past the merge-base (for `max-behind`): best
            // effort, unknown when the compare fails.
            let behind = artifacts::behind(&client, &args.branch, &merge_base)
                .await
                .ok();
            let known = |p: Problem| (Some((merge_base.clone(), behind)), p);
            let work = async {
                let (run, job) =
                    artifacts::find(&client, &args.branch, &args.artifact, &merge_base).await?;
                let zip = artifacts::download(&client, run.run_id, job, &args.artifact).await?;
                Ok::<_, Problem>((run, zip))
            };
            match tokio::time::timeout(env.deadline * 3, work).await {
                Ok(Ok((run, zip))) => Ok(((merge_base.clone(), behind), run, zip)),
                Ok(Err(p)) => Err(known(p)),
                Err(_) => Err(known(Problem::Failed(format!(
                    "gave up on GitLab after {} s",
                    (env.deadline * 3).as_secs()
                )))),
            }
        });
    let record = Provenance {
        provenance_format: provenance::FORMAT,
        repository: gl.project.clone(),
        workflow: args.workflow.clone(),
        branch: args.branch.clone(),
        artifact: args.artifact.clone(),
        merge_base: String::new(),
        merge_base_behind: None,
        found: None,
        missing: None,
    };
    conclude(args, record, fetched, (false, "GitLab"), Some(&token))
}

/// The merge-base and how many commits the base branch has past it (when GitHub said).
type MergeBase = (String, Option<u64>);
type Fetched = (MergeBase, FoundRun, bytes::Bytes);

/// Merge-base, run, zip; a failure carries the merge-base when it was known.
async fn fetch_with(
    client: &Client,
    env: &GithubEnv,
    args: &FetchArgs,
    repository: &str,
    want: &Wanted<'_>,
) -> std::result::Result<Fetched, (Option<MergeBase>, Problem)> {
    // Commit ids are compared as GitHub writes them (lower case): an upper-case `--base-sha`
    // is the same commit, never "1 commit behind" itself.
    let merge_base = match &args.base_sha {
        // How far the branch moved on past a given commit: the compare of BRANCH...SHA, whose
        // merge-base is SHA itself when SHA is on the branch (unknown when GitHub does not say).
        Some(sha) => {
            let sha = sha.to_ascii_lowercase();
            let behind = match artifacts::merge_base(client, &args.branch, &sha).await {
                Ok((base, behind)) if base.starts_with(&sha) => behind,
                _ => None,
            };
            (sha, behind)
        }
        None => {
            let (base, head) = event_range(env, &args.branch).map_err(|m| (None, m.into()))?;
            artifacts::merge_base(client, &base, &head)
                .await
                .map_err(|m| (None, m.into()))?
        }
    };
    let known = |p: Problem| (Some(merge_base.clone()), p);
    let run = artifacts::find_run(client, repository, want, &merge_base.0)
        .await
        .map_err(known)?;
    let zip = artifacts::download(client, run.run_id, want.artifact)
        .await
        .map_err(known)?;
    Ok((merge_base, run, zip))
}

/// Unpacks the zip into `--to` and writes the provenance file; the outcome's lines say what.
fn finish(
    args: &FetchArgs,
    mut record: Provenance,
    (run, forge): (FoundRun, &str),
    zip: &[u8],
) -> Result<Outcome> {
    let shown = format!(
        "the artifact {} of run {}",
        crate::safe_text::quoted(&args.artifact),
        run.run_id
    );
    let files =
        crate::unzip::unpack(zip, &shown, &args.to, &crate::unzip::LIMITS).map_err(Error::Fetch)?;
    let files: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let behind = run.behind;
    let moved_on = match record.merge_base_behind {
        Some(n) => format!(
            "; {} is {} past the merge-base",
            args.branch,
            crate::numbers::count(n as usize, "commit", "commits")
        ),
        None => format!(
            "; how far {} is past the merge-base is unknown ({forge}'s compare did not say)",
            args.branch
        ),
    };
    let line = format!(
        "rag-gate: fetched {} ({} file{}) from run {} of {} on {}@{} into {}{}{moved_on}",
        crate::safe_text::quoted(&args.artifact),
        files.len(),
        if files.len() == 1 { "" } else { "s" },
        run.run_id,
        args.workflow,
        args.branch,
        short(&run.commit),
        args.to.display(),
        match behind {
            0 => " (the merge-base itself)".to_string(),
            n => format!(
                " ({} behind the merge-base {}: no run for the nearer ones)",
                crate::numbers::count(n, "commit", "commits"),
                short(&record.merge_base)
            ),
        }
    );
    record.found = Some(provenance::Found {
        commit: run.commit,
        commits_behind: behind,
        run_id: run.run_id,
        run_date: run.run_date,
        run_url: run.run_url,
        files,
    });
    write_record(&args.to, &record)?;
    Ok(Outcome {
        stdout: String::new(),
        stderr: vec![line.into()],
        exit_code: crate::outcome::EXIT_PASS,
    })
}

fn write_record(to: &Path, record: &Provenance) -> Result<()> {
    let path = to.join(provenance::FILE_NAME);
    let json = record.to_json();
    crate::atomic::write_atomic(&path, crate::safe_text::printable(&json).as_bytes())
}

/// `--to` is a folder (or not there yet); an artifact cannot bring its own provenance file.
fn prepare_destination(to: &Path) -> Result<()> {
    match std::fs::symlink_metadata(to) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(Error::Usage(format!(
            "--to {}: not a folder; give a folder to unpack the baseline into",
            to.display()
        ))),
        Err(_) => std::fs::create_dir_all(to)
            .map_err(|e| Error::io(to.display(), "creating the folder", e)),
    }
}

/// The flags that name things on GitHub: plain values only.
fn check_args(args: &FetchArgs) -> Result<()> {
    let plain = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-._".contains(c))
    };
    if !plain(&args.workflow) {
        return Err(Error::Usage(format!(
            "--workflow {}: expected the workflow's file name under .github/workflows (e.g. eval.yml)",
            crate::safe_text::quoted(&args.workflow)
        )));
    }
    if args.branch.is_empty()
        || args
            .branch
            .chars()
            .any(|c| c.is_whitespace() || c.is_control())
    {
        return Err(Error::Usage(format!(
            "--branch {}: expected a branch name",
            crate::safe_text::quoted(&args.branch)
        )));
    }
    if args.artifact.is_empty() || args.artifact.chars().any(char::is_control) {
        return Err(Error::Usage(
            "--artifact: expected the artifact's name".into(),
        ));
    }
    if let Some(sha) = &args.base_sha {
        let hex = sha.chars().all(|c| c.is_ascii_hexdigit());
        if !hex || !(7..=40).contains(&sha.len()) {
            return Err(Error::Usage(format!(
                "--base-sha {}: expected a commit id (7 to 40 hex digits)",
                crate::safe_text::quoted(sha)
            )));
        }
    }
    Ok(())
}

/// `BASE...HEAD` from the event: a `pull_request` (`base.sha`, the base branch's head then, and
/// `head.sha`) or a `workflow_run` (`branch` and the run's `head_sha`).
fn event_range(env: &GithubEnv, branch: &str) -> std::result::Result<(String, String), String> {
    let Some(path) = &env.event_path else {
        return Err("no merge-base: pass --base-sha SHA (GITHUB_EVENT_PATH is not set)".into());
    };
    let text =
        crate::forge::github::env::read_event(path).map_err(|e| format!("no merge-base: {e}"))?;
    let event: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("no merge-base: {} is not JSON: {e}", path.display()))?;
    let sha =
        |v: &serde_json::Value, p: &str| v.pointer(p).and_then(|s| s.as_str()).map(str::to_string);
    let pr = event
        .get("pull_request")
        .or_else(|| event.pointer("/workflow_run/pull_requests/0"));
    if let (Some(base), Some(head)) = (
        pr.and_then(|p| sha(p, "/base/sha")),
        pr.and_then(|p| sha(p, "/head/sha")),
    ) {
        return Ok((base, head));
    }
    if let Some(head) = sha(&event, "/workflow_run/head_sha") {
        return Ok((branch.to_string(), head));
    }
    Err("no merge-base: this event is neither a pull_request nor a workflow_run (pass --base-sha SHA)".into())
}
