//! Parquet runs (a file or a folder of part files): one row per (query, document) with a query
//! id, a doc id, and a score and/or a rank column. Names: `--column qid=... doc_id=... score=...
//! rank=...`, else the first of the usual names the table has ([`QID`], [`DOC`], `score`,
//! `rank`). Ids may be strings or integers (read in decimal). Ordered like a TREC run: by score
//! descending, ties by docid descending, or by rank when there is no score column. A null in a
//! used column is an error naming the part file, row group and row.
//!
//! Memory: like a TREC run, a run grouped by query holds one query's rows (and a few batches); a
//! query that comes back after another makes a second pass bucketed by query.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use super::group::Group;
use super::parquet_columns::{pick, required, TableColumns, DOC, QID};
use super::ranking::{Ranking, RunSpec};
use super::Order;
use crate::error::{quoted, Error, Result};
use crate::input::parquet::{self, Batch, Dense, Table, IDS, NUMBERS};
use ::parquet::data_type::ByteArray;

/// The run's column names: query, doc, and score and/or rank.
struct RunColumns {
    qid: String,
    doc: String,
    score: Option<String>,
    rank: Option<String>,
}

fn run_columns(t: &Table, c: &TableColumns) -> Result<RunColumns> {
    let qid = required(t, pick(t, &c.qid, QID, "qid")?, "qid", QID)?;
    let doc = required(t, pick(t, &c.doc_id, DOC, "doc_id")?, "doc_id", DOC)?;
    let score = pick(t, &c.score, &["score"], "score")?;
    let rank = pick(t, &c.rank, &["rank"], "rank")?;
    if score.is_none() && rank.is_none() {
        return Err(required(t, None, "score", &["score", "rank"]).unwrap_err());
    }
    t.expect_kind(&qid, "the query id", IDS)?;
    t.expect_kind(&doc, "the doc id", IDS)?;
    if let Some(s) = &score {
        t.expect_kind(s, "the score", NUMBERS)?;
    }
    if let Some(r) = &rank {
        t.expect_kind(r, "the rank", parquet::RANKS)?;
    }
    Ok(RunColumns {
        qid,
        doc,
        score,
        rank,
    })
}

/// The order a Parquet run is read in without `--order`: by score, or by rank without scores.
pub(super) fn default_order(path: &Path, shown: &str, c: &TableColumns) -> Result<Order> {
    let t = parquet::open(path, shown)?;
    Ok(match run_columns(&t, c)?.score {
        Some(_) => Order::Score,
        None => Order::Rank,
    })
}

pub(super) fn read_parquet(
    path: &Path,
    shown: &str,
    spec: &RunSpec,
    f: &mut dyn FnMut(Ranking) -> Result<()>,
) -> Result<()> {
    let t = parquet::open(path, shown)?;
    let cols = run_columns(&t, &spec.columns)?;
    let mut names = vec![cols.qid.as_str(), cols.doc.as_str()];
    names.extend(cols.score.as_deref());
    names.extend(cols.rank.as_deref());
    if !grouped(&t, &cols, &names, spec, f)? {
        bucketed(&t, &cols, &names, spec, f)?;
    }
    Ok(())
}

/// One row: query id, doc id, score (NaN without a score column), rank (0 without one).
fn entry<'b>(
    b: &'b Batch,
    i: usize,
    cols: &RunColumns,
) -> Result<(
    std::borrow::Cow<'b, str>,
    std::borrow::Cow<'b, str>,
    f64,
    i64,
)> {
    let qid = b.text(0, i, &cols.qid, "the query id")?;
    let doc = b.text(1, i, &cols.doc, "the doc id")?;
    let null = |name: &str| {
        Error::input(
            b.place(i),
            0,
            format!(
                "column {} is null; expected a value in every row",
                quoted(name)
            ),
        )
    };
    let score = match &cols.score {
        Some(s) => {
            let v = b.number(2, i).ok_or_else(|| null(s))?;
            if v.is_nan() {
                return Err(Error::input(
                    b.place(i),
                    0,
                    format!(
                        "column {} is NaN: runs are ordered by score, so it must be a number",
                        quoted(s)
                    ),
                ));
            }
            v
        }
        None => f64::NAN,
    };
    let rank = match &cols.rank {
        Some(r) => {
            let at = 2 + usize::from(cols.score.is_some());
            match b.cell(at, i) {
                Some(parquet::Cell::Int(v)) => v,
                _ => return Err(null(r)),
            }
        }
        None => 0,
    };
    Ok((qid, doc, score, rank))
}

fn new_group(qid: &str, cols: &RunColumns) -> Group {
    let mut g = Group::scored(qid.to_string());
    g.has_scores = cols.score.is_some();
    g
}

/// The columns of a batch as slices, when none has a null and each has the kind the fast loop
/// reads (string ids, float scores): the rows then need no per-cell dispatch. Any other batch,
/// and any row that is wrong, goes through [`entry`], which names the error.
struct Fast<'b> {
    qid: &'b [ByteArray],
    doc: &'b [ByteArray],
    score: Option<&'b [f64]>,
    rank: Option<&'b [i64]>,
}

fn fast<'b>(b: &'b Batch, cols: &RunColumns) -> Option<Fast<'b>> {
    let text = |c| match b.dense(c)? {
        Dense::Text(v) => Some(v),
        _ => None,
    };
    let score = match cols.score {
        Some(_) => match b.dense(2)? {
            Dense::Float(v) => Some(v),
            _ => return None,
        },
        None => None,
    };
    let rank = match cols.rank {
        Some(_) => match b.dense(2 + usize::from(cols.score.is_some()))? {
            Dense::Int(v) => Some(v),
            _ => return None,
        },
        None => None,
    };
    Some(Fast {
        qid: text(0)?,
        doc: text(1)?,
        score,
        rank,
    })
}

/// Query id bytes, doc id, score (NaN without a score column), rank (0 without one).
type Row<'b> = (Cow<'b, [u8]>, Cow<'b, [u8]>, f64, i64);

/// Row `i` as (query id bytes, doc id, score, rank): from the slices when the batch has them
/// and the row is good (a UTF-8 doc id, a score that is not NaN), else through [`entry`]. The
/// query id is not checked for UTF-8 here: the caller checks it when it changes.
fn row<'b>(b: &'b Batch, fast: &Option<Fast<'b>>, i: usize, cols: &RunColumns) -> Result<Row<'b>> {
    if let Some(x) = fast {
        let doc = x.doc[i].data();
        let score = x.score.map_or(f64::NAN, |s| s[i]);
        let good = std::str::from_utf8(doc).is_ok() && !(x.score.is_some() && score.is_nan());
        if good {
            let rank = x.rank.map_or(0, |r| r[i]);
            return Ok((
                Cow::Borrowed(x.qid[i].data()),
                Cow::Borrowed(doc),
                score,
                rank,
            ));
        }
    }
    let (qid, doc, score, rank) = entry(b, i, cols)?;
    let bytes = |c: Cow<'b, str>| match c {
        Cow::Borrowed(s) => Cow::Borrowed(s.as_bytes()),
        Cow::Owned(s) => Cow::Owned(s.into_bytes()),
    };
    Ok((bytes(qid), bytes(doc), score, rank))
}

/// Streams a run grouped by query. Returns false (having emitted a prefix) if a query comes back.
fn grouped(
    t: &Table,
    cols: &RunColumns,
    names: &[&str],
    spec: &RunSpec,
    f: &mut dyn FnMut(Ranking) -> Result<()>,
) -> Result<bool> {
    let mut g = new_group("", cols);
    let mut done: HashSet<String> = HashSet::new();
    let mut any = false;
    let complete = t.for_each_batch(names, &mut |b| {
        let fast = fast(b, cols);
        for i in 0..b.len {
            let (qid, doc, score, rank) = row(b, &fast, i, cols)?;
            any = true;
            if g.qid.as_bytes() != qid.as_ref() {
                // A new query: its id is checked (UTF-8) and named in errors by `text`.
                let qid = match std::str::from_utf8(&qid) {
                    Ok(q) => Cow::Borrowed(q),
                    Err(_) => b.text(0, i, &cols.qid, "the query id")?,
                };
                if !g.spans.is_empty() {
                    g.emit(spec, &t.shown, f)?;
                    done.insert(std::mem::take(&mut g.qid));
                }
                g.clear();
                if done.contains(qid.as_ref()) {
                    return Ok(false);
                }
                g.qid.push_str(&qid);
            }
            let line = (b.table_row + i as u64 + 1) as usize;
            g.push_checked((&doc, score, rank, line), spec, &t.shown)?;
        }
        Ok(true)
    })?;
    if !complete {
        return Ok(false);
    }
    if !any {
        return Err(Error::input(
            &t.shown,
            0,
            "empty run: the table has no rows",
        ));
    }
    g.emit(spec, &t.shown, f)?;
    Ok(true)
}

fn bucketed(
    t: &Table,
    cols: &RunColumns,
    names: &[&str],
    spec: &RunSpec,
    f: &mut dyn FnMut(Ranking) -> Result<()>,
) -> Result<()> {
    let mut groups: BTreeMap<String, Group> = BTreeMap::new();
    t.for_each_batch(names, &mut |b| {
        for i in 0..b.len {
            let (qid, doc, score, rank) = entry(b, i, cols)?;
            let g = match groups.get_mut(qid.as_ref()) {
                Some(g) => g,
                None => groups
                    .entry(qid.to_string())
                    .or_insert_with(|| new_group(&qid, cols)),
            };
            let line = (b.table_row + i as u64 + 1) as usize;
            g.push_checked((doc.as_bytes(), score, rank, line), spec, &t.shown)?;
        }
        Ok(true)
    })?;
    for g in groups.values() {
        g.emit(spec, &t.shown, f)?;
    }
    Ok(())
}
