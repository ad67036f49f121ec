//! Opening an input: a path or `-` (standard input), gzip undone when the first bytes are
//! gzip's magic (whatever the name). A directory is refused here (folders of part files are
//! listed by `parts.rs`).

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use super::gzip::{Gunzip, MAGIC};
use crate::error::{Error, Result};

/// An opened input: its decoded bytes and what kind of source it is.
pub struct Opened {
    pub reader: Box<dyn Read + Send>,
    /// A regular file (can be opened and read again); false for `-`, a pipe, FIFO or device.
    pub regular: bool,
    /// The bytes were gzip-compressed.
    pub gzip: bool,
}

/// True when `path` is `-`, standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Opens `path` (shown to the user as `shown`) and undoes gzip.
pub fn open(path: &Path, shown: &str) -> Result<Opened> {
    let (raw, regular): (Box<dyn Read + Send>, bool) = if is_stdin(path) {
        (Box::new(std::io::stdin()), false)
    } else {
        let file = File::open(path).map_err(|e| Error::io(shown, "opening", e))?;
        let meta = file
            .metadata()
            .map_err(|e| Error::io(shown, "opening", e))?;
        if meta.is_dir() {
            return Err(Error::input(
                shown,
                0,
                "is a directory; expected a file (a folder of part files is read only for Parquet)",
            ));
        }
        // Progress counts the bytes of the file as stored (a gzip file's compressed bytes).
        let progress = crate::status::progress(shown, meta.len(), crate::status::Unit::Bytes);
        (
            Box::new(crate::status::Counted::new(file, progress)),
            meta.is_file(),
        )
    };
    let mut buf = BufReader::with_capacity(1 << 16, raw);
    let head = buf.fill_buf().map_err(|e| Error::io(shown, "reading", e))?;
    let gzip = head.starts_with(&MAGIC);
    let reader: Box<dyn Read + Send> = if gzip {
        Box::new(Gunzip::new(buf))
    } else {
        Box::new(buf)
    };
    Ok(Opened {
        reader,
        regular,
        gzip,
    })
}
