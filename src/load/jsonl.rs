//! JSONL per-query metrics: one object per line,
//! `{"query_id": "q1", "ndcg@10": 0.71, "group": "c7", "slices": {"language": "ko"}}`.
//! Metrics may also sit under `"metrics": {...}`. Top-level strings that are not numbers
//! (`"text": "..."`) are ignored; a number in quotes is an error, so is a `null` metric.

use std::io::BufRead;

use serde_json::{Map, Value};

use super::columns::ColumnMap;
use super::source::{check_id, check_tag_name, check_value, json_error, TextLines};
use super::table::{first_duplicate, Interner, ReadRow};
use super::MetricTable;
use crate::error::{quoted, Error, Result};
use crate::input::fasthash::SeededMap;
use crate::metric_names::canonical;

/// A line that is not JSON: Python's `json.dumps` writes `NaN` and `Infinity` for non-finite
/// floats, which JSON has no words for; said so, the rest worded by `json_error`.
fn not_json(shown: &str, line: usize, raw: &str, e: &serde_json::Error) -> Error {
    // A bare word where a value goes: after `:`, `,` or `[` (white space aside).
    let bare = |w: &str| {
        raw.match_indices(w).any(|(i, _)| {
            let before = raw[..i].trim_end();
            before.ends_with([':', ',', '['])
        })
    };
    match ["-Infinity", "Infinity", "NaN"]
        .into_iter()
        .find(|w| bare(w))
    {
        Some(w) => Error::input(
            shown,
            line,
            format!(
                "{w} is not a JSON number (Python's json.dumps writes it for a non-finite float); \
                 a metric must be a finite number: fix the exporter (json.dumps(..., \
                 allow_nan=False) stops where it happens) or drop the row"
            ),
        ),
        None => json_error(shown, line, e, "one JSON object per line"),
    }
}

/// Reads the table line by line: the file's text is never held whole.
pub fn parse<R: BufRead>(lines: TextLines<'_, R>, map: &ColumnMap) -> Result<MetricTable> {
    let shown = lines.shown();
    let mut table = MetricTable::new(shown);
    let mut names = Interner::default();
    let mut canonical = Canonical::default();
    let mut seen = std::collections::BTreeSet::new();
    lines.for_each(|line, raw| {
        let mut obj =
            super::strict_json::object_from_str(raw).map_err(|e| not_json(shown, line, raw, &e))?;
        if !map.is_empty() {
            obj = map.object(obj, shown, line, &mut seen)?;
        }
        let (row, metrics) = parse_row(&obj, shown, line, &mut names, &mut canonical)?;
        push_row(&mut table, row, metrics);
        Ok(())
    })?;
    map.check_seen(&seen, shown)?;
    if let Some((id, line, first)) = first_duplicate(&table.rows) {
        return Err(Error::input(
            shown,
            line,
            format!("duplicate query_id {} (first on line {first})", quoted(id)),
        ));
    }
    // A metric absent from the last rows left its column short (found by fuzzing: pairing then
    // indexed past its end and panicked).
    table.finish_columns();
    Ok(table)
}

/// Appends a row and its metrics, keeping every metric column aligned with the rows.
pub fn push_row<N: AsRef<str> + Into<String>>(
    table: &mut MetricTable,
    row: ReadRow<'_>,
    metrics: impl IntoIterator<Item = (N, f64)>,
) {
    let idx = table.rows.len();
    table.rows.push_read(row);
    for (name, v) in metrics {
        // Look up by reference first: no new String per metric per row.
        let col = match table.metrics.get_mut(name.as_ref()) {
            Some(col) => col,
            None => table.metrics.entry(name.into()).or_default(),
        };
        col.pad_to(idx);
        col.push(Some(v));
    }
}

/// Reads `query_id`, `group` and `slices` from a JSON object (shared with the queries file).
pub fn parse_tags(
    obj: &Map<String, Value>,
    shown: &str,
    line: usize,
    names: &mut Interner,
) -> Result<ReadRow<'static>> {
    let query_id = match obj.get("query_id") {
        Some(v) => id_text(v).ok_or_else(|| {
            Error::input(shown, line, "\"query_id\" must be a string or an integer")
        })?,
        None => {
            return Err(Error::input(
                shown,
                line,
                "no \"query_id\"; expected {\"query_id\": \"...\", ...}",
            ))
        }
    };
    check_id(shown, line, "\"query_id\"", &query_id)?;
    let group = match obj.get("group") {
        None | Some(Value::Null) => None,
        Some(v) => {
            let g = id_text(v).ok_or_else(|| {
                Error::input(shown, line, "\"group\" must be a string or an integer")
            })?;
            check_id(shown, line, "\"group\"", &g)?;
            Some(names.get(&g))
        }
    };
    let mut slices = Vec::new();
    match obj.get("slices") {
        None | Some(Value::Null) => {}
        Some(Value::Object(m)) => {
            for (tag, v) in m {
                check_tag_name(shown, line, tag)?;
                let val = id_text(v).ok_or_else(|| {
                    Error::input(
                        shown,
                        line,
                        format!(
                            "slice tag {} must be a string, e.g. {{\"language\": \"ko\"}}",
                            quoted(tag)
                        ),
                    )
                })?;
                check_id(shown, line, &format!("slice tag {}", quoted(tag)), &val)?;
                slices.push((names.get(tag), names.get(&val)));
            }
        }
        Some(_) => {
            return Err(Error::input(
                shown,
                line,
                "\"slices\" must be an object of tag → value",
            ))
        }
    }
    Ok(ReadRow {
        query_id: query_id.into(),
        line,
        group,
        slices: names.tags(slices),
    })
}

/// Canonical metric names (`metric_names::canonical`) by the key a file spells them with,
/// worked out once per key: every line of a file repeats the same few keys.
#[derive(Default)]
struct Canonical(SeededMap<String, String>);

impl Canonical {
    fn get(&mut self, key: &str) -> &str {
        if !self.0.contains_key(key) {
            self.0.insert(key.to_string(), canonical(key));
        }
        &self.0[key]
    }
}

fn parse_row(
    obj: &Map<String, Value>,
    shown: &str,
    line: usize,
    names: &mut Interner,
    canonical: &mut Canonical,
) -> Result<(ReadRow<'static>, Vec<(String, f64)>)> {
    let row = parse_tags(obj, shown, line, names)?;
    let mut metrics = Vec::new();
    for (key, v) in obj {
        match key.as_str() {
            "query_id" | "group" | "slices" => {}
            "metrics" => {
                let Value::Object(m) = v else {
                    return Err(Error::input(
                        shown,
                        line,
                        "\"metrics\" must be an object of name → number",
                    ));
                };
                for (name, v) in m {
                    metrics.push(metric(shown, line, name, v, true, canonical)?);
                }
            }
            _ => {
                if let Some(m) = metric_opt(shown, line, key, v, canonical)? {
                    metrics.push(m);
                }
            }
        }
    }
    metrics.sort_by(|a, b| a.0.cmp(&b.0));
    if let Some(w) = metrics.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(Error::input(
            shown,
            line,
            format!(
                "metric {} given twice (under two spellings)",
                quoted(&w[0].0)
            ),
        ));
    }
    Ok((row, metrics))
}

/// A top-level field: numbers are metrics, other strings are ignored, quoted numbers rejected.
fn metric_opt(
    shown: &str,
    line: usize,
    key: &str,
    v: &Value,
    canonical: &mut Canonical,
) -> Result<Option<(String, f64)>> {
    match v {
        Value::String(s) if s.trim().parse::<f64>().is_ok() => Err(Error::input(
            shown,
            line,
            format!(
                "metric {} is the string {}; write the number without quotes",
                quoted(key),
                quoted(s)
            ),
        )),
        Value::String(_) | Value::Bool(_) | Value::Array(_) | Value::Object(_) => Ok(None),
        _ => metric(shown, line, key, v, false, canonical).map(Some),
    }
}

fn metric(
    shown: &str,
    line: usize,
    key: &str,
    v: &Value,
    strict: bool,
    canonical: &mut Canonical,
) -> Result<(String, f64)> {
    let name = canonical.get(key).to_string();
    let x = match v {
        Value::Number(n) => n.as_f64(),
        _ => None,
    };
    let Some(x) = x else {
        let got = if strict || v.is_null() {
            v.to_string()
        } else {
            "not a number".into()
        };
        return Err(Error::input(
            shown,
            line,
            format!("metric {} is {got}; expected a finite number", quoted(key)),
        ));
    };
    Ok((name.clone(), check_value(shown, line, &name, x)?))
}

fn id_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some(n.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str, shown: &str, map: &ColumnMap) -> Result<MetricTable> {
        super::parse(TextLines::from_bytes(text.as_bytes(), shown, "x"), map)
    }

    #[test]
    fn reads_top_level_and_nested_metrics_with_tags() {
        let t = parse(
            "{\"query_id\":\"q1\",\"ndcg_cut_10\":0.5,\"text\":\"hi\",\"slices\":{\"language\":\"ko\"},\"group\":3}\n\
             \n{\"query_id\":\"q2\",\"metrics\":{\"nDCG@10\":1,\"latency_ms\":12.5}}\n",
            "b.jsonl",
            &ColumnMap::default(),
        )
        .unwrap();
        assert_eq!(t.rows.len(), 2);
        assert_eq!(t.rows.group(0), Some("3"));
        assert_eq!(t.rows.line(1), 3);
        assert_eq!(t.metrics["ndcg@10"], vec![Some(0.5), Some(1.0)]);
        assert_eq!(t.metrics["latency_ms"], vec![None, Some(12.5)]);
        assert_eq!(t.rows.tags(0).get("language"), Some("ko"));
    }

    #[test]
    fn errors_name_file_and_line() {
        let cases = [
            (
                "{\"query_id\":\"q1\",\"m\":1}\n{\"query_id\":\"q1\",\"m\":2}",
                "b.jsonl:2: duplicate query_id \"q1\" (first on line 1)",
            ),
            (
                "{\"query_id\":\"q1\",\"ndcg@10\":\"0.5\"}",
                "b.jsonl:1: metric \"ndcg@10\" is the string \"0.5\"",
            ),
            (
                "{\"query_id\":\"q1\",\"ndcg@10\":null}",
                "b.jsonl:1: metric \"ndcg@10\" is null",
            ),
            (
                "{\"query_id\":\"  \",\"m\":1}",
                "b.jsonl:1: \"query_id\" is empty",
            ),
            ("{\"m\":1}", "b.jsonl:1: no \"query_id\""),
            (
                "{\"query_id\":\"q\",\"recall@5\":1.5}",
                "b.jsonl:1: metric \"recall@5\" is 1.5; expected a value in [0, 1]",
            ),
            (
                "{\"query_id\":\"q\",\"m\":1e999}",
                "b.jsonl:1: not valid JSON at column",
            ),
            (
                "{\"query_id\":\"q\",\"m\":1",
                "b.jsonl:1: not valid JSON at column",
            ),
        ];
        for (text, want) in cases {
            let e = parse(text, "b.jsonl", &ColumnMap::default())
                .unwrap_err()
                .to_string();
            assert!(e.starts_with(want), "{e} !~ {want}");
        }
    }
}
