//! The GitHub Actions environment, read once into a struct so tests pass one in instead of
//! mutating the process environment; and the PR number from the event payload.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::forge::Token;

/// Everything the GitHub steps (publish, baseline fetch) read from the environment, plus the network limits.
#[derive(Debug, Clone)]
pub struct GithubEnv {
    /// `GITHUB_ACTIONS=true`: warnings and errors become `::warning::`/`::error::` lines.
    pub actions: bool,
    /// Name of the variable the token came from (for messages; never the value).
    pub token_var: String,
    pub token: Option<Token>,
    /// `owner/repo`.
    pub repository: Option<String>,
    /// `GITHUB_API_URL`, default `https://api.github.com` (GitHub Enterprise: `https://HOST/api/v3`).
    pub api_url: String,
    pub event_path: Option<PathBuf>,
    pub step_summary: Option<PathBuf>,
    pub output: Option<PathBuf>,
    /// `GITHUB_SERVER_URL/GITHUB_REPOSITORY/actions/runs/GITHUB_RUN_ID`: the workflow run's page
    /// (its job summary and artifacts), when all three are set and plain.
    pub run_url: Option<String>,
    pub connect_timeout: Duration,
    pub read_timeout: Duration,
    /// Retries after a 5xx, a 429 or a transport error (so at most `retries + 1` attempts).
    pub retries: usize,
    /// The first wait before a retry when the server names none (then doubled per retry).
    pub backoff: Duration,
    /// Upper bound on the whole comment step.
    pub deadline: Duration,
    /// `GITHUB_SHA`: the commit of the workflow run (on a `pull_request` event, the test merge
    /// commit; [`GithubEnv::judged_commit`] prefers the PR's head).
    pub sha: Option<String>,
    /// `GITHUB_RUN_ID/GITHUB_RUN_ATTEMPT` (digits only): the run and its attempt, which a
    /// re-run keeps and counts up.
    pub run: Option<(String, u32)>,
}

impl GithubEnv {
    /// Reads the process environment; the token from the variable named `token_var`.
    pub fn from_process(token_var: &str) -> Self {
        Self::from_lookup(token_var, |k| std::env::var(k).ok())
    }

    /// Reads through `lookup` (a name → value function); empty values count as unset.
    pub fn from_lookup(token_var: &str, lookup: impl Fn(&str) -> Option<String>) -> Self {
        let get = |k: &str| lookup(k).filter(|v| !v.trim().is_empty());
        GithubEnv {
            actions: get("GITHUB_ACTIONS").as_deref() == Some("true"),
            token_var: token_var.to_string(),
            token: get(token_var).map(|t| Token::new(t.trim())),
            repository: get("GITHUB_REPOSITORY"),
            api_url: get("GITHUB_API_URL").unwrap_or_else(|| "https://api.github.com".to_string()),
            event_path: get("GITHUB_EVENT_PATH").map(PathBuf::from),
            step_summary: get("GITHUB_STEP_SUMMARY").map(PathBuf::from),
            output: get("GITHUB_OUTPUT").map(PathBuf::from),
            run_url: run_url(
                get("GITHUB_SERVER_URL").as_deref(),
                get("GITHUB_REPOSITORY").as_deref(),
                get("GITHUB_RUN_ID").as_deref(),
            ),
            connect_timeout: Duration::from_secs(10),
            read_timeout: Duration::from_secs(30),
            retries: 2,
            backoff: Duration::from_secs(1),
            deadline: Duration::from_secs(120),
            sha: get("GITHUB_SHA"),
            run: get("GITHUB_RUN_ID")
                .filter(|r| r.bytes().all(|b| b.is_ascii_digit()))
                .map(|r| {
                    let attempt = get("GITHUB_RUN_ATTEMPT").and_then(|a| a.trim().parse().ok());
                    (r, attempt.unwrap_or(1))
                }),
        }
    }

    /// The commit a report judges, for the comment to name: the event's PR head
    /// (`pull_request.head.sha`), the head a `workflow_run` ran on (fork-safe part 2), else
    /// `GITHUB_SHA`. Only a 40-hex-digit id is taken (it is shown, never trusted).
    pub fn judged_commit(&self) -> Option<String> {
        let event: Option<serde_json::Value> = self
            .event_path
            .as_deref()
            .and_then(|p| read_event(p).ok())
            .and_then(|t| serde_json::from_str(&t).ok());
        let at = |v: &serde_json::Value, path: &[&str]| {
            path.iter()
                .try_fold(v, |v, k| v.get(*k))
                .and_then(|s| s.as_str())
                .map(str::to_string)
        };
        let from_event = event.as_ref().and_then(|e| {
            at(e, &["pull_request", "head", "sha"]).or_else(|| at(e, &["workflow_run", "head_sha"]))
        });
        from_event
            .or_else(|| self.sha.clone())
            .filter(|s| s.len() == 40 && s.chars().all(|c| c.is_ascii_hexdigit()))
            .map(|s| s.to_ascii_lowercase())
    }

    /// On a `workflow_run` event (the fork-safe pair's part 2), the triggering run's id
    /// (`workflow_run.id`): the pull request's own run.
    pub fn triggering_run(&self) -> Option<u64> {
        let text = read_event(self.event_path.as_deref()?).ok()?;
        let e: serde_json::Value = serde_json::from_str(&text).ok()?;
        e.get("workflow_run")?.get("id")?.as_u64()
    }

    /// A `push` event's head commit message (`head_commit.message`), where a merge names the
    /// pull request it merged ("Merge pull request #812 …", "Title (#812)").
    pub fn push_message(&self) -> Option<String> {
        let text = read_event(self.event_path.as_deref()?).ok()?;
        let e: serde_json::Value = serde_json::from_str(&text).ok()?;
        e.get("head_commit")?
            .get("message")?
            .as_str()
            .map(str::to_string)
    }

    /// The PR number: `--pr`, else the event payload's `pull_request.number`, else
    /// `issue.number` when the issue is a pull request (an `issue_comment` on a PR).
    pub fn pr_number(&self, flag: Option<u64>) -> Result<u64, String> {
        if let Some(n) = flag {
            return Ok(n);
        }
        let Some(path) = &self.event_path else {
            return Err(
                "no pull request number: pass --pr N (GITHUB_EVENT_PATH is not set)".into(),
            );
        };
        pr_from_event(path)
    }
}

/// The run's URL, only from an http(s) server URL without characters that could break a
/// Markdown link, an `owner/repo` of plain characters and a numeric run id.
fn run_url(server: Option<&str>, repo: Option<&str>, run: Option<&str>) -> Option<String> {
    let (server, repo, run) = (server?.trim_end_matches('/'), repo?, run?);
    let plain = |s: &str, extra: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || extra.contains(c))
    };
    let host = server
        .strip_prefix("https://")
        .or_else(|| server.strip_prefix("http://"))?;
    let ok = plain(host, "-._:/")
        && plain(repo, "-._/")
        && repo.matches('/').count() == 1
        && run.chars().all(|c| c.is_ascii_digit())
        && !run.is_empty();
    ok.then(|| format!("{server}/{repo}/actions/runs/{run}"))
}

/// The largest event payload read (GitHub's are a few hundred KiB at most).
pub const MAX_EVENT: u64 = 16 << 20;

/// Reads the event payload: a regular file, at most [`MAX_EVENT`] bytes (a FIFO or an endless
/// file must not hang the step).
pub fn read_event(path: &Path) -> Result<String, String> {
    use std::io::Read;
    let shown = crate::safe_text::shown(&path.display().to_string());
    let fail = |e: String| format!("reading the event {shown}: {e}");
    let meta = std::fs::metadata(path).map_err(|e| fail(e.to_string()))?;
    if !meta.is_file() {
        return Err(fail("not a regular file (a FIFO or a device?)".into()));
    }
    let file = std::fs::File::open(path).map_err(|e| fail(e.to_string()))?;
    let mut text = String::new();
    file.take(MAX_EVENT + 1)
        .read_to_string(&mut text)
        .map_err(|e| fail(e.to_string()))?;
    if text.len() as u64 > MAX_EVENT {
        return Err(fail(format!("larger than {} MiB", MAX_EVENT >> 20)));
    }
    Ok(text)
}

fn pr_from_event(path: &Path) -> Result<u64, String> {
    let text = read_event(path).map_err(|e| format!("no pull request number: {e}"))?;
    let event: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        format!(
            "no pull request number: {} is not JSON: {e}",
            path.display()
        )
    })?;
    let number = |v: &serde_json::Value| v.get("number").and_then(|n| n.as_u64());
    if let Some(n) = event.get("pull_request").and_then(number) {
        return Ok(n);
    }
    if let Some(issue) = event
        .get("issue")
        .filter(|i| i.get("pull_request").is_some())
    {
        if let Some(n) = number(issue) {
            return Ok(n);
        }
    }
    Err("no pull request number: this event is not about a pull request (pass --pr N)".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn env(vars: &[(&str, &str)]) -> GithubEnv {
        let m: BTreeMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        GithubEnv::from_lookup("GITHUB_TOKEN", |k| m.get(k).cloned())
    }

    fn event(json: &str) -> (tempfile::TempDir, GithubEnv) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("event.json");
        std::fs::write(&p, json).unwrap();
        let e = env(&[("GITHUB_EVENT_PATH", p.to_str().unwrap())]);
        (dir, e)
    }

    #[test]
    fn defaults_and_values() {
        let e = env(&[
            ("GITHUB_ACTIONS", "true"),
            ("GITHUB_TOKEN", "s3cret"),
            ("GITHUB_API_URL", ""),
        ]);
        assert!(e.actions);
        assert_eq!(e.api_url, "https://api.github.com");
        assert_eq!(e.token.as_ref().map(Token::expose), Some("s3cret"));
        assert!(!format!("{e:?}").contains("s3cret"));
    }

    #[test]
    fn run_url_from_the_three_variables_only_when_plain() {
        let e = env(&[
            ("GITHUB_SERVER_URL", "https://github.com"),
            ("GITHUB_REPOSITORY", "octo/repo"),
            ("GITHUB_RUN_ID", "123"),
        ]);
        assert_eq!(
            e.run_url.as_deref(),
            Some("https://github.com/octo/repo/actions/runs/123")
        );
        assert_eq!(run_url(Some("https://x"), Some("o/r"), Some("1 2")), None);
        assert_eq!(run_url(Some("https://x)[y"), Some("o/r"), Some("1")), None);
        assert_eq!(run_url(Some("javascript:x"), Some("o/r"), Some("1")), None);
        assert_eq!(env(&[("GITHUB_RUN_ID", "1")]).run_url, None);
    }

    #[test]
    fn pr_from_pull_request_event() {
        let (_d, e) = event(r#"{"pull_request": {"number": 42}}"#);
        assert_eq!(e.pr_number(None), Ok(42));
        assert_eq!(e.pr_number(Some(7)), Ok(7));
    }

    #[test]
    fn pr_from_issue_comment_on_a_pr_but_not_on_an_issue() {
        let (_d, e) = event(r#"{"issue": {"number": 5, "pull_request": {"url": "x"}}}"#);
        assert_eq!(e.pr_number(None), Ok(5));
        let (_d, e) = event(r#"{"issue": {"number": 5}}"#);
        assert!(e.pr_number(None).unwrap_err().contains("pass --pr N"));
    }

    #[test]
    fn no_event_no_number() {
        assert!(env(&[])
            .pr_number(None)
            .unwrap_err()
            .contains("GITHUB_EVENT_PATH is not set"));
        let (_d, e) = event("not json");
        assert!(e.pr_number(None).unwrap_err().contains("is not JSON"));
    }
}
