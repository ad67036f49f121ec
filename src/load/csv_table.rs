//! CSV/TSV per-query metrics with a header: an id column (`query_id` unless configured), an
//! optional `group` column, optional `slice:<tag>` columns (e.g. `slice:language`), and one column
//! per metric. An empty metric cell means "no value" (an error later if that metric is compared).

use std::collections::BTreeMap;
use std::sync::Arc;

use super::columns::ColumnMap;
use super::jsonl::push_row;
use super::source::{check_id, check_tag_name, parse_number};
use super::table::{first_duplicate, Interner, ReadRow};
use super::MetricTable;
use crate::error::{few, quoted, Error, Result};
use crate::metric_names::canonical;

pub fn parse(
    text: &str,
    shown: &str,
    delimiter: u8,
    id_column: &str,
    map: &ColumnMap,
) -> Result<MetricTable> {
    let mut rdr = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(true)
        .from_reader(text.as_bytes());
    let headers = rdr.headers().map_err(|e| csv_error(shown, e))?.clone();
    let names: Vec<&str> = headers.iter().map(str::trim).collect();
    let id_column = map.id.as_deref().unwrap_or(id_column);
    let renamed = if map.is_empty() {
        names.iter().map(|n| Some(n.to_string())).collect()
    } else {
        map.header(&names, shown, id_column)?
    };
    let renamed: Vec<Option<&str>> = renamed.iter().map(Option::as_deref).collect();
    let cols = columns(&renamed, shown, delimiter, id_column)?;
    let mut table = MetricTable::new(shown);
    let mut interner = Interner::default();
    let tags: Vec<(usize, Arc<str>)> = cols
        .tags
        .iter()
        .map(|(i, t)| (*i, interner.get(t)))
        .collect();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| csv_error(shown, e))?;
        let (row, values) = read_row(&rec, shown, id_column, &cols, &tags, &mut interner)?;
        push_row(&mut table, row, values);
    }
    finish(table, shown, cols.metrics)
}

/// Where the header puts the id, the group, the `slice:<tag>` columns and the metrics (by
/// canonical name).
pub(super) struct Columns {
    pub(super) id_at: usize,
    pub(super) group_at: Option<usize>,
    pub(super) tags: Vec<(usize, String)>,
    pub(super) metrics: Vec<(usize, String)>,
}

/// Reads the header (`None`: a column the mapping drops): the id column must be there; tag
/// names must be valid; metric columns must be named and name different metrics.
/// `delimiter` 0: not a text table (Parquet), no delimiter hint.
pub(super) fn columns(
    names: &[Option<&str>],
    shown: &str,
    delimiter: u8,
    id_column: &str,
) -> Result<Columns> {
    let Some(id_at) = names.iter().position(|h| *h == Some(id_column)) else {
        let names: Vec<&str> = names.iter().flatten().copied().collect();
        return Err(no_id_column(&names, shown, delimiter, id_column));
    };
    let group_at = names.iter().position(|h| *h == Some("group"));
    let mut tags = Vec::new();
    let mut metrics = Vec::new();
    let mut seen_metric: BTreeMap<String, &str> = BTreeMap::new();
    for (i, h) in names.iter().enumerate() {
        let Some(h) = *h else { continue };
        if i == id_at || Some(i) == group_at {
            continue;
        }
        if let Some(tag) = h.strip_prefix("slice:") {
            check_tag_name(shown, 1, tag)?;
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
                    format!(
                        "columns {} and {} are the same metric {}",
                        quoted(prev),
                        quoted(h),
                        quoted(&name)
                    ),
                ));
            }
            metrics.push((i, name));
        }
    }
    Ok(Columns {
        id_at,
        group_at,
        tags,
        metrics,
    })
}

/// The header lacks the id column; a one-column header most likely means the wrong delimiter.
fn no_id_column(names: &[&str], shown: &str, delimiter: u8, id_column: &str) -> Error {
    let hint = if names.len() == 1 && delimiter != 0 {
        let want = if delimiter == b'\t' { "tabs" } else { "commas" };
        format!("; the header is one column: expected fields separated by {want} (set format = \"csv\" or \"tsv\")")
    } else {
        "; set id-column in the gate file".to_string()
    };
    Error::input(
        shown,
        1,
        format!(
            "the header has no {} column (columns: {}){hint}",
            quoted(id_column),
            few(names, 10)
        ),
    )
}

/// One record: its row (id, line, group, tags) and its non-empty metric values.
fn read_row<'r>(
    rec: &'r csv::StringRecord,
    shown: &str,
    id_column: &str,
    cols: &Columns,
    tags: &[(usize, Arc<str>)],
    interner: &mut Interner,
) -> Result<(ReadRow<'r>, Vec<(String, f64)>)> {
    let line = rec.position().map_or(0, |p| p.line() as usize);
    let query_id = rec[cols.id_at].trim();
    check_id(shown, line, id_column, query_id)?;
    let group = cols
        .group_at
        .map(|g| rec[g].trim())
        .filter(|g| !g.is_empty())
        .map(|g| interner.get(g));
    let pairs = tags
        .iter()
        .filter(|(i, _)| !rec[*i].trim().is_empty())
        .map(|(i, t)| (t.clone(), interner.get(rec[*i].trim())))
        .collect();
    let slices = interner.tags(pairs);
    let mut values = Vec::with_capacity(cols.metrics.len());
    for (i, name) in &cols.metrics {
        let cell = rec[*i].trim();
        if !cell.is_empty() {
            values.push((name.clone(), parse_number(shown, line, name, cell)?));
        }
    }
    let row = ReadRow {
        query_id: query_id.into(),
        line,
        group,
        slices,
    };
    Ok((row, values))
}

/// Refuses duplicate ids and an empty table, then gives every metric column one cell a row
/// (`None` where the cell was empty).
pub(super) fn finish(
    table: MetricTable,
    shown: &str,
    metrics: Vec<(usize, String)>,
) -> Result<MetricTable> {
    if let Some((id, line, first)) = first_duplicate(&table.rows) {
        return Err(Error::input(
            shown,
            line,
            format!("duplicate query id {} (first on line {first})", quoted(id)),
        ));
    }
    if table.rows.is_empty() {
        // Otherwise pairing would blame the other file for "lacking" this one's queries.
        return Err(Error::input(
            shown,
            0,
            "no rows after the header; expected one row per query",
        ));
    }
    Ok(full_columns(table, metrics))
}

/// Every metric column as long as the rows (a column with no value at all included).
pub(super) fn full_columns(mut table: MetricTable, metrics: Vec<(usize, String)>) -> MetricTable {
    table.finish_columns();
    for (_, name) in metrics {
        table
            .metrics
            .entry(name)
            .or_insert_with(|| vec![None; table.rows.len()].into());
    }
    table
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
            &ColumnMap::default(),
        )
        .unwrap();
        assert_eq!(t.rows.group(0), Some("c1"));
        assert_eq!(t.rows.group(1), None);
        assert_eq!(t.rows.tags(0).get("lang"), Some("ko"));
        assert!(t.rows.tags(1).is_empty());
        assert_eq!(t.metrics["ndcg@10"], vec![Some(0.5), Some(1.0)]);
        assert_eq!(t.metrics["latency_ms"], vec![None, Some(3.0)]);
        assert_eq!(t.rows.line(1), 3);
    }

    #[test]
    fn errors_name_file_and_line() {
        let cases = [
            (
                "qid,m\nq1,1\n",
                "m.csv:1: the header has no \"query_id\" column (columns: \"qid\", \"m\")",
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
            let e = parse(text, "m.csv", b',', "query_id", &ColumnMap::default())
                .unwrap_err()
                .to_string();
            assert!(e.starts_with(want), "{e} !~ {want}");
        }
    }
}
