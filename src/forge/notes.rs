//! The notes (comments) of a pull or merge request, as the sticky comment speaks to them: one
//! trait both forges implement, and the fields of a note it reads.

use serde::Deserialize;

/// The notes (comments) of one pull or merge request, as the sticky comment uses them.
// The futures are awaited on one current-thread runtime: no `Send` bound is needed.
#[allow(async_fn_in_trait)]
pub trait Notes {
    /// The login the token posts as.
    async fn identity(&self) -> Result<String, String>;
    /// Every note of request `pr`, oldest first; `keep` says which to hold on to.
    async fn list_comments(
        &self,
        pr: u64,
        keep: &dyn Fn(&RawComment) -> bool,
    ) -> Result<Vec<RawComment>, String>;
    /// Creates a note, once (a failure whose outcome is unknown says so).
    async fn create_comment(&self, pr: u64, body: &str) -> Result<RawComment, Failure>;
    /// Edits note `id`.
    async fn update_comment(&self, id: u64, body: &str) -> Result<RawComment, String>;
    /// Retries after a 5xx, a 429 or a transport error.
    fn retries(&self) -> usize;
}

/// A comment (GitHub) or note (GitLab): the fields the sticky comment reads.
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

/// Why a request failed: `unknown` when the forge may have acted on it (a 5xx, a transport
/// error or a timeout after sending), so a create must not simply be sent again.
#[derive(Debug)]
pub struct Failure {
    pub msg: String,
    pub unknown: bool,
}
