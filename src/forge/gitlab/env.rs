//! What a GitLab merge-request pipeline tells rag-gate through its predefined variables.

use crate::forge::Token;

/// The variable the GitLab token is read from when `--token-env` names an unset one (its
/// default, `GITHUB_TOKEN`, is never set on GitLab).
pub const TOKEN_VAR: &str = "GITLAB_TOKEN";

/// A merge-request pipeline's variables, and the token.
#[derive(Debug, Clone)]
pub struct GitlabEnv {
    /// `CI_API_V4_URL`, e.g. `https://gitlab.com/api/v4`.
    pub api_url: String,
    /// `CI_PROJECT_ID` (a number), or else `CI_PROJECT_PATH` (`group/project`).
    pub project: String,
    /// `CI_MERGE_REQUEST_IID`; None in a branch pipeline.
    pub mr_iid: Option<u64>,
    /// The variable the token came from (for messages; never the value).
    pub token_var: String,
    pub token: Option<Token>,
    /// `CI_COMMIT_SHA`: the commit the pipeline judges.
    pub sha: Option<String>,
    /// `CI_JOB_URL`: the job's page (its log and artifacts).
    pub job_url: Option<String>,
    /// `CI_MERGE_REQUEST_DIFF_BASE_SHA`: the merge request's merge-base.
    pub diff_base_sha: Option<String>,
    /// `CI_PIPELINE_ID` and `CI_JOB_ID`: a retried job keeps the pipeline and gets a new job.
    pub pipeline_job: Option<(String, String)>,
    /// `CI_COMMIT_MESSAGE`: the head commit's message (where a merge commit names its merge
    /// request, "See merge request group/project!801").
    pub commit_message: Option<String>,
}

impl GitlabEnv {
    /// Reads the process environment; None outside GitLab CI.
    pub fn from_process(token_var: &str) -> Option<Self> {
        Self::from_lookup(token_var, |k| std::env::var(k).ok())
    }

    /// Reads through `lookup`; None unless `GITLAB_CI=true` and `CI_API_V4_URL` is set. The
    /// token: the variable `token_var` names when it is set, else `GITLAB_TOKEN`.
    pub fn from_lookup(token_var: &str, lookup: impl Fn(&str) -> Option<String>) -> Option<Self> {
        let get = |k: &str| lookup(k).filter(|v| !v.trim().is_empty());
        if get("GITLAB_CI").as_deref() != Some("true") {
            return None;
        }
        let api_url = get("CI_API_V4_URL")?;
        let (token_var, token) = match get(token_var) {
            Some(t) => (token_var.to_string(), Some(t)),
            None => (TOKEN_VAR.to_string(), get(TOKEN_VAR)),
        };
        Some(GitlabEnv {
            api_url,
            project: get("CI_PROJECT_ID").or_else(|| get("CI_PROJECT_PATH"))?,
            mr_iid: get("CI_MERGE_REQUEST_IID").and_then(|v| v.trim().parse().ok()),
            token_var,
            token: token.map(|t| Token::new(t.trim())),
            sha: get("CI_COMMIT_SHA"),
            job_url: get("CI_JOB_URL"),
            diff_base_sha: get("CI_MERGE_REQUEST_DIFF_BASE_SHA"),
            pipeline_job: get("CI_PIPELINE_ID").zip(get("CI_JOB_ID")),
            commit_message: get("CI_COMMIT_MESSAGE"),
        })
    }

    /// `CI_JOB_TOKEN` cannot write merge-request notes: said before anything is sent.
    pub fn job_token_problem(&self) -> Option<String> {
        (self.token_var == "CI_JOB_TOKEN").then(|| {
            "CI_JOB_TOKEN cannot write merge-request notes (GitLab allows it only a few read \
             endpoints); create a project or group access token with the api scope and the \
             Reporter role, store it as a masked CI/CD variable GITLAB_TOKEN, or name yours with \
             --token-env"
                .to_string()
        })
    }

    /// The commit the report judges, when it is a plain 40-hex-digit id.
    pub fn judged_commit(&self) -> Option<String> {
        self.sha
            .clone()
            .filter(|s| s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit()))
    }
}
