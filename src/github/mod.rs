//! GitHub, one client for every use: the REST client (timeouts, retries, the token, the
//! same-host rule, body caps) and the Actions environment. `publish/` posts the comment with it;
//! `baseline fetch` (`artifacts`) finds main's run for a commit and downloads its artifact.

pub mod artifacts;
pub mod client;
pub mod env;

pub use env::{GithubEnv, Token};

/// Belt and braces: whatever GitHub echoes back, the token never leaves in a message.
pub fn redact(s: &str, token: Option<&Token>) -> String {
    match token {
        Some(t) if t.expose().len() >= 4 => s.replace(t.expose(), "***"),
        _ => s.to_string(),
    }
}
