//! The one place that talks to GitHub: an octocrab client on a configurable base URL
//! (`GITHUB_API_URL`), with connect/read timeouts and a bounded retry on 5xx, 429 and transport
//! errors. Three calls: list every comment of a PR (all pages), create one, edit one.
//!
//! Errors come back as plain sentences saying what to do; they never contain the token.

use octocrab::service::middleware::retry::RetryConfig;
use octocrab::{Octocrab, Page};
use serde::Deserialize;
use serde_json::json;

use super::env::{GithubEnv, Token};

/// Safety stop for the comment listing: 1,000 pages of 100.
const MAX_PAGES: usize = 1_000;

/// The two fields of an issue comment we need (GitHub sends many more).
#[derive(Debug, Clone, Deserialize)]
pub struct RawComment {
    pub id: u64,
    #[serde(default)]
    pub body: Option<String>,
}

pub struct Client {
    crab: Octocrab,
    repo_path: String,
    /// `GITHUB_API_URL` as given, and its `host[:port]`.
    base: String,
    authority: String,
    retries: usize,
}

impl Client {
    /// Builds the client. Call inside a Tokio runtime.
    pub fn new(env: &GithubEnv, token: &Token, repository: &str) -> Result<Self, String> {
        if !valid_repository(repository) {
            return Err(format!(
                "GITHUB_REPOSITORY must be owner/repo, got {repository:?}"
            ));
        }
        let authority = authority(&env.api_url)
            .ok_or_else(|| format!("GITHUB_API_URL is not an http(s) URL: {:?}", env.api_url))?;
        let crab = Octocrab::builder()
            .base_uri(env.api_url.as_str())
            .map_err(|e| format!("GITHUB_API_URL {:?}: {e}", env.api_url))?
            .personal_token(token.expose().to_string())
            .set_connect_timeout(Some(env.connect_timeout))
            .set_read_timeout(Some(env.read_timeout))
            .set_write_timeout(Some(env.read_timeout))
            .add_retry_config(RetryConfig::Simple(env.retries))
            .build()
            .map_err(|e| format!("could not set up the GitHub client: {e}"))?;
        let base = env.api_url.clone();
        Ok(Client {
            crab,
            repo_path: format!("/repos/{repository}"),
            base,
            authority,
            retries: env.retries,
        })
    }

    /// Every comment on the PR, following `rel="next"` links 100 at a time.
    pub async fn list_comments(&self, pr: u64) -> Result<Vec<RawComment>, String> {
        let what = format!("listing the comments of PR #{pr}");
        let route = format!("{}/issues/{pr}/comments", self.repo_path);
        let mut page: Page<RawComment> = self
            .crab
            .get(route, Some(&[("per_page", "100")]))
            .await
            .map_err(|e| self.describe(e, &what))?;
        let mut all = std::mem::take(&mut page.items);
        for _ in 0..MAX_PAGES {
            let Some(next) = page.next.take() else {
                return Ok(all);
            };
            // Never follow a Link header to another host (octocrab would drop the token there
            // anyway; an explicit error says what happened).
            if next.authority().map(|a| a.as_str().to_ascii_lowercase())
                != Some(self.authority.clone())
            {
                return Err(format!(
                    "{what}: the next-page link points to another host ({next})"
                ));
            }
            // Same host, so follow it as a path on the API URL we were given.
            let route = next
                .path_and_query()
                .map_or("/", |pq| pq.as_str())
                .to_string();
            page = self
                .crab
                .get(route, None::<&()>)
                .await
                .map_err(|e| self.describe(e, &what))?;
            all.append(&mut page.items);
        }
        Err(format!("{what}: more than {MAX_PAGES} pages of comments"))
    }

    pub async fn create_comment(&self, pr: u64, body: &str) -> Result<RawComment, String> {
        let route = format!("{}/issues/{pr}/comments", self.repo_path);
        self.crab
            .post(route, Some(&json!({ "body": body })))
            .await
            .map_err(|e| self.describe(e, &format!("creating a comment on PR #{pr}")))
    }

    /// Edits a comment with PATCH, as GitHub documents (octocrab's `update_comment` sends POST).
    pub async fn update_comment(&self, id: u64, body: &str) -> Result<RawComment, String> {
        let route = format!("{}/issues/comments/{id}", self.repo_path);
        self.crab
            .patch(route, Some(&json!({ "body": body })))
            .await
            .map_err(|e| self.describe(e, &format!("updating comment {id}")))
    }

    fn describe(&self, err: octocrab::Error, what: &str) -> String {
        if let octocrab::Error::GitHub { source, .. } = &err {
            let status = source.status_code;
            let said: String = source.message.chars().take(200).collect();
            return match status.as_u16() {
                401 => format!("{what}: GitHub rejected the token (401: {said})"),
                403 => format!(
                    "{what}: GitHub refused (403: {said}); the token may be read-only (pull requests \
                     from forks get one: use the two-workflow setup in docs/github.md) or lack \
                     `pull-requests: write`"
                ),
                404 => format!(
                    "{what}: GitHub answered 404 (check GITHUB_REPOSITORY, the PR number and that \
                     the token can see the repository)"
                ),
                s if s >= 500 => {
                    format!("{what}: GitHub answered {status} after {} retries", self.retries)
                }
                _ => format!("{what}: GitHub answered {status}: {said}"),
            };
        }
        let mut msg = format!("{what}: could not reach GitHub at {}: {err}", self.base);
        let mut source = std::error::Error::source(&err);
        while let Some(s) = source {
            msg.push_str(&format!(": {s}"));
            source = s.source();
        }
        msg
    }
}

/// `HOST[:PORT]` of an `http(s)://` URL, lower-cased.
fn authority(url: &str) -> Option<String> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let host = rest.split(['/', '?', '#']).next()?;
    (!host.is_empty() && !host.contains('@')).then(|| host.to_ascii_lowercase())
}

fn valid_repository(s: &str) -> bool {
    let ok = |p: &str| {
        !p.is_empty()
            && p != "."
            && p != ".."
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
    };
    matches!(s.split_once('/'), Some((o, r)) if ok(o) && ok(r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authority_of_api_urls() {
        assert_eq!(
            authority("https://api.github.com").as_deref(),
            Some("api.github.com")
        );
        assert_eq!(
            authority("https://GHE.example:8443/api/v3").as_deref(),
            Some("ghe.example:8443")
        );
        assert_eq!(authority("ftp://x"), None);
        assert_eq!(authority("https://user:pw@x"), None);
    }

    #[test]
    fn repository_must_be_owner_slash_repo() {
        assert!(valid_repository("octo-org/rag.gate_2"));
        for bad in ["octo", "a/b/c", "a/..", "/b", "a/b?x=1", "a/b#c", "a /b"] {
            assert!(!valid_repository(bad), "{bad}");
        }
    }
}
