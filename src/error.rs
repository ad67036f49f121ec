//! The one error type: everything a user can fix (bad input, bad gate file, bad flags) and the
//! I/O failures around it. Every variant names the file (and line, key or flag) it is about.
//! All of them exit 2; a failing gate is not an error (see `Outcome`).

use std::fmt;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be opened, read or written.
    #[error("{}: {action}: {source}", crate::safe_text::one_line(path))]
    Io {
        path: String,
        action: &'static str,
        source: std::io::Error,
    },
    /// A problem at a place in an input file. `line` is 1-based; 0 means the file as a whole.
    #[error("{}", fmt_at(path, *line, msg))]
    Input {
        path: String,
        line: usize,
        msg: String,
    },
    /// A problem in the gate file, already rendered with its line, column and key.
    #[error("{0}")]
    Config(String),
    /// A command-line problem (flag values, incompatible flags).
    #[error("{0}")]
    Usage(String),
    /// `baseline fetch` got no baseline (the message says why and what to do).
    #[error("baseline fetch: {0}")]
    Fetch(String),
    /// Publishing to GitHub failed and `--comment=required` was given.
    #[error("publishing to GitHub failed: {0}")]
    Publish(String),
    /// An error followed by lines about what was done after it (a PR comment marked stale).
    #[error("{}", noted(.0, .1))]
    Noted(Box<Error>, Vec<crate::safe_text::Line>),
}

fn noted(e: &Error, lines: &[crate::safe_text::Line]) -> String {
    let mut s = e.to_string();
    for l in lines {
        s.push('\n');
        s.push_str(&l.shown());
    }
    s
}

/// `path:line: msg`; the path (which an input may name) as one visible line.
fn fmt_at(path: &str, line: usize, msg: &str) -> String {
    let path = crate::safe_text::one_line(path);
    if line == 0 {
        format!("{path}: {msg}")
    } else {
        format!("{path}:{line}: {msg}")
    }
}

impl Error {
    pub fn input(path: impl fmt::Display, line: usize, msg: impl Into<String>) -> Self {
        Error::Input {
            path: path.to_string(),
            line,
            msg: msg.into(),
        }
    }

    pub fn io(path: impl fmt::Display, action: &'static str, source: std::io::Error) -> Self {
        Error::Io {
            path: path.to_string(),
            action,
            source,
        }
    }

    /// Exit code for this error: always 2 (usage, config or input), never 1 (that is a failed gate).
    pub fn exit_code(&self) -> i32 {
        2
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// `s` quoted for a message, cut to its first 40 characters when longer than 80 (with the full
/// length in bytes), so a 10 MB cell or id does not become a 10 MB error message.
pub fn quoted(s: &str) -> String {
    crate::safe_text::quoted(s)
}

/// "a, b, c and 7 more" — the first few ids of a list, then a count.
pub fn few(ids: &[impl AsRef<str>], shown: usize) -> String {
    let mut s: Vec<String> = ids.iter().take(shown).map(|x| quoted(x.as_ref())).collect();
    if ids.len() > shown {
        s.push(format!("and {} more", ids.len() - shown));
    }
    s.join(", ")
}

/// `"q7" (line 4), "q9" (line 12) and 3 more` — ids with the line each was read on.
pub fn few_at(ids: &[(String, usize)], shown: usize) -> String {
    let mut s: Vec<String> = ids
        .iter()
        .take(shown)
        .map(|(id, line)| format!("{} (line {line})", quoted(id)))
        .collect();
    if ids.len() > shown {
        s.push(format!("and {} more", ids.len() - shown));
    }
    s.join(", ")
}
