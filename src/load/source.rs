//! Reading an input file as text: a clear error for a missing file, a directory, an empty file or
//! bytes that are not UTF-8 (with the line). Tolerated on purpose: a UTF-8 byte-order mark at the
//! start (skipped) and CRLF line ends (the CR is dropped by `lines`).

use std::path::Path;

use crate::error::{quoted, Error, Result};

/// Reads `path` (shown to the user as `shown`) as UTF-8 text without its BOM.
pub fn read_text(path: &Path, shown: &str, expected: &str) -> Result<String> {
    decode_text(read_bytes(path, shown, expected)?, shown, expected)
}

/// Reads the bytes of `path` (`-` is standard input; gzip is undone, see `crate::input`). A
/// directory is an error. A pipe, device or gzip stream is read in chunks and refused at its
/// first NUL byte, so `/dev/zero` or `/dev/urandom` given by mistake fail at once instead of
/// filling memory.
pub fn read_bytes(path: &Path, shown: &str, expected: &str) -> Result<Vec<u8>> {
    use std::io::Read;
    if !crate::input::open::is_stdin(path) {
        let meta = std::fs::metadata(path).map_err(|e| Error::io(shown, "opening", e))?;
        if meta.is_dir() {
            return Err(Error::input(
                shown,
                0,
                format!("is a directory; expected a file of {expected}"),
            ));
        }
    }
    let mut opened = crate::input::open(path, shown)?;
    if opened.regular && !opened.gzip {
        return std::fs::read(path).map_err(|e| Error::io(shown, "reading", e));
    }
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        let n = match opened.reader.read(&mut chunk) {
            Ok(0) => return Ok(bytes),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Error::io(shown, "reading", e)),
        };
        if let Some(i) = chunk[..n].iter().position(|&b| b == 0) {
            bytes.extend_from_slice(&chunk[..i]);
            return Err(nul_error(shown, &bytes, expected));
        }
        bytes.extend_from_slice(&chunk[..n]);
    }
}

fn nul_error(shown: &str, before: &[u8], expected: &str) -> Error {
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    Error::input(
        shown,
        line,
        format!(
            "a NUL byte (byte {}): binary data, not text; expected {expected}",
            before.len()
        ),
    )
}

/// Checks that `bytes` are UTF-8 text with something in it and no NUL byte, and drops a leading
/// BOM in place (no second copy of the file).
pub fn decode_text(bytes: Vec<u8>, shown: &str, expected: &str) -> Result<String> {
    let mut text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
            let hint = match bytes.get(..2) {
                Some([0xFF, 0xFE] | [0xFE, 0xFF]) => "; it is UTF-16: convert it to UTF-8",
                Some([0x1F, 0x8B]) => "; it is gzip-compressed: decompress it first",
                _ => "",
            };
            return Err(Error::input(
                shown,
                line,
                format!("not UTF-8 text (byte {at}){hint}; expected {expected}"),
            ));
        }
    };
    if let Some(at) = text.find('\0') {
        return Err(nul_error(shown, &text.as_bytes()[..at], expected));
    }
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
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

/// A line that is not the JSON object expected: the column and what serde_json says, without its
/// "at line 1" (the line is the file's, given by the caller).
pub fn json_error(shown: &str, line: usize, e: &serde_json::Error, expected: &str) -> Error {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let what = full.strip_suffix(&suffix).unwrap_or(&full);
    let place = if e.column() > 0 {
        format!(" at column {}", e.column())
    } else {
        String::new()
    };
    if let Some(key) = what.strip_prefix(super::strict_json::DUPLICATE) {
        return Error::input(
            shown,
            line,
            format!("key {key} given twice in one object{place}; expected each key once"),
        );
    }
    Error::input(
        shown,
        line,
        format!("not valid JSON{place} ({what}); expected {expected}"),
    )
}

/// A slice tag name must be non-empty and free of `=`: slices are named `tag=value`, so
/// `{"a=b": "c"}` could never be told apart from `{"a": "b=c"}` in a gate file.
pub fn check_tag_name(shown: &str, line: usize, tag: &str) -> Result<()> {
    if tag.trim().is_empty() || tag.contains('=') {
        return Err(Error::input(
            shown,
            line,
            format!(
                "slice tag name {} is empty or contains '='; expected a name like \"language\"",
                quoted(tag)
            ),
        ));
    }
    Ok(())
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

/// Values at or above this magnitude are refused: a sum of a few of them overflows f64 (a mean of
/// two values of 1.7e308 is infinite), while 2^32 queries of 1e299 still sum to a finite number.
pub const MAX_MAGNITUDE: f64 = 1e300;

/// A metric value must be finite, below `MAX_MAGNITUDE`, and within [0, 1] for bounded metrics.
pub fn check_value(shown: &str, line: usize, metric: &str, v: f64) -> Result<f64> {
    if !v.is_finite() {
        return Err(Error::input(
            shown,
            line,
            format!("metric {} is {v}; expected a finite number", quoted(metric)),
        ));
    }
    if v.abs() >= MAX_MAGNITUDE {
        return Err(Error::input(
            shown,
            line,
            format!(
                "metric {} is {v:e}; expected a magnitude below 1e300 (sums of such values overflow to infinity)",
                quoted(metric)
            ),
        ));
    }
    if crate::metric_names::is_bounded(metric) && !(0.0..=1.0).contains(&v) {
        return Err(Error::input(
            shown,
            line,
            format!(
                "metric {} is {v}; expected a value in [0, 1]",
                quoted(metric)
            ),
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
            format!(
                "metric {} is {}; expected a number",
                quoted(metric),
                quoted(s)
            ),
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
