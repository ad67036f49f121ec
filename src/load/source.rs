//! Reading an input file as text: a clear error for a missing file, a directory, an empty file or
//! bytes that are not UTF-8 (with the line). Tolerated on purpose: a UTF-8 byte-order mark at the
//! start (skipped) and CRLF line ends (the CR is dropped by `lines`).

use std::path::Path;

use crate::error::{Error, Result};

/// Reads `path` (shown to the user as `shown`) as UTF-8 text without its BOM.
pub fn read_text(path: &Path, shown: &str, expected: &str) -> Result<String> {
    let meta = std::fs::metadata(path).map_err(|e| Error::io(shown, "opening", e))?;
    if meta.is_dir() {
        return Err(Error::input(
            shown,
            0,
            format!("is a directory; expected a file of {expected}"),
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| Error::io(shown, "reading", e))?;
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
            return Err(Error::input(
                shown,
                line,
                format!("not UTF-8 text (byte {at}); expected {expected}"),
            ));
        }
    };
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    };
    if text.trim().is_empty() {
        return Err(Error::input(
            shown,
            0,
            format!("the file is empty; expected {expected}"),
        ));
    }
    Ok(text)
}

/// The lines of `text` with their 1-based numbers, skipping blank lines (CR of CRLF removed).
pub fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.trim().is_empty())
}

/// Rejects an id that is empty or only white space.
pub fn check_id(shown: &str, line: usize, what: &str, id: &str) -> Result<()> {
    if id.trim().is_empty() {
        return Err(Error::input(
            shown,
            line,
            format!("{what} is empty; expected a non-empty id"),
        ));
    }
    Ok(())
}

/// A metric value must be finite, and within [0, 1] for bounded metrics.
pub fn check_value(shown: &str, line: usize, metric: &str, v: f64) -> Result<f64> {
    if !v.is_finite() {
        return Err(Error::input(
            shown,
            line,
            format!("metric {metric:?} is {v}; expected a finite number"),
        ));
    }
    if crate::metric_names::is_bounded(metric) && !(0.0..=1.0).contains(&v) {
        return Err(Error::input(
            shown,
            line,
            format!("metric {metric:?} is {v}; expected a value in [0, 1]"),
        ));
    }
    Ok(v)
}

/// Parses a number written as text; "nan", "inf" and overflowing values like "1e999" are errors.
pub fn parse_number(shown: &str, line: usize, metric: &str, s: &str) -> Result<f64> {
    let v: f64 = s.trim().parse().map_err(|_| {
        Error::input(
            shown,
            line,
            format!("metric {metric:?} is {s:?}; expected a number"),
        )
    })?;
    check_value(shown, line, metric, v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_and_crlf_are_tolerated() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.jsonl");
        std::fs::write(&p, "\u{feff}a\r\nb\r\n").unwrap();
        let t = read_text(&p, "a.jsonl", "x").unwrap();
        let lines: Vec<_> = numbered_lines(&t).collect();
        assert_eq!(lines, vec![(1, "a"), (2, "b")]);
    }

    #[test]
    fn not_utf8_names_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.csv");
        std::fs::write(&p, b"ok\nok\n\xff\n").unwrap();
        let e = read_text(&p, "a.csv", "x").unwrap_err().to_string();
        assert!(e.starts_with("a.csv:3: not UTF-8"), "{e}");
    }

    #[test]
    fn overflow_and_nan_are_errors() {
        assert!(parse_number("f", 1, "m", "1e999").is_err());
        assert!(parse_number("f", 1, "m", "nan").is_err());
        assert!(parse_number("f", 1, "ndcg@10", "1.5").is_err());
        assert_eq!(parse_number("f", 1, "latency_ms", "1.5").unwrap(), 1.5);
    }
}
