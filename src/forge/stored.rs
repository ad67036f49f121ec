//! The stored results of the base branch, forge-neutral: what `baseline fetch` finds for the
//! merge-base (the run or pipeline, how far back), why it found none, and the limits of the
//! search and the download. `github::artifacts` and `gitlab::artifacts` do the finding.

/// How many ancestors of the merge-base are searched for stored results.
pub const MAX_BEHIND: usize = 50;
/// Safety stop for a listing of runs, pipelines or jobs: 10 pages of 100.
pub const MAX_LIST_PAGES: usize = 10;
/// The largest artifact zip downloaded.
pub const MAX_ZIP: usize = 512 << 20;

/// Why no baseline came back: `Missing` when there is none to have (no run within reach, no
/// artifact of that name, expired), `Failed` for everything else (permissions, rate limit,
/// network, a bad answer).
#[derive(Debug)]
pub enum Problem {
    Missing(String),
    Failed(String),
}

impl From<String> for Problem {
    fn from(s: String) -> Self {
        Problem::Failed(s)
    }
}

/// The run (GitHub) or pipeline (GitLab) found for the merge-base (or an ancestor).
#[derive(Debug, Clone)]
pub struct FoundRun {
    /// The commit the run evaluated.
    pub commit: String,
    /// Commits between it and the merge-base (0: the merge-base itself).
    pub behind: usize,
    pub run_id: u64,
    /// When the run was created (`created_at`, RFC 3339).
    pub run_date: String,
    pub run_url: Option<String>,
}

/// The first 7 characters of a commit id.
pub fn short(sha: &str) -> &str {
    sha.get(..7).unwrap_or(sha)
}
