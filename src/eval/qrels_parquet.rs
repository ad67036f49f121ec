//! Parquet qrels (a file or a folder of part files): one row per judgement with a query id, a
//! doc id and an integer relevance. Names: `--column qid=... doc_id=... relevance=...`, else
//! the first of the usual names present (query and doc names as for runs; relevance
//! `relevance`, `rel`, `label`, `score` (BEIR), `grade`, `judgment`). Ids may be strings or
//! integers; the relevance an integer, or a float with an integer value. Nulls are errors naming
//! the part file, row group and row.

use std::path::Path;

use super::parquet_columns::{pick, required, TableColumns, DOC, QID};
use crate::error::{quoted, Error, Result};
use crate::input::parquet::{self, NUMBERS};

const REL: &[&str] = &["relevance", "rel", "label", "score", "grade", "judgment"];

/// One judgement's query, row (1-based in the table) and (doc, rel), to the qrels (`qrels.rs`).
pub type Add<'a> =
    dyn FnMut(String, usize, Vec<(Vec<u8>, i32)>) -> std::result::Result<(), String> + 'a;

pub(super) fn read(path: &Path, shown: &str, c: &TableColumns, add: &mut Add) -> Result<()> {
    let t = parquet::open(path, shown)?;
    let qid = required(&t, pick(&t, &c.qid, QID, "qid")?, "qid", QID)?;
    let doc = required(&t, pick(&t, &c.doc_id, DOC, "doc_id")?, "doc_id", DOC)?;
    let rel = required(
        &t,
        pick(&t, &c.relevance, REL, "relevance")?,
        "relevance",
        REL,
    )?;
    t.expect_kind(&qid, "the query id", parquet::IDS)?;
    t.expect_kind(&doc, "the doc id", parquet::IDS)?;
    t.expect_kind(&rel, "the relevance", NUMBERS)?;
    t.for_each_batch(&[&qid, &doc, &rel], &mut |b| {
        for i in 0..b.len {
            let q = b.text(0, i, &qid, "the query id")?;
            let d = b.text(1, i, &doc, "the doc id")?;
            let bad = |m: String| Error::input(b.place(i), 0, m);
            let r = b.number(2, i).ok_or_else(|| {
                bad(format!(
                    "column {} is null; expected a value in every row",
                    quoted(&rel)
                ))
            })?;
            if r.fract() != 0.0 || r.abs() > f64::from(i32::MAX) {
                return Err(bad(format!(
                    "column {} is {r}; expected an integer relevance",
                    quoted(&rel)
                )));
            }
            let line = (b.table_row + i as u64 + 1) as usize;
            let docs = vec![(d.as_bytes().to_vec(), r as i32)];
            add(q.into_owned(), line, docs).map_err(bad)?;
        }
        Ok(true)
    })?;
    Ok(())
}
