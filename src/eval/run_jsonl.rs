//! JSONL runs: one line per query, `{"query_id": "q1", "ranked": ["D7", "D1"]}` (left = rank 1)
//! or `"ranked": [{"doc_id": "D7", "score": 0.9}, ...]`. LlamaIndex-style lines give the ranking
//! as `"retrieved_ids": ["D7", "D1"]` (their `expected_ids` are the qrels, read by `qrels.rs`).
//! A query on two lines is an error.

use std::collections::HashMap;
use std::path::Path;

use super::group::Group;
use super::lines::Lines;
use super::qrels::{cut_json, json_query_id};
use super::ranking::{Ranking, RunSpec};
use crate::error::{quoted, Error, Result};

pub(super) fn read_jsonl(
    path: &Path,
    shown: &str,
    spec: &RunSpec,
    f: &mut dyn FnMut(Ranking) -> Result<()>,
) -> Result<()> {
    let mut lines = Lines::open(path, shown)?;
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut g = Group::default();
    while lines.advance()? {
        let l = lines.current();
        g.clear();
        let line = lines.line;
        parse_jsonl_line(l, line, &mut g, ranked_key(spec.format)).map_err(|m| lines.err(m))?;
        if let Some(prev) = seen.insert(g.qid.clone(), line) {
            return Err(lines.err(format!(
                "query {} already has a ranking at line {prev}",
                quoted(&g.qid)
            )));
        }
        g.lines.resize(g.spans.len(), line);
        if g.lines.is_empty() {
            // An empty ranking still names its query and line.
            let r = Ranking {
                qid: &g.qid,
                line,
                docs: Vec::new(),
                scores_disagree: false,
                ties: Vec::new(),
            };
            f(r)?;
            continue;
        }
        g.emit(spec, &lines.shown, f)?;
    }
    if seen.is_empty() {
        return Err(Error::input(
            shown,
            0,
            format!(
                "empty run file: expected JSONL lines {{\"query_id\": ..., {:?}: [...]}}",
                ranked_key(spec.format)
            ),
        ));
    }
    Ok(())
}

/// The key of the ranked list: `ranked`, or LlamaIndex's `retrieved_ids`.
fn ranked_key(format: super::Format) -> &'static str {
    match format {
        super::Format::Llamaindex => "retrieved_ids",
        _ => "ranked",
    }
}

fn parse_jsonl_line(
    l: &[u8],
    line: usize,
    g: &mut Group,
    key: &str,
) -> std::result::Result<(), String> {
    let v =
        crate::load::strict_json::value_from_slice(l).map_err(|e| format!("invalid JSON: {e}"))?;
    g.qid = json_query_id(&v)?;
    let ranked = v
        .get(key)
        .and_then(|r| r.as_array())
        .ok_or_else(|| format!("expected a {key:?} list"))?;
    g.has_scores = !ranked.is_empty() && ranked.iter().all(|e| e.is_object());
    for (i, e) in ranked.iter().enumerate() {
        let pos = i as i64 + 1;
        match e {
            serde_json::Value::String(d) => g.push(d.as_bytes(), f64::NAN, pos, line),
            serde_json::Value::Object(o) => {
                let d = o.get("doc_id").and_then(|d| d.as_str()).ok_or_else(|| format!("ranked item {pos}: expected a \"doc_id\" string"))?;
                let score = match o.get("score") {
                    None => f64::NAN,
                    Some(s) => s.as_f64().ok_or_else(|| format!("ranked item {pos}: expected a number \"score\", found {}", cut_json(s)))?,
                };
                g.has_scores &= !score.is_nan();
                g.push(d.as_bytes(), score, pos, line);
            }
            other => return Err(format!("ranked item {pos}: expected a doc id string or {{\"doc_id\", \"score\"}}, found {}", cut_json(other))),
        }
    }
    Ok(())
}
