//! Every file rag-gate writes (`-o`, `--output`, `--export-*`) goes through here.
//!
//! - A regular file (new or old) is written to a temporary file in its folder, synced, and renamed
//!   into place, so it is never half-written and an error leaves the old file intact. A new file
//!   gets the usual mode (0666 less the umask: 0644 under umask 022); a rewritten one keeps its
//!   mode.
//! - A symlink is written through: the file it points to is replaced, the link stays a link.
//! - A FIFO, a character or block device or a socket (`/dev/null`, `/dev/stdout`, a named pipe)
//!   is opened and written directly, never replaced by a regular file (as root, a rename over
//!   `/dev/null` would replace the device).
//! - `-` means standard output: callers check [`is_stdout`] and hand the text back to `main`.
//! - A missing folder is an error naming the folder; so is a directory named as the file.

use std::fs::{self, OpenOptions, Permissions};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// True for the path `-`, which means standard output.
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_all_atomic(&[(path, bytes)])
}

/// Where one output goes, found before anything is written.
enum Target {
    /// A regular file (or none yet) at `path`: temporary file + rename. `mode` is the old file's.
    Replace {
        path: PathBuf,
        mode: Option<Permissions>,
    },
    /// A FIFO, device or socket: opened and written in place.
    Direct(PathBuf),
}

/// How many symlinks deep we follow before calling it a loop (Linux's own limit is 40).
const MAX_LINKS: usize = 40;

/// Resolves `path` (as the user gave it, `shown`) to where its bytes will go.
fn target(path: &Path, shown: &str) -> Result<Target> {
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        let meta = match fs::symlink_metadata(&at) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                check_folder(&at, shown)?;
                return Ok(Target::Replace {
                    path: at,
                    mode: None,
                });
            }
            Err(e) => return Err(Error::io(shown, "looking at the output", e)),
        };
        let ft = meta.file_type();
        if ft.is_symlink() {
            let link = fs::read_link(&at).map_err(|e| Error::io(shown, "reading the link", e))?;
            at = match at.parent() {
                Some(dir) if link.is_relative() => dir.join(link),
                _ => link,
            };
            continue;
        }
        if ft.is_dir() {
            return Err(Error::io(
                shown,
                "writing",
                std::io::Error::other("is a directory; expected a file name"),
            ));
        }
        if ft.is_file() {
            return Ok(Target::Replace {
                path: at,
                mode: Some(meta.permissions()),
            });
        }
        return Ok(Target::Direct(at));
    }
    Err(Error::io(
        shown,
        "following symlinks",
        std::io::Error::other(format!("more than {MAX_LINKS} links deep (a loop?)")),
    ))
}

/// A new file needs its folder: say which folder is missing, not a hidden temp path.
fn check_folder(path: &Path, shown: &str) -> Result<()> {
    let dir = folder(path);
    if dir.is_dir() {
        return Ok(());
    }
    let why = if dir.exists() {
        "is not a folder"
    } else {
        "does not exist"
    };
    Err(Error::Usage(format!(
        "{shown}: the folder {} {why}; create it first",
        dir.display()
    )))
}

fn folder(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// One output in progress: written in full beside its destination, or to be written in place.
enum Pending {
    Rename {
        tmp: tempfile::NamedTempFile,
        path: PathBuf,
        shown: String,
    },
    Direct {
        path: PathBuf,
        shown: String,
        bytes: Vec<u8>,
    },
}

/// Writes `bytes` to a temporary file beside the destination (or keeps them for a device).
fn prepare(path: &Path, bytes: &[u8]) -> Result<Pending> {
    let shown = path.display().to_string();
    let (dest, mode) = match target(path, &shown)? {
        Target::Direct(p) => {
            return Ok(Pending::Direct {
                path: p,
                shown,
                bytes: bytes.to_vec(),
            })
        }
        Target::Replace { path, mode } => (path, mode),
    };
    let mut b = tempfile::Builder::new();
    b.prefix(".rag-gate-").suffix(".tmp");
    #[cfg(unix)]
    {
        // 0666 less the umask, as any program's new file; the old file's mode when rewriting.
        use std::os::unix::fs::PermissionsExt;
        b.permissions(Permissions::from_mode(0o666));
    }
    let mut tmp = b
        .tempfile_in(folder(&dest))
        .map_err(|e| Error::io(&shown, "creating a temporary file beside it", e))?;
    if let Some(mode) = mode {
        fs::set_permissions(tmp.path(), mode)
            .map_err(|e| Error::io(&shown, "keeping the file's mode", e))?;
    }
    tmp.write_all(bytes)
        .map_err(|e| Error::io(&shown, "writing", e))?;
    tmp.as_file()
        .sync_all()
        .map_err(|e| Error::io(&shown, "writing", e))?;
    Ok(Pending::Rename {
        tmp,
        path: dest,
        shown,
    })
}

impl Pending {
    fn commit(self) -> Result<()> {
        match self {
            Pending::Rename { tmp, path, shown } => {
                tmp.persist(&path)
                    .map_err(|e| Error::io(&shown, "renaming into place", e.error))?;
            }
            Pending::Direct { path, shown, bytes } => {
                let mut f = OpenOptions::new()
                    .write(true)
                    .open(&path)
                    .map_err(|e| Error::io(&shown, "opening for writing", e))?;
                f.write_all(&bytes)
                    .map_err(|e| Error::io(&shown, "writing", e))?;
            }
        }
        Ok(())
    }
}

/// Writes several files all or nothing as far as it can: every regular file is written to its
/// temporary first, and only when all of them are written are they renamed into place (devices
/// and pipes last). An error while writing (a missing folder, a full disk) leaves every
/// destination as it was.
pub fn write_all_atomic(files: &[(&Path, &[u8])]) -> Result<()> {
    let mut pending = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        pending.push(prepare(path, bytes)?);
    }
    pending.sort_by_key(|p| matches!(p, Pending::Direct { .. }));
    for p in pending {
        p.commit()?;
    }
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
    fn missing_folder_is_an_error_naming_the_folder() {
        let err = write_atomic(Path::new("/nonexistent-dir-xyz/r.json"), b"x").unwrap_err();
        assert_eq!(
            err.to_string(),
            "/nonexistent-dir-xyz/r.json: the folder /nonexistent-dir-xyz does not exist; create it first"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_is_written_through_and_stays_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.json");
        std::fs::write(&real, "old").unwrap();
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink("real.json", &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_loop_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        std::os::unix::fs::symlink("b", &a).unwrap();
        std::os::unix::fs::symlink("a", dir.path().join("b")).unwrap();
        let err = write_atomic(&a, b"x").unwrap_err().to_string();
        assert!(err.contains("more than 40 links deep"), "{err}");
    }
}
