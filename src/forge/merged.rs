//! The pull (or merge) request a commit on main came from, as the forge records it: GitHub's
//! pull requests of a commit (`GET /repos/O/R/commits/SHA/pulls`), GitLab's merge requests of a
//! commit (`GET /projects/ID/repository/commits/SHA/merge_requests`). The one whose merge (or
//! squash) commit is SHA, else the one merged; None when the forge names none.

use serde::Deserialize;

#[derive(Deserialize)]
struct GithubPull {
    number: u64,
    #[serde(default)]
    merge_commit_sha: Option<String>,
    #[serde(default)]
    merged_at: Option<String>,
}

#[derive(Deserialize)]
struct GitlabMerge {
    iid: u64,
    #[serde(default)]
    state: String,
    #[serde(default)]
    merge_commit_sha: Option<String>,
    #[serde(default)]
    squash_commit_sha: Option<String>,
}

/// The pull request GitHub says `sha` came from.
pub async fn github(
    client: &crate::forge::github::client::Client,
    sha: &str,
) -> Result<Option<u64>, String> {
    let what = format!(
        "listing the pull requests of commit {}",
        super::stored::short(sha)
    );
    let route = format!(
        "{}/commits/{}/pulls",
        client.repo_path(),
        super::transport::encode(sha)
    );
    let pulls: Vec<GithubPull> = client
        .get_json(&route, &what, "the token needs pull-requests: read")
        .await?;
    let own = |p: &&GithubPull| p.merge_commit_sha.as_deref() == Some(sha);
    Ok(pulls
        .iter()
        .find(own)
        .or_else(|| pulls.iter().find(|p| p.merged_at.is_some()))
        .map(|p| p.number))
}

/// The merge request GitLab says `sha` came from.
pub async fn gitlab(
    client: &crate::forge::gitlab::Client,
    sha: &str,
) -> Result<Option<u64>, String> {
    let what = format!(
        "listing the merge requests of commit {}",
        super::stored::short(sha)
    );
    let route = format!(
        "{}/repository/commits/{}/merge_requests",
        client.project_route(),
        super::transport::encode(sha)
    );
    let merges: Vec<GitlabMerge> = client.get_json(&route, &what).await?;
    let own = |m: &&GitlabMerge| {
        m.merge_commit_sha.as_deref() == Some(sha) || m.squash_commit_sha.as_deref() == Some(sha)
    };
    Ok(merges
        .iter()
        .find(own)
        .or_else(|| merges.iter().find(|m| m.state == "merged"))
        .map(|m| m.iid))
}
