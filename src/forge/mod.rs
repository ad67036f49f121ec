//! The forge layer: what rag-gate needs of a code host, written once for GitHub (PR comments,
//! Actions artifacts) and GitLab (merge-request notes, job artifacts). `publish::sticky` (marker,
//! comment modes, ownership, stale verdicts) speaks to `Notes` only; `baseline fetch` reads a
//! `stored::FoundRun` and a zip whichever forge found them. `github/` and `gitlab/` implement
//! both on the shared HTTP `transport` (octocrab's hyper and rustls, the body cap, the
//! same-host rule, the token-free download of a redirect, the redaction).

pub mod github;
pub mod gitlab;
mod token;

#[cfg(feature = "github")]
pub mod change;
#[cfg(feature = "github")]
pub mod merged;
#[cfg(feature = "github")]
mod notes;
#[cfg(feature = "github")]
pub mod retry;
#[cfg(feature = "github")]
pub mod runs;
#[cfg(feature = "github")]
pub mod stored;
#[cfg(feature = "github")]
pub mod transport;

#[cfg(feature = "github")]
pub use notes::{Author, Failure, Notes, RawComment};
pub use token::{redact, Token};
