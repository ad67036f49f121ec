//! Per-query text output of trec_eval (`trec_eval -q`: `measure<TAB>qid<TAB>value`) and of
//! ir_measures (`qid<TAB>measure<TAB>value`). Fields are split on white space (trec_eval pads the
//! measure name with spaces). Rows for the query `all` (the means) are ignored, and so are the
//! rows that count or name things rather than measure them (`num_ret`, `num_rel`, `num_q`,
//! `runid`, `relstring`, ir_measures' `NumRet` …; see `metric_names::is_count`). Measure names are mapped to ours (`ndcg_cut_10` → `ndcg@10`).

use std::collections::HashMap;

use super::source::{check_id, numbered_lines, parse_number};
use super::MetricTable;
use crate::error::{quoted, Error, Result};
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
    // Keys borrow the text: no copy of each id, no String per (query, measure).
    let mut row_of: HashMap<&str, usize> = HashMap::new();
    let mut places = FixedPlaces::default();
    // Lines whose first character is `#` are comments, as in every TREC-format reader.
    for (line, raw) in numbered_lines(text).filter(|(_, l)| !l.starts_with('#')) {
        let mut it = raw.split_whitespace();
        let fields = [it.next(), it.next(), it.next(), it.next()];
        let [Some(f0), Some(f1), Some(f2), None] = fields else {
            let want = match layout {
                Layout::TrecEval => "measure, query id and value (trec_eval -q)",
                Layout::IrMeasures => "query id, measure and value (ir_measures -q)",
            };
            let n = raw.split_whitespace().count();
            return Err(Error::input(
                shown,
                line,
                format!("{n} fields; expected 3: {want}"),
            ));
        };
        let (measure, qid, value) = match layout {
            Layout::TrecEval => (f0, f1, f2),
            Layout::IrMeasures => (f1, f0, f2),
        };
        if qid == "all" || crate::metric_names::is_count(measure) {
            continue;
        }
        check_id(shown, line, "the query id", qid)?;
        let name = canonical(measure);
        let v = parse_number(shown, line, &name, value)?;
        places.see(value);
        let idx = *row_of.entry(qid).or_insert_with(|| {
            table.rows.push(qid, line, None, Default::default());
            table.rows.len() - 1
        });
        let col = match table.metrics.get_mut(&name) {
            Some(col) => col,
            None => table.metrics.entry(name.clone()).or_default(),
        };
        col.pad_to(idx + 1);
        if col.get(idx).is_some() {
            let first = first_line_of(text, layout, qid, &name).unwrap_or(0);
            return Err(Error::input(
                shown,
                line,
                format!(
                    "query {} has measure {} twice (first on line {first})",
                    quoted(qid),
                    quoted(measure)
                ),
            ));
        }
        col.set(idx, Some(v));
    }
    let n = table.rows.len();
    table.finish_columns();
    if n == 0 {
        return Err(Error::input(
            shown,
            0,
            "no per-query rows (only `all` rows?); expected the output of -q",
        ));
    }
    table.rounded_to = places.rounded_to();
    Ok(table)
}

/// Whether every value was written with the same number of decimals, as a fixed-point format
/// writes them (trec_eval's `%.4f`: `0.3000`, `1.0000`), rather than in the shortest form that
/// reads back as the same double (Python's `repr`, ir_measures: `0.3`, `0.39285714285714285`).
#[derive(Default)]
struct FixedPlaces {
    /// The decimals of the values so far, while they all agree.
    places: Option<usize>,
    mixed: bool,
    /// A value ends in a zero after its point: a shortest form never does (beyond `1.0`).
    trailing_zero: bool,
}

impl FixedPlaces {
    fn see(&mut self, value: &str) {
        let v = value.trim();
        let d = match v.split_once('.') {
            _ if v.contains(['e', 'E']) => None,
            Some((_, frac)) => Some(frac.len()),
            None => Some(0),
        };
        match (self.places, d) {
            (_, None) => self.mixed = true,
            (None, Some(d)) => self.places = Some(d),
            (Some(p), Some(d)) if p != d => self.mixed = true,
            _ => {}
        }
        self.trailing_zero |= v.contains('.') && v.ends_with('0');
    }

    /// The decimals every value was rounded to, when the values show a fixed-point format of 2
    /// to 6 decimals.
    fn rounded_to(&self) -> Option<u32> {
        let p = self.places?;
        let fixed = !self.mixed && self.trailing_zero && (2..=6).contains(&p);
        fixed.then_some(p as u32)
    }
}

/// The first line giving `name` (canonical) for `qid` (only looked up to word an error).
fn first_line_of(text: &str, layout: Layout, qid: &str, name: &str) -> Option<usize> {
    numbered_lines(text).find_map(|(line, raw)| {
        let f: Vec<&str> = raw.split_whitespace().collect();
        let (m, q) = match (layout, f.as_slice()) {
            (Layout::TrecEval, [m, q, _]) => (*m, *q),
            (Layout::IrMeasures, [q, m, _]) => (*m, *q),
            _ => return None,
        };
        (q == qid && canonical(m) == name).then_some(line)
    })
}

/// Guesses the layout from the first data line: which of the first two fields is a measure name.
pub fn sniff(text: &str) -> Option<Layout> {
    let (_, first) = numbered_lines(text).find(|(_, l)| !l.starts_with('#'))?;
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
    fn fixed_point_values_are_known_as_rounded() {
        let te = "map\t1\t0.1400\nmap\t2\t1.0000\nmap\t3\t0.3333\n";
        assert_eq!(
            parse(te, "b.te", Layout::TrecEval).unwrap().rounded_to,
            Some(4)
        );
        // The shortest round-trip form (Python's repr, ir_measures): not rounded.
        let full = "1\tnDCG@10\t0.39285714285714285\n2\tnDCG@10\t0.5\n3\tnDCG@10\t1.0\n";
        assert_eq!(
            parse(full, "b.irm", Layout::IrMeasures).unwrap().rounded_to,
            None
        );
        // Every value with the same decimals but no trailing zero (could be exact): not claimed.
        let same = "map\t1\t0.25\nmap\t2\t0.75\n";
        assert_eq!(
            parse(same, "b.te", Layout::TrecEval).unwrap().rounded_to,
            None
        );
        let mixed = "map\t1\t0.2500\nmap\t2\t0.75\n";
        assert_eq!(
            parse(mixed, "b.te", Layout::TrecEval).unwrap().rounded_to,
            None
        );
    }

    #[test]
    fn count_rows_are_not_metrics() {
        let text = "num_ret\t1\t1000\nnum_rel\t1\t12\nnum_rel_ret\t1\t9\nrelstring\t1\t1100\nnum_q\t1\t1\nmap\t1\t0.5\n";
        let t = parse(text, "b.te", Layout::TrecEval).unwrap();
        assert_eq!(t.metrics.keys().collect::<Vec<_>>(), ["map"]);
        let text = "q1\tNumRet\t1000\nq1\tAP\t0.5\n";
        let t = parse(text, "b.irm", Layout::IrMeasures).unwrap();
        assert_eq!(t.metrics.keys().collect::<Vec<_>>(), ["map"]);
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
