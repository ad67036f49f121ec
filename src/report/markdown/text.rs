//! Text helpers for the Markdown report: the hidden marker, escaping of user-supplied text,
//! code spans for metric names, text safe inside a code fence, and number formatting (a real
//! minus sign).

/// The hidden first line of every report, keyed by the gate id: `<!-- rag-gate:v1 id=prod -->`.
/// Characters other than ASCII letters, digits and `._-/:` become `_`, so no id can close the
/// HTML comment or make one marker a prefix of another.
pub fn marker(gate_id: &str) -> String {
    format!("<!-- rag-gate:v1 id={} -->", marker_id(gate_id))
}

/// The marker with the state digest of the comment (see [`super::state_digest`]):
/// `<!-- rag-gate:v1 id=prod state=0123456789abcdef -->`.
pub fn marker_with_state(gate_id: &str, state: &str) -> String {
    format!(
        "<!-- rag-gate:v1 id={} state={state} -->",
        marker_id(gate_id)
    )
}

/// What a comment's first line says: its gate id and state digest (None for an older marker
/// without one). None when the line is not a rag-gate marker.
pub fn parse_marker(line: &str) -> Option<(&str, Option<&str>)> {
    let inner = line
        .trim()
        .strip_prefix("<!-- rag-gate:v1 ")?
        .strip_suffix("-->")?;
    let mut id = None;
    let mut state = None;
    for token in inner.split_whitespace() {
        if let Some(v) = token.strip_prefix("id=") {
            id = Some(v);
        } else if let Some(v) = token.strip_prefix("state=") {
            state = Some(v);
        }
    }
    id.map(|id| (id, state))
}

fn marker_id(gate_id: &str) -> String {
    let id: String = gate_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-/:".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if id.is_empty() {
        "_".to_string()
    } else {
        id
    }
}

/// Escapes user-supplied text for Markdown: table pipes, code and emphasis characters, HTML, and
/// `@`/`#` that GitHub could turn into a mention or a cross-reference (an invisible word joiner
/// after them). A metric's cutoff (`recall@5`: a letter or digit, `@`, a digit) is no mention
/// (GitHub mentions need a non-word character before the `@`), so it stays as written and a
/// reviewer who copies it into a gate file gets the metric, not `recall@\u{2060}5`. Line breaks
/// become spaces so a table row stays one row.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let mut prev: Option<char> = None;
    let mut seen: [Option<char>; 3] = [None; 3];
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        let cutoff = c == '@'
            && prev.is_some_and(char::is_alphanumeric)
            && chars.peek().is_some_and(char::is_ascii_digit);
        if breaks_autolink(seen, c, chars.clone()) {
            out.push_str(WORD_JOINER);
        }
        seen = [seen[1], seen[2], Some(c)];
        prev = Some(c);
        match c {
            '@' if cutoff => out.push('@'),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '@' | '#' => {
                out.push(c);
                out.push_str(WORD_JOINER);
            }
            '\r' | '\n' | '\t' => out.push(' '),
            c if c.is_control() => out.push('\u{FFFD}'),
            // Bidi overrides reorder what a reviewer sees ("Trojan Source"): dropped.
            c if crate::safe_text::is_bidi_control(c) => {}
            c => out.push(c),
        }
    }
    out
}

/// A name (query id, slice, tag, gate id) for Markdown: cut like every shown name
/// ([`crate::safe_text::cut_marked`]), then escaped.
pub fn name(s: &str) -> String {
    escape(&crate::safe_text::cut_marked(s))
}

/// Whether a word joiner goes before `c` so GitHub neither links nor cross-references what it
/// would start: `GH-123` (joiner before `-`), a URL (`https:` + joiner + `//…`, so an issue URL
/// creates no backlink) and `www.` (joiner before the dot). `#123` and `@name` are handled by
/// their own rule.
fn breaks_autolink(seen: [Option<char>; 3], c: char, mut rest: impl Iterator<Item = char>) -> bool {
    let low = |i: usize| seen[i].map(|x| x.to_ascii_lowercase());
    let word_start = !seen[0].is_some_and(char::is_alphanumeric);
    match c {
        '-' => low(1) == Some('g') && low(2) == Some('h') && word_start,
        '/' => seen[2] == Some(':') && rest.next() == Some('/'),
        '.' => (0..3).all(|i| low(i) == Some('w')),
        _ => false,
    }
}

/// U+2060 as an HTML entity: zero width, and it forbids a line break where it stands.
pub const WORD_JOINER: &str = "&#8288;";

/// A metric name as a code span: GitHub neither mentions nor links inside code, and a code span
/// never wraps at `@`. Backticks become `'` (so the span cannot be closed early), table pipes are
/// escaped, line breaks become spaces, at most 60 characters; a longer name is cut like every
/// shown name (its first 40 characters, `…`, its length).
pub fn code(s: &str) -> String {
    if s.chars().nth(60).is_none() {
        let inner: String = code_safe(s, 60).replace('|', "\\|");
        return format!("`{}`", inner.trim());
    }
    let inner: String = code_safe(s, crate::safe_text::KEEP).replace('|', "\\|");
    format!("`{}…` ({} bytes)", inner.trim(), s.len())
}

/// A comparison's name in a table cell: the metric as a code span, then its statistic when the
/// metric is compared under several ("`latency_ms` p95").
pub fn name_cell(metric: &str, statistic: &str, statistic_in_name: bool) -> String {
    if statistic_in_name {
        format!("{} {}", code(metric), escape(statistic))
    } else {
        code(metric)
    }
}

/// Text inside a fenced code block: no backticks (they could close the fence), no line breaks,
/// at most `max` characters.
pub(super) fn code_safe(s: &str, max: usize) -> String {
    s.chars()
        .map(|c| {
            if c == '`' {
                '\''
            } else if c.is_control() {
                ' '
            } else {
                c
            }
        })
        .filter(|&c| !crate::safe_text::is_bidi_control(c))
        .take(max)
        .collect()
}

pub(super) fn fmt_pct(confidence: f64) -> String {
    let p = confidence * 100.0;
    if (p - p.round()).abs() < 1e-9 {
        format!("{}", p.round() as i64)
    } else {
        format!("{p}")
    }
}

/// `0.9650`, `−0.0480` (a real minus sign, like the signed numbers).
pub(super) fn plain4(x: f64) -> String {
    signed4(x).trim_start_matches('+').to_string()
}

/// `+0.0123`, `−0.0310` (a real minus sign), `0.0000`.
pub(super) fn signed4(x: f64) -> String {
    signed(x, 4)
}

pub(super) fn signed3(x: f64) -> String {
    signed(x, 3)
}

pub(super) fn signed(x: f64, digits: usize) -> String {
    let t = format!("{:.*}", digits, x.abs());
    if t.bytes().all(|b| b == b'0' || b == b'.') {
        t
    } else if x < 0.0 {
        format!("−{t}")
    } else {
        format!("+{t}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_use_a_real_minus_and_no_negative_zero() {
        assert_eq!(signed4(-0.031), "−0.0310");
        assert_eq!(signed4(0.0122), "+0.0122");
        assert_eq!(signed4(-0.00001), "0.0000");
        assert_eq!(plain4(0.965), "0.9650");
        assert_eq!(plain4(-0.048), "−0.0480");
        assert_eq!(
            (fmt_pct(0.95), fmt_pct(0.999)),
            ("95".to_string(), "99.9".to_string())
        );
    }

    #[test]
    fn markers_carry_id_and_state() {
        let m = marker_with_state("prod eu", "00ff");
        assert_eq!(m, "<!-- rag-gate:v1 id=prod_eu state=00ff -->");
        assert_eq!(parse_marker(&m), Some(("prod_eu", Some("00ff"))));
        assert_eq!(parse_marker(&marker("prod")), Some(("prod", None)));
        assert_eq!(parse_marker("<!-- other -->"), None);
    }

    #[test]
    fn code_spans_cannot_be_closed_or_split_a_row() {
        assert_eq!(code("ndcg@10"), "`ndcg@10`");
        assert_eq!(code("a`|b"), "`a'\\|b`");
    }

    #[test]
    fn code_fence_text_has_no_backticks_or_breaks() {
        assert_eq!(code_safe("a```b\nc", 5), "a'''b");
    }

    #[test]
    fn issue_references_and_urls_do_not_link() {
        let j = WORD_JOINER;
        assert_eq!(escape("GH-123 gh-9"), format!("GH{j}-123 gh{j}-9"));
        assert_eq!(
            escape("https://github.com/o/r/issues/1"),
            format!("https:{j}//github.com/o/r/issues/1")
        );
        assert_eq!(escape("www.x.io"), format!("www{j}.x.io"));
        assert_eq!(escape("#12"), format!("#{j}12"));
        assert_eq!(escape("recall@5 high-k a/b"), "recall@5 high-k a/b");
    }
}
