//! A folder of gate files (`rag-gate check gates/`): its `*.toml` files, in name order.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The regular `*.toml` files directly in `dir`, sorted by name; a folder without one is a
/// usage error naming it.
pub fn toml_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let listing = std::fs::read_dir(dir)
        .map_err(|e| Error::io(dir.display(), "listing the gate files", e))?;
    let mut found: Vec<PathBuf> = listing
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|f| f.is_file() && f.extension().is_some_and(|x| x == "toml"))
        .collect();
    found.sort();
    if found.is_empty() {
        return Err(Error::Usage(format!(
            "{}: a folder with no gate file (*.toml) in it",
            dir.display()
        )));
    }
    Ok(found)
}
