//! The forge token (GitHub's or GitLab's), which no message, log line or `Debug` output ever
//! shows: it is read only where it goes into a request header.

use std::fmt;

/// A forge token. Its `Debug` never shows it; only the clients read it.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    pub fn new(s: impl Into<String>) -> Self {
        Token(s.into())
    }
    pub(crate) fn expose(&self) -> &str {
        &self.0
    }

    /// What makes the token unusable in an HTTP header (a line break, a control character,
    /// anything but visible ASCII), said without showing it; `None` when it is usable.
    pub fn problem(&self) -> Option<String> {
        let bad = self.0.chars().position(|c| !c.is_ascii_graphic())?;
        Some(format!(
            "has a character that cannot go in an HTTP header (a line break, space or control \
             character at position {}); set it again without it",
            bad + 1
        ))
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(***)")
    }
}

/// Belt and braces: whatever a forge echoes back, the token never leaves in a message.
pub fn redact(s: &str, token: Option<&Token>) -> String {
    match token {
        Some(t) if t.expose().len() >= 4 => s.replace(t.expose(), "***"),
        _ => s.to_string(),
    }
}
