//! CSV/TSV per-query metrics with a header: an id column (`query_id` unless configured), an
//! optional `group` column, optional `slice:<tag>` columns (e.g. `slice:language`), and one column
//! per metric. An empty metric cell means "no value" (an error later if that metric is compared).

use std::collections::{BTreeMap, HashMap};

use super::jsonl::push_row;
use super::source::{check_id, parse_number};
use super::{MetricTable, QueryRow};
use crate::error::{Error, Result};
use crate::metric_names::canonical;

pub fn parse(text: &str, shown: &str, delimiter: u8, id_column: &str) -> Result<MetricTable> {
    let mut rdr = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(true)
        .from_reader(text.as_bytes());
    let headers = rdr.headers().map_err(|e| csv_error(shown, e))?.clone();
    let names: Vec<&str> = headers.iter().map(str::trim).collect();
    let Some(id_at) = names.iter().position(|h| *h == id_column) else {
        return Err(Error::input(
            shown,
            1,
            format!("the header has no {id_column:?} column (columns: {}); set id-column in the gate file", names.join(", ")),
        ));
    };
    let group_at = names.iter().position(|h| *h == "group");
    let mut tags = Vec::new();
    let mut metrics = Vec::new();
    let mut seen_metric: BTreeMap<String, &str> = BTreeMap::new();
    for (i, h) in names.iter().enumerate() {
        if i == id_at || Some(i) == group_at {
            continue;
        }
        if let Some(tag) = h.strip_prefix("slice:") {
            tags.push((i, tag.to_string()));
        } else if h.is_empty() {
            return Err(Error::input(
                shown,
                1,
                format!("column {} has an empty name", i + 1),
            ));
        } else {
            let name = canonical(h);
            if let Some(prev) = seen_metric.insert(name.clone(), h) {
                return Err(Error::input(
                    shown,
                    1,
                    format!("columns {prev:?} and {h:?} are the same metric {name:?}"),
                ));
            }
            metrics.push((i, name));
        }
    }
    let mut table = MetricTable::new(shown);
    let mut seen: HashMap<String, usize> = HashMap::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| csv_error(shown, e))?;
        let line = rec.position().map_or(0, |p| p.line() as usize);
        let query_id = rec[id_at].trim().to_string();
        check_id(shown, line, id_column, &query_id)?;
        if let Some(first) = seen.insert(query_id.clone(), line) {
            return Err(Error::input(
                shown,
                line,
                format!("duplicate query id {query_id:?} (first on line {first})"),
            ));
        }
        let group = group_at
            .map(|g| rec[g].trim().to_string())
            .filter(|g| !g.is_empty());
        let slices = tags
            .iter()
            .filter(|(i, _)| !rec[*i].trim().is_empty())
            .map(|(i, t)| (t.clone(), rec[*i].trim().to_string()))
            .collect();
        let mut values = Vec::with_capacity(metrics.len());
        for (i, name) in &metrics {
            let cell = rec[*i].trim();
            if !cell.is_empty() {
                values.push((name.clone(), parse_number(shown, line, name, cell)?));
            }
        }
        push_row(
            &mut table,
            QueryRow {
                query_id,
                line,
                group,
                slices,
            },
            values,
        );
    }
    for col in table.metrics.values_mut() {
        col.resize(table.rows.len(), None);
    }
    for (_, name) in metrics {
        table
            .metrics
            .entry(name)
            .or_insert_with(|| vec![None; table.rows.len()]);
    }
    Ok(table)
}

fn csv_error(shown: &str, e: csv::Error) -> Error {
    let line = e.position().map_or(0, |p| p.line() as usize);
    let msg = match e.kind() {
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => {
            format!("{len} fields, but the header has {expected_len}")
        }
        csv::ErrorKind::Utf8 { .. } => "not UTF-8 text".to_string(),
        _ => format!("not valid CSV/TSV: {e}"),
    };
    Error::input(shown, line, msg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_ids_groups_tags_and_metrics() {
        let t = parse(
            "query_id\tgroup\tslice:lang\tnDCG@10\tlatency_ms\nq1\tc1\tko\t0.5\t\nq2\t\t\t1\t3\n",
            "m.tsv",
            b'\t',
            "query_id",
        )
        .unwrap();
        assert_eq!(t.rows[0].group.as_deref(), Some("c1"));
        assert_eq!(t.rows[1].group, None);
        assert_eq!(t.rows[0].slices["lang"], "ko");
        assert!(t.rows[1].slices.is_empty());
        assert_eq!(t.metrics["ndcg@10"], vec![Some(0.5), Some(1.0)]);
        assert_eq!(t.metrics["latency_ms"], vec![None, Some(3.0)]);
        assert_eq!(t.rows[1].line, 3);
    }

    #[test]
    fn errors_name_file_and_line() {
        let cases = [
            (
                "qid,m\nq1,1\n",
                "m.csv:1: the header has no \"query_id\" column (columns: qid, m)",
            ),
            (
                "query_id,m\nq1,1,2\n",
                "m.csv:2: 3 fields, but the header has 2",
            ),
            (
                "query_id,m\nq1,x\n",
                "m.csv:2: metric \"m\" is \"x\"; expected a number",
            ),
            (
                "query_id,m\nq1,1\nq1,2\n",
                "m.csv:3: duplicate query id \"q1\" (first on line 2)",
            ),
            ("query_id,m\n ,1\n", "m.csv:2: query_id is empty"),
            (
                "query_id,recall@5\nq,-0.1\n",
                "m.csv:2: metric \"recall@5\" is -0.1; expected a value in [0, 1]",
            ),
        ];
        for (text, want) in cases {
            let e = parse(text, "m.csv", b',', "query_id")
                .unwrap_err()
                .to_string();
            assert!(e.starts_with(want), "{e} !~ {want}");
        }
    }
}
