//! Untrusted names made safe for every output: query ids, slice and tag names, metric names and
//! gate ids come from the pull request, and are printed in the terminal, in `::error::` lines on
//! an Actions runner and in Markdown. One rule for all of them: control characters (line breaks,
//! ANSI escapes, NUL), bidi overrides (U+202A–U+202E, U+2066–U+2069) and other invisible
//! characters are written as Rust escapes (`\n`, `\u{1b}`, `\u{202e}`), so a name stays one line
//! of visible text and cannot start a workflow command or rewrite the terminal; a name longer
//! than 80 characters is cut to its first 40 (with its full length in bytes), as the README
//! promises, so a 10 MB tag cannot become a 10 MB message.

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
fn needs_escape(c: char) -> bool {
    if c.is_control() || is_bidi_control(c) {
        return true;
    }
    !matches!(c, '"' | '\'' | '\\') && c.escape_debug().len() > 1
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
}
