//! The in-memory form of one per-query metric file, whatever format it came in.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use super::column::Column;
use super::ids::{IdColumn, Numbers};
use crate::input::fasthash::{SeededMap, SeededSet};

/// One row as a loader reads it, before it joins the table's columns (the id borrowed from
/// the reader's buffer where it can be: no allocation a row).
#[derive(Debug, Clone, PartialEq)]
pub struct ReadRow<'a> {
    pub query_id: Cow<'a, str>,
    pub line: usize,
    pub group: Option<Arc<str>>,
    pub slices: Tags,
}

/// One query's row in a table: its id, where it was read, and its optional group and slice tags.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Row<'a> {
    pub query_id: &'a str,
    /// 1-based line of the file where this query was first seen.
    pub line: usize,
    pub group: Option<&'a str>,
    pub slices: &'a Tags,
}

/// The rows of one file as columns: ids in one buffer, lines, and the group and tag set of each
/// row as an index into the file's distinct ones (no column at all while no row has one).
#[derive(Debug, Clone, Default)]
pub struct Rows {
    ids: IdColumn,
    lines: Numbers,
    /// 1 + index into `group_names`, 0 for none; empty while no row has a group.
    groups: Vec<u32>,
    group_names: Vec<Arc<str>>,
    group_at: SeededMap<Arc<str>, u32>,
    /// 1 + index into `tag_sets`, 0 for none; empty while no row has a tag.
    tags: Vec<u32>,
    tag_sets: Vec<Tags>,
    tag_at: SeededMap<Tags, u32>,
}

static NO_TAGS: Tags = Tags(None);

impl Rows {
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    #[inline]
    pub fn id(&self, i: usize) -> &str {
        self.ids.get(i)
    }

    pub fn ids(&self) -> &IdColumn {
        &self.ids
    }

    pub fn line(&self, i: usize) -> usize {
        self.lines.get(i) as usize
    }

    pub fn group(&self, i: usize) -> Option<&str> {
        match self.groups.get(i) {
            Some(&g) if g > 0 => Some(&self.group_names[g as usize - 1]),
            _ => None,
        }
    }

    pub fn tags(&self, i: usize) -> &Tags {
        match self.tags.get(i) {
            Some(&t) if t > 0 => &self.tag_sets[t as usize - 1],
            _ => &NO_TAGS,
        }
    }

    pub fn row(&self, i: usize) -> Row<'_> {
        Row {
            query_id: self.id(i),
            line: self.line(i),
            group: self.group(i),
            slices: self.tags(i),
        }
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = Row<'_>> + Clone + '_ {
        (0..self.len()).map(|i| self.row(i))
    }

    /// Appends a row as read.
    pub fn push_read(&mut self, r: ReadRow<'_>) {
        self.push(&r.query_id, r.line, r.group.as_deref(), r.slices);
    }

    /// Appends a row.
    pub fn push(&mut self, id: &str, line: usize, group: Option<&str>, tags: Tags) {
        let i = self.len();
        self.ids.push(id);
        self.lines.push(line as u64);
        if let Some(g) = group {
            self.set_group(i, g);
        }
        if !tags.is_empty() {
            let n = self.tag_sets.len() as u32;
            let k = *self.tag_at.entry(tags.clone()).or_insert_with(|| n + 1);
            if k == n + 1 {
                self.tag_sets.push(tags);
            }
            self.tags.resize(i, 0);
            self.tags.push(k);
        }
    }

    /// Gives row `i` the group `g`.
    pub fn set_group(&mut self, i: usize, g: &str) {
        let k = match self.group_at.get(g) {
            Some(&k) => k,
            None => {
                let name: Arc<str> = Arc::from(g);
                self.group_names.push(name.clone());
                let k = self.group_names.len() as u32;
                self.group_at.insert(name, k);
                k
            }
        };
        if self.groups.len() <= i {
            self.groups.resize(i + 1, 0);
        }
        self.groups[i] = k;
    }

    /// Gives back the spare capacity of columns built by pushing.
    pub fn shrink_to_fit(&mut self) {
        self.ids.shrink_to_fit();
        if let Numbers::Narrow(v) = &mut self.lines {
            v.shrink_to_fit();
        }
        self.groups.shrink_to_fit();
        self.tags.shrink_to_fit();
    }
}

impl PartialEq for Rows {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

/// Per-query metrics of one file: rows plus one column of values per metric (aligned with rows;
/// missing where a row lacks that metric).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MetricTable {
    /// The path as the user wrote it (relative to the gate file's folder when from a gate file).
    pub source: String,
    pub rows: Rows,
    /// Canonical metric name → one value per row.
    pub metrics: BTreeMap<String, Column>,
    /// The decimals every value of the file was rounded to, when it shows a fixed-point format
    /// (trec_eval `-q` prints 4); None for values written in full.
    pub rounded_to: Option<u32>,
}

impl MetricTable {
    /// Gives each row without a group the first capture of `re` on its query id
    /// (`[inputs] group-from-id`); ids that do not match keep no group. Returns how many rows
    /// got a group.
    pub fn groups_from_ids(&mut self, re: &regex::Regex) -> usize {
        let mut n = 0;
        for i in 0..self.rows.len() {
            if self.rows.group(i).is_some() {
                continue;
            }
            let Some(g) = re.captures(self.rows.id(i)).and_then(|c| c.get(1)) else {
                continue;
            };
            let g = g.as_str().to_string();
            if g.is_empty() {
                continue;
            }
            self.rows.set_group(i, &g);
            n += 1;
        }
        n
    }

    pub fn new(source: impl Into<String>) -> Self {
        MetricTable {
            source: source.into(),
            ..Default::default()
        }
    }

    /// Every metric column as long as the rows, capacity given back.
    pub fn finish_columns(&mut self) {
        let n = self.rows.len();
        for col in self.metrics.values_mut() {
            col.pad_to(n);
            col.shrink_to_fit();
        }
        self.rows.shrink_to_fit();
    }
}

/// A query's slice tags (tag → value), sorted by tag. Tag names and values are interned per
/// file, and so is each distinct set of tags ([`Interner::tags`]): a million rows tagged with
/// a few dozen combinations cost one pointer each, not a heap block and a B-tree node each.
/// No tags: no allocation.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Tags(Option<Arc<[Tag]>>);

/// One slice tag: (tag, value).
type Tag = (Arc<str>, Arc<str>);

impl Tags {
    /// Builds the tags from (tag, value) pairs; a repeated tag keeps its last value.
    pub fn from_pairs(mut pairs: Vec<Tag>) -> Self {
        pairs.reverse();
        pairs.sort_by(|a, b| a.0.cmp(&b.0));
        pairs.dedup_by(|a, b| a.0 == b.0);
        Tags((!pairs.is_empty()).then(|| pairs.into()))
    }

    fn pairs(&self) -> &[Tag] {
        self.0.as_deref().unwrap_or(&[])
    }

    pub fn get(&self, tag: &str) -> Option<&str> {
        let pairs = self.pairs();
        pairs
            .binary_search_by(|(t, _)| (**t).cmp(tag))
            .ok()
            .map(|i| &*pairs[i].1)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.pairs().iter().map(|(t, v)| (&**t, &**v))
    }

    pub fn len(&self) -> usize {
        self.pairs().len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }
}

impl<'a> IntoIterator for &'a Tags {
    type Item = (&'a str, &'a str);
    type IntoIter = Box<dyn Iterator<Item = (&'a str, &'a str)> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl<K: AsRef<str>, V: AsRef<str>> FromIterator<(K, V)> for Tags {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(it: I) -> Self {
        Tags::from_pairs(
            it.into_iter()
                .map(|(k, v)| (Arc::from(k.as_ref()), Arc::from(v.as_ref())))
                .collect(),
        )
    }
}

impl From<BTreeMap<String, String>> for Tags {
    fn from(m: BTreeMap<String, String>) -> Self {
        m.into_iter().collect()
    }
}

/// Shares one copy of each distinct string (group names, tag names and values) and of each
/// distinct set of slice tags within a file.
#[derive(Debug, Default)]
pub struct Interner {
    names: SeededSet<Arc<str>>,
    tag_sets: SeededSet<Tags>,
}

impl Interner {
    pub fn get(&mut self, s: &str) -> Arc<str> {
        if let Some(a) = self.names.get(s) {
            return a.clone();
        }
        let a: Arc<str> = Arc::from(s);
        self.names.insert(a.clone());
        a
    }

    /// [`Tags::from_pairs`], shared with every earlier row of the same tags.
    pub fn tags(&mut self, pairs: Vec<Tag>) -> Tags {
        let tags = Tags::from_pairs(pairs);
        if tags.is_empty() {
            return tags;
        }
        if let Some(t) = self.tag_sets.get(&tags) {
            return t.clone();
        }
        self.tag_sets.insert(tags.clone());
        tags
    }
}

/// The first repeated query id of `rows` in file order: (id, its line, the first line).
/// Run once after parsing, borrowing the ids instead of keeping a second copy of each; ids in
/// strictly ascending order (a file sorted by id) repeat none, and need no hash map.
pub fn first_duplicate(rows: &Rows) -> Option<(&str, usize, usize)> {
    let ids = rows.ids();
    if (1..ids.len()).all(|i| ids.get(i - 1) < ids.get(i)) {
        return None;
    }
    let mut seen: SeededMap<&str, usize> =
        SeededMap::with_capacity_and_hasher(rows.len(), Default::default());
    for (i, id) in ids.iter().enumerate() {
        if let Some(&first) = seen.get(id) {
            return Some((id, rows.line(i), first));
        }
        seen.insert(id, rows.line(i));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_sorted_last_value_wins_and_strings_are_shared() {
        let mut names = Interner::default();
        let t = Tags::from_pairs(vec![
            (names.get("risk"), names.get("high")),
            (names.get("lang"), names.get("ko")),
            (names.get("risk"), names.get("low")),
        ]);
        assert_eq!(
            t.iter().collect::<Vec<_>>(),
            vec![("lang", "ko"), ("risk", "low")]
        );
        assert_eq!(t.get("lang"), Some("ko"));
        assert_eq!(t.get("nope"), None);
        assert!(Arc::ptr_eq(&names.get("ko"), &names.get("ko")));
        let (lang, ko) = (names.get("lang"), names.get("ko"));
        let a = names.tags(vec![(lang.clone(), ko.clone())]);
        let b = names.tags(vec![(lang, ko)]);
        assert!(Arc::ptr_eq(a.0.as_ref().unwrap(), b.0.as_ref().unwrap()));
        assert_eq!(a.get("lang"), Some("ko"));
        assert!(names.tags(Vec::new()).is_empty());
        let from_map: Tags = BTreeMap::from([("lang".to_string(), "ko".to_string())]).into();
        assert_eq!(from_map.get("lang"), Some("ko"));
    }

    #[test]
    fn rows_give_back_ids_lines_groups_and_tags_as_pushed() {
        let mut rows = Rows::default();
        let ko: Tags = [("lang", "ko")].into_iter().collect();
        rows.push("q1", 2, None, Tags::default());
        rows.push("q2", 3, Some("g1"), ko.clone());
        rows.push("q3", 7, Some("g1"), Tags::default());
        rows.push("q4", 8, None, ko.clone());
        assert_eq!(rows.len(), 4);
        assert_eq!(rows.ids(), &vec!["q1", "q2", "q3", "q4"]);
        let lines: Vec<usize> = (0..4).map(|i| rows.line(i)).collect();
        assert_eq!(lines, [2, 3, 7, 8]);
        let groups: Vec<_> = (0..4).map(|i| rows.group(i)).collect();
        assert_eq!(groups, [None, Some("g1"), Some("g1"), None]);
        assert!(rows.tags(0).is_empty() && rows.tags(2).is_empty());
        assert_eq!((rows.tags(1), rows.tags(3)), (&ko, &ko));
        assert_eq!(rows.tag_sets.len(), 1, "one copy of each distinct tag set");
        rows.set_group(0, "g0");
        let r = rows.row(0);
        assert_eq!((r.query_id, r.line, r.group), ("q1", 2, Some("g0")));
        let mut plain = Rows::default();
        plain.push("a", 1, None, Tags::default());
        assert!(plain.groups.is_empty() && plain.tags.is_empty());
    }

    #[test]
    fn first_duplicate_is_in_file_order() {
        let rows = |r: &[(&str, usize)]| {
            let mut rows = Rows::default();
            r.iter()
                .for_each(|&(id, line)| rows.push(id, line, None, Tags::default()));
            rows
        };
        let all = [("b", 1), ("a", 2), ("a", 5), ("b", 7)];
        assert_eq!(first_duplicate(&rows(&all)), Some(("a", 5, 2)));
        assert_eq!(first_duplicate(&rows(&all[..2])), None);
        // Ascending ids but for one repeat; ascending ids.
        let asc = rows(&[("a", 1), ("b", 2), ("b", 3), ("c", 4)]);
        assert_eq!(first_duplicate(&asc), Some(("b", 3, 2)));
        assert_eq!(first_duplicate(&rows(&[("a", 1), ("b", 2)])), None);
    }
}
