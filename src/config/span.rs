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
        let (line, at) = self.line_col(span.start);
        let (text_line, col) = window(self.text.lines().nth(line - 1).unwrap_or(""), at);
        let width = self.text[span.start.min(self.text.len())..span.end.min(self.text.len())]
            .lines()
            .next()
            .map_or(1, |s| s.chars().count().max(1))
            .min(WINDOW);
        let gutter = " ".repeat(line.to_string().len());
        Error::Config(format!(
            "{}:{line}:{at}: {}\n{gutter} |\n{line} | {text_line}\n{gutter} | {}{}",
            self.shown,
            msg.as_ref(),
            " ".repeat(col - 1),
            "^".repeat(width)
        ))
    }
}

/// Lines up to this many characters are shown whole under an error.
const WHOLE_LINE: usize = 120;
/// Of a longer line, this many characters from 40 before the error's column.
const WINDOW: usize = 80;

/// The line as shown under an error, and the caret's column in it: whole when short, else
/// [`WINDOW`] characters around column `col` with `…` where it was cut and the line's length
/// (a 5,000-character value is not echoed whole).
fn window(line: &str, col: usize) -> (String, usize) {
    let n = line.chars().count();
    if n <= WHOLE_LINE {
        return (line.to_string(), col);
    }
    let start = (col - 1).saturating_sub(40);
    let end = (start + WINDOW).min(n);
    let mut out = String::new();
    let mut col = col;
    if start > 0 {
        out.push('…');
        col = col - start + 1;
    }
    out.extend(line.chars().skip(start).take(end - start));
    if end < n {
        out.push_str(&format!("… ({n} characters)"));
    }
    (out, col)
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

    #[test]
    fn a_long_line_is_shown_around_the_error() {
        let value = "g".repeat(5000);
        let s = SourceText {
            shown: "g.toml".into(),
            text: format!("id = \"{value}\"\nx = \"{value}\" # late\n"),
        };
        let e = s.error(Some(5..5007), "bad id").to_string();
        let want = format!(
            "g.toml:1:6: bad id\n  |\n1 | id = \"{}… (5007 characters)\n  |      {}",
            "g".repeat(74),
            "^".repeat(80)
        );
        assert_eq!(e, want);
        // An error late in the line: the window starts 40 characters before it.
        let at = s.text.find('#').unwrap();
        let e = s.error(Some(at..at + 1), "here").to_string();
        let line = e.lines().nth(2).unwrap();
        assert!(line.starts_with("2 | …"), "{line}");
        let caret = e.lines().nth(3).unwrap();
        let col = caret.find('^').unwrap() - "  | ".len();
        assert_eq!(line["2 | ".len()..].chars().nth(col), Some('#'), "{e}");
    }
}
