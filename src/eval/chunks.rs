//! The chunk map (`chunk_id<TAB>doc_id`) for evaluating a chunk-level run at document level.
//! Applied per query after ordering: each chunk becomes its doc, a doc's later chunks are dropped
//! (first occurrence kept), and only then do cutoffs apply (see `run.rs`).

use std::collections::HashMap;
use std::path::Path;

use super::lines::{split_fields, Lines};
use crate::error::{Error, Result};

/// `chunk_id<TAB>doc_id` lines.
#[derive(Debug, Default)]
pub struct ChunkMap {
    pub shown: String,
    pub map: HashMap<Vec<u8>, Vec<u8>>,
}

impl ChunkMap {
    pub fn read(path: &Path, shown: &str) -> Result<Self> {
        let mut lines = Lines::open(path, shown)?;
        let mut map = HashMap::new();
        while lines.advance()? {
            let l = lines.current();
            let mut f = [&b""[..]; 2];
            if split_fields(l, &mut f) != 2 {
                return Err(lines.err("expected 2 fields `chunk_id<TAB>doc_id`"));
            }
            if let Some(old) = map.insert(f[0].to_vec(), f[1].to_vec()) {
                if old != f[1] {
                    return Err(lines.err(format!(
                        "chunk {} mapped to two docs",
                        crate::error::quoted(&String::from_utf8_lossy(f[0]))
                    )));
                }
            }
        }
        if map.is_empty() {
            return Err(Error::input(
                shown,
                0,
                "empty chunk map: expected `chunk_id<TAB>doc_id` lines",
            ));
        }
        Ok(ChunkMap {
            shown: shown.to_string(),
            map,
        })
    }
}
