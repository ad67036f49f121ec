//! The baseline on GitLab: the merge request's merge-base (`CI_MERGE_REQUEST_DIFF_BASE_SHA`), the
//! newest successful pipeline of the target branch for it (else for the nearest older ancestor,
//! up to [`MAX_BEHIND`] commits back), the job of that pipeline that stored the results, and its
//! artifacts archive as zip bytes.
//!
//! Calls (REST v4, through [`Client`]): `GET /projects/:id/repository/commits?ref_name=SHA` (the
//! merge-base and its ancestors, newest first), `GET /projects/:id/pipelines?sha=SHA&ref=BRANCH
//! &status=success` and `GET /projects/:id/pipelines/:pipeline_id/jobs?scope[]=success` (every
//! page, `Link: rel="next"`, at most [`MAX_LIST_PAGES`] of 100), and `GET
//! /projects/:id/jobs/:job_id/artifacts`, whose redirect (object storage) is followed without
//! the token. Only pipelines of the target branch count (`ref=BRANCH`): a merge request's own
//! pipelines run on `refs/merge-requests/…` and can never pass for the branch's.

use serde::Deserialize;

use super::client::Client;
use crate::forge::stored::{short, FoundRun, Problem, MAX_BEHIND, MAX_LIST_PAGES, MAX_ZIP};
use crate::forge::transport::{encode, MAX_BODY};

#[derive(Deserialize)]
struct Commit {
    id: String,
}

#[derive(Deserialize)]
struct Pipeline {
    id: u64,
    #[serde(default)]
    created_at: String,
    #[serde(default)]
    web_url: Option<String>,
}

#[derive(Deserialize)]
struct Job {
    id: u64,
    name: String,
    /// Present while the job's artifacts archive exists (gone once it expired).
    #[serde(default)]
    artifacts_file: Option<serde_json::Value>,
}

/// How many commits `branch` has past `merge_base` (GitLab's compare, `from` the merge-base
/// `to` the branch: the commits the branch has that the merge-base lacks).
pub async fn behind(client: &Client, branch: &str, merge_base: &str) -> Result<u64, String> {
    #[derive(Deserialize)]
    struct Compare {
        commits: Vec<serde::de::IgnoredAny>,
    }
    let what = format!(
        "comparing the merge-base {} with {}",
        short(merge_base),
        crate::safe_text::quoted(branch)
    );
    let route = format!(
        "{}/repository/compare?from={}&to={}",
        client.project_route(),
        encode(merge_base),
        encode(branch)
    );
    let reply = client.http().get(&route, &what, MAX_BODY).await?;
    if !reply.ok() {
        return Err(client.refusal(&reply, &what));
    }
    Ok(reply.parse::<Compare>(&what)?.commits.len() as u64)
}

/// The pipeline and job whose artifacts hold the baseline: the newest successful pipeline of
/// `branch` for `merge_base`, else for its nearest ancestor that has one with a job `job`.
pub async fn find(
    client: &Client,
    branch: &str,
    job: &str,
    merge_base: &str,
) -> Result<(FoundRun, u64), Problem> {
    let what = format!(
        "listing the ancestors of the merge-base {}",
        short(merge_base)
    );
    let route = format!(
        "{}/repository/commits?ref_name={}&per_page={MAX_BEHIND}",
        client.project_route(),
        encode(merge_base)
    );
    let reply = client.http().get(&route, &what, MAX_BODY).await?;
    if reply.status == 404 {
        return Err(Problem::Missing(format!(
            "{what}: GitLab does not know the commit (was the target branch rewritten?)"
        )));
    }
    if !reply.ok() {
        return Err(Problem::Failed(client.refusal(&reply, &what)));
    }
    let commits: Vec<Commit> = reply.parse(&what)?;
    let mut expired = None;
    for (behind, commit) in commits.iter().take(MAX_BEHIND).enumerate() {
        for p in pipelines(client, branch, &commit.id).await? {
            let Some(j) = jobs(client, p.id)
                .await?
                .into_iter()
                .find(|j| j.name == job)
            else {
                continue;
            };
            let found = FoundRun {
                commit: commit.id.clone(),
                behind,
                run_id: p.id,
                run_date: p.created_at.clone(),
                run_url: p.web_url.clone(),
            };
            if j.artifacts_file.is_none() {
                expired.get_or_insert((found, j.id));
                continue;
            }
            return Ok((found, j.id));
        }
    }
    if let Some((found, job_id)) = expired {
        return Err(Problem::Missing(expired_words(found.run_id, job_id, job)));
    }
    Err(Problem::Missing(format!(
        "no successful pipeline of {} with a job {} for the merge-base {} or its {} nearest \
         ancestors; run the pipeline on {} (the job must keep its results as artifacts)",
        crate::safe_text::quoted(branch),
        crate::safe_text::quoted(job),
        short(merge_base),
        commits.len().min(MAX_BEHIND).saturating_sub(1),
        crate::safe_text::quoted(branch),
    )))
}

/// Every successful pipeline of `branch` for `sha`, newest first (all pages, bounded).
async fn pipelines(client: &Client, branch: &str, sha: &str) -> Result<Vec<Pipeline>, Problem> {
    let what = format!("listing the pipelines of {}", short(sha));
    let route = format!(
        "{}/pipelines?sha={}&ref={}&status=success&order_by=id&sort=desc&per_page=100",
        client.project_route(),
        encode(sha),
        encode(branch)
    );
    Ok(client.list(route, &what, MAX_LIST_PAGES).await?)
}

/// Every successful job of `pipeline` (all pages, bounded).
async fn jobs(client: &Client, pipeline: u64) -> Result<Vec<Job>, Problem> {
    let what = format!("listing the jobs of pipeline {pipeline}");
    let route = format!(
        "{}/pipelines/{pipeline}/jobs?scope[]=success&per_page=100",
        client.project_route()
    );
    Ok(client.list(route, &what, MAX_LIST_PAGES).await?)
}

/// The artifacts archive of job `job_id` (of pipeline `pipeline`, job name `job`).
pub async fn download(
    client: &Client,
    pipeline: u64,
    job_id: u64,
    job: &str,
) -> Result<bytes::Bytes, Problem> {
    let what = format!(
        "downloading the artifacts of job {} ({job_id}) of pipeline {pipeline}",
        crate::safe_text::quoted(job)
    );
    let route = format!("{}/jobs/{job_id}/artifacts", client.project_route());
    match client.http().archive(&route, &what, MAX_ZIP).await? {
        Ok(zip) => Ok(zip),
        Err(reply) if matches!(reply.status, 404 | 410) => {
            Err(Problem::Missing(expired_words(pipeline, job_id, job)))
        }
        Err(reply) => Err(Problem::Failed(client.refusal(&reply, &what))),
    }
}

fn expired_words(pipeline: u64, job_id: u64, job: &str) -> String {
    format!(
        "the artifacts of job {} ({job_id}) of pipeline {pipeline} have expired or were \
         deleted; run the pipeline on the target branch again, or raise the job's \
         `artifacts:expire_in`",
        crate::safe_text::quoted(job)
    )
}
