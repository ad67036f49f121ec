//! The forge's monotonic reference for a request's checks, so that a sticky comment whose state
//! went back in time (an older signed state pasted back) or disappeared can be told
//! (`publish::history`): the number of this check's run, and the numbers of the request's
//! earlier runs that finished.
//!
//! GitHub: workflow run numbers, which count up by one per run of a workflow (`GET
//! /repos/O/R/actions/runs/ID`: its workflow, number, head branch and head repository; then `GET
//! /repos/O/R/actions/workflows/W/runs?branch=B&event=pull_request&status=completed`: the newest
//! 100 finished runs of that workflow on the pull request's branch, those from its head
//! repository kept). On a `workflow_run` event (the fork-safe pair's part 2) the run is the
//! triggering one (the pull request's part 1). Only `pull_request` runs are counted: a
//! `pull_request_target` run's branch is the base branch, which every pull request shares. GitLab: pipeline ids (`GET
//! /projects/ID/merge_requests/IID/pipelines`: the merge request's newest 100 pipelines).

use serde::Deserialize;

use crate::model::looks::Standing;

#[derive(Deserialize)]
struct GithubRun {
    run_number: u64,
    workflow_id: u64,
    #[serde(default)]
    head_branch: Option<String>,
    #[serde(default)]
    event: String,
    #[serde(default)]
    conclusion: Option<String>,
    #[serde(default)]
    head_repository: Option<Repository>,
}

#[derive(Deserialize)]
struct Repository {
    full_name: String,
}

#[derive(Deserialize)]
struct GithubRuns {
    workflow_runs: Vec<GithubRun>,
}

#[derive(Deserialize)]
struct GitlabPipeline {
    id: u64,
    #[serde(default)]
    status: String,
}

/// A finished run that had its say: it passed or failed (not cancelled or skipped).
fn finished(conclusion: &str) -> bool {
    matches!(conclusion, "success" | "failure" | "failed")
}

/// What a refused read of the workflow runs says the token needs.
const ACTIONS_READ: &str = "the token needs actions: read";

/// GitHub's standing of run `run_id` (this run, or on `workflow_run` the triggering one).
pub async fn github(
    client: &crate::forge::github::client::Client,
    run_id: u64,
) -> Result<Standing, String> {
    let what = format!("reading workflow run {run_id}");
    let route = format!("{}/actions/runs/{run_id}", client.repo_path());
    let me: GithubRun = client.get_json(&route, &what, ACTIONS_READ).await?;
    if me.event != "pull_request" {
        // A `pull_request_target` run's branch is the base branch, shared by every pull
        // request: its runs cannot be counted per pull request.
        return Err(format!(
            "workflow run {run_id} is a {} run, not a pull_request one: only pull_request runs \
             are counted per pull request",
            crate::safe_text::shown(&me.event)
        ));
    }
    let branch = me.head_branch.clone().unwrap_or_default();
    let home = me.head_repository.as_ref().map(|r| r.full_name.clone());
    let what = format!("listing the finished runs of workflow {}", me.workflow_id);
    let route = format!(
        "{}/actions/workflows/{}/runs?branch={}&event={}&status=completed&per_page=100",
        client.repo_path(),
        me.workflow_id,
        super::transport::encode(&branch),
        super::transport::encode(&me.event),
    );
    let runs: GithubRuns = client.get_json(&route, &what, ACTIONS_READ).await?;
    let finished = runs
        .workflow_runs
        .iter()
        .filter(|r| r.head_repository.as_ref().map(|h| &h.full_name) == home.as_ref())
        .filter(|r| r.conclusion.as_deref().is_some_and(finished))
        .filter(|r| r.run_number != me.run_number)
        .map(|r| r.run_number)
        .collect();
    Ok(Standing {
        source: format!("github workflow {}", me.workflow_id),
        number: me.run_number,
        finished,
    })
}

/// GitLab's standing of pipeline `pipeline` in merge request `mr`.
pub async fn gitlab(
    client: &crate::forge::gitlab::Client,
    mr: u64,
    pipeline: u64,
) -> Result<Standing, String> {
    let what = format!("listing the pipelines of merge request !{mr}");
    let route = format!(
        "{}/merge_requests/{mr}/pipelines?per_page=100",
        client.project_route()
    );
    let pipelines: Vec<GitlabPipeline> = client.get_json(&route, &what).await?;
    Ok(Standing {
        source: "gitlab pipelines".into(),
        number: pipeline,
        finished: pipelines
            .iter()
            .filter(|p| finished(&p.status) && p.id != pipeline)
            .map(|p| p.id)
            .collect(),
    })
}
