//! Unpacking an untrusted zip (the baseline artifact `baseline fetch` downloads) into a folder.
//!
//! The zip is input from the network, so it is checked whole before anything is written, and
//! written to a staging folder inside the destination before anything lands in place:
//! - every name is a plain relative path: no absolute path, no drive letter, no `..`, no
//!   backslash, no control character, no empty part; no name twice;
//! - only regular files and folders: a symlink (or any other file type in the Unix mode bits) is
//!   refused, so nothing can point outside the destination;
//! - at most [`Limits::entries`] entries and [`Limits::total_bytes`] unpacked bytes, counted as
//!   the bytes actually inflated (the sizes in the headers can lie), and no entry above
//!   [`Limits::ratio`] : 1 once it is past 1 MiB (a zip bomb), the ratio of the bytes actually
//!   inflated to the bytes actually read from the zip for it (a declared compressed size can
//!   lie too: 300 KB declared as 300 MB would pass a ratio of declared sizes);
//! - encrypted entries are refused.
//!
//! A refusal deletes the staging folder: nothing is written outside the destination, and nothing
//! new stays inside it. Folders on the way to a file are created in the destination only after
//! the whole zip unpacked and every place was checked (a symlink among them is refused), and the
//! move is all or nothing: a failure partway puts every replaced file back.

use std::cell::Cell;
use std::io::{Cursor, Read, Seek, SeekFrom, Write};
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

/// The zip's bytes, counting every byte read from them (shared with the caller through `read`).
struct Counted<'a> {
    inner: Cursor<&'a [u8]>,
    read: Rc<Cell<u64>>,
}

impl Read for Counted<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.set(self.read.get() + n as u64);
        Ok(n)
    }
}

impl Seek for Counted<'_> {
    fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
        self.inner.seek(to)
    }
}

type Archive<'a> = zip::ZipArchive<Counted<'a>>;

/// What one zip may unpack to.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub entries: usize,
    pub total_bytes: u64,
    /// Largest unpacked : packed size of one entry past [`RATIO_FLOOR`] bytes.
    pub ratio: u64,
}

/// Per-query result files of a large evaluation are tens of MiB; JSONL compresses about 5-20x.
pub const LIMITS: Limits = Limits {
    entries: 10_000,
    total_bytes: 2 << 30,
    ratio: 200,
};

/// Entries smaller than this are never refused for their ratio (tiny repetitive files
/// compress very well and cannot hurt).
pub const RATIO_FLOOR: u64 = 1 << 20;

/// One checked entry: its relative path, and whether it is a folder.
struct Entry {
    index: usize,
    rel: PathBuf,
    dir: bool,
}

/// Unpacks `zip` (shown as `shown` in messages) into `to`, creating `to` when needed; returns the
/// files written, relative to `to`, in the zip's order. `Err` is a sentence saying what was
/// refused; nothing was written then.
pub fn unpack(zip: &[u8], shown: &str, to: &Path, limits: &Limits) -> Result<Vec<PathBuf>, String> {
    let read = Rc::new(Cell::new(0u64));
    let counted = Counted {
        inner: Cursor::new(zip),
        read: Rc::clone(&read),
    };
    let mut archive =
        zip::ZipArchive::new(counted).map_err(|e| format!("{shown} is not a readable zip: {e}"))?;
    refuse_repeated_names(zip, archive.len(), shown)?;
    if archive.len() > limits.entries {
        return Err(format!(
            "{shown} has {} entries; at most {} are unpacked",
            archive.len(),
            limits.entries
        ));
    }
    let entries = check_entries(&mut archive, shown)?;
    std::fs::create_dir_all(to).map_err(|e| format!("creating {}: {e}", to.display()))?;
    let staging = tempfile::Builder::new()
        .prefix(".rag-gate-unpack-")
        .tempdir_in(to)
        .map_err(|e| format!("creating a staging folder in {}: {e}", to.display()))?;
    let mut total = 0u64;
    for e in &entries {
        let dest = staging.path().join(&e.rel);
        if e.dir {
            std::fs::create_dir_all(&dest).map_err(|err| io(&dest, err))?;
            continue;
        }
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent).map_err(|err| io(parent, err))?;
        }
        let start = read.get();
        let mut file = archive
            .by_index(e.index)
            .map_err(|err| format!("{shown}: reading {}: {err}", e.rel.display()))?;
        let name = e.rel.display().to_string();
        let packed = || read.get() - start;
        total += inflate(&mut file, &dest, &packed, total, limits, shown, &name)?;
    }
    let files = move_into_place(staging.path(), to, &entries)?;
    Ok(files)
}

/// The zip reader keeps one entry per name (the last), so a name given twice in the central
/// directory is looked for there, in the raw records: refused, naming it. When the records
/// cannot be walked, the directory's own entry count against the reader's says it.
fn refuse_repeated_names(zip: &[u8], kept: usize, shown: &str) -> Result<(), String> {
    let Some((declared, names)) = central_names(zip) else {
        return Ok(());
    };
    let mut seen = std::collections::BTreeSet::new();
    for raw in &names {
        let name = String::from_utf8_lossy(raw).into_owned();
        let key = safe_relative(&name).unwrap_or_else(|_| PathBuf::from(&name));
        if !seen.insert(key) {
            return Err(format!(
                "{shown}: refused entry {}: the name appears twice (unzip tools disagree on which copy wins)",
                crate::safe_text::quoted(&name)
            ));
        }
    }
    if declared as usize > kept {
        return Err(format!(
            "{shown}: refused: its central directory lists {declared} entries, of which only {kept} have distinct names (a name appears twice)"
        ));
    }
    Ok(())
}

fn le16(b: &[u8], at: usize) -> Option<u64> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?) as u64)
}

fn le32(b: &[u8], at: usize) -> Option<u64> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?) as u64)
}

fn le64(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// The central directory's declared entry count and each record's raw name (APPNOTE 4.3.12,
/// 4.3.14–16), or None when it cannot be walked.
fn central_names(zip: &[u8]) -> Option<(u64, Vec<&[u8]>)> {
    let from = zip.len().saturating_sub(22 + 65_535);
    let eocd = (from..=zip.len().checked_sub(22)?)
        .rev()
        .find(|&i| zip[i..].starts_with(b"PK\x05\x06"))?;
    let (mut total, mut size, mut offset) = (
        le16(zip, eocd + 10)?,
        le32(zip, eocd + 12)?,
        le32(zip, eocd + 16)?,
    );
    if total == 0xffff || size == 0xffff_ffff || offset == 0xffff_ffff {
        let locator = eocd.checked_sub(20)?;
        if !zip[locator..].starts_with(b"PK\x06\x07") {
            return None;
        }
        let z64 = le64(zip, locator + 8)? as usize;
        if !zip.get(z64..)?.starts_with(b"PK\x06\x06") {
            return None;
        }
        (total, size, offset) = (
            le64(zip, z64 + 32)?,
            le64(zip, z64 + 40)?,
            le64(zip, z64 + 48)?,
        );
    }
    // Data prepended to the zip shifts every offset: the directory then ends where the end
    // record starts.
    let start = match zip.get(offset as usize..) {
        Some(rest) if rest.starts_with(b"PK\x01\x02") => offset as usize,
        _ => eocd.checked_sub(size as usize)?,
    };
    let mut names = Vec::new();
    let mut at = start;
    while names.len() < total as usize && zip.get(at..)?.starts_with(b"PK\x01\x02") {
        let (n, x, c) = (
            le16(zip, at + 28)?,
            le16(zip, at + 30)?,
            le16(zip, at + 32)?,
        );
        let name = zip.get(at + 46..at + 46 + n as usize)?;
        names.push(name);
        at += 46 + (n + x + c) as usize;
    }
    Some((total, names))
}

/// Every entry's name and type, before anything is written.
fn check_entries(archive: &mut Archive<'_>, shown: &str) -> Result<Vec<Entry>, String> {
    let mut seen = std::collections::BTreeSet::new();
    let mut entries = Vec::with_capacity(archive.len());
    for index in 0..archive.len() {
        let file = archive
            .by_index_raw(index)
            .map_err(|e| format!("{shown}: entry {}: {e}", index + 1))?;
        let raw = String::from_utf8_lossy(file.name_raw()).into_owned();
        let name = crate::safe_text::quoted(&raw);
        let rel =
            safe_relative(&raw).map_err(|why| format!("{shown}: refused entry {name}: {why}"))?;
        if file.encrypted() {
            return Err(format!("{shown}: refused entry {name}: it is encrypted"));
        }
        let kind = file.unix_mode().map(|m| m & 0o170_000);
        let dir = file.is_dir();
        match kind {
            Some(0o120_000) => {
                return Err(format!(
                    "{shown}: refused entry {name}: it is a symbolic link (a baseline artifact \
                     holds only files)"
                ))
            }
            Some(0) | None => {}
            Some(0o100_000) if !dir => {}
            Some(0o040_000) if dir => {}
            Some(_) => {
                return Err(format!(
                    "{shown}: refused entry {name}: not a regular file or folder"
                ))
            }
        }
        if !seen.insert(rel.clone()) {
            return Err(format!(
                "{shown}: refused entry {name}: the name appears twice"
            ));
        }
        entries.push(Entry { index, rel, dir });
    }
    Ok(entries)
}

/// `name` as a relative path of plain parts, or why not.
fn safe_relative(name: &str) -> Result<PathBuf, &'static str> {
    if name.contains('\\') {
        return Err("a backslash in the name (a Windows path?)");
    }
    if name.chars().any(|c| c.is_control()) {
        return Err("a control character in the name");
    }
    if name.starts_with('/') {
        return Err("an absolute path");
    }
    if name.contains(':') {
        return Err("a colon in the name (a drive letter?)");
    }
    let trimmed = name.strip_suffix('/').unwrap_or(name);
    let mut rel = PathBuf::new();
    for part in trimmed.split('/') {
        match part {
            "" => return Err("an empty part in the path"),
            "." => return Err("a `.` part in the path"),
            ".." => return Err("a `..` part in the path (it would leave the destination)"),
            p => rel.push(p),
        }
    }
    match rel.components().all(|c| matches!(c, Component::Normal(_))) {
        true => Ok(rel),
        false => Err("not a plain relative path"),
    }
}

/// Inflates one entry into `dest`, counting the real bytes; returns them. `packed` says how many
/// bytes of the zip were read for the entry so far (never its declared compressed size).
fn inflate(
    file: &mut impl Read,
    dest: &Path,
    packed: &dyn Fn() -> u64,
    before: u64,
    limits: &Limits,
    shown: &str,
    name: &str,
) -> Result<u64, String> {
    let mut out = std::fs::File::create_new(dest).map_err(|e| io(dest, e))?;
    let mut buf = vec![0u8; 64 << 10];
    let mut written = 0u64;
    loop {
        let n = file
            .read(&mut buf)
            .map_err(|e| format!("{shown}: reading {name}: {e}"))?;
        if n == 0 {
            return Ok(written);
        }
        written += n as u64;
        if before + written > limits.total_bytes {
            return Err(format!(
                "{shown}: refused: it unpacks to more than {} MiB (a zip bomb?)",
                limits.total_bytes >> 20
            ));
        }
        if written > RATIO_FLOOR && written > packed().max(1).saturating_mul(limits.ratio) {
            return Err(format!(
                "{shown}: refused entry {}: it inflates more than {}-fold (a zip bomb?)",
                crate::safe_text::quoted(name),
                limits.ratio
            ));
        }
        out.write_all(&buf[..n]).map_err(|e| io(dest, e))?;
    }
}

/// Checks every place in `to` before anything moves; returns the folders to create.
fn places(to: &Path, entries: &[Entry]) -> Result<Vec<PathBuf>, String> {
    let mut folders: Vec<PathBuf> = Vec::new();
    for e in entries {
        let parts: Vec<_> = e.rel.components().collect();
        let depth = if e.dir { parts.len() } else { parts.len() - 1 };
        let mut here = to.to_path_buf();
        for part in &parts[..depth] {
            here.push(part);
            match std::fs::symlink_metadata(&here) {
                Ok(m) if m.file_type().is_dir() => {}
                Ok(_) => {
                    return Err(format!(
                        "{} is in the way (not a plain folder); remove it or fetch into an \
                         empty folder (nothing was changed in {})",
                        here.display(),
                        to.display()
                    ))
                }
                Err(_) => folders.push(here.clone()),
            }
        }
        let dest = to.join(&e.rel);
        if !e.dir && std::fs::symlink_metadata(&dest).is_ok_and(|m| m.is_dir()) {
            return Err(format!(
                "{} is a folder; the artifact has a file of that name (nothing was changed in {})",
                dest.display(),
                to.display()
            ));
        }
    }
    Ok(folders)
}

/// Moves the unpacked files from `staging` to `to`, all or nothing: every place is checked
/// before anything moves (a symlink or a file on the way to a folder, planted in `to`
/// beforehand, is refused rather than followed; a folder where a file goes is refused), and a
/// file the move replaces is kept aside until every file is in place, so a failure
/// partway puts each one back. `to` then holds its old files, never a mix of old and new.
fn move_into_place(staging: &Path, to: &Path, entries: &[Entry]) -> Result<Vec<PathBuf>, String> {
    let folders = places(to, entries)?;
    let backup = tempfile::Builder::new()
        .prefix(".rag-gate-replaced-")
        .tempdir_in(to)
        .map_err(|e| {
            format!(
                "creating a folder for the replaced files in {}: {e}",
                to.display()
            )
        })?;
    let backup = backup.path();
    let mut made: Vec<PathBuf> = Vec::new();
    let mut moved: Vec<(PathBuf, Option<PathBuf>)> = Vec::new();
    let result: Result<(), String> = (|| {
        for f in &folders {
            if !f.is_dir() {
                std::fs::create_dir(f).map_err(|err| io(f, err))?;
                made.push(f.clone());
            }
        }
        for (k, e) in entries.iter().filter(|e| !e.dir).enumerate() {
            let dest = to.join(&e.rel);
            let kept = match std::fs::symlink_metadata(&dest) {
                Ok(_) => {
                    let keep = backup.join(k.to_string());
                    std::fs::rename(&dest, &keep).map_err(|err| io(&dest, err))?;
                    Some(keep)
                }
                Err(_) => None,
            };
            moved.push((dest.clone(), kept));
            std::fs::rename(staging.join(&e.rel), &dest).map_err(|err| io(&dest, err))?;
        }
        Ok(())
    })();
    if let Err(why) = result {
        // Put back what was there, newest first; a folder made here goes if it is empty again.
        for (dest, kept) in moved.iter().rev() {
            let _ = std::fs::remove_file(dest);
            if let Some(k) = kept {
                let _ = std::fs::rename(k, dest);
            }
        }
        for f in made.iter().rev() {
            let _ = std::fs::remove_dir(f);
        }
        return Err(format!("{why} (every file was put back as it was)"));
    }
    Ok(entries
        .iter()
        .filter(|e| !e.dir)
        .map(|e| e.rel.clone())
        .collect())
}

fn io(path: &Path, e: std::io::Error) -> String {
    format!("{}: {e}", path.display())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_must_be_plain_relative_paths() {
        assert_eq!(safe_relative("a/b.jsonl"), Ok(PathBuf::from("a/b.jsonl")));
        assert_eq!(safe_relative("dir/"), Ok(PathBuf::from("dir")));
        for bad in [
            "../x",
            "a/../../x",
            "/etc/passwd",
            "C:/x",
            "a\\b",
            "a//b",
            "./a",
            "",
            "a\u{0}b",
        ] {
            assert!(safe_relative(bad).is_err(), "{bad:?}");
        }
    }
}
