//! Every command's outputs pass one check before anything is written: no output may be a file
//! the command reads, nor another output. [`write`] is the only way a command writes its files
//! (it checks, then hands them to `atomic`); a command may call [`refuse_clobbering`] earlier
//! with the same lists to fail before a long analysis.
//!
//! Two paths are one file when their canonical paths agree (symlinks followed, also a dangling
//! link to where it would create the file; `a/../b` and `b` agree) or, for files that exist,
//! when their (device, inode) agree (hard links). Standard output (`-`) and outputs that are
//! devices, pipes or sockets (`/dev/null`) are written in place, never replaced, so they are
//! not checked.
//!
//! [`Reads`] is the list of what a command reads; each command builds it once from its inputs
//! and anyone adding an input (a fetched baseline, a provenance file) registers it there.

use std::fs;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The files a command reads, each with what it is ("the --run file", "the `[noise]` file").
#[derive(Debug, Clone, Default)]
pub struct Reads {
    files: Vec<(String, PathBuf)>,
}

impl Reads {
    /// Registers one file the command reads; `what` reads after "that is the ".
    pub fn add(&mut self, what: impl Into<String>, path: impl AsRef<Path>) {
        self.files.push((what.into(), path.as_ref().to_path_buf()));
    }

    /// Registers a per-query file and its protocol sidecar (`FILE.protocol.json`), which is
    /// read with it when it exists.
    pub fn add_with_sidecar(&mut self, what: &str, path: impl AsRef<Path>) {
        let path = path.as_ref();
        self.add(what, path);
        self.add(
            format!("protocol sidecar of the {what}"),
            crate::protocol::sidecar_path(path),
        );
    }

    /// The registered files, in registration order.
    pub fn files(&self) -> impl Iterator<Item = (&str, &Path)> {
        self.files.iter().map(|(w, p)| (w.as_str(), p.as_path()))
    }
}

/// One file a command will write: the flag that named it (`--export-json`, `-o's sidecar`),
/// where, and what.
#[derive(Debug, Clone, Copy)]
pub struct Output<'a> {
    pub flag: &'a str,
    pub path: &'a Path,
    pub text: &'a str,
}

/// Checks every output against every read and every other output, then writes them all
/// atomically (nothing is written when the check or any write fails). Every file's text passes
/// the final guard (`safe_text::printable`: lossless on JSON, a no-op on clean text), so no
/// written line can start a workflow command when a workflow prints it.
pub fn write(outputs: &[Output], reads: &Reads) -> Result<()> {
    let named: Vec<(&str, &Path)> = outputs.iter().map(|o| (o.flag, o.path)).collect();
    refuse_clobbering(&named, reads)?;
    let guarded: Vec<_> = outputs
        .iter()
        .map(|o| crate::safe_text::printable(o.text))
        .collect();
    let files: Vec<(&Path, &[u8])> = outputs
        .iter()
        .zip(&guarded)
        .map(|(o, t)| (o.path, t.as_bytes()))
        .collect();
    crate::atomic::write_all_atomic(&files)
}

/// Refuses an output that is a file the command reads (the data it was computed from would be
/// lost) or that another output also names (the last write would silently win). The error
/// names both paths and the flags or inputs they came from.
pub fn refuse_clobbering(outputs: &[(&str, &Path)], reads: &Reads) -> Result<()> {
    let keyed: Vec<(&str, &Path, FileKey)> = outputs
        .iter()
        .filter_map(|(flag, p)| FileKey::of_output(p).map(|k| (*flag, *p, k)))
        .collect();
    for (flag, out, key) in &keyed {
        if let Some((what, input)) = reads.files().find(|(_, p)| key.same(&FileKey::of(p))) {
            return Err(Error::Usage(format!(
                "{flag} {}: that is the {what} {}; refusing to overwrite it (nothing was written)",
                out.display(),
                input.display()
            )));
        }
    }
    for (i, (flag, out, key)) in keyed.iter().enumerate() {
        if let Some((first, first_out, _)) = keyed[..i].iter().find(|(_, _, k)| k.same(key)) {
            return Err(Error::Usage(format!(
                "{first} {} and {flag} {} name the same file; give each output its own path (nothing was written)",
                first_out.display(),
                out.display()
            )));
        }
    }
    Ok(())
}

/// What makes two paths one file.
#[derive(Debug)]
struct FileKey {
    /// Where the bytes are (or would be): symlinks followed, the folder canonical.
    path: PathBuf,
    /// (device, inode) of an existing file.
    id: Option<(u64, u64)>,
}

impl FileKey {
    fn same(&self, other: &FileKey) -> bool {
        self.path == other.path || (self.id.is_some() && self.id == other.id)
    }

    /// The key of an output, or None for standard output and for a device, pipe or socket
    /// (written in place: nothing is replaced).
    fn of_output(p: &Path) -> Option<FileKey> {
        if crate::atomic::is_stdout(p) {
            return None;
        }
        match fs::metadata(p) {
            Ok(m) if !m.is_file() && !m.is_dir() => None,
            _ => Some(FileKey::of(p)),
        }
    }

    fn of(p: &Path) -> FileKey {
        FileKey {
            path: where_it_lands(p),
            id: fs::metadata(p).ok().and_then(|m| file_id(&m)),
        }
    }
}

#[cfg(unix)]
fn file_id(m: &fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn file_id(_: &fs::Metadata) -> Option<(u64, u64)> {
    None
}

/// How many symlinks deep a dangling link is followed (Linux's own limit is 40).
const MAX_LINKS: usize = 40;

/// The canonical path of `p` when it exists; else the path a write would create: dangling
/// symlinks followed, then the canonical folder joined with the name.
fn where_it_lands(p: &Path) -> PathBuf {
    let mut at = p.to_path_buf();
    for _ in 0..MAX_LINKS {
        if let Ok(real) = fs::canonicalize(&at) {
            return real;
        }
        match fs::read_link(&at) {
            Ok(link) => {
                at = match at.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                }
            }
            Err(_) => break,
        }
    }
    let parent = match at.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match (fs::canonicalize(parent), at.file_name()) {
        (Ok(dir), Some(name)) => dir.join(name),
        _ => at,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reads(list: &[(&str, &Path)]) -> Reads {
        let mut r = Reads::default();
        for (w, p) in list {
            r.add(*w, p);
        }
        r
    }

    #[cfg(unix)]
    #[test]
    fn a_hard_link_and_a_symlink_to_an_input_are_the_input() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("q.txt");
        fs::write(&input, "x").unwrap();
        let hard = dir.path().join("hard.txt");
        fs::hard_link(&input, &hard).unwrap();
        let soft = dir.path().join("soft.txt");
        std::os::unix::fs::symlink("q.txt", &soft).unwrap();
        let r = reads(&[("qrels file", &input)]);
        for out in [&hard, &soft] {
            let e = refuse_clobbering(&[("--holes", out)], &r).unwrap_err();
            assert!(e.to_string().contains("that is the qrels file"), "{e}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_dangling_link_to_another_output_is_that_output() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink("new.json", &link).unwrap();
        let new = dir.path().join("new.json");
        let e =
            refuse_clobbering(&[("-o", &new), ("--holes", &link)], &Reads::default()).unwrap_err();
        assert!(e.to_string().contains("name the same file"), "{e}");
    }

    #[test]
    fn devices_and_stdout_are_not_checked() {
        let r = reads(&[("input", Path::new("/dev/null"))]);
        let outs = [
            ("--export-json", Path::new("/dev/null")),
            ("--export-html", Path::new("/dev/null")),
            ("--output", Path::new("-")),
        ];
        refuse_clobbering(&outs, &r).unwrap();
    }
}
