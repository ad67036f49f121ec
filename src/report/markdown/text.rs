//! Text helpers for the Markdown report: the hidden marker, escaping of user-supplied text,
//! text safe inside a code fence, and number formatting (a real minus sign).

/// The hidden first line of every report, keyed by the gate id: `<!-- rag-gate:v1 id=prod -->`.
/// Characters other than ASCII letters, digits and `._-/:` become `_`, so no id can close the
/// HTML comment or make one marker a prefix of another.
pub fn marker(gate_id: &str) -> String {
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
    let id = if id.is_empty() { "_".to_string() } else { id };
    format!("<!-- rag-gate:v1 id={id} -->")
}

/// Escapes user-supplied text for Markdown: table pipes, code and emphasis characters, HTML, and
/// `@`/`#` where GitHub would read a mention or an issue link (a zero-width space after them, as
/// Renovate does; not after a letter or digit, where GitHub links nothing, so `ndcg@10` stays
/// copyable). Line breaks become spaces so a table row stays one row.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let mut prev: Option<char> = None;
    for c in s.chars() {
        let before = prev;
        prev = Some(c);
        let prev = before;
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            // GitHub mentions `@name` and links `#12` only after a non-word character, so
            // `ndcg@10` stays as written (copyable) and `@team` or `#12` is broken up.
            '@' | '#' if !prev.is_some_and(|p: char| p.is_alphanumeric()) => {
                out.push(c);
                out.push_str("&#8203;");
            }
            '\r' | '\n' | '\t' => out.push(' '),
            c if c.is_control() => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
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
    crate::numbers::plain(x)
}

/// `+0.0123`, `−0.0310` (a real minus sign), `0.0000`.
pub(super) fn signed4(x: f64) -> String {
    crate::numbers::signed(x)
}

/// User text as an inline code span: copyable as written (`ndcg@10` stays `ndcg@10`), and
/// GitHub neither mentions nor links inside code. The fence is one backtick longer than the
/// longest run of backticks in the text; `|` is escaped so a table row stays one row.
pub fn code(s: &str) -> String {
    let text: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .replace('|', "\\|");
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_use_a_real_minus_and_no_negative_zero() {
        assert_eq!(signed4(-0.031), "−0.0310");
        assert_eq!(plain4(-0.048), "−0.0480");
        assert_eq!(
            (fmt_pct(0.95), fmt_pct(0.999)),
            ("95".to_string(), "99.9".to_string())
        );
    }

    #[test]
    fn metric_names_stay_copyable_and_mentions_stay_blocked() {
        assert_eq!(code("ndcg@10"), "`ndcg@10`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x"), "`` `x ``");
        assert_eq!(code("a|b"), "`a\\|b`");
        assert_eq!(escape("ndcg@10"), "ndcg@10");
        assert_eq!(escape("@team"), "@&#8203;team");
        assert_eq!(escape("gate #1"), "gate #&#8203;1");
        assert_eq!(escape("x (@a)"), "x (@&#8203;a)");
    }

    #[test]
    fn code_fence_text_has_no_backticks_or_breaks() {
        assert_eq!(code_safe("a```b\nc", 5), "a'''b");
    }
}
