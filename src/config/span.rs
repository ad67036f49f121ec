//! Pointing at a place in the gate file: byte span → line and column, and an error message with
//! the offending line and a caret under it (the way cargo-deny shows TOML errors).

use std::ops::Range;

use crate::error::Error;

/// The gate file's text and the path it is shown as, kept for errors found after parsing.
#[derive(Debug, Clone, Default)]
pub struct SourceText {
    pub shown: String,
    pub text: String,
}

impl SourceText {
    /// 1-based line and column (in characters) of byte offset `at`.
    pub fn line_col(&self, at: usize) -> (usize, usize) {
        let at = at.min(self.text.len());
        let before = &self.text[..at];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }

    /// A one-line warning at `span`: `path:line: msg`.
    pub fn warning(&self, span: Option<Range<usize>>, msg: impl AsRef<str>) -> String {
        match span {
            Some(span) => format!(
                "{}:{}: {}",
                self.shown,
                self.line_col(span.start).0,
                msg.as_ref()
            ),
            None => format!("{}: {}", self.shown, msg.as_ref()),
        }
    }

    /// A config error at `span`: `path:line:col: msg`, then the line with a caret.
    pub fn error(&self, span: Option<Range<usize>>, msg: impl AsRef<str>) -> Error {
        let Some(span) = span else {
            return Error::Config(format!("{}: {}", self.shown, msg.as_ref()));
        };
        let (line, col) = self.line_col(span.start);
        let text_line = self.text.lines().nth(line - 1).unwrap_or("");
        let width = self.text[span.start.min(self.text.len())..span.end.min(self.text.len())]
            .lines()
            .next()
            .map_or(1, |s| s.chars().count().max(1));
        let gutter = " ".repeat(line.to_string().len());
        Error::Config(format!(
            "{}:{line}:{col}: {}\n{gutter} |\n{line} | {text_line}\n{gutter} | {}{}",
            self.shown,
            msg.as_ref(),
            " ".repeat(col - 1),
            "^".repeat(width)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caret_under_the_span() {
        let s = SourceText {
            shown: "g.toml".into(),
            text: "[a]\nkey = \"x\"\n".into(),
        };
        assert_eq!(s.line_col(0), (1, 1));
        assert_eq!(s.line_col(10), (2, 7));
        let e = s.error(Some(10..13), "bad value").to_string();
        assert_eq!(
            e,
            "g.toml:2:7: bad value\n  |\n2 | key = \"x\"\n  |       ^^^"
        );
    }
}
