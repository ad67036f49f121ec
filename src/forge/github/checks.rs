//! A GitHub check run for the verdict (the Checks API): one check run per gate on the judged
//! commit, named for the gate, with conclusion `success` (pass, untouched), `failure` (fail, and
//! inconclusive under `on-inconclusive = "fail"`) or `neutral` (inconclusive), the headline as
//! its title and the Markdown report as its summary. A re-run on the same commit finds the
//! check run by name (`GET …/commits/SHA/check-runs?check_name=NAME`) and updates it with PATCH;
//! otherwise it is created once with POST (never retried: a create whose outcome is unknown is
//! found and updated by the next run). The token needs `checks: write`.

use serde::Deserialize;
use serde_json::json;

use super::client::Client;
use crate::forge::transport::{encode, Reply, Verb, MAX_BODY};

/// GitHub accepts a check run's `output.summary` up to this many characters.
pub const SUMMARY_LIMIT: usize = 65_535;

/// The longest title sent (the headline, cut with "…" past this many characters).
pub const TITLE_LIMIT: usize = 1_000;

/// What the check run says.
pub struct CheckRun<'a> {
    pub name: &'a str,
    /// The judged commit (40 hex digits).
    pub head_sha: &'a str,
    /// `success`, `failure` or `neutral`.
    pub conclusion: &'a str,
    pub title: &'a str,
    pub summary: &'a str,
}

/// What was done: the check run's id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Done {
    Created(u64),
    Updated(u64),
}

const ON_403: &str = "the token needs `checks: write` (in the workflow: `permissions: checks: \
                      write`; a fork's pull request gets a read-only token, see docs/github.md)";

/// Creates the check run, or updates the one of the same name on the same commit.
pub async fn upsert(client: &Client, run: &CheckRun<'_>) -> Result<Done, String> {
    let title: String = if run.title.chars().count() > TITLE_LIMIT {
        run.title
            .chars()
            .take(TITLE_LIMIT - 1)
            .chain(['…'])
            .collect()
    } else {
        run.title.to_string()
    };
    let mut payload = json!({
        "name": run.name,
        "status": "completed",
        "conclusion": run.conclusion,
        "output": { "title": title, "summary": run.summary },
    });
    if let Some(id) = find(client, run).await? {
        let route = format!("{}/check-runs/{id}", client.repo_path());
        let what = format!("updating check run {id}");
        let reply = client
            .http()
            .retried(&Verb::Patch(&payload), &route, &what, MAX_BODY)
            .await?;
        if !reply.ok() {
            return Err(client.refusal(&reply, &what, ON_403));
        }
        return Ok(Done::Updated(id));
    }
    payload["head_sha"] = json!(run.head_sha);
    let route = format!("{}/check-runs", client.repo_path());
    let what = format!("creating check run {}", crate::error::quoted(run.name));
    let refused = |r: &Reply| client.refusal(r, &what, ON_403);
    let reply = client
        .http()
        .create(&route, &what, &payload, &refused)
        .await
        .map_err(|f| match f.unknown {
            true => format!(
                "{} (it may have been created; the next run updates it)",
                f.msg
            ),
            false => f.msg,
        })?;
    Ok(Done::Created(reply.parse::<Id>(&what)?.id))
}

#[derive(Deserialize)]
struct Id {
    id: u64,
}

/// The id of the newest check run named `run.name` on `run.head_sha`, if any.
async fn find(client: &Client, run: &CheckRun<'_>) -> Result<Option<u64>, String> {
    #[derive(Deserialize)]
    struct Listed {
        id: u64,
        name: String,
    }
    #[derive(Deserialize)]
    struct Page {
        check_runs: Vec<Listed>,
    }
    let route = format!(
        "{}/commits/{}/check-runs?check_name={}&filter=latest&per_page=100",
        client.repo_path(),
        encode(run.head_sha),
        encode(run.name)
    );
    let what = format!("listing the check runs of commit {}", run.head_sha);
    let reply = client.http().get(&route, &what, MAX_BODY).await?;
    if !reply.ok() {
        return Err(client.refusal(&reply, &what, ON_403));
    }
    let page: Page = reply.parse(&what)?;
    Ok(page
        .check_runs
        .into_iter()
        .find(|c| c.name == run.name)
        .map(|c| c.id))
}
