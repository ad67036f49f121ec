//! ranx / BEIR JSON runs: one object `{qid: {doc_id: score}}` (ranx's `Run.save("x.json")`,
//! BEIR's `results` dict dumped with `json.dump`). Read one query at a time; ordered like a
//! TREC run (score descending, ties by docid descending) unless `--order` says otherwise. A
//! query or a doc given twice is an error with its line and column.

use std::path::Path;

use super::group::Group;
use super::ranking::{Ranking, RunSpec};
use crate::error::{quoted, Error, Result};

pub(super) fn read_json(
    path: &Path,
    shown: &str,
    spec: &RunSpec,
    f: &mut dyn FnMut(Ranking) -> Result<()>,
) -> Result<()> {
    let opened = crate::input::open(path, shown)?;
    let mut g = Group::scored(String::new());
    // An error of `f` (a corpus check, say) is kept whole; the JSON reader only sees a marker.
    let mut failed: Option<Error> = None;
    let n = crate::input::json_map::for_each_entry(opened.reader, shown, &mut |(qid, docs)| {
        g.clear();
        g.qid = qid;
        for (i, (doc, score)) in docs.iter().enumerate() {
            let s = score.as_f64().filter(|s| s.is_finite()).ok_or_else(|| {
                format!(
                    "query {} doc {}: score {score} is not a finite number",
                    quoted(&g.qid),
                    quoted(doc)
                )
            })?;
            g.push(doc.as_bytes(), s, i as i64 + 1, 0);
        }
        let r = if g.spans.is_empty() {
            f(Ranking {
                qid: &g.qid,
                line: 0,
                docs: Vec::new(),
                scores_disagree: false,
                ties: Vec::new(),
            })
        } else {
            g.emit(spec, shown, f)
        };
        r.map_err(|e| {
            let m = format!("query {}: {e}", quoted(&g.qid));
            failed = Some(e);
            m
        })
    });
    if let Some(e) = failed {
        return Err(e);
    }
    if n? == 0 {
        return Err(Error::input(
            shown,
            0,
            "empty run: expected a JSON object {query: {doc: score}} with at least one query",
        ));
    }
    Ok(())
}
