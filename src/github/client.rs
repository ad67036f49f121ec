//! The one place that talks to GitHub: an octocrab client on a configurable base URL
//! (`GITHUB_API_URL`), with connect/read timeouts. The comment's calls: who the token is
//! (`GET /user`), list every comment of a PR (all pages), create one, edit one; and for
//! `baseline fetch` a plain capped GET ([`Client::get`]) and the download of a redirect target
//! on another host, sent without the token ([`Client::download`]).
//!
//! The server is not trusted: every response body is read through a size cap
//! ([`MAX_BODY`]) and the listing stops after [`MAX_PAGES`] pages, so a 10 GiB body or an endless
//! chain of `next` links cannot exhaust memory or time. Reads and edits are retried (a bounded
//! number of times) after a 5xx, a 429 or a transport error; a create never is: whether GitHub
//! stored it is unknown, so the caller lists the comments again first (`sticky.rs`).
//!
//! Errors come back as plain sentences saying what to do; they never contain the token, and
//! what GitHub says is redacted before it is cut.

use http_body_util::{BodyExt, Limited};
use octocrab::service::middleware::retry::RetryConfig;
use octocrab::Octocrab;
use serde::Deserialize;
use serde_json::json;

use super::env::{GithubEnv, Token};

/// Safety stop for the comment listing: 300 pages of 100.
pub const MAX_PAGES: usize = 300;
/// The largest response body read: a page of 100 comments of GitHub's maximum length (65,536
/// characters) fits.
pub const MAX_BODY: usize = 32 << 20;

/// The fields of an issue comment we need (GitHub sends many more).
#[derive(Debug, Clone, Deserialize)]
pub struct RawComment {
    pub id: u64,
    #[serde(default)]
    pub body: Option<String>,
    #[serde(default)]
    pub user: Option<Author>,
}

/// Who wrote a comment.
#[derive(Debug, Clone, Deserialize)]
pub struct Author {
    pub login: String,
}

impl RawComment {
    pub fn login(&self) -> Option<&str> {
        self.user.as_ref().map(|u| u.login.as_str())
    }
}

/// Why a request failed: `unknown` when GitHub may have acted on it (a 5xx, a transport error
/// or a timeout after sending), so a create must not simply be sent again.
#[derive(Debug)]
pub struct Failure {
    pub msg: String,
    pub unknown: bool,
}

enum Verb<'a> {
    Get,
    Post(&'a serde_json::Value),
    Patch(&'a serde_json::Value),
}

/// A response read within the cap.
pub struct Reply {
    pub status: u16,
    /// The `rel="next"` link of a listing.
    pub next: Option<String>,
    /// The `Location` header of a redirect.
    pub location: Option<String>,
    /// `x-ratelimit-remaining: 0`: the token's rate limit is used up (with `x-ratelimit-reset`).
    pub rate_limited: Option<String>,
    pub body: bytes::Bytes,
}

pub struct Client {
    crab: Octocrab,
    repo_path: String,
    /// `GITHUB_API_URL` without credentials (for messages), and its `host[:port]`.
    base: String,
    authority: String,
    retries: usize,
    /// Connect and read timeouts, for the download client too.
    timeouts: (std::time::Duration, std::time::Duration),
    token: Token,
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
        let base = url_without_credentials(&env.api_url);
        if has_credentials(&env.api_url) {
            return Err(format!(
                "GITHUB_API_URL {base} carries credentials (user:password@ or a query); give the \
                 token in {} instead",
                env.token_var
            ));
        }
        let authority = authority(&env.api_url)
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
        Ok(Client {
            crab,
            repo_path: format!("/repos/{repository}"),
            base,
            authority,
            retries: env.retries,
            timeouts: (env.connect_timeout, env.read_timeout),
            token: token.clone(),
        })
    }

    /// The login the token posts as: its user (`GET /user`), or `github-actions[bot]` when
    /// GitHub will not say (the Actions token is an installation token: 403 on `/user`).
    pub async fn identity(&self) -> Result<String, String> {
        #[derive(Deserialize)]
        struct User {
            login: String,
        }
        let what = "asking GitHub who the token is (GET /user)";
        let reply = self.retried(&Verb::Get, "/user", what).await?;
        match reply.status {
            200..=299 => serde_json::from_slice::<User>(&reply.body)
                .map(|u| u.login)
                .map_err(|e| format!("{what}: unexpected answer: {e}")),
            403 | 404 => Ok(ACTIONS_BOT.to_string()),
            _ => Err(self.status_error(&reply, what)),
        }
    }

    /// Every comment on the PR, following `rel="next"` links 100 at a time; `keep` says which
    /// to hold on to (the others are dropped page by page).
    pub async fn list_comments(
        &self,
        pr: u64,
        keep: &dyn Fn(&RawComment) -> bool,
    ) -> Result<Vec<RawComment>, String> {
        let what = format!("listing the comments of PR #{pr}");
        let mut route = format!("{}/issues/{pr}/comments?per_page=100", self.repo_path);
        let mut kept = Vec::new();
        for _ in 0..MAX_PAGES {
            let reply = self.retried(&Verb::Get, &route, &what).await?;
            if !(200..300).contains(&reply.status) {
                return Err(self.status_error(&reply, &what));
            }
            let page: Vec<RawComment> = serde_json::from_slice(&reply.body)
                .map_err(|e| format!("{what}: unexpected answer: {e}"))?;
            kept.extend(page.into_iter().filter(|c| keep(c)));
            let Some(next) = reply.next else {
                return Ok(kept);
            };
            route = self.same_host_route(&next, &what)?;
        }
        Err(format!("{what}: more than {MAX_PAGES} pages of comments"))
    }

    /// Creates a comment, once: a failure whose outcome is unknown is `Failure::unknown`.
    pub async fn create_comment(&self, pr: u64, body: &str) -> Result<RawComment, Failure> {
        let route = format!("{}/issues/{pr}/comments", self.repo_path);
        let what = format!("creating a comment on PR #{pr}");
        let payload = json!({ "body": body });
        let reply = match self.send(&Verb::Post(&payload), &route, &what).await {
            Ok(r) => r,
            Err(msg) => return Err(Failure { msg, unknown: true }),
        };
        if !(200..300).contains(&reply.status) {
            return Err(Failure {
                msg: self.status_error(&reply, &what),
                unknown: reply.status >= 500 || reply.status == 429,
            });
        }
        serde_json::from_slice(&reply.body).map_err(|e| Failure {
            msg: format!("{what}: unexpected answer: {e}"),
            unknown: false,
        })
    }

    /// Edits a comment with PATCH, as GitHub documents (the same body twice is harmless, so
    /// it is retried like a read).
    pub async fn update_comment(&self, id: u64, body: &str) -> Result<RawComment, String> {
        let route = format!("{}/issues/comments/{id}", self.repo_path);
        let what = format!("updating comment {id}");
        let payload = json!({ "body": body });
        let reply = self.retried(&Verb::Patch(&payload), &route, &what).await?;
        if !(200..300).contains(&reply.status) {
            return Err(self.status_error(&reply, &what));
        }
        serde_json::from_slice(&reply.body).map_err(|e| format!("{what}: unexpected answer: {e}"))
    }

    pub fn retries(&self) -> usize {
        self.retries
    }

    /// `/repos/OWNER/REPO`, the prefix of every repository route.
    pub fn repo_path(&self) -> &str {
        &self.repo_path
    }

    /// A GET of `route` (retried like every read), its body read up to `limit` bytes. The caller
    /// reads the status ([`Client::refusal`] words a failure).
    pub async fn get(&self, route: &str, what: &str, limit: usize) -> Result<Reply, String> {
        let mut left = self.retries;
        loop {
            let reply = self.send_capped(&Verb::Get, route, what, limit).await;
            if !should_retry(&reply) || left == 0 {
                return reply;
            }
            left -= 1;
        }
    }

    /// The route of a next-page link, only on our own host.
    pub fn next_route(&self, next: &str, what: &str) -> Result<String, String> {
        self.same_host_route(next, what)
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
                self.said(reply)
            );
        }
        self.status_error(reply, what)
    }

    /// Downloads `location` (a redirect target, usually a short-lived signed URL on another
    /// host) with a client that has no token: the signature in the URL is its authorisation,
    /// and the token must never reach a host other than `GITHUB_API_URL`'s. At most `limit`
    /// bytes are read. Messages show the URL without its query (the signature).
    pub async fn download(
        &self,
        location: &str,
        what: &str,
        limit: usize,
    ) -> Result<bytes::Bytes, String> {
        let shown = url_without_credentials(location);
        let uri: http::Uri = location
            .parse()
            .map_err(|_| format!("{what}: GitHub redirected to an unusable URL ({shown})"))?;
        let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
            return Err(format!(
                "{what}: GitHub redirected to a relative URL ({shown})"
            ));
        };
        if scheme != "https" && !(scheme == "http" && self.base.starts_with("http://")) {
            return Err(format!(
                "{what}: GitHub redirected to a non-https URL ({shown})"
            ));
        }
        let crab = Octocrab::builder()
            .base_uri(format!("{scheme}://{authority}"))
            .map_err(|_| format!("{what}: GitHub redirected to an unusable URL ({shown})"))?
            .set_connect_timeout(Some(self.timeouts.0))
            .set_read_timeout(Some(self.timeouts.1))
            .add_retry_config(RetryConfig::None)
            .build()
            .map_err(|e| format!("could not set up the download client: {e}"))?;
        let route = uri
            .path_and_query()
            .map_or("/", |pq| pq.as_str())
            .to_string();
        let mut left = self.retries;
        loop {
            let reply = match crab._get(route.as_str()).await {
                Ok(resp) => read_capped(resp, limit, what).await,
                Err(e) => Err(format!("{what}: could not download {shown}: {e}")),
            };
            match reply {
                Ok(r) if (200..300).contains(&r.status) => return Ok(r.body),
                Ok(r) if r.status < 500 || left == 0 => {
                    return Err(format!(
                        "{what}: the download from {shown} answered {}",
                        r.status
                    ))
                }
                Err(e) if left == 0 => return Err(self.clean(&e)),
                _ => left -= 1,
            }
        }
    }

    /// Sends up to `retries + 1` times while the answer is a 5xx, a 429 or a transport error.
    async fn retried(&self, verb: &Verb<'_>, route: &str, what: &str) -> Result<Reply, String> {
        let mut left = self.retries;
        loop {
            let reply = self.send(verb, route, what).await;
            if !should_retry(&reply) || left == 0 {
                return reply;
            }
            left -= 1;
        }
    }

    /// One request; the body is read up to [`MAX_BODY`] bytes.
    async fn send(&self, verb: &Verb<'_>, route: &str, what: &str) -> Result<Reply, String> {
        self.send_capped(verb, route, what, MAX_BODY).await
    }

    /// One request; the body is read up to `limit` bytes.
    async fn send_capped(
        &self,
        verb: &Verb<'_>,
        route: &str,
        what: &str,
        limit: usize,
    ) -> Result<Reply, String> {
        let sent = match verb {
            Verb::Get => self.crab._get(route).await,
            Verb::Post(b) => self.crab._post(route, Some(*b)).await,
            Verb::Patch(b) => self.crab._patch(route, Some(*b)).await,
        };
        let resp = sent.map_err(|e| self.transport_error(&e, what))?;
        read_capped(resp, limit, what)
            .await
            .map_err(|e| self.clean(&e))
    }

    /// Only a link on our own host is followed, as a path on the API URL we were given.
    fn same_host_route(&self, next: &str, what: &str) -> Result<String, String> {
        let shown = url_without_credentials(next);
        match next.parse::<http::Uri>() {
            Ok(uri)
                if uri.authority().map(|a| a.as_str().to_ascii_lowercase())
                    == Some(self.authority.clone()) =>
            {
                Ok(uri
                    .path_and_query()
                    .map_or("/", |pq| pq.as_str())
                    .to_string())
            }
            _ => Err(format!(
                "{what}: the next-page link points to another host ({})",
                crate::safe_text::shown(&shown)
            )),
        }
    }

    /// GitHub's `message`, redacted, on one line, at most 200 characters.
    fn said(&self, reply: &Reply) -> String {
        // Redact first, then cut: a cut could leave a prefix of the token behind.
        let said = serde_json::from_slice::<serde_json::Value>(&reply.body)
            .ok()
            .and_then(|v| v.get("message")?.as_str().map(str::to_string))
            .unwrap_or_default();
        let said = self.clean(&said);
        crate::safe_text::one_line(&said.chars().take(200).collect::<String>())
    }

    fn status_error(&self, reply: &Reply, what: &str) -> String {
        let status = http::StatusCode::from_u16(reply.status)
            .map_or_else(|_| reply.status.to_string(), |s| s.to_string());
        let said = self.said(reply);
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
                self.retries
            ),
            _ => format!("{what}: GitHub answered {status}: {said}"),
        }
    }

    fn transport_error(&self, err: &octocrab::Error, what: &str) -> String {
        let mut msg = format!("{what}: could not reach GitHub at {}: {err}", self.base);
        let mut source = std::error::Error::source(err);
        while let Some(s) = source {
            msg.push_str(&format!(": {s}"));
            source = s.source();
        }
        self.clean(&msg)
    }

    /// The token never leaves in a message, whatever the server or the transport said.
    fn clean(&self, s: &str) -> String {
        super::redact(s, Some(&self.token))
    }
}

/// The login of the Actions token (`GITHUB_TOKEN`).
pub const ACTIONS_BOT: &str = "github-actions[bot]";

/// A 5xx, a 429 or a transport error is worth another try; a used-up rate limit is not (it
/// resets in up to an hour).
fn should_retry(reply: &Result<Reply, String>) -> bool {
    match reply {
        Ok(r) => r.rate_limited.is_none() && (r.status >= 500 || r.status == 429),
        Err(_) => true,
    }
}

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

/// Status, the headers we read, and the body up to `limit` bytes (a larger declared or sent
/// body is an error, never read whole).
pub(crate) async fn read_capped(
    resp: http::Response<http_body_util::combinators::BoxBody<bytes::Bytes, octocrab::Error>>,
    limit: usize,
    what: &str,
) -> Result<Reply, String> {
    let status = resp.status().as_u16();
    let header = |name: &str| {
        resp.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let next = header("link").as_deref().and_then(next_link);
    let location = header("location");
    let rate_limited = (matches!(status, 403 | 429)
        && header("x-ratelimit-remaining").as_deref() == Some("0"))
    .then(|| header("x-ratelimit-reset").unwrap_or_default());
    if let Some(len) = header("content-length").and_then(|v| v.parse::<u64>().ok()) {
        if len > limit as u64 {
            return Err(too_big(what, limit));
        }
    }
    let body = Limited::new(resp.into_body(), limit)
        .collect()
        .await
        .map_err(|e| {
            if e.is::<http_body_util::LengthLimitError>() {
                too_big(what, limit)
            } else {
                format!("{what}: reading GitHub's answer failed: {e}")
            }
        })?
        .to_bytes();
    Ok(Reply {
        status,
        next,
        location,
        rate_limited,
        body,
    })
}

fn too_big(what: &str, limit: usize) -> String {
    format!(
        "{what}: GitHub's answer is larger than {} MiB; gave up",
        limit >> 20
    )
}

/// The `rel="next"` target of a `Link` header.
fn next_link(header: &str) -> Option<String> {
    header.split(',').find_map(|part| {
        let (url, params) = part.split_once(';')?;
        let is_next = params
            .split(';')
            .any(|p| matches!(p.trim(), "rel=\"next\"" | "rel=next"));
        let url = url.trim().strip_prefix('<')?.strip_suffix('>')?;
        is_next.then(|| url.to_string())
    })
}

/// `HOST[:PORT]` of an `http(s)://` URL, lower-cased.
fn authority(url: &str) -> Option<String> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let host = rest.split(['/', '?', '#']).next()?;
    (!host.is_empty() && !host.contains('@')).then(|| host.to_ascii_lowercase())
}

/// `user:password@` in the authority, or a query or fragment (`?access_token=`).
fn has_credentials(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    host.contains('@') || url.contains(['?', '#'])
}

/// A URL as it may be printed: without `user:password@`, query or fragment.
pub fn url_without_credentials(url: &str) -> String {
    let (scheme, rest) = match url.split_once("://") {
        Some((s, r)) => (format!("{s}://"), r),
        None => (String::new(), url),
    };
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    let (host, path) = match rest.find('/') {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    let cut = url.len() > scheme.len() + host.len() + path.len();
    let tail = if cut { " (credentials removed)" } else { "" };
    crate::safe_text::shown(&format!("{scheme}{host}{path}")) + tail
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
    fn urls_are_printed_without_credentials() {
        assert_eq!(
            url_without_credentials("https://ghe.example/api/v3"),
            "https://ghe.example/api/v3"
        );
        for url in [
            "https://user:s3cret@ghe.example/api/v3",
            "https://ghe.example/api/v3?access_token=s3cret",
            "https://a@b:s3cret@ghe.example/api/v3#s3cret",
        ] {
            let shown = url_without_credentials(url);
            assert!(!shown.contains("s3cret"), "{shown}");
            assert!(shown.starts_with("https://ghe.example/api/v3"), "{shown}");
            assert!(has_credentials(url), "{url}");
        }
        assert!(!has_credentials("http://127.0.0.1:8080/api/v3"));
    }

    #[test]
    fn next_links() {
        let h = "<https://x/r?page=2>; rel=\"next\", <https://x/r?page=9>; rel=\"last\"";
        assert_eq!(next_link(h).as_deref(), Some("https://x/r?page=2"));
        assert_eq!(next_link("<https://x/r?page=9>; rel=\"last\""), None);
        assert_eq!(next_link("garbage"), None);
    }

    #[test]
    fn repository_must_be_owner_slash_repo() {
        assert!(valid_repository("octo-org/rag.gate_2"));
        for bad in ["octo", "a/b/c", "a/..", "/b", "a/b?x=1", "a/b#c", "a /b"] {
            assert!(!valid_repository(bad), "{bad}");
        }
    }
}
