//! Per-query text output of trec_eval (`trec_eval -q`: `measure<TAB>qid<TAB>value`) and of
//! ir_measures (`qid<TAB>measure<TAB>value`). Fields are split on white space (trec_eval pads the
//! measure name with spaces). Rows for the query `all` (the means) are ignored, and so is
//! trec_eval's non-numeric `runid` row. Measure names are mapped to ours (`ndcg_cut_10` → `ndcg@10`).

use std::collections::HashMap;

use super::source::{check_id, numbered_lines, parse_number};
use super::{MetricTable, QueryRow};
use crate::error::{Error, Result};
use crate::metric_names::canonical;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// `measure qid value`
    TrecEval,
    /// `qid measure value`
    IrMeasures,
}

pub fn parse(text: &str, shown: &str, layout: Layout) -> Result<MetricTable> {
    let mut table = MetricTable::new(shown);
    let mut row_of: HashMap<String, usize> = HashMap::new();
    let mut seen: HashMap<(usize, String), usize> = HashMap::new();
    for (line, raw) in numbered_lines(text) {
        let fields: Vec<&str> = raw.split_whitespace().collect();
        if fields.len() != 3 {
            let want = match layout {
                Layout::TrecEval => "measure, query id and value (trec_eval -q)",
                Layout::IrMeasures => "query id, measure and value (ir_measures -q)",
            };
            return Err(Error::input(
                shown,
                line,
                format!("{} fields; expected 3: {want}", fields.len()),
            ));
        }
        let (measure, qid, value) = match layout {
            Layout::TrecEval => (fields[0], fields[1], fields[2]),
            Layout::IrMeasures => (fields[1], fields[0], fields[2]),
        };
        if qid == "all" || measure == "runid" {
            continue;
        }
        check_id(shown, line, "the query id", qid)?;
        let name = canonical(measure);
        let v = parse_number(shown, line, &name, value)?;
        let idx = *row_of.entry(qid.to_string()).or_insert_with(|| {
            table.rows.push(QueryRow {
                query_id: qid.to_string(),
                line,
                group: None,
                slices: Default::default(),
            });
            table.rows.len() - 1
        });
        if let Some(first) = seen.insert((idx, name.clone()), line) {
            return Err(Error::input(
                shown,
                line,
                format!("query {qid:?} has measure {measure:?} twice (first on line {first})"),
            ));
        }
        let col = table.metrics.entry(name).or_default();
        if col.len() <= idx {
            col.resize(idx + 1, None);
        }
        col[idx] = Some(v);
    }
    let n = table.rows.len();
    for col in table.metrics.values_mut() {
        col.resize(n, None);
    }
    if n == 0 {
        return Err(Error::input(
            shown,
            0,
            "no per-query rows (only `all` rows?); expected the output of -q",
        ));
    }
    Ok(table)
}

/// Guesses the layout from the first data line: which of the first two fields is a measure name.
pub fn sniff(text: &str) -> Option<Layout> {
    let (_, first) = numbered_lines(text).next()?;
    let f: Vec<&str> = first.split_whitespace().collect();
    if f.len() != 3 {
        return None;
    }
    let te = crate::metric_names::is_trec_eval_measure(f[0]);
    let im = canonical(f[1]) != f[1] || crate::metric_names::is_trec_eval_measure(f[1]);
    match (te, im) {
        (true, false) => Some(Layout::TrecEval),
        (false, true) => Some(Layout::IrMeasures),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trec_eval_q_output() {
        let text = "map                   \t1\t0.1400\nndcg_cut_10           \t1\t0.3\nrunid                 \tall\tbm25\nmap                   \tall\t0.2\nmap\t2\t0.5\n";
        let t = parse(text, "b.te", Layout::TrecEval).unwrap();
        assert_eq!(t.rows.len(), 2);
        assert_eq!(t.metrics["map"], vec![Some(0.14), Some(0.5)]);
        assert_eq!(t.metrics["ndcg@10"], vec![Some(0.3), None]);
        assert_eq!(sniff(text), Some(Layout::TrecEval));
    }

    #[test]
    fn ir_measures_q_output() {
        let text = "q1\tnDCG@10\t0.5\nq1\tRR@10\t1\nq2\tnDCG@10\t0.25\n";
        let t = parse(text, "b.tsv", Layout::IrMeasures).unwrap();
        assert_eq!(t.metrics["mrr@10"], vec![Some(1.0), None]);
        assert_eq!(sniff(text), Some(Layout::IrMeasures));
    }

    #[test]
    fn errors() {
        let e = parse("map\t1\n", "b.te", Layout::TrecEval)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("b.te:1: 2 fields; expected 3"), "{e}");
        let e = parse("map\t1\t0.1\nmap\t1\t0.2\n", "b.te", Layout::TrecEval)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("b.te:2: query \"1\" has measure \"map\" twice"),
            "{e}"
        );
        let e = parse("map\t1\tx\n", "b.te", Layout::TrecEval)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("b.te:1: metric \"map\" is \"x\""), "{e}");
    }
}
