//! Relevance judgements (qrels) and the optional corpus list.
//!
//! TREC qrels follow trec_eval: `qid iter docid rel`, whitespace-separated, the second column
//! ignored, `rel` an integer; rel > 0 is a graded gain, rel <= 0 (trec_eval's test files use -1
//! for "in the pool, unjudged") is judged non-relevant. JSONL qrels are one object per query:
//! `{"query_id": "q1", "gold": {"D1": 1, "D2": 2}}` or `"gold": ["D1", "D2"]` (all rel 1).
//! ranx / BEIR JSON qrels are one map `{qid: {doc_id: rel}}`; BEIR TSV qrels have a
//! `query-id corpus-id score` header, then `qid docid rel` lines; LlamaIndex-style JSONL gives
//! `"expected_ids": [...]` (all rel 1). A repeated (query, doc) pair with the same rel is
//! accepted; with a different rel it is an error.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

pub use super::corpus::Corpus;
use super::lines::{split_fields, text, Lines};
use super::Format;
use crate::error::{quoted, Error, Result};
use crate::input::fasthash::SeededMap;

/// docid → rel, hashed with a seeded hash (the ids may come from the pull request).
pub type DocMap = SeededMap<Vec<u8>, i32>;

/// One query's judgements.
#[derive(Debug, Clone, Default)]
pub struct QueryQrels {
    /// 1-based line of the qrels file where the query first appears.
    pub line: usize,
    pub judged: DocMap,
}

impl QueryQrels {
    /// R: the number of docs with rel >= `rel_level` (trec_eval's num_rel).
    pub fn num_rel(&self, rel_level: i32) -> usize {
        self.judged.values().filter(|&&r| r >= rel_level).count()
    }
}

/// All judgements, by query id (sorted, for deterministic output).
#[derive(Debug, Clone, Default)]
pub struct Qrels {
    pub queries: BTreeMap<String, QueryQrels>,
}

/// (query id, doc id) pairs left out of qrels as they are read: the planted pairs of
/// `[judge] plant-key`, which no metric may score.
pub type Withheld = BTreeSet<(String, String)>;

impl Qrels {
    /// Removes the `withheld` pairs; a query left with no judgement is removed too.
    pub fn withhold(&mut self, withheld: &Withheld) {
        for (q, d) in withheld {
            if let Some(qq) = self.queries.get_mut(q) {
                qq.judged.remove(d.as_bytes());
                if qq.judged.is_empty() {
                    self.queries.remove(q);
                }
            }
        }
    }
}

pub fn read_qrels(
    path: &Path,
    shown: &str,
    format: Format,
    corpus: Option<&Corpus>,
) -> Result<Qrels> {
    read_qrels_mapped(path, shown, format, corpus, &Default::default())
}

/// [`read_qrels`] with the column names of a Parquet table (`--column`).
pub fn read_qrels_mapped(
    path: &Path,
    shown: &str,
    format: Format,
    corpus: Option<&Corpus>,
    columns: &super::parquet_columns::TableColumns,
) -> Result<Qrels> {
    format.allowed(super::Role::Qrels)?;
    let mut qrels = Qrels::default();
    if format == Format::Json {
        read_json(path, shown, corpus, &mut qrels)?;
    } else if format == Format::Parquet {
        super::qrels_parquet::read(path, shown, columns, &mut |q, line, docs| {
            add(&mut qrels, q, line, docs, corpus)
        })?;
    } else {
        read_lines(path, shown, format, corpus, &mut qrels)?;
    }
    if qrels.queries.is_empty() {
        let what = match format {
            Format::Trec => "`qid 0 docid rel` lines",
            Format::Jsonl => "JSONL lines {\"query_id\": ..., \"gold\": ...}",
            Format::Json => "a JSON object {query: {doc: rel}} with at least one query",
            Format::Beir => "a `query-id corpus-id score` header, then `qid docid rel` lines",
            Format::Parquet => "a table with qid, doc_id and relevance columns",
            Format::Llamaindex | Format::Msmarco => {
                "JSONL lines {\"query_id\": ..., \"expected_ids\": [...]}"
            }
        };
        return Err(Error::input(
            shown,
            0,
            format!("empty qrels file: expected {what}"),
        ));
    }
    Ok(qrels)
}

/// The line formats: TREC, JSONL, LlamaIndex JSONL, BEIR TSV (its header line skipped).
fn read_lines(
    path: &Path,
    shown: &str,
    format: Format,
    corpus: Option<&Corpus>,
    qrels: &mut Qrels,
) -> Result<()> {
    let mut lines = Lines::open(path, shown)?;
    if format == Format::Trec {
        lines = lines.skipping_comments();
    }
    let one_line_per_query = matches!(format, Format::Jsonl | Format::Llamaindex);
    let mut first = true;
    while lines.advance()? {
        let l = lines.current();
        let line = lines.line;
        if std::mem::take(&mut first) && format == Format::Beir {
            check_beir_header(l).map_err(|m| lines.err(m))?;
            continue;
        }
        let parsed = match format {
            Format::Jsonl => parse_jsonl(l, "gold"),
            Format::Llamaindex => parse_jsonl(l, "expected_ids"),
            Format::Beir => parse_beir(l),
            _ => parse_trec(l),
        };
        let (qid, docs) = parsed.map_err(|m| lines.err(m))?;
        if one_line_per_query {
            if let Some(prev) = qrels.queries.get(&qid) {
                return Err(lines.err(format!(
                    "query {} already given at line {}: one line per query",
                    quoted(&qid),
                    prev.line
                )));
            }
        }
        add(qrels, qid, line, docs, corpus).map_err(|m| lines.err(m))?;
    }
    Ok(())
}

/// ranx / BEIR JSON qrels `{qid: {doc_id: rel}}`.
fn read_json(path: &Path, shown: &str, corpus: Option<&Corpus>, qrels: &mut Qrels) -> Result<()> {
    let opened = crate::input::open(path, shown)?;
    crate::input::json_map::for_each_entry(opened.reader, shown, &mut |(qid, docs)| {
        let mut judged = Vec::with_capacity(docs.len());
        for (doc, rel) in docs {
            let r = rel
                .as_i64()
                .and_then(|r| i32::try_from(r).ok())
                .ok_or_else(|| {
                    format!(
                        "query {} doc {}: expected an integer rel, found {rel}",
                        quoted(&qid),
                        quoted(&doc)
                    )
                })?;
            judged.push((doc.into_bytes(), r));
        }
        add(qrels, qid, 0, judged, corpus)
    })?;
    Ok(())
}

/// Adds one query's judgements; the same (query, doc) with another rel is an error.
fn add(
    qrels: &mut Qrels,
    qid: String,
    line: usize,
    docs: Vec<(Vec<u8>, i32)>,
    corpus: Option<&Corpus>,
) -> std::result::Result<(), String> {
    let q = qrels
        .queries
        .entry(qid.clone())
        .or_insert_with(|| QueryQrels {
            line,
            ..Default::default()
        });
    for (doc, rel) in docs {
        if let Some(c) = corpus {
            c.check(&doc)?;
        }
        match q.judged.get(&doc) {
            Some(&old) if old != rel => {
                let d = quoted(&String::from_utf8_lossy(&doc));
                let q = quoted(&qid);
                return Err(format!(
                    "query {q} doc {d} judged again with rel {rel}, conflicting with rel {old} earlier"
                ));
            }
            _ => {
                q.judged.insert(doc, rel);
            }
        }
    }
    Ok(())
}

/// BEIR's first line: `query-id corpus-id score`.
fn check_beir_header(l: &[u8]) -> std::result::Result<(), String> {
    let mut f = [&b""[..]; 3];
    let n = split_fields(l, &mut f);
    let head = String::from_utf8_lossy(l).to_ascii_lowercase();
    if n != 3 || !(head.starts_with("query-id") || head.starts_with("query_id")) {
        return Err(format!(
            "expected the BEIR header `query-id corpus-id score`, found {}",
            quoted(&String::from_utf8_lossy(l))
        ));
    }
    Ok(())
}

/// A BEIR qrels line `qid docid rel` (tab-separated).
fn parse_beir(l: &[u8]) -> Parsed {
    let mut f = [&b""[..]; 3];
    let n = split_fields(l, &mut f);
    if n != 3 {
        return Err(format!(
            "expected 3 fields `query-id corpus-id score` (BEIR qrels), found {}",
            if n > 3 { "more".into() } else { n.to_string() }
        ));
    }
    let qid = text(f[0], "query id")?.to_string();
    Ok((qid, vec![(f[1].to_vec(), parse_rel(f[2], 3)?)]))
}

/// An integer rel in field `n`.
fn parse_rel(field: &[u8], n: usize) -> std::result::Result<i32, String> {
    let rel_s = text(field, "rel")?;
    rel_s.parse().map_err(|_| {
        format!(
            "expected an integer rel in field {n}, found {}",
            quoted(rel_s)
        )
    })
}

type Parsed = std::result::Result<(String, Vec<(Vec<u8>, i32)>), String>;

fn parse_trec(l: &[u8]) -> Parsed {
    let mut f = [&b""[..]; 4];
    let n = split_fields(l, &mut f);
    if n != 4 {
        return Err(format!(
            "expected 4 fields `qid 0 docid rel`, found {}",
            if n > 4 { "more".into() } else { n.to_string() }
        ));
    }
    let qid = text(f[0], "query id")?.to_string();
    Ok((qid, vec![(f[2].to_vec(), parse_rel(f[3], 4)?)]))
}

/// A JSONL qrels line; `key` holds the judgements (`gold`, or LlamaIndex's `expected_ids`).
fn parse_jsonl(l: &[u8], key: &str) -> Parsed {
    let v =
        crate::load::strict_json::value_from_slice(l).map_err(|e| format!("invalid JSON: {e}"))?;
    let qid = json_query_id(&v)?;
    let gold = v
        .get(key)
        .ok_or_else(|| format!("expected a {key:?} key (object doc → rel, or list of doc ids)"))?;
    let mut docs = Vec::new();
    match gold {
        serde_json::Value::Object(m) => {
            for (doc, rel) in m {
                let r = rel
                    .as_i64()
                    .and_then(|r| i32::try_from(r).ok())
                    .ok_or_else(|| {
                        format!(
                            "expected an integer rel for gold doc {}, found {}",
                            quoted(doc),
                            cut_json(rel)
                        )
                    })?;
                docs.push((doc.as_bytes().to_vec(), r));
            }
        }
        serde_json::Value::Array(a) => {
            for d in a {
                let d = d.as_str().ok_or_else(|| {
                    format!("expected doc id strings in {key:?}, found {}", cut_json(d))
                })?;
                docs.push((d.as_bytes().to_vec(), 1));
            }
        }
        other => {
            return Err(format!(
                "expected {key:?} to be an object or a list, found {}",
                cut_json(other)
            ))
        }
    }
    Ok((qid, docs))
}

/// `query_id` as a string (integers are accepted and printed as written).
pub fn json_query_id(v: &serde_json::Value) -> std::result::Result<String, String> {
    match v.get("query_id") {
        Some(serde_json::Value::String(s)) => Ok(s.clone()),
        Some(serde_json::Value::Number(n)) if n.is_i64() || n.is_u64() => Ok(n.to_string()),
        Some(other) => Err(format!(
            "expected \"query_id\" to be a string, found {}",
            cut_json(other)
        )),
        None => Err("expected a \"query_id\" key".into()),
    }
}

/// A JSON value shown in a message: one line, cut like a name (a 10 MB object stays short).
pub fn cut_json(v: &serde_json::Value) -> String {
    crate::safe_text::shown(&v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(content: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("q.txt");
        std::fs::write(&p, content).unwrap();
        (d, p)
    }

    #[test]
    fn trec_graded_with_negative_rel() {
        let (_d, p) = write("1 0 D1 2\n1 0 D2 -1\n1 0 D3 1\n2 Q0 D9 0\n");
        let q = read_qrels(&p, "q.txt", Format::Trec, None).unwrap();
        assert_eq!(q.queries["1"].num_rel(1), 2);
        assert_eq!(q.queries["1"].num_rel(2), 1);
        assert_eq!(q.queries["2"].num_rel(1), 0);
        assert_eq!(q.queries["2"].line, 4);
    }

    #[test]
    fn jsonl_map_and_list() {
        let (_d, p) =
            write("{\"query_id\":\"a\",\"gold\":{\"D1\":2}}\n{\"query_id\":7,\"gold\":[\"D2\"]}\n");
        let q = read_qrels(&p, "q.jsonl", Format::Jsonl, None).unwrap();
        assert_eq!(q.queries["a"].judged[&b"D1".to_vec()], 2);
        assert_eq!(q.queries["7"].judged[&b"D2".to_vec()], 1);
    }

    #[test]
    fn errors_name_line_and_problem() {
        for (content, needle) in [
            ("1 0 D1 1\n1 0 D2\n", "q.txt:2: expected 4 fields"),
            ("1 0 D1 x\n", "q.txt:1: expected an integer rel"),
            (
                "1 0 D1 1\n1 0 D1 2\n",
                "q.txt:2: query \"1\" doc \"D1\" judged again",
            ),
            ("", "q.txt: empty qrels file"),
        ] {
            let (_d, p) = write(content);
            let e = read_qrels(&p, "q.txt", Format::Trec, None)
                .unwrap_err()
                .to_string();
            assert!(e.contains(needle), "{e}");
        }
        let (_d, p) = write("1 0 D1 1\n1 0 D1 1\n");
        assert!(read_qrels(&p, "q.txt", Format::Trec, None).is_ok());
    }

    #[test]
    fn jsonl_errors() {
        for (content, needle) in [
            (
                "{\"query_id\":\"a\",\"gold\":[]}\n{\"query_id\":\"a\",\"gold\":[]}\n",
                "q.jsonl:2: query \"a\" already given at line 1",
            ),
            (
                "{\"query_id\":\"a\",\"gold\":{\"D1\":1.5}}\n",
                "q.jsonl:1: expected an integer rel for gold doc \"D1\"",
            ),
            (
                "{\"query_id\":\"a\"}\n",
                "q.jsonl:1: expected a \"gold\" key",
            ),
            ("{\"gold\":[]}\n", "q.jsonl:1: expected a \"query_id\" key"),
            (
                "{\"query_id\":\"a\",\"gold\":[1]}\n",
                "q.jsonl:1: expected doc id strings",
            ),
        ] {
            let (_d, p) = write(content);
            let e = read_qrels(&p, "q.jsonl", Format::Jsonl, None)
                .unwrap_err()
                .to_string();
            assert!(e.contains(needle), "{e}");
        }
    }

    #[test]
    fn corpus_rejects_unknown_gold() {
        let (_d, c) = write("D1\nD2\n");
        let corpus = Corpus::read(&c, "c.txt").unwrap();
        let (_d2, p) = write("1 0 D1 1\n1 0 D7 1\n");
        let e = read_qrels(&p, "q.txt", Format::Trec, Some(&corpus))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("q.txt:2: doc id \"D7\" is not in the corpus c.txt"),
            "{e}"
        );
    }
}
