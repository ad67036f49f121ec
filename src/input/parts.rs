//! The part files of a folder written by a distributed job (Spark, Polars, DuckDB, pyarrow).

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The part files of a folder written by Spark, Polars, DuckDB or pyarrow, in name order:
/// every file with the given extension (`.gz` allowed after it), skipping hidden and
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
    out.sort();
    if out.is_empty() {
        return Err(Error::input(
            shown,
            0,
            format!("is a folder without *.{ext} part files"),
        ));
    }
    Ok(out)
}
