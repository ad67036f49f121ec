//! Parquet per-query metric tables (a file or a folder of part files, flat or Hive-partitioned):
//! the columns of a CSV/TSV table — an id column (`query_id` unless configured), optional `group` and `slice:<tag>`
//! columns, one column per metric — or the gate file's column mapping (`columns.rs`). Ids,
//! groups and tags may be strings or integers (read in decimal); metrics floats or integers.
//! A null metric cell is "no value", like an empty CSV cell; a null id is an error naming the
//! part file, row group and row. A row's `line` is its 1-based row in the whole table. A Hive
//! partition key is a slice tag (`lang=en/` gives the slice `lang=en`) unless it is the id,
//! `group`, a `slice:` column or mapped to another role.

use std::path::Path;

use super::columns::ColumnMap;
use super::csv_table::{columns, full_columns};
use super::jsonl::push_row;
use super::source::{check_id, check_value};
use super::table::ReadRow;
use super::table::{first_duplicate, Interner};
use super::MetricTable;
use crate::error::{quoted, Error, Result};
use crate::input::parquet::{self, Batch, IDS, NUMBERS};

pub fn load(path: &Path, shown: &str, id_column: &str, map: &ColumnMap) -> Result<MetricTable> {
    let table = parquet::open(path, shown)?;
    let names: Vec<&str> = table.columns().iter().map(|c| c.name.as_str()).collect();
    let id_column = map.id.as_deref().unwrap_or(id_column);
    let renamed: Vec<Option<String>> = if map.is_empty() {
        names.iter().map(|n| Some(n.to_string())).collect()
    } else {
        map.header(&names, shown, id_column).map_err(whole_file)?
    };
    let renamed = partition_keys_as_slices(&table, renamed, id_column);
    let renamed: Vec<Option<&str>> = renamed.iter().map(Option::as_deref).collect();
    let cols = columns(&renamed, shown, 0, id_column).map_err(whole_file)?;
    table.expect_kind(names[cols.id_at], "the query id", IDS)?;
    let mut wanted = vec![names[cols.id_at]];
    if let Some(g) = cols.group_at {
        table.expect_kind(names[g], "the group", IDS)?;
        wanted.push(names[g]);
    }
    for (i, tag) in &cols.tags {
        table.expect_kind(names[*i], &format!("slice {tag}"), IDS)?;
        wanted.push(names[*i]);
    }
    for (i, m) in &cols.metrics {
        let hint = match map.metrics.is_empty() {
            true => "; map the metrics to leave other columns out",
            false => "",
        };
        let what = format!("metric {}{hint}", quoted(m));
        table.expect_kind(names[*i], &what, NUMBERS)?;
        wanted.push(names[*i]);
    }
    let mut out = MetricTable::new(shown);
    let mut interner = Interner::default();
    let reader = Rows {
        id_column: names[cols.id_at].to_string(),
        group: cols.group_at.map(|g| names[g].to_string()),
        tags: cols.tags.iter().map(|(_, t)| interner.get(t)).collect(),
        metrics: cols.metrics.iter().map(|(_, m)| m.clone()).collect(),
    };
    let mut early = EarlyIds::default();
    table.for_each_batch(&wanted, &mut |b| {
        reader.batch(b, &mut out, &mut interner, &mut early)?;
        Ok(true)
    })?;
    if let Some((id, row, first)) = first_duplicate(&out.rows) {
        return Err(duplicate(shown, id, row, first));
    }
    if out.rows.is_empty() {
        return Err(Error::input(
            shown,
            0,
            "the table has no rows; expected one row per query",
        ));
    }
    // Duplicates and emptiness were checked above, in the terms of a table (rows, not lines).
    Ok(full_columns(out, cols.metrics))
}

/// A Hive partition key (`lang=en/part-0.parquet`) that keeps its own name, or that a mapping
/// of the metrics leaves out, is the slice tag of that name (`slice:lang`): partitions are the
/// subsets a table was split by. The id column, `group` and `slice:*` keys keep their roles, and
/// so does a key the gate file maps.
fn partition_keys_as_slices(
    table: &parquet::Table,
    mut renamed: Vec<Option<String>>,
    id_column: &str,
) -> Vec<Option<String>> {
    for (c, r) in table.columns().iter().zip(renamed.iter_mut()) {
        let own = r.as_deref().is_none_or(|r| r == c.name);
        let role = c.name == id_column || c.name == "group" || c.name.starts_with("slice:");
        if c.is_partition() && own && !role {
            *r = Some(format!("slice:{}", c.name));
        }
    }
    renamed
}

/// "row N: duplicate query id … (first at row M)".
fn duplicate(shown: &str, id: &str, row: usize, first: usize) -> Error {
    Error::input(
        shown,
        0,
        format!(
            "row {row}: duplicate query id {} (first at row {first})",
            quoted(id)
        ),
    )
}

/// The duplicate check as rows arrive, so the read stops at the second copy of a query id
/// instead of holding the whole table first: each id's hash (seeded) → its first row. Two
/// different ids sharing a hash turn it off; the full check after the read then decides.
/// While the ids arrive in strictly ascending order (a table sorted by id) none can repeat and
/// no hash is kept: the map is built from the rows before the first id out of order.
#[derive(Default)]
struct EarlyIds {
    state: crate::input::fasthash::SeededState,
    first: crate::input::fasthash::SeededMap<u64, usize>,
    off: bool,
}

impl EarlyIds {
    /// Checks the table's last row against those before it.
    fn check(&mut self, out: &MetricTable) -> Result<()> {
        use std::hash::BuildHasher;
        let rows = &out.rows;
        let n = rows.len();
        if n == 0 || self.off {
            return Ok(());
        }
        let last = rows.id(n - 1);
        if self.first.is_empty() {
            if n < 2 || rows.id(n - 2) < last {
                return Ok(());
            }
            // The first id out of order: the rows before it are distinct (ascending).
            self.first.reserve(n);
            for (i, id) in rows.ids().iter().take(n - 1).enumerate() {
                let h = self.state.hash_one(id);
                if self.first.insert(h, i).is_some() {
                    self.off = true;
                    return Ok(());
                }
            }
        }
        let h = self.state.hash_one(last);
        match self.first.get(&h).copied() {
            None => {
                self.first.insert(h, n - 1);
            }
            Some(k) if rows.id(k) == last => {
                return Err(duplicate(&out.source, last, rows.line(n - 1), rows.line(k)));
            }
            Some(_) => self.off = true,
        }
        Ok(())
    }
}

/// A header error is about the file, not its first line (a Parquet file has no lines).
fn whole_file(e: Error) -> Error {
    match e {
        Error::Input { path, msg, .. } => Error::input(path, 0, msg),
        e => e,
    }
}

/// What each wanted column of a batch is: the id first, then the group, the tags, the metrics.
struct Rows {
    id_column: String,
    group: Option<String>,
    tags: Vec<std::sync::Arc<str>>,
    metrics: Vec<String>,
}

impl Rows {
    fn batch(
        &self,
        b: &Batch,
        out: &mut MetricTable,
        interner: &mut Interner,
        early: &mut EarlyIds,
    ) -> Result<()> {
        let tag_at = 1 + usize::from(self.group.is_some());
        let metric_at = tag_at + self.tags.len();
        let mut values: Vec<(usize, f64)> = Vec::with_capacity(self.metrics.len());
        for i in 0..b.len {
            let line = (b.table_row + i as u64 + 1) as usize;
            let query_id = b.text(0, i, &self.id_column, "the query id")?;
            let query_id = query_id.trim();
            if query_id.is_empty() {
                check_id(&b.place(i), 0, &self.id_column, query_id)?;
            }
            let group = match &self.group {
                Some(g) if b.cell(1, i).is_some() => Some(b.text(1, i, g, "the group")?),
                _ => None,
            };
            let group = group
                .as_deref()
                .map(str::trim)
                .filter(|g| !g.is_empty())
                .map(|g| interner.get(g));
            let mut tags = Vec::with_capacity(self.tags.len());
            for (k, tag) in self.tags.iter().enumerate() {
                if b.cell(tag_at + k, i).is_some() {
                    let v = b.text(tag_at + k, i, tag, "a slice tag")?;
                    if !v.trim().is_empty() {
                        tags.push((tag.clone(), interner.get(v.trim())));
                    }
                }
            }
            values.clear();
            for (k, m) in self.metrics.iter().enumerate() {
                if let Some(v) = b.number(metric_at + k, i) {
                    // The place is formatted only for the message of a value that is refused.
                    let v = match check_value("", 0, m, v) {
                        Ok(v) => v,
                        Err(_) => check_value(&b.place(i), 0, m, v)?,
                    };
                    values.push((k, v));
                }
            }
            let row = ReadRow {
                query_id: query_id.into(),
                line,
                group,
                slices: interner.tags(tags),
            };
            push_row(out, row, values.iter().map(|&(k, v)| (&self.metrics[k], v)));
            early.check(out)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::table::Tags;

    /// Pushes the ids one by one through the early check; the first error's message.
    fn first_error(ids: &[&str]) -> (Option<String>, bool) {
        let mut out = MetricTable::new("t.parquet");
        let mut early = EarlyIds::default();
        for (i, id) in ids.iter().enumerate() {
            out.rows.push(id, i + 1, None, Tags::default());
            if let Err(e) = early.check(&out) {
                return (Some(e.to_string()), early.first.is_empty());
            }
        }
        (None, early.first.is_empty())
    }

    #[test]
    fn ascending_ids_keep_no_hashes_and_a_repeat_anywhere_is_found() {
        assert_eq!(first_error(&["a", "b", "c", "d"]), (None, true));
        let (e, _) = first_error(&["a", "b", "c", "b"]);
        assert!(e
            .unwrap()
            .contains("row 4: duplicate query id \"b\" (first at row 2)"));
        let (e, _) = first_error(&["a", "a"]);
        assert!(e
            .unwrap()
            .contains("row 2: duplicate query id \"a\" (first at row 1)"));
        // Out of order without a repeat: the map takes over, and still finds a later repeat.
        assert_eq!(first_error(&["b", "a", "c"]), (None, false));
        let (e, _) = first_error(&["b", "c", "a", "d", "c"]);
        assert!(e
            .unwrap()
            .contains("row 5: duplicate query id \"c\" (first at row 2)"));
    }
}
