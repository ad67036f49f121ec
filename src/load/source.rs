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
    refuse_directory(path, shown, expected)?;
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

/// The bytes of a regular file exactly as stored (gzip is not undone): what a hash of the file
/// or a verbatim copy of it needs (an anchor, main's stored results). A folder, a pipe or a
/// device is refused.
pub fn read_stored(path: &Path, shown: &str, expected: &str) -> Result<Vec<u8>> {
    let meta = std::fs::metadata(path).map_err(|e| Error::io(shown, "opening", e))?;
    if !meta.is_file() {
        return Err(Error::input(
            shown,
            0,
            format!("is not a regular file; expected a file of {expected}"),
        ));
    }
    std::fs::read(path).map_err(|e| Error::io(shown, "reading", e))
}

fn refuse_directory(path: &Path, shown: &str, expected: &str) -> Result<()> {
    if crate::input::open::is_stdin(path) {
        return Ok(());
    }
    let meta = std::fs::metadata(path).map_err(|e| Error::io(shown, "opening", e))?;
    if meta.is_dir() {
        return Err(Error::input(
            shown,
            0,
            format!("is a directory; expected a file of {expected}"),
        ));
    }
    Ok(())
}

fn nul_error(shown: &str, before: &[u8], expected: &str) -> Error {
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    nul_error_at(shown, line, before.len(), expected)
}

/// An input read line by line, for the readers that need one line at a time (JSONL): the same
/// checks and errors as [`read_text`], without holding the whole file. A regular file is
/// checked for UTF-8 first and NUL bytes second, anywhere in it; a pipe, device or gzip stream
/// stops at its first NUL byte (as [`read_bytes`] does). A reader's own error on some line is
/// reported only when the rest of the file has neither problem, so the message does not change.
pub struct TextLines<'a, R> {
    reader: R,
    shown: &'a str,
    expected: &'a str,
    /// Stop at the first NUL byte: a pipe, device or gzip stream (see [`read_bytes`]).
    nul_stops: bool,
}

impl<'a> TextLines<'a, Box<dyn std::io::BufRead + Send>> {
    /// Opens `path` (`-` is standard input; gzip is undone) to be read line by line.
    pub fn open(path: &Path, shown: &'a str, expected: &'a str) -> Result<Self> {
        use std::io::BufReader;
        refuse_directory(path, shown, expected)?;
        let opened = crate::input::open(path, shown)?;
        let nul_stops = !opened.regular || opened.gzip;
        let reader: Box<dyn std::io::BufRead + Send> = if nul_stops {
            Box::new(BufReader::with_capacity(1 << 16, opened.reader))
        } else {
            let file = std::fs::File::open(path).map_err(|e| Error::io(shown, "opening", e))?;
            let size = file.metadata().map_or(0, |m| m.len());
            let progress = crate::status::progress(shown, size, crate::status::Unit::Bytes);
            let counted = crate::status::Counted::new(file, progress);
            Box::new(BufReader::with_capacity(1 << 18, counted))
        };
        Ok(TextLines {
            reader,
            shown,
            expected,
            nul_stops,
        })
    }
}

impl<'a, 'b> TextLines<'a, &'b [u8]> {
    /// Bytes already in memory, checked as a regular file's are.
    pub fn from_bytes(bytes: &'b [u8], shown: &'a str, expected: &'a str) -> Self {
        TextLines {
            reader: bytes,
            shown,
            expected,
            nul_stops: false,
        }
    }
}

impl<'a, R: std::io::BufRead> TextLines<'a, R> {
    /// The input as the messages name it.
    pub fn shown(&self) -> &'a str {
        self.shown
    }

    /// Calls `each` with every non-blank line and its 1-based number (BOM and the CR of CRLF
    /// removed, as [`numbered_lines`] gives them). Errors, first to last: the file's UTF-8 or
    /// NUL problem, `each`'s first error, an empty file.
    pub fn for_each(mut self, mut each: impl FnMut(usize, &str) -> Result<()>) -> Result<()> {
        let mut buf = Vec::new();
        let mut head = Vec::with_capacity(2);
        let (mut offset, mut line, mut content) = (0usize, 0usize, false);
        let (mut not_utf8, mut nul, mut failed) = (None, None, None);
        loop {
            buf.clear();
            let n = self
                .read_line(&mut buf)
                .map_err(|e| Error::io(self.shown, "reading", e))?;
            if n == 0 {
                break;
            }
            line += 1;
            if head.len() < 2 {
                head.extend(buf.iter().take(2 - head.len()));
            }
            if nul.is_none() && buf.contains(&0) {
                let at = offset + buf.iter().position(|&b| b == 0).unwrap_or(0);
                nul = Some(nul_error_at(self.shown, line, at, self.expected));
                if self.nul_stops {
                    break;
                }
            }
            match std::str::from_utf8(&buf) {
                Err(e) if not_utf8.is_none() => {
                    not_utf8 = Some((line, offset + e.valid_up_to()));
                    if !self.nul_stops {
                        break;
                    }
                }
                Ok(text) if not_utf8.is_none() && nul.is_none() && failed.is_none() => {
                    let text = strip_line_end(text);
                    let text = match line {
                        1 => text.strip_prefix('\u{feff}').unwrap_or(text),
                        _ => text,
                    };
                    if !text.trim().is_empty() {
                        content = true;
                        failed = each(line, text).err();
                    }
                }
                _ => {}
            }
            offset += n;
        }
        if let Some((line, at)) = not_utf8.filter(|_| !(self.nul_stops && nul.is_some())) {
            return Err(utf8_error(self.shown, line, at, &head, self.expected));
        }
        if let Some(e) = nul.or(failed) {
            return Err(e);
        }
        if !content {
            return Err(empty_error(self.shown, self.expected));
        }
        Ok(())
    }
}

impl<R: std::io::BufRead> TextLines<'_, R> {
    /// One line into `buf` with its `\n`, as `read_until` reads it; from a pipe or device it
    /// also ends at a NUL byte (`/dev/zero` has no line end to wait for).
    fn read_line(&mut self, buf: &mut Vec<u8>) -> std::io::Result<usize> {
        if !self.nul_stops {
            return self.reader.read_until(b'\n', buf);
        }
        let mut n = 0;
        loop {
            let chunk = match self.reader.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            let end = chunk.iter().position(|&b| b == b'\n' || b == 0);
            let take = end.map_or(chunk.len(), |i| i + 1);
            buf.extend_from_slice(&chunk[..take]);
            self.reader.consume(take);
            n += take;
            if end.is_some() || take == 0 {
                return Ok(n);
            }
        }
    }
}

/// A line without its `\n` and then its `\r` (as `str::lines` cuts them).
fn strip_line_end(line: &str) -> &str {
    match line.strip_suffix('\n') {
        Some(l) => l.strip_suffix('\r').unwrap_or(l),
        None => line,
    }
}

fn nul_error_at(shown: &str, line: usize, at: usize, expected: &str) -> Error {
    Error::input(
        shown,
        line,
        format!("a NUL byte (byte {at}): binary data, not text; expected {expected}"),
    )
}

fn utf8_error(shown: &str, line: usize, at: usize, head: &[u8], expected: &str) -> Error {
    let hint = match head.get(..2) {
        Some([0xFF, 0xFE] | [0xFE, 0xFF]) => "; it is UTF-16: convert it to UTF-8",
        Some([0x1F, 0x8B]) => "; it is gzip-compressed: decompress it first",
        _ => "",
    };
    Error::input(
        shown,
        line,
        format!("not UTF-8 text (byte {at}){hint}; expected {expected}"),
    )
}

fn empty_error(shown: &str, expected: &str) -> Error {
    Error::input(shown, 0, format!("the file is empty; expected {expected}"))
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
            return Err(utf8_error(shown, line, at, &bytes, expected));
        }
    };
    if let Some(at) = text.find('\0') {
        return Err(nul_error(shown, &text.as_bytes()[..at], expected));
    }
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    if text.trim().is_empty() {
        return Err(empty_error(shown, expected));
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
