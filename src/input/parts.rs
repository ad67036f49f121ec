//! The part files of a folder written by a distributed job (Spark, Polars, DuckDB, pyarrow),
//! flat (`part-0.parquet`, `part-1.parquet`) or Hive-partitioned (Spark's `partitionBy`,
//! DuckDB's `PARTITION_BY`, pyarrow's `partitioning="hive"`: `lang=en/part-0.parquet`), where
//! each level of subfolders is one partition key and its value.

use std::path::{Path, PathBuf};

use crate::error::{quoted, Error, Result};

/// The value Spark and Hive write for a null partition value.
const HIVE_NULL: &str = "__HIVE_DEFAULT_PARTITION__";

/// One part file of a folder and the partition values of the subfolders it lies in
/// (key → value, outermost first; a null value is None). Empty for a flat folder.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    pub path: PathBuf,
    /// The path below the folder, `/`-separated: `lang=en/part-0.parquet`.
    pub relative: String,
    pub partition: Vec<(String, Option<String>)>,
}

/// The part files of `dir`, flat or Hive-partitioned, in name order (numbers as numbers, level
/// by level). Every part must lie under the same partition keys in the same order; a folder
/// level mixing part files and `key=value` subfolders, a subfolder that is not `key=value`, or
/// a key repeated on one path is an error naming the folder.
///
/// A symbolic link is followed only to a file or folder inside `dir`, and each real file and
/// folder is read once: a link out of the dataset, or a second way to a folder or part file
/// already read, is an error naming it. So the walk reads each entry once, linear in the
/// entries, whatever links the folder holds.
pub fn hive_parts(dir: &Path, shown: &str, ext: &str) -> Result<Vec<Part>> {
    let mut out = Vec::new();
    let root = std::fs::canonicalize(dir).map_err(|e| Error::io(shown, "listing", e))?;
    let mut seen = Seen {
        root: root.clone(),
        read: [root].into(),
    };
    walk(dir, (shown, ext), &mut seen, &mut Vec::new(), "", &mut out)?;
    if out.is_empty() {
        return Err(Error::input(
            shown,
            0,
            format!("is a folder without *.{ext} part files"),
        ));
    }
    let keys = |p: &Part| {
        p.partition
            .iter()
            .map(|(k, _)| k.clone())
            .collect::<Vec<_>>()
    };
    let first = &out[0];
    if let Some(other) = out.iter().find(|p| keys(p) != keys(first)) {
        return Err(Error::input(
            shown,
            0,
            format!(
                "the part files lie under different partition keys: {} under ({}), {} under ({}); \
                 a Hive-partitioned folder has the same keys at every depth",
                first.relative,
                keys(first).join(", "),
                other.relative,
                keys(other).join(", ")
            ),
        ));
    }
    Ok(out)
}

/// The dataset's real root and every real path read so far.
struct Seen {
    root: PathBuf,
    read: std::collections::HashSet<PathBuf>,
}

impl Seen {
    /// Records the entry `path` (named `name` in folder `here`); an error when it is a link out
    /// of the dataset or a second way to something already read.
    fn once(&mut self, path: &Path, here: &str, name: &str) -> Result<()> {
        let real = std::fs::canonicalize(path).map_err(|e| Error::io(here, "listing", e))?;
        if !real.starts_with(&self.root) {
            return Err(Error::input(
                here,
                0,
                format!(
                    "{} is a symbolic link out of the dataset folder; expected part files and \
                     partition folders inside it",
                    quoted(name)
                ),
            ));
        }
        if !self.read.insert(real) {
            return Err(Error::input(
                here,
                0,
                format!(
                    "{} leads to a folder or part file already read (a symbolic link); each \
                     part is read once: remove the link",
                    quoted(name)
                ),
            ));
        }
        Ok(())
    }
}

/// One folder level of [`hive_parts`]: its part files, or its `key=value` subfolders.
fn walk(
    dir: &Path,
    (shown, ext): (&str, &str),
    seen: &mut Seen,
    partition: &mut Vec<(String, Option<String>)>,
    relative: &str,
    out: &mut Vec<Part>,
) -> Result<()> {
    let here = || match relative {
        "" => shown.trim_end_matches('/').to_string(),
        r => format!(
            "{}/{}",
            shown.trim_end_matches('/'),
            r.trim_end_matches('/')
        ),
    };
    let (mut files, mut dirs) = listing(dir, ext).map_err(|e| Error::io(here(), "listing", e))?;
    if !files.is_empty() {
        // Beside part files, only partition folders are an error; other folders stay unread.
        dirs.retain(|(n, _)| key_value(n).is_some());
    }
    if !files.is_empty() && !dirs.is_empty() {
        return Err(Error::input(
            here(),
            0,
            format!(
                "holds both *.{ext} part files ({}) and subfolders ({}); expected either part \
                 files or Hive partition folders (key=value), not both",
                quoted(&files[0].0),
                quoted(&dirs[0].0)
            ),
        ));
    }
    files.sort_by_cached_key(|(n, _)| natural_key(n));
    for (name, path) in files {
        seen.once(&path, &here(), &name)?;
        out.push(Part {
            path,
            relative: format!("{relative}{name}"),
            partition: partition.clone(),
        });
    }
    dirs.sort_by_cached_key(|(n, _)| natural_key(n));
    for (name, path) in dirs {
        let (key, value) = key_value(&name).ok_or_else(|| {
            Error::input(
                here(),
                0,
                format!(
                    "subfolder {} is not a Hive partition (key=value); expected part files \
                     or key=value subfolders",
                    quoted(&name)
                ),
            )
        })?;
        if partition.iter().any(|(k, _)| *k == key) {
            return Err(Error::input(
                here(),
                0,
                format!("partition key {} appears twice on one path", quoted(&key)),
            ));
        }
        seen.once(&path, &here(), &name)?;
        partition.push((key, value));
        walk(
            &path,
            (shown, ext),
            seen,
            partition,
            &format!("{relative}{name}/"),
            out,
        )?;
        partition.pop();
    }
    Ok(())
}

/// Folder entries: (name, path).
type Entries = Vec<(String, PathBuf)>;

/// The part files (named `*.ext`) and the subfolders directly in `dir`, hidden and bookkeeping
/// entries (`.x`, `_SUCCESS`, `_temporary`) left out.
fn listing(dir: &Path, ext: &str) -> std::io::Result<(Entries, Entries)> {
    let (mut files, mut dirs) = (Vec::new(), Vec::new());
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name.starts_with('_') {
            continue;
        }
        let path = e.path();
        if path.is_dir() {
            dirs.push((name, path));
        } else if path.is_file()
            && super::sniff::extension(Path::new(&name)).as_deref() == Some(ext)
        {
            files.push((name, path));
        }
    }
    Ok((files, dirs))
}

/// `key=value` of a Hive partition folder name, both percent-decoded (Spark and Hive escape
/// `/`, `=`, `:`, `%` and others as `%XX`); [`HIVE_NULL`] is a null value.
fn key_value(name: &str) -> Option<(String, Option<String>)> {
    let (k, v) = name.split_once('=')?;
    let key = percent_decode(k);
    if key.trim().is_empty() {
        return None;
    }
    let value = (v != HIVE_NULL).then(|| percent_decode(v));
    Some((key, value))
}

/// `%XX` escapes undone (an invalid escape is kept as written); bytes that do not form UTF-8
/// are replaced.
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
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
    use super::{key_value, natural_key};

    #[test]
    fn hive_folder_names_are_percent_decoded_and_the_default_partition_is_null() {
        assert_eq!(
            key_value("lang=en%2Fus"),
            Some(("lang".into(), Some("en/us".into())))
        );
        assert_eq!(
            key_value("slice%3Arisk=a=b"),
            Some(("slice:risk".into(), Some("a=b".into())))
        );
        assert_eq!(
            key_value("lang=__HIVE_DEFAULT_PARTITION__"),
            Some(("lang".into(), None))
        );
        assert_eq!(
            key_value("lang=%zz%4"),
            Some(("lang".into(), Some("%zz%4".into())))
        );
        assert_eq!(key_value("=en"), None);
        assert_eq!(key_value("nokey"), None);
    }

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
