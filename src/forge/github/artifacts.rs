//! The baseline on GitHub Actions: the pull request's merge-base, the newest successful run of
//! the evaluation workflow on the base branch for it (else for the nearest older ancestor), and
//! that run's artifact as zip bytes.
//!
//! Calls (REST, through [`Client`]): `GET /repos/R/compare/BASE...HEAD` (the merge-base),
//! `GET /repos/R/commits?sha=SHA` (its ancestors, newest first), `GET
//! /repos/R/actions/workflows/FILE/runs?branch=B&status=success` (all pages, bounded), `GET
//! /repos/R/actions/runs/ID/artifacts?name=N`, and `GET /repos/R/actions/artifacts/ID/zip`, whose
//! redirect is followed without the token (`Client::archive`).
//!
//! Only runs of the repository itself count, started by an event of the base branch (`push`,
//! `schedule`, `workflow_dispatch`, ...), never by a pull request: a fork can name its branch
//! `main` and its runs would otherwise pass for main's.

use serde::Deserialize;

use super::client::Client;
use crate::forge::stored::{short, FoundRun, Problem, MAX_BEHIND, MAX_LIST_PAGES, MAX_ZIP};
use crate::forge::transport::{encode, MAX_BODY};

const ACTIONS_READ: &str = "the token needs `actions: read` (add `permissions: { actions: read, \
     contents: read }` to the job; a fine-grained token needs Actions read access)";
const CONTENTS_READ: &str = "the token needs `contents: read` to compare commits";

/// What to fetch.
#[derive(Debug, Clone)]
pub struct Wanted<'a> {
    pub workflow: &'a str,
    pub branch: &'a str,
    pub artifact: &'a str,
}

#[derive(Deserialize)]
struct Run {
    id: u64,
    head_sha: String,
    #[serde(default)]
    head_branch: Option<String>,
    #[serde(default)]
    event: String,
    #[serde(default)]
    conclusion: Option<String>,
    #[serde(default)]
    created_at: String,
    #[serde(default)]
    html_url: Option<String>,
    #[serde(default)]
    head_repository: Option<Repo>,
}

#[derive(Deserialize)]
struct Repo {
    full_name: String,
}

#[derive(Deserialize)]
struct Runs {
    workflow_runs: Vec<Run>,
}

#[derive(Deserialize)]
struct Artifact {
    id: u64,
    name: String,
    #[serde(default)]
    expired: bool,
}

#[derive(Deserialize)]
struct Artifacts {
    artifacts: Vec<Artifact>,
}

/// The merge-base of `base...head` (GitHub's compare), lower case, and how many commits `base`
/// has past it (`behind_by`: how far the base branch moved on since the pull request branched).
pub async fn merge_base(
    client: &Client,
    base: &str,
    head: &str,
) -> Result<(String, Option<u64>), String> {
    #[derive(Deserialize)]
    struct Commit {
        sha: String,
    }
    #[derive(Deserialize)]
    struct Compare {
        merge_base_commit: Commit,
        #[serde(default)]
        behind_by: Option<u64>,
    }
    let what = format!("finding the merge-base of {base}...{}", short(head));
    let route = format!(
        "{}/compare/{}...{}",
        client.repo_path(),
        encode(base),
        encode(head)
    );
    let reply = client.http().get(&route, &what, MAX_BODY).await?;
    if !reply.ok() {
        return Err(client.refusal(&reply, &what, CONTENTS_READ));
    }
    let compare = reply.parse::<Compare>(&what)?;
    Ok((
        compare.merge_base_commit.sha.to_ascii_lowercase(),
        compare.behind_by,
    ))
}

/// The merge-base and up to [`MAX_BEHIND`] − 1 of its ancestors, newest first.
async fn ancestors(client: &Client, sha: &str) -> Result<Vec<String>, String> {
    #[derive(Deserialize)]
    struct Commit {
        sha: String,
    }
    let what = format!("listing the ancestors of {}", short(sha));
    let route = format!(
        "{}/commits?sha={}&per_page={MAX_BEHIND}",
        client.repo_path(),
        encode(sha)
    );
    let reply = client.http().get(&route, &what, MAX_BODY).await?;
    if reply.status == 404 || reply.status == 422 {
        return Err(format!(
            "{what}: GitHub does not know commit {sha} in this repository (check --base-sha)"
        ));
    }
    if !reply.ok() {
        return Err(client.refusal(&reply, &what, CONTENTS_READ));
    }
    let list: Vec<Commit> = reply.parse(&what)?;
    let mut shas: Vec<String> = list.into_iter().map(|c| c.sha).take(MAX_BEHIND).collect();
    let sha = sha.to_ascii_lowercase();
    let sha = sha.as_str();
    if shas.first().map(String::as_str) != Some(sha) && !shas.iter().any(|s| s.starts_with(sha)) {
        shas.insert(0, sha.to_string());
    }
    Ok(shas)
}

/// The newest successful run of the workflow on the branch for the merge-base `sha`, else for
/// the nearest older ancestor within [`MAX_BEHIND`] commits.
pub async fn find_run(
    client: &Client,
    repository: &str,
    want: &Wanted<'_>,
    sha: &str,
) -> Result<FoundRun, Problem> {
    let window = ancestors(client, sha).await?;
    let what = format!(
        "listing the successful runs of {} on {}",
        want.workflow, want.branch
    );
    let mut route = format!(
        "{}/actions/workflows/{}/runs?branch={}&status=success&per_page=100",
        client.repo_path(),
        encode(want.workflow),
        encode(want.branch)
    );
    let mut best: Option<(usize, Run)> = None;
    let mut seen = 0usize;
    let mut pages = 0usize;
    while pages < MAX_LIST_PAGES {
        pages += 1;
        let reply = client.http().get(&route, &what, MAX_BODY).await?;
        if reply.status == 404 {
            return Err(Problem::Failed(format!(
                "{what}: GitHub answered 404: no workflow file {} in this repository (give \
                 --workflow the file name under .github/workflows, e.g. eval.yml)",
                crate::safe_text::quoted(want.workflow)
            )));
        }
        if !reply.ok() {
            return Err(Problem::Failed(client.refusal(&reply, &what, ACTIONS_READ)));
        }
        let runs: Runs = reply.parse(&what)?;
        seen += runs.workflow_runs.len();
        for run in runs.workflow_runs {
            if !counts(&run, repository, want.branch) {
                continue;
            }
            let Some(at) = window
                .iter()
                .position(|c| c.eq_ignore_ascii_case(&run.head_sha))
            else {
                continue;
            };
            if best.as_ref().is_none_or(|(b, _)| at < *b) {
                best = Some((at, run));
            }
        }
        if best.as_ref().is_some_and(|(at, _)| *at == 0) {
            break;
        }
        match reply.next {
            Some(next) => route = client.http().same_host_route(&next, &what)?,
            None => break,
        }
    }
    let Some((behind, run)) = best else {
        return Err(Problem::Missing(format!(
            "no successful run of {} on {} for {} or any of its {} older ancestors (looked \
             through {seen} runs on {pages} page{}); run the workflow on {} (it must upload the \
             artifact), or pass --base-sha",
            want.workflow,
            want.branch,
            short(sha),
            window.len().saturating_sub(1),
            if pages == 1 { "" } else { "s" },
            want.branch
        )));
    };
    Ok(FoundRun {
        commit: run.head_sha,
        behind,
        run_id: run.id,
        run_date: run.created_at,
        run_url: run.html_url,
    })
}

/// A run of the base branch itself: succeeded, of this repository, not started by a pull request.
fn counts(run: &Run, repository: &str, branch: &str) -> bool {
    let by_pr = run.event.starts_with("pull_request");
    let ours = run
        .head_repository
        .as_ref()
        .is_none_or(|r| r.full_name.eq_ignore_ascii_case(repository));
    run.conclusion.as_deref() == Some("success")
        && !by_pr
        && ours
        && run.head_branch.as_deref().is_none_or(|b| b == branch)
}

/// The zip of the run's artifact named `name`.
pub async fn download(client: &Client, run_id: u64, name: &str) -> Result<bytes::Bytes, Problem> {
    let what = format!(
        "finding the artifact {} of run {run_id}",
        crate::safe_text::quoted(name)
    );
    let route = format!(
        "{}/actions/runs/{run_id}/artifacts?name={}&per_page=100",
        client.repo_path(),
        encode(name)
    );
    let reply = client.http().get(&route, &what, MAX_BODY).await?;
    if !reply.ok() {
        return Err(Problem::Failed(client.refusal(&reply, &what, ACTIONS_READ)));
    }
    let list: Artifacts = reply.parse(&what)?;
    let names: Vec<String> = list.artifacts.iter().map(|a| a.name.clone()).collect();
    let Some(art) = list.artifacts.into_iter().find(|a| a.name == name) else {
        let has = match names.is_empty() {
            true => "none".to_string(),
            false => crate::error::few(&names, 5),
        };
        return Err(Problem::Missing(format!(
            "{what}: run {run_id} has no artifact of that name (it has: {has}); check \
             --artifact against the upload step's `name:`"
        )));
    };
    if art.expired {
        return Err(Problem::Missing(expired(run_id, name)));
    }
    let what = format!(
        "downloading the artifact {} of run {run_id}",
        crate::safe_text::quoted(name)
    );
    let route = format!("{}/actions/artifacts/{}/zip", client.repo_path(), art.id);
    match client.http().archive(&route, &what, MAX_ZIP).await? {
        Ok(zip) => Ok(zip),
        Err(reply) if reply.status == 410 => Err(Problem::Missing(expired(run_id, name))),
        Err(reply) => Err(Problem::Failed(client.refusal(&reply, &what, ACTIONS_READ))),
    }
}

fn expired(run_id: u64, name: &str) -> String {
    format!(
        "the artifact {} of run {run_id} has expired (GitHub keeps artifacts 90 days by \
         default); re-run the workflow on the base branch, or raise `retention-days` on its \
         upload step",
        crate::safe_text::quoted(name)
    )
}
