//! GitHub, one client for every use: the REST client (timeouts, retries, the token, the
//! same-host rule, body caps) and the Actions environment. `publish/` posts the comment with it;
//! `baseline fetch` (`artifacts`) finds main's run for a commit and downloads its artifact;
//! `checks` creates or updates the verdict's check run.
//! The client and `artifacts` are the `github` feature; the environment is always built (the job
//! summary, step outputs and annotations need no network).

#[cfg(feature = "github")]
pub mod artifacts;
#[cfg(feature = "github")]
pub mod checks;
#[cfg(feature = "github")]
pub mod client;
pub mod env;

pub use env::GithubEnv;
