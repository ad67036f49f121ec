//! Which columns of a Parquet run or qrels hold what: the names given (`eval --column`,
//! `--qrels-column`) or the first of the usual names the table has.

#[cfg(feature = "parquet")]
use crate::error::{Error, Result};
#[cfg(feature = "parquet")]
use crate::input::parquet::{self, Table};

/// The column names of a Parquet run or qrels (`eval --column qid=query_id`); `None`: the
/// first of the usual names the table has (see `run_parquet.rs`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TableColumns {
    pub qid: Option<String>,
    pub doc_id: Option<String>,
    pub score: Option<String>,
    pub rank: Option<String>,
    pub relevance: Option<String>,
}

impl TableColumns {
    /// The `--column` flags as the Parquet readers' column names (a later flag for a role wins).
    pub fn from_roles(flags: &[(String, String)]) -> TableColumns {
        let mut c = TableColumns::default();
        for (role, col) in flags {
            let slot = match role.as_str() {
                "qid" => &mut c.qid,
                "doc_id" => &mut c.doc_id,
                "score" => &mut c.score,
                "rank" => &mut c.rank,
                _ => &mut c.relevance,
            };
            *slot = Some(col.clone());
        }
        c
    }
}

/// Query id names tried in order when not given.
#[cfg(feature = "parquet")]
pub const QID: &[&str] = &["qid", "query_id", "query-id", "query", "topic"];
/// Doc id names tried in order when not given.
#[cfg(feature = "parquet")]
pub const DOC: &[&str] = &[
    "doc_id",
    "docid",
    "docno",
    "pid",
    "corpus_id",
    "corpus-id",
    "doc",
];

/// The column of a role: the given name (which must exist), else the first usual name present.
#[cfg(feature = "parquet")]
pub fn pick(
    t: &Table,
    given: &Option<String>,
    usual: &[&str],
    role: &str,
) -> Result<Option<String>> {
    match given {
        Some(n) if t.column(n).is_none() => Err(t.missing(&format!("mapped by {role}={n}"), n)),
        Some(n) => Ok(Some(n.clone())),
        None => Ok(usual
            .iter()
            .find(|n| t.column(n).is_some())
            .map(|n| n.to_string())),
    }
}

/// A needed column no usual name found.
#[cfg(feature = "parquet")]
pub fn required(t: &Table, found: Option<String>, role: &str, usual: &[&str]) -> Result<String> {
    found.ok_or_else(|| {
        Error::input(
            &t.shown,
            0,
            format!(
                "no {role} column (looked for {}; name it with --column {role}=NAME, --qrels-column for qrels); columns: {}",
                usual.join(", "),
                parquet::listing(t.columns())
            ),
        )
    })
}
