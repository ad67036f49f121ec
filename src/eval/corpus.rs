//! The optional corpus list (one doc id per line): with it, any judged or ranked doc id outside
//! the corpus is an error at the line that names it (catches runs and qrels of another corpus).

use std::collections::HashSet;
use std::path::Path;

use super::lines::Lines;
use crate::error::Result;

/// The allowed doc ids, one per line.
#[derive(Debug, Clone, Default)]
pub struct Corpus {
    pub shown: String,
    pub ids: HashSet<Vec<u8>>,
}

impl Corpus {
    pub fn read(path: &Path, shown: &str) -> Result<Self> {
        let mut lines = Lines::open(path, shown)?;
        let mut ids = HashSet::new();
        while lines.advance()? {
            let l = lines.current();
            ids.insert(l.trim_ascii().to_vec());
        }
        if ids.is_empty() {
            return Err(lines.err("empty corpus file: expected one doc id per line"));
        }
        Ok(Corpus {
            shown: shown.to_string(),
            ids,
        })
    }

    /// An error message if `doc` is not in the corpus.
    pub fn check(&self, doc: &[u8]) -> std::result::Result<(), String> {
        if self.ids.contains(doc) {
            Ok(())
        } else {
            Err(format!(
                "doc id {} is not in the corpus {}",
                crate::error::quoted(&String::from_utf8_lossy(doc)),
                self.shown
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_ids_and_names_the_corpus_in_errors() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("c.txt");
        std::fs::write(&p, "D1\r\n D2 \n\n").unwrap();
        let c = Corpus::read(&p, "c.txt").unwrap();
        assert!(c.check(b"D2").is_ok());
        assert_eq!(
            c.check(b"D3").unwrap_err(),
            "doc id \"D3\" is not in the corpus c.txt"
        );
        std::fs::write(&p, "\n").unwrap();
        assert!(Corpus::read(&p, "c.txt")
            .unwrap_err()
            .to_string()
            .contains("empty corpus file"));
    }
}
