//! Untrusted names made safe for every output: query ids, slice and tag names, metric names and
//! gate ids come from the pull request, and are printed in the terminal, in `::error::` lines on
//! an Actions runner and in Markdown. One rule for all of them: control characters (line breaks,
//! ANSI escapes, NUL), bidi overrides (U+202A–U+202E, U+2066–U+2069) and other invisible
//! characters are written as Rust escapes (`\n`, `\u{1b}`, `\u{202e}`), so a name stays one line
//! of visible text and cannot start a workflow command or rewrite the terminal; a name longer
//! than 80 characters is cut to its first 40 (with its full length in bytes), as the README
//! promises, so a 10 MB tag cannot become a 10 MB message.
//!
//! Beside the per-name functions, two structural guards: [`printable`] is the one filter every
//! byte rag-gate prints or writes passes through (`main` for stdout and stderr,
//! `outputs::write` for files), and [`Command`] is the only way to make a line that starts a
//! GitHub workflow command (only rag-gate's own `::warning title=rag-gate::…` and `::error …`
//! lines, built here from escaped text). Whatever a renderer forgets, no printed line can start
//! a workflow command (`::add-mask::`, `::stop-commands::`, the legacy `##[…]` form anywhere in
//! a line) or carry a raw control character or bidi override.

use std::borrow::Cow;

/// Names up to this many characters are shown whole.
pub const SHOW_WHOLE: usize = 80;
/// Longer names are cut to this many characters.
pub const KEEP: usize = 40;

/// Bidirectional embedding, override and isolate controls (and the marks): they reorder the text
/// around them when displayed (CVE-2021-42574, "Trojan Source").
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// `s` cut to its first `KEEP` characters when longer than `SHOW_WHOLE`; `Some(len)` when cut.
fn cut(s: &str) -> (&str, Option<usize>) {
    match s.char_indices().nth(SHOW_WHOLE) {
        None => (s, None),
        Some(_) => {
            let end = s.char_indices().nth(KEEP).map_or(s.len(), |(i, _)| i);
            (&s[..end], Some(s.len()))
        }
    }
}

/// `s` as it is when it is shown whole, else its first `KEEP` characters, `…` and its length
/// (`qqqq…… (5001 bytes)`), nothing escaped: for renderers with escaping of their own (Markdown,
/// HTML). A name is cut only where it is shown; its identity (pairing, JSON) stays whole.
pub fn cut_marked(s: &str) -> Cow<'_, str> {
    match cut(s) {
        (whole, None) => Cow::Borrowed(whole),
        (head, Some(len)) => Cow::Owned(format!("{head}… ({len} bytes)")),
    }
}

/// `s` quoted (`"q1"`, with Rust's escapes for quotes, backslashes and every invisible
/// character) and cut: the form used in error messages and warnings.
pub fn quoted(s: &str) -> String {
    match cut(s) {
        (whole, None) => format!("{whole:?}"),
        (head, Some(len)) => format!("{:?} ({len} bytes)", format!("{head}…")),
    }
}

/// `s` without quotes, for table cells of the text report: visible characters as they are,
/// invisible ones escaped, cut like [`quoted`]. A clean name is returned unchanged.
pub fn shown(s: &str) -> String {
    let (head, len) = cut(s);
    let mut out = String::with_capacity(head.len());
    for c in head.chars() {
        if needs_escape(c) {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    if let Some(len) = len {
        out.push_str(&format!("… ({len} bytes)"));
    }
    out
}

/// A whole line of free text (a warning) made one visible line: invisible characters escaped,
/// nothing cut (the names inside were cut when the line was made).
pub fn one_line(s: &str) -> String {
    if !s.chars().any(needs_escape) {
        return s.to_string();
    }
    s.chars()
        .flat_map(|c| {
            let esc = needs_escape(c);
            c.escape_debug()
                .filter(move |_| esc)
                .chain(std::iter::once(c).filter(move |_| !esc))
        })
        .collect()
}

/// Characters that would not show as themselves: controls, bidi controls, and what Rust's
/// `escape_debug` escapes besides quotes and backslashes (zero-width and other format marks).
pub fn needs_escape(c: char) -> bool {
    if c.is_control() || is_bidi_control(c) {
        return true;
    }
    !matches!(c, '"' | '\'' | '\\') && c.escape_debug().len() > 1
}

/// Characters the final guard never lets through raw: control characters other than the line
/// break and tab that separate lines and fields, bidi controls, the Unicode line and paragraph
/// separators and the byte-order mark (invisible, and not white space to the runner).
fn unprintable(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || is_bidi_control(c)
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{FEFF}')
}

/// Whether a line would start a workflow command on a GitHub runner: `::` after leading white
/// space (the runner trims it), or the legacy `##[` anywhere in the line.
pub fn starts_command(line: &str) -> bool {
    line.trim_start().starts_with("::") || line.contains("##[")
}

/// The final guard: `text` (any number of lines) as it may be printed or written. Every
/// unprintable character becomes a `\uXXXX` escape; a line that would start a workflow command
/// gets a backslash before its first `::`; `##[` becomes `##\u005b`. The escapes are JSON's, so
/// the guard is lossless on JSON text (those characters only occur inside its strings), and it
/// is idempotent. A text that needs nothing is returned as it is.
pub fn printable(text: &str) -> Cow<'_, str> {
    let clean = !text.chars().any(unprintable)
        && !text.contains("##[")
        && !text.split('\n').any(|l| l.trim_start().starts_with("::"));
    if clean {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        guard_line(line, &mut out);
    }
    Cow::Owned(out)
}

fn guard_line(line: &str, out: &mut String) {
    let lead = line.len() - line.trim_start().len();
    let command = line[lead..].starts_with("::");
    let mut hashes = 0;
    for (i, c) in line.char_indices() {
        if command && i == lead {
            out.push('\\');
        }
        if unprintable(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else if c == '[' && hashes >= 2 {
            out.push_str("\\u005b");
        } else {
            out.push(c);
        }
        hashes = if c == '#' { hashes + 1 } else { 0 };
    }
}

/// A GitHub workflow-command line written by rag-gate itself: the only kind of printed line
/// that may start with `::`. Its name and title are rag-gate's; the message is escaped as
/// GitHub's toolkit does (`%`, CR, LF) and then by [`printable`], so it stays the command's data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command(String);

impl Command {
    /// `::NAME title=TITLE::MESSAGE` (`name` is `error`, `warning` or `notice`).
    pub fn new(name: &'static str, title: &'static str, msg: &str) -> Command {
        let msg = escape_data(msg);
        Command(format!(
            "::{name} title={}::{}",
            escape_property(title),
            printable(&msg)
        ))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The toolkit's escaping of a command's message (`@actions/core` `command.ts`).
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// The toolkit's escaping of a command's property value.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// One line for stderr: text (guarded by [`printable`] when printed) or rag-gate's own
/// workflow command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    Text(String),
    Command(Command),
}

impl Line {
    /// The line as printed.
    pub fn shown(&self) -> Cow<'_, str> {
        match self {
            Line::Text(t) => printable(t),
            Line::Command(c) => Cow::Borrowed(c.as_str()),
        }
    }

    /// Whether the line contains `s` (for tests and callers looking for a message).
    pub fn contains(&self, s: &str) -> bool {
        self.shown().contains(s)
    }

    /// The line with `f` applied to its text: only for redacting a token (`***`), which can
    /// neither add a line break nor a command.
    pub fn map(self, f: impl Fn(&str) -> String) -> Line {
        match self {
            Line::Text(t) => Line::Text(f(&t)),
            Line::Command(c) => Line::Command(Command(f(&c.0))),
        }
    }
}

impl std::fmt::Display for Line {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown())
    }
}

impl From<String> for Line {
    fn from(s: String) -> Line {
        Line::Text(s)
    }
}

impl From<Command> for Line {
    fn from(c: Command) -> Line {
        Line::Command(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_names_are_unchanged() {
        assert_eq!(shown("lang=ko"), "lang=ko");
        assert_eq!(shown("ndcg@10 \"x\" é"), "ndcg@10 \"x\" é");
        assert_eq!(quoted("q1"), "\"q1\"");
        assert_eq!(one_line("a \"b\" c"), "a \"b\" c");
    }

    #[test]
    fn invisible_characters_are_escaped() {
        let s = "q\n::error::x\u{1b}[31m\u{202e}y\u{2066}\u{200b}";
        let want = "q\\n::error::x\\u{1b}[31m\\u{202e}y\\u{2066}\\u{200b}";
        assert_eq!(shown(s), want);
        assert_eq!(one_line(s), want);
        assert_eq!(quoted(s), format!("\"{want}\""));
        assert!(!shown(s).contains('\n'));
    }

    #[test]
    fn long_names_are_cut_to_40_characters() {
        let long = "x".repeat(81);
        assert_eq!(shown(&long), format!("{}… (81 bytes)", "x".repeat(40)));
        assert_eq!(quoted(&long), format!("\"{}…\" (81 bytes)", "x".repeat(40)));
        assert_eq!(shown(&"y".repeat(80)), "y".repeat(80));
    }

    #[test]
    fn the_final_guard_stops_workflow_commands_and_invisible_characters() {
        let hostile = "ok\n  ::add-mask::x\nq ##[set-env name=A;]b\r::error::y\u{202e}\u{1b}[2J\tz";
        let got = printable(hostile);
        assert_eq!(
            got,
            "ok\n  \\::add-mask::x\nq ##\\u005bset-env name=A;]b\\u000d::error::y\\u202e\\u001b[2J\tz"
        );
        for line in got.lines() {
            assert!(!starts_command(line), "{line}");
        }
        assert_eq!(printable(&got), got, "idempotent");
        assert!(matches!(printable("plain\ttext\n"), Cow::Borrowed(_)));
    }

    #[test]
    fn the_final_guard_is_lossless_on_json() {
        let v = serde_json::json!({"k\u{202e}": "##[x\u{85}\u{2028}::y"});
        let s = serde_json::to_string_pretty(&v).unwrap();
        let g = printable(&s);
        assert!(!g.chars().any(unprintable) && !g.contains("##["));
        assert_eq!(serde_json::from_str::<serde_json::Value>(&g).unwrap(), v);
    }

    #[test]
    fn commands_keep_their_message_as_data() {
        let c = Command::new("warning", "rag-gate", "50%\n::add-mask::x\u{202e}");
        assert_eq!(
            c.as_str(),
            "::warning title=rag-gate::50%25%0A::add-mask::x\\u202e"
        );
        let l = Line::from("::error::x".to_string());
        assert_eq!(l.shown(), "\\::error::x");
    }
}
