//! Run and qrels must name the same queries. A run none of whose ids is in the qrels (or whose
//! ids are the qrels' spelled another way: `1` for `0001`) would score every query 0 on both
//! sides of a comparison and pass; trec_eval stops on it too. Both are input errors naming ids
//! of each file; a run that simply lacks some judged queries is not (they score 0 and are
//! named in the notes and the report's warnings).

use std::collections::BTreeSet;

use super::qrels::Qrels;
use crate::error::{few, Error, Result};
use crate::id_spelling::{respelled, respelled_sentence};

/// Each file as shown with its number of queries, and how many queries of the run the qrels have.
pub struct Sides<'a> {
    pub qrels: (&'a str, usize),
    pub run: (&'a str, usize),
    pub met: usize,
}

impl<'a> Sides<'a> {
    /// The sides of an evaluation whose run ranked `met` judged queries (and `run_only` others).
    pub fn of(qrels: &Qrels, q_shown: &'a str, r_shown: &'a str, met: usize) -> Sides<'a> {
        Sides {
            qrels: (q_shown, qrels.queries.len()),
            run: (r_shown, met),
            met,
        }
    }
}

/// No query in common, or ids of the qrels the run lacks that are run-only ids spelled another
/// way: an error naming ids of each file (and the pairs).
pub fn refuse_ids_that_never_meet(
    sides: &Sides,
    missing: &[String],
    run_only: &BTreeSet<String>,
    qrels: &Qrels,
) -> Result<()> {
    let (q_shown, q_n) = sides.qrels;
    let (r_shown, met) = sides.run;
    let r_n = met + run_only.len();
    let lacking: Vec<&str> = missing.iter().map(String::as_str).collect();
    let extra: Vec<&str> = run_only.iter().map(String::as_str).collect();
    let pairs = respelled(&lacking, &extra);
    if sides.met == 0 && r_n > 0 && q_n > 0 {
        let qrels_ids: Vec<&String> = qrels.queries.keys().take(3).collect();
        let run_ids: Vec<&String> = run_only.iter().take(3).collect();
        let mut msg = format!(
            "no query id of the run is in the qrels {q_shown}: nothing can be evaluated ({} in the run, e.g. {}; {} in the qrels, e.g. {})",
            crate::numbers::count(r_n, "query", "queries"),
            few(&run_ids, 3),
            q_n,
            few(&qrels_ids, 3),
        );
        if !pairs.is_empty() {
            msg.push_str("; ");
            msg.push_str(&respelled_sentence(&pairs, q_shown, r_shown));
        }
        return Err(Error::input(r_shown, 0, msg));
    }
    if !pairs.is_empty() {
        return Err(Error::input(
            r_shown,
            0,
            format!(
                "{} of the qrels {q_shown} {} no ranking here, but the run ranks the same ids spelled another way: {}",
                crate::numbers::count(lacking.len(), "query", "queries"),
                if lacking.len() == 1 { "has" } else { "have" },
                respelled_sentence(&pairs, q_shown, r_shown)
            ),
        ));
    }
    Ok(())
}
