//! The GitHub side of the forge layer: the REST API on a configurable base URL
//! (`GITHUB_API_URL`) through the shared transport (`forge::transport`: timeouts, body caps,
//! bounded retries and pages, the same-host rule, the token-free download of a redirect). The
//! comment's calls: who the token is (`GET /user`), list every comment of a PR (all pages),
//! create one (never retried: `sticky.rs` lists again first), edit one; and for `baseline fetch`
//! a plain capped GET (`Client::get`) and the download of an artifact (`Client::archive`).
//! Errors come back as plain sentences saying what to do; they never contain the token.

use octocrab::service::middleware::retry::RetryConfig;
use octocrab::Octocrab;
use serde::Deserialize;
use serde_json::json;

use super::env::GithubEnv;
use crate::forge::transport::{self, Reply, Transport, Verb, MAX_BODY, MAX_PAGES};
use crate::forge::Token;
use crate::forge::{Failure, Notes, RawComment};

pub struct Client {
    http: Transport,
    repo_path: String,
}

impl Client {
    /// Builds the client. Call inside a Tokio runtime.
    pub fn new(env: &GithubEnv, token: &Token, repository: &str) -> Result<Self, String> {
        if !valid_repository(repository) {
            return Err(format!(
                "GITHUB_REPOSITORY must be owner/repo, got {}",
                crate::error::quoted(repository)
            ));
        }
        let base = transport::url_without_credentials(&env.api_url);
        if transport::has_credentials(&env.api_url) {
            return Err(format!(
                "GITHUB_API_URL {base} carries credentials (user:password@ or a query); give the \
                 token in {} instead",
                env.token_var
            ));
        }
        let authority = transport::authority(&env.api_url)
            .ok_or_else(|| format!("GITHUB_API_URL is not an http(s) URL: {base}"))?;
        if let Some(problem) = token.problem() {
            return Err(format!("the token in {} {problem}", env.token_var));
        }
        let crab = Octocrab::builder()
            .base_uri(env.api_url.as_str())
            .map_err(|_| format!("GITHUB_API_URL {base} is not a valid URL"))?
            .personal_token(token.expose().to_string())
            .set_connect_timeout(Some(env.connect_timeout))
            .set_read_timeout(Some(env.read_timeout))
            .set_write_timeout(Some(env.read_timeout))
            .add_retry_config(RetryConfig::None)
            .build()
            .map_err(|e| format!("could not set up the GitHub client: {e}"))?;
        let timeouts = (env.connect_timeout, env.read_timeout);
        Ok(Client {
            http: Transport::new(
                crab,
                "GitHub",
                &env.api_url,
                authority,
                (env.retries, timeouts),
                token,
            )
            .with_backoff(env.backoff),
            repo_path: format!("/repos/{repository}"),
        })
    }

    /// The shared transport (capped GETs, listings, downloads) for `baseline fetch`.
    pub fn http(&self) -> &Transport {
        &self.http
    }

    /// `/repos/OWNER/REPO`, the prefix of every repository route.
    pub fn repo_path(&self) -> &str {
        &self.repo_path
    }

    /// The JSON at `route` (up to `MAX_BODY`); a refusal in words, `on_403` naming the
    /// permission the call needs.
    pub async fn get_json<T: serde::de::DeserializeOwned>(
        &self,
        route: &str,
        what: &str,
        on_403: &str,
    ) -> Result<T, String> {
        let reply = self.http.get(route, what, MAX_BODY).await?;
        if !reply.ok() {
            return Err(self.refusal(&reply, what, on_403));
        }
        reply.parse(what)
    }

    /// A failed answer in words; `on_403` says which permission the call needs.
    pub fn refusal(&self, reply: &Reply, what: &str, on_403: &str) -> String {
        if let Some(reset) = &reply.rate_limited {
            return format!(
                "{what}: GitHub's API rate limit for this token is used up ({}); wait until it \
                 resets, or run with the Actions token (GITHUB_TOKEN), whose limit is per repository",
                reset_words(reset)
            );
        }
        if reply.status == 403 {
            return format!(
                "{what}: GitHub refused (403: {}); {on_403}",
                self.http.said(reply)
            );
        }
        self.status_error(reply, what)
    }

    fn status_error(&self, reply: &Reply, what: &str) -> String {
        let status = http::StatusCode::from_u16(reply.status)
            .map_or_else(|_| reply.status.to_string(), |s| s.to_string());
        let said = self.http.said(reply);
        match reply.status {
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
            s if s >= 500 => format!(
                "{what}: GitHub answered {status} after {} retries",
                self.http.retries()
            ),
            _ => format!("{what}: GitHub answered {status}: {said}"),
        }
    }
}

impl Notes for Client {
    /// The login the token posts as: its user (`GET /user`), or `github-actions[bot]` when
    /// GitHub will not say (the Actions token is an installation token: 403 on `/user`).
    async fn identity(&self) -> Result<String, String> {
        #[derive(Deserialize)]
        struct User {
            login: String,
        }
        let what = "asking GitHub who the token is (GET /user)";
        let reply = self.http.get("/user", what, MAX_BODY).await?;
        match reply.status {
            200..=299 => reply.parse::<User>(what).map(|u| u.login),
            403 | 404 => Ok(ACTIONS_BOT.to_string()),
            _ => Err(self.status_error(&reply, what)),
        }
    }

    /// Every comment on the PR, following `rel="next"` links 100 at a time; `keep` says which
    /// to hold on to (the others are dropped page by page).
    async fn list_comments(
        &self,
        pr: u64,
        keep: &dyn Fn(&RawComment) -> bool,
    ) -> Result<Vec<RawComment>, String> {
        let what = format!("listing the comments of PR #{pr}");
        let route = format!("{}/issues/{pr}/comments?per_page=100", self.repo_path);
        let refused = |r: &Reply| self.status_error(r, &what);
        self.http
            .list(route, &what, MAX_PAGES, &refused, |c: RawComment| {
                keep(&c).then_some(c)
            })
            .await
    }

    /// Creates a comment, once: a failure whose outcome is unknown is `Failure::unknown`.
    async fn create_comment(&self, pr: u64, body: &str) -> Result<RawComment, Failure> {
        let route = format!("{}/issues/{pr}/comments", self.repo_path);
        let what = format!("creating a comment on PR #{pr}");
        let payload = json!({ "body": body });
        let refused = |r: &Reply| self.status_error(r, &what);
        let reply = self.http.create(&route, &what, &payload, &refused).await?;
        reply.parse(&what).map_err(|msg| Failure {
            msg,
            unknown: false,
        })
    }

    /// Edits a comment with PATCH, as GitHub documents (the same body twice is harmless, so
    /// it is retried like a read).
    async fn update_comment(&self, id: u64, body: &str) -> Result<RawComment, String> {
        let route = format!("{}/issues/comments/{id}", self.repo_path);
        let what = format!("updating comment {id}");
        let payload = json!({ "body": body });
        let reply = self
            .http
            .retried(&Verb::Patch(&payload), &route, &what, MAX_BODY)
            .await?;
        if !reply.ok() {
            return Err(self.status_error(&reply, &what));
        }
        reply.parse(&what)
    }

    fn retries(&self) -> usize {
        self.http.retries()
    }
}

/// The login of the Actions token (`GITHUB_TOKEN`).
pub const ACTIONS_BOT: &str = "github-actions[bot]";

/// `x-ratelimit-reset` (Unix seconds) in words.
fn reset_words(reset: &str) -> String {
    match reset.parse::<u64>() {
        Ok(secs) => {
            let day = secs % 86_400;
            format!("it resets at {:02}:{:02} UTC", day / 3600, day % 3600 / 60)
        }
        Err(_) => "x-ratelimit-remaining: 0".to_string(),
    }
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
    fn repository_must_be_owner_slash_repo() {
        assert!(valid_repository("octo-org/rag.gate_2"));
        for bad in ["octo", "a/b/c", "a/..", "/b", "a/b?x=1", "a/b#c", "a /b"] {
            assert!(!valid_repository(bad), "{bad}");
        }
    }
}
