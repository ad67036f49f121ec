//! The labelling sample (`[judge] sample`): JSON lines, one per unit drawn for human labels,
//! `{"query_id": "…", "group": "…", "inclusion_probability": 0.12, …}` as `label-plan -o` writes
//! them (other keys are kept for the labelling step and ignored here). Each drawn query's
//! probability is the chance it was in the sample; the corrected estimate weights its human
//! values by the inverse (`stats::active_ppi`).

use std::collections::BTreeMap;
use std::path::Path;

use crate::error::{Error, Result};

/// One drawn query: its inclusion probability, its group as written, and its line.
#[derive(Debug, Clone, PartialEq)]
pub struct Drawn {
    pub probability: f64,
    pub group: Option<String>,
    pub line: usize,
}

/// The drawn queries by id.
pub type Sample = BTreeMap<String, Drawn>;

const LAYOUT: &str =
    "{\"query_id\": \"…\", \"inclusion_probability\": 0.1} (label-plan -o writes it)";

/// Reads the sample at `path` (shown as `shown`); a line that is not such an object, a
/// probability outside (0, 1] or a query drawn twice is an error naming the line and key.
pub fn read(path: &Path, shown: &str) -> Result<Sample> {
    let text = super::source::read_text(path, shown, "the labelling sample's JSON lines")?;
    let mut out = Sample::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let at = |msg: String| Error::input(shown, line, msg);
        let v: serde_json::Value = serde_json::from_str(raw)
            .map_err(|e| at(format!("not a JSON object, expected {LAYOUT}: {e}")))?;
        let id = v
            .get("query_id")
            .and_then(|q| q.as_str())
            .filter(|q| !q.is_empty())
            .ok_or_else(|| {
                at(format!(
                    "key query_id: expected a non-empty string, as in {LAYOUT}"
                ))
            })?;
        let p = v.get("inclusion_probability");
        let probability = p
            .and_then(|p| p.as_f64())
            .filter(|p| *p > 0.0 && *p <= 1.0)
            .ok_or_else(|| {
                at(format!(
                    "key inclusion_probability of query {id}: expected a number in (0, 1], found {}",
                    p.map_or("nothing".into(), |p| p.to_string())
                ))
            })?;
        let group = match v.get("group") {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::String(g)) => Some(g.clone()),
            Some(other) => {
                return Err(at(format!(
                    "key group of query {id}: expected a string, found {other}"
                )))
            }
        };
        let drawn = Drawn {
            probability,
            group,
            line,
        };
        if let Some(first) = out.insert(id.to_string(), drawn) {
            return Err(at(format!(
                "query {id} is drawn twice (first on line {}): one line per query",
                first.line
            )));
        }
    }
    if out.is_empty() {
        return Err(Error::input(
            shown,
            0,
            format!("no drawn query: expected JSON lines {LAYOUT}"),
        ));
    }
    Ok(out)
}
