//! The optional queries file: JSONL `{"query_id": "q1", "group": "conv-7", "slices": {...}}`,
//! giving group and slice tags when the metric files carry none.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::jsonl::parse_tags;
use super::source::numbered_lines;
use super::QueryRow;
use crate::error::{Error, Result};

pub fn parse(text: &str, shown: &str) -> Result<Vec<QueryRow>> {
    let mut rows = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (line, raw) in numbered_lines(text) {
        let obj: Map<String, Value> = serde_json::from_str(raw).map_err(|e| {
            Error::input(
                shown,
                line,
                format!(
                    "not a JSON object ({e}); expected {{\"query_id\", \"group\", \"slices\"}}"
                ),
            )
        })?;
        let row = parse_tags(&obj, shown, line)?;
        if let Some(first) = seen.insert(row.query_id.clone(), line) {
            return Err(Error::input(
                shown,
                line,
                format!(
                    "duplicate query_id {:?} (first on line {first})",
                    row.query_id
                ),
            ));
        }
        rows.push(row);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_tags_and_rejects_duplicates() {
        let rows = super::parse(
            "{\"query_id\":\"q1\",\"group\":\"g\",\"slices\":{\"risk\":\"high\"}}\n",
            "q.jsonl",
        )
        .unwrap();
        assert_eq!(rows[0].slices["risk"], "high");
        let e =
            super::parse("{\"query_id\":\"q1\"}\n{\"query_id\":\"q1\"}\n", "q.jsonl").unwrap_err();
        assert!(
            e.to_string().starts_with("q.jsonl:2: duplicate query_id"),
            "{e}"
        );
    }
}
