//! Line-level reading shared by every eval reader: a buffered byte-line iterator that strips a
//! UTF-8 byte-order mark on the first line and a trailing `\r` (CRLF files from Windows tools),
//! splits TREC lines on ASCII whitespace (trec_eval splits on blanks and tabs alike) and skips
//! blank lines. Lines stay bytes: ids are only turned into `String`s where they are kept.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use crate::error::{Error, Result};

const BOM: &[u8] = b"\xEF\xBB\xBF";
/// The longest line read; longer is an error (no real run or qrels line comes near).
const MAX_LINE: usize = 64 << 20;

/// Reads a file one line at a time into a reused buffer.
pub struct Lines {
    reader: BufReader<Box<dyn Read + Send>>,
    buf: Vec<u8>,
    /// 1-based number of the line last returned.
    pub line: usize,
    pub shown: String,
    span: (usize, usize),
    /// Skip lines whose first character is `#` (TREC runs and qrels; see `skipping_comments`).
    comments: bool,
    /// A regular file (can be read a second time); false for a pipe, FIFO or device.
    pub regular: bool,
}

impl Lines {
    /// Opens `path` (`-` is standard input; gzip is undone, see `crate::input`).
    pub fn open(path: &Path, shown: &str) -> Result<Self> {
        let opened = crate::input::open(path, shown)?;
        Ok(Lines {
            regular: opened.regular,
            reader: BufReader::with_capacity(1 << 20, opened.reader),
            buf: Vec::with_capacity(256),
            line: 0,
            shown: shown.to_string(),
            span: (0, 0),
            comments: false,
        })
    }

    /// Skips lines whose first character is `#`, as trec_eval 10 does in runs and qrels (where
    /// ir_metadata headers live). A `#` anywhere else (inside a doc id) is data.
    pub fn skipping_comments(mut self) -> Self {
        self.comments = true;
        self
    }

    /// The next non-blank line without its line ending (and without a BOM on line 1), or `None`
    /// at end of file.
    pub fn next_line(&mut self) -> Result<Option<&[u8]>> {
        Ok(if self.advance()? {
            Some(self.current())
        } else {
            None
        })
    }

    /// The line `advance` last moved to.
    pub fn current(&self) -> &[u8] {
        &self.buf[self.span.0..self.span.1]
    }

    /// Moves to the next non-blank line; false at end of file.
    pub fn advance(&mut self) -> Result<bool> {
        loop {
            self.buf.clear();
            // At most MAX_LINE bytes a line, so a device or a file without line ends
            // (e.g. /dev/zero) cannot grow the buffer without bound.
            let n = (&mut self.reader)
                .take(MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut self.buf)
                .map_err(|e| Error::io(&self.shown, "reading", e))?;
            if n == 0 {
                return Ok(false);
            }
            self.line += 1;
            if n > MAX_LINE {
                return Err(self.err(format!(
                    "a line longer than {} MiB; expected text lines",
                    MAX_LINE >> 20
                )));
            }
            if self.buf.contains(&0) {
                return Err(self.err("binary data (a NUL byte); expected text lines"));
            }
            let mut s: &[u8] = &self.buf;
            if self.line == 1 && s.starts_with(BOM) {
                s = &s[BOM.len()..];
            }
            while let [rest @ .., b'\n' | b'\r'] = s {
                s = rest;
            }
            if self.comments && s.first() == Some(&b'#') {
                continue;
            }
            if !s.iter().all(u8::is_ascii_whitespace) {
                let start = s.as_ptr() as usize - self.buf.as_ptr() as usize;
                self.span = (start, start + s.len());
                return Ok(true);
            }
        }
    }

    /// An error at the line last returned.
    pub fn err(&self, msg: impl Into<String>) -> Error {
        Error::input(&self.shown, self.line, msg)
    }
}

/// Splits a line on runs of ASCII whitespace into at most `N` fields; returns how many it found
/// (more than `N` fields are counted as `N + 1`).
pub fn split_fields<'a, const N: usize>(line: &'a [u8], out: &mut [&'a [u8]; N]) -> usize {
    let mut n = 0;
    for field in line
        .split(u8::is_ascii_whitespace)
        .filter(|f| !f.is_empty())
    {
        if n == N {
            return N + 1;
        }
        out[n] = field;
        n += 1;
    }
    n
}

/// A field as UTF-8 text, or an error message naming what it is.
pub fn text<'a>(field: &'a [u8], what: &str) -> std::result::Result<&'a str, String> {
    std::str::from_utf8(field).map_err(|_| format!("{what} is not valid UTF-8"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_bom_crlf_and_skips_blank_lines() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.txt");
        std::fs::write(&p, b"\xEF\xBB\xBFa b\r\n\r\n  \nc\td\n").unwrap();
        let mut l = Lines::open(&p, "x.txt").unwrap();
        assert_eq!(l.next_line().unwrap().unwrap(), b"a b");
        assert_eq!(l.line, 1);
        assert_eq!(l.next_line().unwrap().unwrap(), b"c\td");
        assert_eq!(l.line, 4);
        assert!(l.next_line().unwrap().is_none());
    }

    #[test]
    fn hash_lines_are_skipped_only_when_asked_and_only_at_the_start() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.txt");
        std::fs::write(&p, b"# ir_metadata\nq1 Q0 d#1 1 1 t\n #x\n").unwrap();
        let mut l = Lines::open(&p, "x.txt").unwrap().skipping_comments();
        assert_eq!(l.next_line().unwrap().unwrap(), b"q1 Q0 d#1 1 1 t");
        assert_eq!(l.next_line().unwrap().unwrap(), b" #x");
        let mut l = Lines::open(&p, "x.txt").unwrap();
        assert_eq!(l.next_line().unwrap().unwrap(), b"# ir_metadata");
    }

    #[test]
    fn splits_on_mixed_whitespace_and_counts_extra_fields() {
        let mut f = [&b""[..]; 4];
        assert_eq!(split_fields(b"301\tQ0  D1 \t 3", &mut f), 4);
        assert_eq!(f[2], b"D1");
        assert_eq!(split_fields(b"a b c d e", &mut f), 5);
        assert_eq!(split_fields(b"a b", &mut f), 2);
    }
}
