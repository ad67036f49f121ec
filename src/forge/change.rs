//! The pull request's change as the forge lists it, hashed: the key of a candidate's attempts
//! (`publish::history`). An empty commit, an amend of the message, a rebase or a merge of main
//! that touches none of the pull request's files leave it as it was; any edit of a changed
//! file, or a file added to the change, makes a new one.
//!
//! GitHub: the pull request's files (`GET /repos/O/R/pulls/N/files`: each file's path, status,
//! previous path and the blob SHA of its new content). GitLab: the merge request's diffs (`GET
//! /projects/ID/merge_requests/IID/diffs`: each file's paths, flags and diff text). Both list
//! the change against the merge-base, so what main added since is not part of it.

use serde::Deserialize;

/// GitHub lists at most 3,000 files of a pull request (30 pages of 100).
const GITHUB_PAGES: usize = 30;
/// Pages of 100 diffs read from GitLab.
const GITLAB_PAGES: usize = 100;

#[derive(Deserialize)]
struct GithubFile {
    filename: String,
    status: String,
    #[serde(default)]
    sha: Option<String>,
    #[serde(default)]
    previous_filename: Option<String>,
}

#[derive(Deserialize)]
struct GitlabDiff {
    old_path: String,
    new_path: String,
    #[serde(default)]
    new_file: bool,
    #[serde(default)]
    deleted_file: bool,
    #[serde(default)]
    renamed_file: bool,
    #[serde(default)]
    diff: String,
}

/// SHA-256 over the sorted lines, under `forge`'s name.
fn key(forge: &str, mut lines: Vec<String>) -> String {
    lines.sort();
    let text = format!("rag-gate change v1 {forge}\n{}", lines.join("\n"));
    crate::protocol::sha256_hex(text.as_bytes())
}

/// The key of pull request `pr`'s change on GitHub.
pub async fn github(
    client: &crate::forge::github::client::Client,
    pr: u64,
) -> Result<String, String> {
    let what = format!("listing the files of pull request #{pr}");
    let route = format!("{}/pulls/{pr}/files?per_page=100", client.repo_path());
    let refused = |r: &super::transport::Reply| {
        client.refusal(r, &what, "the token needs pull-requests: read")
    };
    let lines = client
        .http()
        .list(route, &what, GITHUB_PAGES, &refused, |f: GithubFile| {
            Some(format!(
                "{}\t{}\t{}\t{}",
                f.status,
                f.filename,
                f.previous_filename.unwrap_or_default(),
                f.sha.unwrap_or_default()
            ))
        })
        .await?;
    Ok(key("github", lines))
}

/// The key of merge request `mr`'s change on GitLab.
pub async fn gitlab(client: &crate::forge::gitlab::Client, mr: u64) -> Result<String, String> {
    let what = format!("listing the diffs of merge request !{mr}");
    let route = format!(
        "{}/merge_requests/{mr}/diffs?per_page=100",
        client.project_route()
    );
    let diffs: Vec<GitlabDiff> = client.list(route, &what, GITLAB_PAGES).await?;
    let lines = diffs
        .into_iter()
        .map(|d| {
            format!(
                "{}{}{}\t{}\t{}\t{}",
                u8::from(d.new_file),
                u8::from(d.deleted_file),
                u8::from(d.renamed_file),
                d.old_path,
                d.new_path,
                crate::protocol::sha256_hex(d.diff.as_bytes())
            )
        })
        .collect();
    Ok(key("gitlab", lines))
}
