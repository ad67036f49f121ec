//! The GitLab REST API v4 calls of the sticky merge-request note: who the token is
//! (`GET /user`), every note of a merge request (`GET .../merge_requests/:iid/notes`, 100 a
//! page, following `Link: rel="next"` on the same host only), create (`POST`) and edit (`PUT
//! .../notes/:id`). The transport is the GitHub client's (octocrab's hyper and rustls, the same
//! body cap and timeouts); the token goes in GitLab's `PRIVATE-TOKEN` header, to the API's host
//! only. Reads and edits are retried after a 5xx, a 429 or a transport error; a create never is
//! (`publish::sticky` lists again first). Errors never contain the token.

use http::HeaderName;
use octocrab::service::middleware::retry::RetryConfig;
use octocrab::Octocrab;
use serde::Deserialize;
use serde_json::json;

use super::env::GitlabEnv;
use crate::github::client::{read_capped, Author, Failure, RawComment, Reply, MAX_BODY, MAX_PAGES};
use crate::github::{redact, Token};

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

enum Verb<'a> {
    Get,
    Post(&'a serde_json::Value),
    Put(&'a serde_json::Value),
}

pub struct Client {
    crab: Octocrab,
    /// `/api/v4` (the path of `CI_API_V4_URL`) and `/projects/<id, URL-encoded>`.
    prefix: String,
    base: String,
    authority: String,
    retries: usize,
    token: Token,
    /// The merge request's iid: notes are edited through it.
    mr: u64,
}

impl Client {
    /// Builds the client. Call inside a Tokio runtime.
    pub fn new(env: &GitlabEnv, token: &Token, retries: usize, mr: u64) -> Result<Self, String> {
        let base = crate::github::client::url_without_credentials(&env.api_url);
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
        let crab = Octocrab::builder()
            .base_uri(format!("{scheme}://{authority}"))
            .map_err(|_| format!("CI_API_V4_URL {base} is not a valid URL"))?
            .add_header(
                HeaderName::from_static("private-token"),
                token.expose().to_string(),
            )
            .set_connect_timeout(Some(std::time::Duration::from_secs(10)))
            .set_read_timeout(Some(std::time::Duration::from_secs(30)))
            .add_retry_config(RetryConfig::None)
            .build()
            .map_err(|e| format!("could not set up the GitLab client: {e}"))?;
        let project: String = env
            .project
            .bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => {
                    (b as char).to_string()
                }
                _ => format!("%{b:02X}"),
            })
            .collect();
        Ok(Client {
            crab,
            prefix: format!("{}/projects/{project}", uri.path().trim_end_matches('/')),
            base,
            authority: authority.as_str().to_ascii_lowercase(),
            retries,
            token: token.clone(),
            mr,
        })
    }

    fn api_root(&self) -> &str {
        self.prefix.split("/projects/").next().unwrap_or("")
    }

    /// The username the token posts as (`GET /user`; a project or group access token is a bot
    /// user of its own).
    pub async fn identity(&self) -> Result<String, String> {
        #[derive(Deserialize)]
        struct User {
            username: String,
        }
        let what = "asking GitLab who the token is (GET /user)";
        let route = format!("{}/user", self.api_root());
        let reply = self.retried(&Verb::Get, &route, what).await?;
        if !(200..300).contains(&reply.status) {
            return Err(self.status_error(&reply, what));
        }
        serde_json::from_slice::<User>(&reply.body)
            .map(|u| u.username)
            .map_err(|e| format!("{what}: unexpected answer: {e}"))
    }

    /// Every note of the merge request, oldest first, 100 a page.
    pub async fn list_comments(
        &self,
        mr: u64,
        keep: &dyn Fn(&RawComment) -> bool,
    ) -> Result<Vec<RawComment>, String> {
        let what = format!("listing the notes of merge request !{mr}");
        let mut route = format!(
            "{}/merge_requests/{mr}/notes?per_page=100&sort=asc&order_by=created_at",
            self.prefix
        );
        let mut kept = Vec::new();
        for _ in 0..MAX_PAGES {
            let reply = self.retried(&Verb::Get, &route, &what).await?;
            if !(200..300).contains(&reply.status) {
                return Err(self.status_error(&reply, &what));
            }
            let page: Vec<Note> = serde_json::from_slice(&reply.body)
                .map_err(|e| format!("{what}: unexpected answer: {e}"))?;
            kept.extend(page.into_iter().map(RawComment::from).filter(|c| keep(c)));
            let Some(next) = reply.next else {
                return Ok(kept);
            };
            route = self.same_host_route(&next, &what)?;
        }
        Err(format!("{what}: more than {MAX_PAGES} pages of notes"))
    }

    /// Creates a note, once: a failure whose outcome is unknown is `Failure::unknown`.
    pub async fn create_comment(&self, mr: u64, body: &str) -> Result<RawComment, Failure> {
        let route = format!("{}/merge_requests/{mr}/notes", self.prefix);
        let what = format!("creating a note on merge request !{mr}");
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
        serde_json::from_slice::<Note>(&reply.body)
            .map(RawComment::from)
            .map_err(|e| Failure {
                msg: format!("{what}: unexpected answer: {e}"),
                unknown: false,
            })
    }

    /// Edits a note (`PUT`; the same body twice is harmless, so it is retried like a read).
    pub async fn update_comment(&self, id: u64, body: &str) -> Result<RawComment, String> {
        let route = format!("{}/merge_requests/{}/notes/{id}", self.prefix, self.mr);
        let what = format!("updating note {id}");
        let payload = json!({ "body": body });
        let reply = self.retried(&Verb::Put(&payload), &route, &what).await?;
        if !(200..300).contains(&reply.status) {
            return Err(self.status_error(&reply, &what));
        }
        serde_json::from_slice::<Note>(&reply.body)
            .map(RawComment::from)
            .map_err(|e| format!("{what}: unexpected answer: {e}"))
    }

    pub fn retries(&self) -> usize {
        self.retries
    }

    /// `/api/v4/projects/<id>`, the prefix of every project route.
    pub fn project_route(&self) -> &str {
        &self.prefix
    }

    /// A GET of `route` (retried like every read), its body read up to `limit` bytes; the
    /// caller reads the status ([`Client::refusal`] words a failure).
    pub async fn get(&self, route: &str, what: &str, limit: usize) -> Result<Reply, String> {
        self.retried_capped(&Verb::Get, route, what, limit).await
    }

    /// A failed answer in words.
    pub fn refusal(&self, reply: &Reply, what: &str) -> String {
        self.status_error(reply, what)
    }

    /// Downloads a redirect target (object storage) with a client that has no token: the
    /// token never reaches a host other than `CI_API_V4_URL`'s. At most `limit` bytes.
    pub async fn download(
        &self,
        location: &str,
        what: &str,
        limit: usize,
    ) -> Result<bytes::Bytes, String> {
        let shown = crate::github::client::url_without_credentials(location);
        let uri: http::Uri = location
            .parse()
            .map_err(|_| format!("{what}: GitLab redirected to an unusable URL ({shown})"))?;
        let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
            return Err(format!(
                "{what}: GitLab redirected to a relative URL ({shown})"
            ));
        };
        if scheme != "https" && !(scheme == "http" && self.base.starts_with("http://")) {
            return Err(format!(
                "{what}: GitLab redirected to a non-https URL ({shown})"
            ));
        }
        let crab = Octocrab::builder()
            .base_uri(format!("{scheme}://{authority}"))
            .map_err(|_| format!("{what}: GitLab redirected to an unusable URL ({shown})"))?
            .set_connect_timeout(Some(std::time::Duration::from_secs(10)))
            .set_read_timeout(Some(std::time::Duration::from_secs(30)))
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

    async fn retried(&self, verb: &Verb<'_>, route: &str, what: &str) -> Result<Reply, String> {
        self.retried_capped(verb, route, what, MAX_BODY).await
    }

    /// Sends up to `retries + 1` times while the answer is a 5xx, a 429 or a transport error.
    async fn retried_capped(
        &self,
        verb: &Verb<'_>,
        route: &str,
        what: &str,
        limit: usize,
    ) -> Result<Reply, String> {
        let mut left = self.retries;
        loop {
            let reply = self.send_capped(verb, route, what, limit).await;
            let again = match &reply {
                Ok(r) => r.status >= 500 || r.status == 429,
                Err(_) => true,
            };
            if !again || left == 0 {
                return reply;
            }
            left -= 1;
        }
    }

    async fn send(&self, verb: &Verb<'_>, route: &str, what: &str) -> Result<Reply, String> {
        self.send_capped(verb, route, what, MAX_BODY).await
    }

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
            Verb::Put(b) => self.crab._put(route, Some(*b)).await,
        };
        let resp = sent.map_err(|e| {
            self.clean(&format!(
                "{what}: could not reach GitLab at {}: {e}",
                self.base
            ))
        })?;
        read_capped(resp, limit, what)
            .await
            .map_err(|e| self.clean(&e.replace("GitHub", "GitLab")))
    }

    /// Only a link on our own host is followed.
    fn same_host_route(&self, next: &str, what: &str) -> Result<String, String> {
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
                crate::safe_text::shown(&crate::github::client::url_without_credentials(next))
            )),
        }
    }

    fn status_error(&self, reply: &Reply, what: &str) -> String {
        let said = serde_json::from_slice::<serde_json::Value>(&reply.body)
            .ok()
            .and_then(|v| {
                let m = v.get("message").or_else(|| v.get("error"))?;
                Some(m.as_str().map_or_else(|| m.to_string(), str::to_string))
            })
            .unwrap_or_default();
        let said = self.clean(&said);
        let said = crate::safe_text::one_line(&said.chars().take(200).collect::<String>());
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
                self.retries
            ),
            s if s >= 500 => format!("{what}: GitLab answered {s} after {} retries", self.retries),
            s => format!("{what}: GitLab answered {s}: {said}"),
        }
    }

    fn clean(&self, s: &str) -> String {
        redact(s, Some(&self.token))
    }
}
