//! A gate file's column mapping for a table input (JSONL, CSV/TSV): which column is the query
//! id, the group, each slice tag and each metric, for files exported by ragas, Haystack,
//! LangSmith, Braintrust or TruLens with their own names:
//! `baseline = { path = "ragas.csv", id = "sample_id", group = "conversation_id",
//! slices = { lang = "language" }, metrics = { "recall@5" = "id_based_context_recall" } }`.
//!
//! The mapping renames columns before the table reader sees them, so every rule of the reader
//! (ids, numbers, bounds) applies unchanged. When it names metrics, only those columns are
//! metrics and every other column is ignored (exports carry text columns: question, answer). A
//! mapped column the file does not have is an error naming the column, the gate-file key and
//! the file.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::error::{few, quoted, Error, Result};

/// Column names of one table input, by role. Empty: the file's own names are used.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ColumnMap {
    pub id: Option<String>,
    pub group: Option<String>,
    /// slice tag → column.
    pub slices: BTreeMap<String, String>,
    /// metric name (as gated, e.g. `recall@5`) → column.
    pub metrics: BTreeMap<String, String>,
}

/// What a source column becomes.
enum Role<'a> {
    Id,
    Group,
    Slice(&'a str),
    Metric(&'a str),
}

impl ColumnMap {
    pub fn is_empty(&self) -> bool {
        *self == ColumnMap::default()
    }

    /// Every mapped column with the gate-file key that maps it (`id`, `slices.lang`, ...).
    fn mapped(&self) -> Vec<(&str, String, Role<'_>)> {
        let mut out = Vec::new();
        if let Some(c) = &self.id {
            out.push((c.as_str(), "id".to_string(), Role::Id));
        }
        if let Some(c) = &self.group {
            out.push((c.as_str(), "group".to_string(), Role::Group));
        }
        for (tag, c) in &self.slices {
            out.push((c.as_str(), format!("slices.{tag}"), Role::Slice(tag)));
        }
        for (m, c) in &self.metrics {
            out.push((
                c.as_str(),
                format!("metrics.{}", quoted(m)),
                Role::Metric(m),
            ));
        }
        out
    }

    fn role(&self, column: &str) -> Option<Role<'_>> {
        self.mapped()
            .into_iter()
            .find(|(c, _, _)| *c == column)
            .map(|(_, _, r)| r)
    }

    /// The CSV/TSV header renamed: the id column keeps its name (the reader is told it), the
    /// group becomes `group`, a slice `slice:<tag>`, a metric its mapped name; `None` drops a
    /// column (any unmapped one when metrics are mapped). `id_column` is the id's name.
    pub fn header(
        &self,
        names: &[&str],
        shown: &str,
        id_column: &str,
    ) -> Result<Vec<Option<String>>> {
        for (column, key, _) in self.mapped() {
            if !names.contains(&column) {
                return Err(missing(shown, 1, column, &key, Some(names)));
            }
        }
        Ok(names
            .iter()
            .map(|&h| match self.role(h) {
                Some(Role::Id) => Some(h.to_string()),
                Some(Role::Group) => Some("group".into()),
                Some(Role::Slice(tag)) => Some(format!("slice:{tag}")),
                Some(Role::Metric(m)) => Some(m.to_string()),
                None if h == id_column => Some(h.to_string()),
                None if self.metrics.is_empty() => Some(h.to_string()),
                None => None,
            })
            .collect())
    }

    /// One JSONL object renamed the same way (`query_id`, `group`, `slices`, metric names);
    /// `seen` collects the mapped columns present, for [`ColumnMap::check_seen`].
    pub fn object(
        &self,
        obj: Map<String, Value>,
        shown: &str,
        line: usize,
        seen: &mut BTreeSet<String>,
    ) -> Result<Map<String, Value>> {
        if let Some(id) = &self.id {
            if !obj.contains_key(id) {
                return Err(missing(shown, line, id, "id", None));
            }
        }
        let mut out = Map::new();
        let mut slices = match obj.get("slices") {
            Some(Value::Object(m)) => m.clone(),
            _ => Map::new(),
        };
        for (k, v) in obj {
            match self.role(&k) {
                Some(role) => {
                    seen.insert(k.clone());
                    match role {
                        Role::Id => {
                            out.insert("query_id".into(), v);
                        }
                        Role::Group => {
                            out.insert("group".into(), v);
                        }
                        Role::Slice(tag) => {
                            slices.insert(tag.to_string(), v);
                        }
                        Role::Metric(m) => {
                            out.insert(m.to_string(), v);
                        }
                    }
                }
                None if k == "slices" => {}
                None if k == "query_id" && self.id.is_none() => {
                    out.insert(k, v);
                }
                None if self.metrics.is_empty() => {
                    out.insert(k, v);
                }
                None => {}
            }
        }
        if !slices.is_empty() {
            out.insert("slices".into(), Value::Object(slices));
        }
        Ok(out)
    }

    /// A mapped column that no JSONL row had is an error (a typo in the gate file, most often).
    pub fn check_seen(&self, seen: &BTreeSet<String>, shown: &str) -> Result<()> {
        match self
            .mapped()
            .into_iter()
            .find(|(c, _, _)| !seen.contains(*c))
        {
            Some((column, key, _)) => Err(missing(shown, 0, column, &key, None)),
            None => Ok(()),
        }
    }
}

fn missing(shown: &str, line: usize, column: &str, key: &str, names: Option<&[&str]>) -> Error {
    let where_ = if line == 0 { "no row has" } else { "no" };
    let columns = names.map_or(String::new(), |n| format!("; columns: {}", few(n, 10)));
    Error::input(
        shown,
        line,
        format!(
            "{where_} column {} (mapped by {key} in the gate file){columns}",
            quoted(column)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ragas() -> ColumnMap {
        ColumnMap {
            id: Some("sample_id".into()),
            group: None,
            slices: [("lang".to_string(), "language".to_string())].into(),
            metrics: [("recall@5".to_string(), "context_recall".to_string())].into(),
        }
    }

    #[test]
    fn header_renames_and_drops_unmapped_columns() {
        let h = ragas()
            .header(
                &["sample_id", "question", "language", "context_recall"],
                "r.csv",
                "sample_id",
            )
            .unwrap();
        assert_eq!(
            h,
            [
                Some("sample_id".into()),
                None,
                Some("slice:lang".into()),
                Some("recall@5".into())
            ]
        );
        let e = ragas()
            .header(&["sample_id", "language"], "r.csv", "sample_id")
            .unwrap_err();
        assert!(
            e.to_string().starts_with("r.csv:1: no column \"context_recall\" (mapped by metrics.\"recall@5\" in the gate file); columns: "),
            "{e}"
        );
    }

    #[test]
    fn object_renames_and_checks() {
        let mut seen = BTreeSet::new();
        let obj: Map<String, Value> = serde_json::from_str(
            r#"{"sample_id": "s1", "question": "why?", "language": "ko", "context_recall": 0.5, "other": 1}"#,
        )
        .unwrap();
        let out = ragas().object(obj, "r.jsonl", 3, &mut seen).unwrap();
        assert_eq!(
            Value::Object(out),
            serde_json::json!({"query_id": "s1", "slices": {"lang": "ko"}, "recall@5": 0.5})
        );
        assert!(ragas().check_seen(&seen, "r.jsonl").is_ok());
        let e = ragas()
            .object(Map::new(), "r.jsonl", 4, &mut seen)
            .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("r.jsonl:4: no column \"sample_id\" (mapped by id"),
            "{e}"
        );
        seen.remove("language");
        let e = ragas().check_seen(&seen, "r.jsonl").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("r.jsonl: no row has column \"language\" (mapped by slices.lang"),
            "{e}"
        );
    }
}
