//! `--holes FILE`: the unjudged documents a gate depends on, as a qrels stub for annotators —
//! `qid 0 docid ?` lines (replace `?` with a grade and append them to the qrels), each followed
//! on the same line by a `#` note with its rank on each side. Sorted by query id, then by the
//! best rank, then doc id, so the same inputs give the same bytes.

use std::collections::BTreeMap;

/// One unjudged document of one query, with its rank on each side that ranked it in the top k.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Hole {
    pub query_id: String,
    pub doc_id: String,
    /// `(side, rank)`: "baseline" / "candidate", rank 1-based.
    pub ranks: Vec<(String, usize)>,
}

/// Merges `(qid, doc, side, rank)` sightings into holes (one per query × doc), sorted.
pub fn collect(sightings: impl IntoIterator<Item = (String, String, String, usize)>) -> Vec<Hole> {
    let mut by: BTreeMap<(String, String), Vec<(String, usize)>> = BTreeMap::new();
    for (q, d, side, rank) in sightings {
        let r = by.entry((q, d)).or_default();
        if !r.contains(&(side.clone(), rank)) {
            r.push((side, rank));
        }
    }
    let mut out: Vec<Hole> = by
        .into_iter()
        .map(|((query_id, doc_id), mut ranks)| {
            ranks.sort();
            Hole {
                query_id,
                doc_id,
                ranks,
            }
        })
        .collect();
    let best = |h: &Hole| h.ranks.iter().map(|r| r.1).min().unwrap_or(usize::MAX);
    out.sort_by(|a, b| {
        (a.query_id.as_str(), best(a), a.doc_id.as_str()).cmp(&(
            b.query_id.as_str(),
            best(b),
            b.doc_id.as_str(),
        ))
    });
    out
}

/// Whether `id` can be a field of a qrels line as written: no white space (it splits fields,
/// and a line break would start another, graded, line), no control or invisible character, not
/// empty, and nothing the final output guard would have to change.
fn fits_a_qrels_line(id: &str) -> bool {
    !id.is_empty()
        && !id
            .chars()
            .any(|c| c.is_whitespace() || crate::safe_text::needs_escape(c))
        && !crate::safe_text::starts_command(id)
}

/// The stub's text; an id that cannot be written as a qrels field is refused (nothing is
/// written), so no id can forge a line of graded qrels.
pub fn render(holes: &[Hole]) -> crate::Result<String> {
    if let Some(h) = holes
        .iter()
        .find(|h| !fits_a_qrels_line(&h.query_id) || !fits_a_qrels_line(&h.doc_id))
    {
        return Err(crate::Error::Usage(format!(
            "--holes: query {} doc {} cannot be written as a qrels line (white space, a line \
             break, a control or invisible character, or a workflow command in an id would \
             split or forge lines); nothing was written. Fix the ids in the run",
            crate::safe_text::quoted(&h.query_id),
            crate::safe_text::quoted(&h.doc_id)
        )));
    }
    Ok(render_lines(holes))
}

/// The holes for `path`: JSON lines when it ends in `.jsonl` (what a judging step reads: one
/// `{"query_id", "doc_id", "baseline_rank", "candidate_rank"}` per document, ranks 1-based or
/// null; JSON escapes every id, so any id can be written), else the qrels stub of [`render`].
pub fn render_for(path: &std::path::Path, holes: &[Hole]) -> crate::Result<String> {
    if path.extension().is_some_and(|e| e == "jsonl") {
        return Ok(render_jsonl(holes));
    }
    render(holes)
}

fn render_jsonl(holes: &[Hole]) -> String {
    let mut out = String::new();
    for h in holes {
        let rank = |side: &str| h.ranks.iter().find(|(s, _)| s == side).map(|r| r.1);
        let line = serde_json::json!({
            "query_id": h.query_id,
            "doc_id": h.doc_id,
            "baseline_rank": rank("baseline"),
            "candidate_rank": rank("candidate"),
        });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out
}

fn render_lines(holes: &[Hole]) -> String {
    let mut out = String::from(
        "# rag-gate holes: unjudged documents in the gated top k (qid iter docid rel).\n\
         # Replace ? with a grade, cut the line at ` #`, and append it to the qrels.\n",
    );
    for h in holes {
        let ranks: Vec<String> = h
            .ranks
            .iter()
            .map(|(side, rank)| format!("{side} rank {rank}"))
            .collect();
        out.push_str(&format!(
            "{} 0 {} ? # {}\n",
            h.query_id,
            h.doc_id,
            ranks.join(", ")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jsonl_export_names_each_sides_rank() {
        let holes = collect([
            ("q 1".into(), "D7".into(), "candidate".into(), 2),
            ("q 1".into(), "D7".into(), "baseline".into(), 9),
            ("q2".into(), "D9".into(), "candidate".into(), 1),
        ]);
        let out = render_for(std::path::Path::new("holes.jsonl"), &holes).unwrap();
        assert_eq!(
            out.lines().collect::<Vec<_>>(),
            [
                r#"{"baseline_rank":9,"candidate_rank":2,"doc_id":"D7","query_id":"q 1"}"#,
                r#"{"baseline_rank":null,"candidate_rank":1,"doc_id":"D9","query_id":"q2"}"#,
            ]
        );
    }

    #[test]
    fn merges_sides_and_sorts_by_query_then_rank() {
        let s = |q: &str, d: &str, side: &str, r| (q.into(), d.into(), side.into(), r);
        let holes = collect([
            s("q2", "D9", "candidate", 1),
            s("q1", "D5", "candidate", 4),
            s("q1", "D7", "candidate", 2),
            s("q1", "D7", "baseline", 9),
        ]);
        assert_eq!(
            render(&holes).unwrap().lines().skip(2).collect::<Vec<_>>(),
            [
                "q1 0 D7 ? # baseline rank 9, candidate rank 2",
                "q1 0 D5 ? # candidate rank 4",
                "q2 0 D9 ? # candidate rank 1",
            ]
        );
    }
}
