//! The HTTP transport both forges' clients stand on: an octocrab client (hyper, rustls) on the
//! API's host, with timeouts. The server is not trusted: every response body is read through a
//! size cap ([`MAX_BODY`] unless the caller asks for another), a listing stops after a bounded
//! number of pages and follows `Link: rel="next"` on the API's own host only, and a redirect to
//! another host (object storage) is downloaded by a client that carries no token. Reads and
//! edits are retried a bounded number of times after a 5xx, a 429 or a transport error, after
//! the wait the server asks for (`Retry-After`, a rate limit's reset) or an exponential backoff
//! (`retry`); a create never is (whether the server stored it is unknown; `publish::sticky`
//! lists again). Each wait is a status line on stderr as it starts.
//! Messages never contain the token, and what the server says is redacted before it is cut.
//!
//! What differs between GitHub and GitLab (the routes, the token header, the CI variables, how a
//! refusal is worded) stays in `github/` and `gitlab/`.
//!
//! Every call goes through octocrab's routed requests (`_get`, `_post`, `_patch`), not its
//! typed builders (`issues().list_comments()`, `checks().create_check_run()`, …): a typed call
//! reads the whole body with no cap, and returns an error without the response's headers, so it
//! could honour neither `MAX_BODY` nor `Retry-After`, a rate limit's reset or `Link: rel="next"`
//! on the API's host; and GitLab, which shares this transport, has no typed API in octocrab.
//! The routes' JSON is read into small typed structs of our own (`RawComment`, the check run's
//! and the artifacts' fields), the fields the forge answers that we use.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use http_body_util::{BodyExt, Limited};
use octocrab::service::middleware::retry::RetryConfig;
use octocrab::Octocrab;
use serde::de::DeserializeOwned;

use super::retry::{self, Next, Policy};
use super::Failure;
use crate::forge::{redact, Token};

/// Safety stop for the comment (note) listings: 300 pages of 100.
pub const MAX_PAGES: usize = 300;
/// The largest response body read: a page of 100 comments of GitHub's maximum length (65,536
/// characters) fits.
pub const MAX_BODY: usize = 32 << 20;

/// What a request does.
pub enum Verb<'a> {
    Get,
    Post(&'a serde_json::Value),
    Patch(&'a serde_json::Value),
    Put(&'a serde_json::Value),
}

/// A response read within the cap.
pub struct Reply {
    pub status: u16,
    /// The `rel="next"` link of a listing.
    pub next: Option<String>,
    /// The `Location` header of a redirect.
    pub location: Option<String>,
    /// `x-ratelimit-remaining: 0` (GitLab: `ratelimit-remaining: 0`) on a 403 or 429: the
    /// token's rate limit is used up; the value is the reset header (seconds since the epoch).
    pub rate_limited: Option<String>,
    /// The `Retry-After` header.
    pub retry_after: Option<String>,
    pub body: bytes::Bytes,
}

impl Reply {
    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// What the retry decision reads of it.
    pub fn answer(&self) -> retry::Answer<'_> {
        retry::Answer {
            status: self.status,
            retry_after: self.retry_after.as_deref(),
            rate_limited: self.rate_limited.as_deref(),
        }
    }

    /// The body as JSON of type `T`.
    pub fn parse<T: DeserializeOwned>(&self, what: &str) -> Result<T, String> {
        serde_json::from_slice(&self.body).map_err(|e| format!("{what}: unexpected answer: {e}"))
    }
}

/// How the transport waits before a retry: tokio's sleep, or a stand-in in tests.
pub type Sleep = Arc<dyn Fn(Duration) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

/// Waits, then the clock (seconds since the epoch) a rate limit's reset is read against.
#[derive(Clone)]
pub struct Waits {
    pub policy: Policy,
    pub sleep: Sleep,
    pub now: fn() -> u64,
}

impl Waits {
    /// Real waits on the tokio runtime, the system clock.
    pub fn real(retries: usize) -> Self {
        Waits {
            policy: Policy::with_retries(retries),
            sleep: Arc::new(|d| Box::pin(tokio::time::sleep(d))),
            now: || {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs())
            },
        }
    }
}

/// One forge's API: its octocrab client (token and base already set), its name in messages and
/// the rules above.
pub struct Transport {
    crab: Octocrab,
    /// "GitHub" or "GitLab", in messages.
    forge: &'static str,
    /// The API URL without credentials (for messages), and its `host[:port]`, lower-cased.
    base: String,
    authority: String,
    waits: Waits,
    /// Connect and read timeouts, for the download client too.
    timeouts: (Duration, Duration),
    token: Token,
}

impl Transport {
    /// `crab` is the forge's client; `api_url` the URL it was built on (only its host is used
    /// here: the same-host rule and messages).
    pub fn new(
        crab: Octocrab,
        forge: &'static str,
        api_url: &str,
        authority: String,
        (retries, timeouts): (usize, (Duration, Duration)),
        token: &Token,
    ) -> Self {
        Transport {
            crab,
            forge,
            base: url_without_credentials(api_url),
            authority,
            waits: Waits::real(retries),
            timeouts,
            token: token.clone(),
        }
    }

    pub fn retries(&self) -> usize {
        self.waits.policy.retries
    }

    /// The transport with `first` as its first backoff (doubling up to 16 times it).
    pub fn with_backoff(mut self, first: Duration) -> Self {
        self.waits.policy.base = first;
        self.waits.policy.cap = first.saturating_mul(16);
        self
    }

    /// The transport with other waits (tests: a recorded sleep, a fixed clock, tiny durations).
    pub fn with_waits(mut self, waits: Waits) -> Self {
        self.waits = waits;
        self
    }

    /// The API URL as it may be printed.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// A GET of `route`, retried like every read, its body read up to `limit` bytes. The
    /// caller reads the status.
    pub async fn get(&self, route: &str, what: &str, limit: usize) -> Result<Reply, String> {
        self.retried(&Verb::Get, route, what, limit).await
    }

    /// Every page of a listing from `route` on (`Link: rel="next"`, on the API's host only), at
    /// most `max_pages` of them; each item passes through `keep` (`None`: dropped, page by
    /// page). A failed page is worded by `refused`.
    pub async fn list<T: DeserializeOwned, U>(
        &self,
        route: String,
        what: &str,
        max_pages: usize,
        refused: &dyn Fn(&Reply) -> String,
        mut keep: impl FnMut(T) -> Option<U>,
    ) -> Result<Vec<U>, String> {
        let mut route = route;
        let mut kept = Vec::new();
        for _ in 0..max_pages {
            let reply = self.get(&route, what, MAX_BODY).await?;
            if !reply.ok() {
                return Err(refused(&reply));
            }
            let page: Vec<T> = reply.parse(what)?;
            kept.extend(page.into_iter().filter_map(&mut keep));
            let Some(next) = reply.next else {
                return Ok(kept);
            };
            route = self.same_host_route(&next, what)?;
        }
        Err(format!(
            "{what}: more than {max_pages} pages of 100; gave up (the listing may be endless)"
        ))
    }

    /// Creates something (a comment, a note) with one POST, never retried: a failure whose
    /// outcome is unknown (a 5xx, a 429, a transport error) says so, and the caller lists again
    /// before sending another. A refusal is worded by `refused`.
    pub async fn create(
        &self,
        route: &str,
        what: &str,
        payload: &serde_json::Value,
        refused: &dyn Fn(&Reply) -> String,
    ) -> Result<Reply, Failure> {
        let reply = match self.send(&Verb::Post(payload), route, what, MAX_BODY).await {
            Ok(r) => r,
            Err(msg) => return Err(Failure { msg, unknown: true }),
        };
        if !reply.ok() {
            return Err(Failure {
                msg: refused(&reply),
                unknown: reply.status >= 500 || reply.status == 429,
            });
        }
        Ok(reply)
    }

    /// Sends up to `retries + 1` times while the answer is worth another try, waiting between
    /// tries as [`retry::next`] says.
    pub async fn retried(
        &self,
        verb: &Verb<'_>,
        route: &str,
        what: &str,
        limit: usize,
    ) -> Result<Reply, String> {
        let mut tried = (0, Duration::ZERO);
        loop {
            let reply = self.send(verb, route, what, limit).await;
            tried.0 += 1;
            match self.wait(tried, &reply, what).await {
                Some(waited) => tried.1 += waited,
                None => return reply,
            }
        }
    }

    /// After attempt `tried.0` (having waited `tried.1`), says and waits the wait before the
    /// next attempt and returns it; `None` when the answer stands.
    async fn wait(
        &self,
        tried: (usize, Duration),
        reply: &Result<Reply, String>,
        what: &str,
    ) -> Option<Duration> {
        let answered = match reply {
            Ok(r) => format!("{} answered {}", self.forge, r.status),
            Err(_) => format!("{} could not be reached", self.forge),
        };
        let answer = reply.as_ref().ok().map(Reply::answer);
        match retry::next(&self.waits.policy, tried, answer, (self.waits.now)()) {
            Next::Stop => None,
            Next::TooLong { asked, why } => {
                crate::status::info(&format!(
                    "{what}: {answered}; it asks for a wait of {} s ({why}), more than rag-gate \
                     waits for one request ({} s): not retried",
                    asked.as_secs(),
                    self.waits.policy.budget.as_secs()
                ));
                None
            }
            Next::Wait { wait, why } => {
                crate::status::info(&format!(
                    "{what}: {answered}; retrying in {} ({why}, retry {} of {})",
                    seconds(wait),
                    tried.0,
                    self.waits.policy.retries
                ));
                (self.waits.sleep)(wait).await;
                Some(wait)
            }
        }
    }

    /// One request; the body is read up to `limit` bytes.
    pub async fn send(
        &self,
        verb: &Verb<'_>,
        route: &str,
        what: &str,
        limit: usize,
    ) -> Result<Reply, String> {
        let name = match verb {
            Verb::Get => "GET",
            Verb::Post(_) => "POST",
            Verb::Patch(_) => "PATCH",
            Verb::Put(_) => "PUT",
        };
        crate::status::verbose(&format!(
            "{what}: {name} {}{}",
            self.base,
            self.clean(route)
        ));
        let sent = match verb {
            Verb::Get => self.crab._get(route).await,
            Verb::Post(b) => self.crab._post(route, Some(*b)).await,
            Verb::Patch(b) => self.crab._patch(route, Some(*b)).await,
            Verb::Put(b) => self.crab._put(route, Some(*b)).await,
        };
        let resp = sent.map_err(|e| self.transport_error(&e, what))?;
        read_capped(resp, limit, what, self.forge)
            .await
            .map_err(|e| self.clean(&e))
    }

    /// The bytes behind `route`: the body of a 200, or of the redirect target a 3xx names
    /// (downloaded without the token, [`Transport::download`]). Any other answer comes back
    /// as it is, for the caller to word (`Err(reply)`).
    pub async fn archive(
        &self,
        route: &str,
        what: &str,
        limit: usize,
    ) -> Result<Result<bytes::Bytes, Reply>, String> {
        let reply = self.get(route, what, limit).await?;
        match reply.status {
            200 => Ok(Ok(reply.body)),
            301 | 302 | 303 | 307 | 308 => {
                let to = reply.location.ok_or_else(|| {
                    format!("{what}: {} redirected without a Location", self.forge)
                })?;
                Ok(Ok(self.download(&to, what, limit).await?))
            }
            _ => Ok(Err(reply)),
        }
    }

    /// Downloads `location` (a redirect target, usually a short-lived signed URL on another
    /// host) with a client that has no token: the signature in the URL is its authorisation,
    /// and the token must never reach a host other than the API's. At most `limit` bytes are
    /// read. Messages show the URL without its query (the signature).
    pub async fn download(
        &self,
        location: &str,
        what: &str,
        limit: usize,
    ) -> Result<bytes::Bytes, String> {
        let forge = self.forge;
        let shown = url_without_credentials(location);
        let uri: http::Uri = location
            .parse()
            .map_err(|_| format!("{what}: {forge} redirected to an unusable URL ({shown})"))?;
        let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
            return Err(format!(
                "{what}: {forge} redirected to a relative URL ({shown})"
            ));
        };
        if scheme != "https" && !(scheme == "http" && self.base.starts_with("http://")) {
            return Err(format!(
                "{what}: {forge} redirected to a non-https URL ({shown})"
            ));
        }
        let crab = Octocrab::builder()
            .base_uri(format!("{scheme}://{authority}"))
            .map_err(|_| format!("{what}: {forge} redirected to an unusable URL ({shown})"))?
            .set_connect_timeout(Some(self.timeouts.0))
            .set_read_timeout(Some(self.timeouts.1))
            .add_retry_config(RetryConfig::None)
            .build()
            .map_err(|e| format!("could not set up the download client: {e}"))?;
        let route = uri
            .path_and_query()
            .map_or("/", |pq| pq.as_str())
            .to_string();
        let mut tried = (0, Duration::ZERO);
        loop {
            let reply = match crab._get(route.as_str()).await {
                Ok(resp) => read_capped(resp, limit, what, forge).await,
                Err(e) => Err(format!("{what}: could not download {shown}: {e}")),
            };
            tried.0 += 1;
            let waited = match &reply {
                Ok(r) if r.ok() => None,
                _ => self.wait(tried, &reply, what).await,
            };
            match (waited, reply) {
                (Some(w), _) => tried.1 += w,
                (None, Ok(r)) if r.ok() => return Ok(r.body),
                (None, Ok(r)) => {
                    return Err(format!(
                        "{what}: the download from {shown} answered {}",
                        r.status
                    ))
                }
                (None, Err(e)) => return Err(self.clean(&e)),
            }
        }
    }

    /// Only a link on our own host is followed, as a path on the API URL we were given.
    pub fn same_host_route(&self, next: &str, what: &str) -> Result<String, String> {
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
                crate::safe_text::shown(&url_without_credentials(next))
            )),
        }
    }

    /// What the server said (`message`, else `error`), redacted, on one line, at most 200
    /// characters.
    pub fn said(&self, reply: &Reply) -> String {
        let said = serde_json::from_slice::<serde_json::Value>(&reply.body)
            .ok()
            .and_then(|v| {
                let m = v.get("message").or_else(|| v.get("error"))?;
                Some(m.as_str().map_or_else(|| m.to_string(), str::to_string))
            })
            .unwrap_or_default();
        // Redact first, then cut: a cut could leave a prefix of the token behind.
        let said = self.clean(&said);
        crate::safe_text::one_line(&said.chars().take(200).collect::<String>())
    }

    fn transport_error(&self, err: &octocrab::Error, what: &str) -> String {
        let mut msg = format!(
            "{what}: could not reach {} at {}: {err}",
            self.forge, self.base
        );
        let mut source = std::error::Error::source(err);
        while let Some(s) = source {
            msg.push_str(&format!(": {s}"));
            source = s.source();
        }
        self.clean(&msg)
    }

    /// The token never leaves in a message, whatever the server or the transport said.
    pub fn clean(&self, s: &str) -> String {
        redact(s, Some(&self.token))
    }
}

/// A wait as a status line says it: "2 s", "0.05 s".
fn seconds(d: Duration) -> String {
    match d.subsec_millis() {
        0 => format!("{} s", d.as_secs()),
        _ => format!("{} s", d.as_secs_f64()),
    }
}

/// Status, the headers we read, and the body up to `limit` bytes (a larger declared or sent
/// body is an error, never read whole).
async fn read_capped(
    resp: http::Response<http_body_util::combinators::BoxBody<bytes::Bytes, octocrab::Error>>,
    limit: usize,
    what: &str,
    forge: &str,
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
    // GitHub's names, then GitLab's.
    let used_up = |remaining: &str, reset: &str| {
        (header(remaining).as_deref().map(str::trim) == Some("0"))
            .then(|| header(reset).unwrap_or_default())
    };
    let rate_limited = matches!(status, 403 | 429)
        .then(|| {
            used_up("x-ratelimit-remaining", "x-ratelimit-reset")
                .or_else(|| used_up("ratelimit-remaining", "ratelimit-reset"))
        })
        .flatten();
    let retry_after = header("retry-after");
    let too_big = || {
        format!(
            "{what}: {forge}'s answer is larger than {} MiB; gave up",
            limit >> 20
        )
    };
    if let Some(len) = header("content-length").and_then(|v| v.parse::<u64>().ok()) {
        if len > limit as u64 {
            return Err(too_big());
        }
    }
    let body = Limited::new(resp.into_body(), limit)
        .collect()
        .await
        .map_err(|e| {
            if e.is::<http_body_util::LengthLimitError>() {
                too_big()
            } else {
                format!("{what}: reading {forge}'s answer failed: {e}")
            }
        })?
        .to_bytes();
    Ok(Reply {
        status,
        next,
        location,
        rate_limited,
        retry_after,
        body,
    })
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

/// `HOST[:PORT]` of an `http(s)://` URL without `user@`, lower-cased.
pub fn authority(url: &str) -> Option<String> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let host = rest.split(['/', '?', '#']).next()?;
    (!host.is_empty() && !host.contains('@')).then(|| host.to_ascii_lowercase())
}

/// `user:password@` in the authority, or a query or fragment (`?access_token=`).
pub fn has_credentials(url: &str) -> bool {
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

/// `s` percent-encoded for a path segment or query value (everything but `A-Za-z0-9-._~`).
pub fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
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
    fn encoding_keeps_only_unreserved_characters() {
        assert_eq!(encode("eval.yml"), "eval.yml");
        assert_eq!(encode("release/1.x"), "release%2F1.x");
        assert_eq!(encode("a b&c"), "a%20b%26c");
    }
}
