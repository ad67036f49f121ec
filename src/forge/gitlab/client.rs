//! The GitLab side of the forge layer: the REST API v4 calls of the sticky merge-request note —
//! who the token is (`GET /user`), every note of a merge request (`GET
//! .../merge_requests/:iid/notes`, 100 a page, following `Link: rel="next"` on the same host
//! only), create (`POST`) and edit (`PUT .../notes/:id`) — and for `baseline fetch` capped GETs,
//! bounded listings and the artifacts download. The transport is the shared one
//! (`forge::transport`: body caps, timeouts, bounded retries and pages, the token-free download
//! of a redirect); the token goes in GitLab's `PRIVATE-TOKEN` header, to the API's host only. A
//! create is never retried (`publish::sticky` lists again first). Errors never contain the token.

use std::time::Duration;

use http::HeaderName;
use octocrab::service::middleware::retry::RetryConfig;
use octocrab::Octocrab;
use serde::Deserialize;
use serde_json::json;

use super::env::GitlabEnv;
use crate::forge::transport::{self, Reply, Transport, Verb, MAX_BODY, MAX_PAGES};
use crate::forge::Token;
use crate::forge::{Author, Failure, Notes, RawComment};

/// A merge-request note as GitLab sends it (the fields we read).
#[derive(Debug, Deserialize)]
struct Note {
    id: u64,
    #[serde(default)]
    body: Option<String>,
    #[serde(default)]
    author: Option<NoteAuthor>,
    /// Notes GitLab writes itself ("added 1 commit"): never ours.
    #[serde(default)]
    system: bool,
}

#[derive(Debug, Deserialize)]
struct NoteAuthor {
    username: String,
}

impl From<Note> for RawComment {
    fn from(n: Note) -> Self {
        RawComment {
            id: n.id,
            body: n.body,
            user: n
                .author
                .filter(|_| !n.system)
                .map(|a| Author { login: a.username }),
        }
    }
}

pub struct Client {
    http: Transport,
    /// `/api/v4` (the path of `CI_API_V4_URL`) and `/projects/<id, URL-encoded>`.
    prefix: String,
    /// The merge request's iid: notes are edited through it.
    mr: u64,
}

impl Client {
    /// Builds the client. Call inside a Tokio runtime.
    pub fn new(env: &GitlabEnv, token: &Token, retries: usize, mr: u64) -> Result<Self, String> {
        let base = transport::url_without_credentials(&env.api_url);
        let uri: http::Uri = env
            .api_url
            .parse()
            .map_err(|_| format!("CI_API_V4_URL is not a URL: {base}"))?;
        let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
            return Err(format!("CI_API_V4_URL is not an http(s) URL: {base}"));
        };
        if !matches!(scheme, "http" | "https") || authority.as_str().contains('@') {
            return Err(format!("CI_API_V4_URL is not a plain http(s) URL: {base}"));
        }
        if let Some(problem) = token.problem() {
            return Err(format!("the token in {} {problem}", env.token_var));
        }
        let timeouts = (Duration::from_secs(10), Duration::from_secs(30));
        let crab = Octocrab::builder()
            .base_uri(format!("{scheme}://{authority}"))
            .map_err(|_| format!("CI_API_V4_URL {base} is not a valid URL"))?
            .add_header(
                HeaderName::from_static("private-token"),
                token.expose().to_string(),
            )
            .set_connect_timeout(Some(timeouts.0))
            .set_read_timeout(Some(timeouts.1))
            .add_retry_config(RetryConfig::None)
            .build()
            .map_err(|e| format!("could not set up the GitLab client: {e}"))?;
        let http = Transport::new(
            crab,
            "GitLab",
            &env.api_url,
            authority.as_str().to_ascii_lowercase(),
            (retries, timeouts),
            token,
        );
        Ok(Client {
            http,
            prefix: format!(
                "{}/projects/{}",
                uri.path().trim_end_matches('/'),
                transport::encode(&env.project)
            ),
            mr,
        })
    }

    /// The shared transport (capped GETs, listings, downloads) for `baseline fetch`.
    pub fn http(&self) -> &Transport {
        &self.http
    }

    fn api_root(&self) -> &str {
        self.prefix.split("/projects/").next().unwrap_or("")
    }

    /// `/api/v4/projects/<id>`, the prefix of every project route.
    pub fn project_route(&self) -> &str {
        &self.prefix
    }

    /// Every item of a listing from `route` on (`Link: rel="next"`, same host), at most
    /// `max_pages` pages; a refused page is worded by [`Client::refusal`].
    pub async fn list<T: serde::de::DeserializeOwned>(
        &self,
        route: String,
        what: &str,
        max_pages: usize,
    ) -> Result<Vec<T>, String> {
        let refused = |r: &Reply| self.status_error(r, what);
        self.http.list(route, what, max_pages, &refused, Some).await
    }

    /// The JSON at `route` (up to `MAX_BODY`); a refusal in words.
    pub async fn get_json<T: serde::de::DeserializeOwned>(
        &self,
        route: &str,
        what: &str,
    ) -> Result<T, String> {
        let reply = self
            .http
            .get(route, what, crate::forge::transport::MAX_BODY)
            .await?;
        if !reply.ok() {
            return Err(self.refusal(&reply, what));
        }
        reply.parse(what)
    }

    /// A failed answer in words.
    pub fn refusal(&self, reply: &Reply, what: &str) -> String {
        self.status_error(reply, what)
    }

    fn status_error(&self, reply: &Reply, what: &str) -> String {
        let said = self.http.said(reply);
        match reply.status {
            401 => format!(
                "{what}: GitLab rejected the token (401: {said}); it may be expired or revoked"
            ),
            403 => format!(
                "{what}: GitLab refused (403: {said}); the token needs the api scope and the \
                 Reporter role or above on this project (a project or group access token; \
                 CI_JOB_TOKEN cannot write notes)"
            ),
            404 => format!(
                "{what}: GitLab answered 404 (check CI_PROJECT_ID, the merge request and that \
                 the token can see the project)"
            ),
            429 => format!(
                "{what}: GitLab's rate limit for this token is used up (429 after {} retries); \
                 the next pipeline will post",
                self.http.retries()
            ),
            s if s >= 500 => format!(
                "{what}: GitLab answered {s} after {} retries",
                self.http.retries()
            ),
            s => format!("{what}: GitLab answered {s}: {said}"),
        }
    }
}

impl Notes for Client {
    /// The username the token posts as (`GET /user`; a project or group access token is a bot
    /// user of its own).
    async fn identity(&self) -> Result<String, String> {
        #[derive(Deserialize)]
        struct User {
            username: String,
        }
        let what = "asking GitLab who the token is (GET /user)";
        let route = format!("{}/user", self.api_root());
        let reply = self.http.get(&route, what, MAX_BODY).await?;
        if !reply.ok() {
            return Err(self.status_error(&reply, what));
        }
        reply.parse::<User>(what).map(|u| u.username)
    }

    /// Every note of the merge request, oldest first, 100 a page.
    async fn list_comments(
        &self,
        mr: u64,
        keep: &dyn Fn(&RawComment) -> bool,
    ) -> Result<Vec<RawComment>, String> {
        let what = format!("listing the notes of merge request !{mr}");
        let route = format!(
            "{}/merge_requests/{mr}/notes?per_page=100&sort=asc&order_by=created_at",
            self.prefix
        );
        let refused = |r: &Reply| self.status_error(r, &what);
        self.http
            .list(route, &what, MAX_PAGES, &refused, |n: Note| {
                let c = RawComment::from(n);
                keep(&c).then_some(c)
            })
            .await
    }

    /// Creates a note, once: a failure whose outcome is unknown is `Failure::unknown`.
    async fn create_comment(&self, mr: u64, body: &str) -> Result<RawComment, Failure> {
        let route = format!("{}/merge_requests/{mr}/notes", self.prefix);
        let what = format!("creating a note on merge request !{mr}");
        let payload = json!({ "body": body });
        let refused = |r: &Reply| self.status_error(r, &what);
        let reply = self.http.create(&route, &what, &payload, &refused).await?;
        reply
            .parse::<Note>(&what)
            .map(RawComment::from)
            .map_err(|msg| Failure {
                msg,
                unknown: false,
            })
    }

    /// Edits a note (`PUT`; the same body twice is harmless, so it is retried like a read).
    async fn update_comment(&self, id: u64, body: &str) -> Result<RawComment, String> {
        let route = format!("{}/merge_requests/{}/notes/{id}", self.prefix, self.mr);
        let what = format!("updating note {id}");
        let payload = json!({ "body": body });
        let reply = self
            .http
            .retried(&Verb::Put(&payload), &route, &what, MAX_BODY)
            .await?;
        if !reply.ok() {
            return Err(self.status_error(&reply, &what));
        }
        reply.parse::<Note>(&what).map(RawComment::from)
    }

    fn retries(&self) -> usize {
        self.http.retries()
    }
}
