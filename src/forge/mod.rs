//! The forge layer: what the sticky comment needs of a code host, written once for GitHub (PR
//! comments) and GitLab (merge-request notes). `publish::sticky` (marker, comment modes,
//! ownership, stale verdicts) speaks to [`Notes`] only; `github/` and `gitlab/` implement it
//! beside the shared HTTP transport (octocrab's hyper and rustls, the body cap, the redaction).

pub use crate::github::client::{Author, Failure, RawComment};

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

impl Notes for crate::github::client::Client {
    async fn identity(&self) -> Result<String, String> {
        Self::identity(self).await
    }
    async fn list_comments(
        &self,
        pr: u64,
        keep: &dyn Fn(&RawComment) -> bool,
    ) -> Result<Vec<RawComment>, String> {
        Self::list_comments(self, pr, keep).await
    }
    async fn create_comment(&self, pr: u64, body: &str) -> Result<RawComment, Failure> {
        Self::create_comment(self, pr, body).await
    }
    async fn update_comment(&self, id: u64, body: &str) -> Result<RawComment, String> {
        Self::update_comment(self, id, body).await
    }
    fn retries(&self) -> usize {
        Self::retries(self)
    }
}

impl Notes for crate::gitlab::Client {
    async fn identity(&self) -> Result<String, String> {
        Self::identity(self).await
    }
    async fn list_comments(
        &self,
        pr: u64,
        keep: &dyn Fn(&RawComment) -> bool,
    ) -> Result<Vec<RawComment>, String> {
        Self::list_comments(self, pr, keep).await
    }
    async fn create_comment(&self, pr: u64, body: &str) -> Result<RawComment, Failure> {
        Self::create_comment(self, pr, body).await
    }
    async fn update_comment(&self, id: u64, body: &str) -> Result<RawComment, String> {
        Self::update_comment(self, id, body).await
    }
    fn retries(&self) -> usize {
        Self::retries(self)
    }
}
