//! Run and qrels formats, and how one is recognised without a flag: `--run-format` /
//! `--qrels-format` force one; else the first bytes decide (a JSON object per line, a JSON map,
//! a header line, the number of fields), with the name (`.json`, `.jsonl`, `.gz` looked through)
//! breaking the rest. Each format's reader is one file (`run.rs`, `run_jsonl.rs`, `run_json.rs`,
//! `qrels.rs`).

use std::path::Path;

use super::Order;
use crate::error::{Error, Result};
use crate::input::sniff;

/// Input file format of a run or qrels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Whitespace-separated TREC lines (`qid Q0 docid rank score tag`; qrels `qid 0 docid rel`).
    Trec,
    /// One JSON object per line: {"query_id", "ranked"} runs, {"query_id", "gold"} qrels.
    Jsonl,
    /// ranx / BEIR JSON map: run {qid: {doc_id: score}}, qrels {qid: {doc_id: rel}}.
    Json,
    /// BEIR qrels TSV with a header line: `query-id corpus-id score`.
    Beir,
    /// MS MARCO run TSV: `qid pid rank` (ordered by rank).
    Msmarco,
    /// LlamaIndex-style JSONL: {"query_id", "expected_ids", "retrieved_ids"}; one file is both
    /// the qrels (expected_ids, rel 1) and the run (retrieved_ids in rank order).
    Llamaindex,
    /// Parquet, a file or a folder of part files: runs `qid, doc_id, score and/or rank`, qrels
    /// `qid, doc_id, relevance` (names mappable with `--column`).
    Parquet,
}

crate::choice!(Format {
    Trec => "trec": "Whitespace-separated TREC lines (`qid Q0 docid rank score tag`; qrels `qid 0 docid rel`)",
    Jsonl => "jsonl": "One JSON object per line: {\"query_id\", \"ranked\"} runs, {\"query_id\", \"gold\"} qrels",
    Json => "json": "ranx / BEIR JSON map: run {qid: {doc_id: score}}, qrels {qid: {doc_id: rel}}",
    Beir => "beir": "BEIR qrels TSV with a header line: `query-id corpus-id score`",
    Msmarco => "msmarco": "MS MARCO run TSV: `qid pid rank` (ordered by rank)",
    Llamaindex => "llamaindex": "LlamaIndex-style JSONL: {\"query_id\", \"expected_ids\", \"retrieved_ids\"}; one file is both the qrels (expected_ids, rel 1) and the run (retrieved_ids in rank order)",
    Parquet => "parquet": "Parquet, a file or a folder of part files: runs `qid, doc_id, score and/or rank`, qrels `qid, doc_id, relevance` (names mappable with `--column`)",
});

/// What a file is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Run,
    Qrels,
}

impl Role {
    fn flag(self) -> &'static str {
        match self {
            Role::Run => "--run-format",
            Role::Qrels => "--qrels-format",
        }
    }
}

impl Format {
    /// The guess from the name alone (`.jsonl`/`.ndjson` → JSONL, `.json` → JSON map, else TREC),
    /// for settings shown before any file is read.
    pub fn from_path(p: &Path) -> Format {
        match sniff::extension(p).as_deref() {
            Some("jsonl" | "ndjson") => Format::Jsonl,
            Some("json") => Format::Json,
            Some("parquet") => Format::Parquet,
            _ => Format::Trec,
        }
    }

    /// The format of `path` read as `role`: `forced` (a flag) if given and allowed for the role,
    /// else recognised from the content and the name.
    pub fn resolve(path: &Path, shown: &str, role: Role, forced: Option<Format>) -> Result<Format> {
        if let Some(f) = forced {
            return f.allowed(role).map(|()| f);
        }
        if sniff::is_parquet(path) || Format::from_path(path) == Format::Parquet {
            return Ok(Format::Parquet);
        }
        let head = sniff::head(path, shown)?;
        let by_name = Format::from_path(path);
        Ok(match Format::recognise(&head, role) {
            // A `.jsonl` file whose first line is not a whole object is broken JSONL, not a map:
            // its reader names the line.
            Some(Format::Json) if by_name == Format::Jsonl => Format::Jsonl,
            Some(f) => f,
            None => by_name,
        })
    }

    /// The format the first bytes show, if they show one.
    pub fn recognise(head: &[u8], role: Role) -> Option<Format> {
        let first = sniff::first_line(head, true)?;
        if first.first() == Some(&b'{') {
            return Some(match sniff::first_json_object(head) {
                Some(o) if o.contains_key("retrieved_ids") || o.contains_key("expected_ids") => {
                    Format::Llamaindex
                }
                Some(o) if o.contains_key("query_id") => Format::Jsonl,
                _ => Format::Json,
            });
        }
        let fields: Vec<&[u8]> = first
            .split(u8::is_ascii_whitespace)
            .filter(|f| !f.is_empty())
            .collect();
        match (role, fields.as_slice()) {
            (Role::Qrels, [q, c, _]) if is_header(q, c) => Some(Format::Beir),
            (Role::Run, [_, _, _]) => Some(Format::Msmarco),
            _ => None,
        }
    }

    /// An error when the format cannot be read as `role` (BEIR TSV is qrels only, MS MARCO TSV
    /// a run only).
    pub fn allowed(self, role: Role) -> Result<()> {
        let bad = matches!(
            (self, role),
            (Format::Beir, Role::Run) | (Format::Msmarco, Role::Qrels)
        );
        if bad {
            let name = self.name();
            return Err(Error::Usage(format!(
                "{} {name}: {name} is a {} format; runs are trec, jsonl, json, msmarco, \
                 llamaindex or parquet, qrels trec, jsonl, json, beir, llamaindex or parquet",
                role.flag(),
                if role == Role::Run { "qrels" } else { "run" },
            )));
        }
        Ok(())
    }

    /// The ranking order a run in this format is read in when `--order` is not given: by score
    /// (trec_eval's rule, ties by docid descending) where there are scores, by the rank column
    /// for MS MARCO, as listed for JSONL lists.
    pub fn default_order(self) -> Order {
        match self {
            Format::Trec | Format::Json | Format::Parquet => Order::Score,
            Format::Msmarco => Order::Rank,
            Format::Jsonl | Format::Llamaindex | Format::Beir => Order::Given,
        }
    }

    /// The name a flag takes (`msmarco`).
    pub fn name(self) -> String {
        crate::choice::Choice::name(self).to_string()
    }
}

/// `query-id corpus-id` (BEIR) or `query_id doc_id`-like header words.
fn is_header(q: &[u8], c: &[u8]) -> bool {
    let q = String::from_utf8_lossy(q)
        .to_ascii_lowercase()
        .replace('_', "-");
    let c = String::from_utf8_lossy(c)
        .to_ascii_lowercase()
        .replace('_', "-");
    matches!(q.as_str(), "query-id" | "qid")
        && matches!(c.as_str(), "corpus-id" | "doc-id" | "docid")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognised_from_content() {
        let r = |s: &str, role| Format::recognise(s.as_bytes(), role);
        assert_eq!(r("q1 Q0 d 1 2.5 t\n", Role::Run), None);
        assert_eq!(r("# x\nq1\td1\t1\n", Role::Run), Some(Format::Msmarco));
        assert_eq!(
            r("query-id\tcorpus-id\tscore\nq\td\t1\n", Role::Qrels),
            Some(Format::Beir)
        );
        assert_eq!(r("{\"q1\": {\"d\": 1}}", Role::Run), Some(Format::Json));
        assert_eq!(r("{\n  \"q1\": {", Role::Qrels), Some(Format::Json));
        assert_eq!(
            r("{\"query_id\": \"a\", \"ranked\": []}\n", Role::Run),
            Some(Format::Jsonl)
        );
        let l = "{\"query_id\": \"a\", \"expected_ids\": [], \"retrieved_ids\": []}\n";
        assert_eq!(r(l, Role::Qrels), Some(Format::Llamaindex));
        assert_eq!(r("1 0 d 1\n", Role::Qrels), None);
    }

    #[test]
    fn role_mismatch_is_a_usage_error() {
        let e = Format::Beir.allowed(Role::Run).unwrap_err().to_string();
        assert!(
            e.starts_with("--run-format beir: beir is a qrels format"),
            "{e}"
        );
        assert!(Format::Msmarco.allowed(Role::Qrels).is_err());
        assert!(Format::Json.allowed(Role::Run).is_ok());
    }
}
