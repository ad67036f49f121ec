//! The planted pairs' key (`label-plan --plant-key`, read by `[judge] plant-key`): JSON lines,
//! one per planted (query, document) pair, `{"query_id": "…", "doc_id": "…", "kind":
//! "keyword-stuffing" | "instruction", "source_doc_id": "…"}`. The judge must not see it: it
//! says which of the pairs it labelled were planted, and how.

use std::collections::BTreeSet;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The kinds of planted pair, in report order.
pub const KINDS: [&str; 2] = ["keyword-stuffing", "instruction"];

/// One planted pair.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Planted {
    pub query_id: String,
    pub doc_id: String,
    /// One of `KINDS`.
    pub kind: String,
    /// The irrelevant passage the planted text was made from.
    pub source_doc_id: String,
}

const LAYOUT: &str = "{\"query_id\": \"…\", \"doc_id\": \"…\", \"kind\": \"keyword-stuffing\", \"source_doc_id\": \"…\"} (label-plan --plant-key writes it)";

/// Reads the key at `path` (shown as `shown`); a line that is not such an object, an unknown
/// kind, a pair planted twice or an empty key is an error naming the line and key.
pub fn read(path: &Path, shown: &str) -> Result<Vec<Planted>> {
    let text = super::source::read_text(path, shown, "the planted pairs' key (JSON lines)")?;
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for (line, raw) in super::source::numbered_lines(&text) {
        let at = |msg: String| Error::input(shown, line, msg);
        let v: serde_json::Value = serde_json::from_str(raw)
            .map_err(|e| at(format!("not a JSON object, expected {LAYOUT}: {e}")))?;
        let field = |key: &str| -> Result<String> {
            v.get(key)
                .and_then(|x| x.as_str())
                .filter(|x| !x.is_empty())
                .map(str::to_string)
                .ok_or_else(|| {
                    at(format!(
                        "key {key}: expected a non-empty string, as in {LAYOUT}"
                    ))
                })
        };
        let p = Planted {
            query_id: field("query_id")?,
            doc_id: field("doc_id")?,
            kind: field("kind")?,
            source_doc_id: field("source_doc_id")?,
        };
        if !KINDS.contains(&p.kind.as_str()) {
            return Err(at(format!(
                "key kind: expected \"keyword-stuffing\" or \"instruction\", found {}",
                crate::error::quoted(&p.kind)
            )));
        }
        if !seen.insert((p.query_id.clone(), p.doc_id.clone())) {
            return Err(at(format!(
                "query {} doc {} is planted twice",
                crate::error::quoted(&p.query_id),
                crate::error::quoted(&p.doc_id)
            )));
        }
        out.push(p);
    }
    if out.is_empty() {
        return Err(Error::input(
            shown,
            0,
            format!("no planted pair: expected one JSON object a line, {LAYOUT}"),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_pairs_and_names_line_and_key_of_a_bad_one() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("key.jsonl");
        let good = r#"{"query_id":"1","doc_id":"d9","kind":"instruction","source_doc_id":"d2"}"#;
        std::fs::write(&p, format!("{good}\n\n")).unwrap();
        let k = read(&p, "key.jsonl").unwrap();
        assert_eq!(k.len(), 1);
        assert_eq!(k[0].kind, "instruction");
        let bad = good.replace("instruction", "flattery");
        std::fs::write(&p, format!("{good}\n{bad}\n")).unwrap();
        let e = read(&p, "key.jsonl").unwrap_err().to_string();
        assert!(e.contains("key.jsonl:2") && e.contains("key kind"), "{e}");
        std::fs::write(&p, format!("{good}\n{good}\n")).unwrap();
        let e = read(&p, "key.jsonl").unwrap_err().to_string();
        assert!(
            e.contains("key.jsonl:2") && e.contains("planted twice"),
            "{e}"
        );
        std::fs::write(&p, "{\"query_id\":\"1\"}\n").unwrap();
        let e = read(&p, "key.jsonl").unwrap_err().to_string();
        assert!(e.contains("key.jsonl:1") && e.contains("key doc_id"), "{e}");
    }
}
