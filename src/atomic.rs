//! Atomic file output: write to a temporary file in the destination folder, then rename it into
//! place, so a report or eval output is never half-written and an error leaves the old file intact.

use std::io::Write;
use std::path::Path;

use crate::error::{Error, Result};

pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let shown = path.display();
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".rag-gate-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| Error::io(&shown, "creating a temporary file beside it", e))?;
    tmp.write_all(bytes)
        .map_err(|e| Error::io(&shown, "writing", e))?;
    tmp.as_file()
        .sync_all()
        .map_err(|e| Error::io(&shown, "writing", e))?;
    tmp.persist(path)
        .map_err(|e| Error::io(&shown, "renaming into place", e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_whole_file_and_leaves_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.json");
        std::fs::write(&p, "old").unwrap();
        write_atomic(&p, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }

    #[test]
    fn missing_folder_is_an_error_naming_the_file() {
        let err = write_atomic(Path::new("/nonexistent-dir-xyz/r.json"), b"x").unwrap_err();
        assert!(
            err.to_string().contains("/nonexistent-dir-xyz/r.json"),
            "{err}"
        );
    }
}
