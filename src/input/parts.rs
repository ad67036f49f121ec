//! The part files of a folder written by a distributed job (Spark, Polars, DuckDB, pyarrow).

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The part files of a folder written by Spark, Polars, DuckDB or pyarrow, in name order with
/// numbers compared as numbers (pyarrow's `part-2` before `part-10`): every file with the given
/// extension (`.gz` allowed after it), skipping hidden and
/// bookkeeping files (`.part-0.crc`, `_SUCCESS`, `_common_metadata`).
pub fn parts(dir: &Path, shown: &str, ext: &str) -> Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(shown, "listing", e))?;
    let mut out = Vec::new();
    for e in entries {
        let e = e.map_err(|e| Error::io(shown, "listing", e))?;
        let name = e.file_name().to_string_lossy().into_owned();
        let hidden = name.starts_with('.') || name.starts_with('_');
        let typed = super::sniff::extension(Path::new(&name)).as_deref() == Some(ext);
        if !hidden && typed && e.path().is_file() {
            out.push(e.path());
        }
    }
    out.sort_by_cached_key(|p| natural_key(&p.file_name().unwrap_or_default().to_string_lossy()));
    if out.is_empty() {
        return Err(Error::input(
            shown,
            0,
            format!("is a folder without *.{ext} part files"),
        ));
    }
    Ok(out)
}

/// A name split into runs of text and numbers, numbers compared by value (then by their digits,
/// so `01` and `1` stay apart).
fn natural_key(name: &str) -> Vec<(String, u128, String)> {
    let mut out = Vec::new();
    let mut rest = name;
    while !rest.is_empty() {
        let text_len = rest
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(rest.len());
        let (text, tail) = rest.split_at(text_len);
        let digits_len = tail
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(tail.len());
        let (digits, tail) = tail.split_at(digits_len);
        let value = digits.parse::<u128>().unwrap_or(u128::MAX);
        out.push((text.to_string(), value, digits.to_string()));
        rest = tail;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::natural_key;

    #[test]
    fn numbers_sort_as_numbers() {
        let mut names = [
            "part-10.parquet",
            "part-2.parquet",
            "part-1.parquet",
            "data_0.parquet",
        ];
        names.sort_by_key(|n| natural_key(n));
        assert_eq!(
            names,
            [
                "data_0.parquet",
                "part-1.parquet",
                "part-2.parquet",
                "part-10.parquet"
            ]
        );
    }
}
