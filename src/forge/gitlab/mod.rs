//! GitLab: the merge-request side of the forge layer. In a merge-request pipeline (`GITLAB_CI`,
//! `CI_API_V4_URL`, `CI_PROJECT_ID`, `CI_MERGE_REQUEST_IID`) `check --comment` keeps one sticky
//! merge-request note through GitLab's REST API v4, with the marker, comment modes, ownership and
//! stale-verdict rules of `publish::sticky`, which speaks to `forge::Notes` only.
//!
//! The token is a project or group access token (scope `api`, role Reporter or above) in a masked
//! CI/CD variable: `CI_JOB_TOKEN` cannot write notes, and is refused with a sentence saying so.

#[cfg(feature = "github")]
pub mod artifacts;
#[cfg(feature = "github")]
pub mod client;
pub mod env;

#[cfg(feature = "github")]
pub use client::Client;
pub use env::GitlabEnv;
