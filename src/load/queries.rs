//! The optional queries file: JSONL `{"query_id": "q1", "group": "conv-7", "slices": {...}}`,
//! giving group and slice tags when the metric files carry none.

use std::io::BufRead;

use super::jsonl::parse_tags;
use super::source::{json_error, TextLines};
use super::table::{first_duplicate, Interner};
use super::Rows;
use crate::error::{quoted, Error, Result};

/// Reads the rows line by line: the file's text is never held whole.
pub fn parse<R: BufRead>(lines: TextLines<'_, R>) -> Result<Rows> {
    let shown = lines.shown();
    let mut rows = Rows::default();
    let mut names = Interner::default();
    lines.for_each(|line, raw| {
        let obj = super::strict_json::object_from_str(raw).map_err(|e| {
            json_error(
                shown,
                line,
                &e,
                "one JSON object per line: {\"query_id\", \"group\", \"slices\"}",
            )
        })?;
        rows.push_read(parse_tags(&obj, shown, line, &mut names)?);
        Ok(())
    })?;
    if let Some((id, line, first)) = first_duplicate(&rows) {
        return Err(Error::input(
            shown,
            line,
            format!("duplicate query_id {} (first on line {first})", quoted(id)),
        ));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    fn parse(text: &str, shown: &str) -> crate::Result<super::Rows> {
        super::parse(super::TextLines::from_bytes(text.as_bytes(), shown, "x"))
    }

    #[test]
    fn reads_tags_and_rejects_duplicates() {
        let rows = parse(
            "{\"query_id\":\"q1\",\"group\":\"g\",\"slices\":{\"risk\":\"high\"}}\n",
            "q.jsonl",
        )
        .unwrap();
        assert_eq!(rows.tags(0).get("risk"), Some("high"));
        let e = parse("{\"query_id\":\"q1\"}\n{\"query_id\":\"q1\"}\n", "q.jsonl").unwrap_err();
        assert!(
            e.to_string().starts_with("q.jsonl:2: duplicate query_id"),
            "{e}"
        );
    }
}
