//! Renderers: per-query rows as JSONL, CSV or trec_eval -q text (`measure\tqid\tvalue`, with
//! trec_eval measure names and `all` mean rows at the end, as trec_eval -q prints them), and
//! the summary as JSON. They return strings; the caller decides where they go. Floats are
//! printed shortest-round-trip (ryu in JSON, Rust `{}` elsewhere), so output is deterministic.

use super::engine::Evaluation;
use crate::error::{Error, Result};

/// Per-query output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowFormat {
    /// `{"query_id": "q1", "ndcg@10": 0.5, ...}` per line.
    Jsonl,
    /// `query_id,ndcg@10,...` header then one row per query.
    Csv,
    /// trec_eval -q layout: `ndcg_cut_10\tq1\t0.5`.
    Trec,
    /// The summary only (same as --summary).
    Json,
}

crate::choice!(RowFormat {
    Jsonl => "jsonl": "`{\"query_id\": \"q1\", \"ndcg@10\": 0.5, ...}` per line",
    Csv => "csv": "`query_id,ndcg@10,...` header then one row per query",
    Trec => "trec": "trec_eval -q layout: `ndcg_cut_10\\tq1\\t0.5`",
    Json => "json": "The summary only (same as --summary)",
});

pub fn render_rows(ev: &Evaluation, format: RowFormat) -> Result<String> {
    match format {
        RowFormat::Jsonl => {
            check_round_trip(ev, "jsonl", |id| id.trim().is_empty())?;
            Ok(jsonl(ev))
        }
        RowFormat::Csv => {
            check_round_trip(ev, "csv", |id| id.is_empty() || id.trim() != id)?;
            csv(ev)
        }
        RowFormat::Trec => {
            check_round_trip(ev, "trec", |id| {
                id.is_empty()
                    || id == "all"
                    || id.chars().any(|c| c.is_whitespace() || c.is_control())
            })?;
            Ok(trec(ev))
        }
        RowFormat::Json => summary_json(ev),
    }
}

/// Output is always read back as written: an id that `format` cannot carry is refused (trec:
/// `all` is trec_eval's summary row and white space splits fields; csv: cells are trimmed; an
/// empty id reads back in neither).
fn check_round_trip(ev: &Evaluation, format: &str, bad: impl Fn(&str) -> bool) -> Result<()> {
    // Text formats are written through the final output guard, which would change an id with
    // control or bidi characters or a workflow command in it (JSON escapes them losslessly).
    let guarded = |id: &str| {
        format != "jsonl"
            && (crate::safe_text::printable(id) != id || crate::safe_text::starts_command(id))
    };
    match ev.rows.iter().find(|r| bad(&r.qid) || guarded(&r.qid)) {
        None => Ok(()),
        Some(r) => Err(Error::Usage(format!(
            "query id {} cannot be written with --format {format}: it would not read back as \
             written (trec: `all` is the summary row and white space splits fields; csv: cells \
             are trimmed; an id must not be empty; in text formats, no control or bidi character \
             and no workflow command); use --format jsonl",
            crate::error::quoted(&r.qid)
        ))),
    }
}

fn jsonl(ev: &Evaluation) -> String {
    let mut out = String::new();
    let names: Vec<String> = ev
        .metrics
        .iter()
        .map(|m| json_str(&m.to_string()))
        .collect();
    for r in &ev.rows {
        out.push_str("{\"query_id\":");
        out.push_str(&json_str(&r.qid));
        for (name, v) in names.iter().zip(&r.values) {
            out.push(',');
            out.push_str(name);
            out.push(':');
            out.push_str(&serde_json::Value::from(*v).to_string());
        }
        out.push_str("}\n");
    }
    out
}

fn json_str(s: &str) -> String {
    serde_json::Value::from(s).to_string()
}

fn csv(ev: &Evaluation) -> Result<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let err = |e: csv::Error| Error::Usage(format!("rendering CSV: {e}"));
    let mut header = vec!["query_id".to_string()];
    header.extend(ev.metrics.iter().map(|m| m.to_string()));
    w.write_record(&header).map_err(err)?;
    for r in &ev.rows {
        let mut rec = vec![r.qid.clone()];
        rec.extend(r.values.iter().map(|v| v.to_string()));
        w.write_record(&rec).map_err(err)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| Error::Usage(format!("rendering CSV: {e}")))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn trec(ev: &Evaluation) -> String {
    let names: Vec<String> = ev.metrics.iter().map(|m| m.trec_name()).collect();
    let mut out = String::new();
    for r in &ev.rows {
        for (name, v) in names.iter().zip(&r.values) {
            out.push_str(&format!("{name}\t{}\t{v}\n", r.qid));
        }
    }
    for (name, m) in names.iter().zip(&ev.metrics) {
        if let Some(Some(v)) = ev.summary.means.get(&m.to_string()) {
            out.push_str(&format!("{name}\tall\t{v}\n"));
        }
    }
    out
}

pub fn summary_json(ev: &Evaluation) -> Result<String> {
    let mut s = serde_json::to_string_pretty(&ev.summary)
        .map_err(|e| Error::Usage(format!("rendering the summary: {e}")))?;
    s.push('\n');
    Ok(s)
}
