//! Guessing a format: the extension (with `.gz` looked through) and the first bytes of the
//! decoded content. Callers decide what a guess means for them.

use std::io::Read;
use std::path::Path;

use crate::error::{Error, Result};

/// The lower-case extension of `path` with a trailing `.gz` looked through:
/// `run.json.gz` → `json`, `metrics.CSV` → `csv`.
pub fn extension(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?.to_ascii_lowercase();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    let (_, ext) = name.rsplit_once('.')?;
    Some(ext.to_string())
}

/// Up to [`super::HEAD_BYTES`] of the decoded content of `path`, without a UTF-8 BOM. Empty for
/// anything but a regular file: standard input, a pipe, FIFO or device cannot be read twice (and
/// a directory has no content).
pub fn head(path: &Path, shown: &str) -> Result<Vec<u8>> {
    let regular = path.as_os_str() != "-" && std::fs::metadata(path).is_ok_and(|m| m.is_file());
    if !regular {
        return Ok(Vec::new());
    }
    let opened = super::open(path, shown)?;
    let mut out = Vec::with_capacity(super::HEAD_BYTES);
    // A truncated gzip head is still a head: the reader reports the damage later, with context.
    let _ = opened
        .reader
        .take(super::HEAD_BYTES as u64)
        .read_to_end(&mut out);
    if out.starts_with(b"\xEF\xBB\xBF") {
        out.drain(..3);
    }
    Ok(out)
}

/// The first line of `head` that is not blank (and not a `#` comment when `comments`), without
/// its line end.
pub fn first_line(head: &[u8], comments: bool) -> Option<&[u8]> {
    head.split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .find(|l| {
            let blank = l.iter().all(u8::is_ascii_whitespace);
            !(blank || comments && l.first() == Some(&b'#'))
        })
}

/// The first line parsed as a JSON object, when it is one.
pub fn first_json_object(head: &[u8]) -> Option<serde_json::Map<String, serde_json::Value>> {
    match serde_json::from_slice(first_line(head, false)?) {
        Ok(serde_json::Value::Object(m)) => Some(m),
        _ => None,
    }
}

/// True when `path` is a Parquet file (magic `PAR1`) or a folder of Parquet output: named
/// `*.parquet`, or holding `*.parquet` parts, Spark's `_SUCCESS` (a job that wrote no rows) or
/// Hive partition folders (`lang=en/`) of such output.
pub fn is_parquet(path: &Path) -> bool {
    // Partition folders nest one level per key; the bound stops a symlink loop.
    parquet_at_depth(path, 8)
}

fn parquet_at_depth(path: &Path, depth: usize) -> bool {
    if path.is_dir() {
        let partition = |p: &Path| {
            depth > 0
                && p.is_dir()
                && p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.contains('=') && !n.starts_with(['.', '_']))
                && parquet_at_depth(p, depth - 1)
        };
        return extension(path).as_deref() == Some("parquet")
            || path.join("_SUCCESS").is_file()
            || std::fs::read_dir(path).is_ok_and(|mut d| {
                d.any(|e| {
                    e.is_ok_and(|e| {
                        extension(&e.path()).as_deref() == Some("parquet") || partition(&e.path())
                    })
                })
            });
    }
    let mut magic = [0u8; 4];
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
        && std::fs::File::open(path)
            .and_then(|mut f| f.read_exact(&mut magic))
            .is_ok()
        && &magic == b"PAR1"
}

/// An error for a file whose format could not be told, listing what is accepted.
pub fn unknown(shown: &str, accepted: &str) -> Error {
    Error::input(
        shown,
        0,
        format!("cannot tell the format from the name or the first line; expected {accepted}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extension_looks_through_gz() {
        assert_eq!(
            extension(Path::new("a/run.JSON.gz")).as_deref(),
            Some("json")
        );
        assert_eq!(extension(Path::new("m.csv")).as_deref(), Some("csv"));
        assert_eq!(extension(Path::new("run.gz")), None);
        assert_eq!(extension(Path::new("run")), None);
    }

    #[test]
    fn first_line_skips_blank_and_comments() {
        assert_eq!(first_line(b"\n  \n# x\na b\r\n", true), Some(&b"a b"[..]));
        assert_eq!(first_line(b"# x\n", false), Some(&b"# x"[..]));
    }
}
