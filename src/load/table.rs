//! The in-memory form of one per-query metric file, whatever format it came in.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::input::fasthash::{SeededMap, SeededSet};

/// One query's row: its id, where it was read, and its optional group and slice tags.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryRow {
    pub query_id: String,
    /// 1-based line of the file where this query was first seen.
    pub line: usize,
    /// Interned: the queries of one group share one string.
    pub group: Option<Arc<str>>,
    pub slices: Tags,
}

/// Per-query metrics of one file: rows plus one column of values per metric (aligned with rows;
/// `None` where a row lacks that metric).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MetricTable {
    /// The path as the user wrote it (relative to the gate file's folder when from a gate file).
    pub source: String,
    pub rows: Vec<QueryRow>,
    /// Canonical metric name → one value per row.
    pub metrics: BTreeMap<String, Vec<Option<f64>>>,
    /// The decimals every value of the file was rounded to, when it shows a fixed-point format
    /// (trec_eval `-q` prints 4); None for values written in full.
    pub rounded_to: Option<u32>,
}

impl MetricTable {
    /// Gives each row without a group the first capture of `re` on its query id
    /// (`[inputs] group-from-id`); ids that do not match keep no group. Returns how many rows
    /// got a group.
    pub fn groups_from_ids(&mut self, re: &regex::Regex) -> usize {
        let mut names: SeededMap<String, Arc<str>> = Default::default();
        let mut n = 0;
        for row in self.rows.iter_mut().filter(|r| r.group.is_none()) {
            let Some(g) = re.captures(&row.query_id).and_then(|c| c.get(1)) else {
                continue;
            };
            let g = g.as_str();
            if g.is_empty() {
                continue;
            }
            let name = names.entry(g.to_string()).or_insert_with(|| Arc::from(g));
            row.group = Some(name.clone());
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
pub fn first_duplicate(rows: &[QueryRow]) -> Option<(&str, usize, usize)> {
    if rows.windows(2).all(|w| w[0].query_id < w[1].query_id) {
        return None;
    }
    let mut seen: SeededMap<&str, usize> =
        SeededMap::with_capacity_and_hasher(rows.len(), Default::default());
    for r in rows {
        if let Some(&first) = seen.get(r.query_id.as_str()) {
            return Some((&r.query_id, r.line, first));
        }
        seen.insert(&r.query_id, r.line);
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
    fn first_duplicate_is_in_file_order() {
        let row = |id: &str, line| QueryRow {
            query_id: id.into(),
            line,
            group: None,
            slices: Tags::default(),
        };
        let rows = [row("b", 1), row("a", 2), row("a", 5), row("b", 7)];
        assert_eq!(first_duplicate(&rows), Some(("a", 5, 2)));
        assert_eq!(first_duplicate(&rows[..2]), None);
        // Ascending ids but for one repeat; ascending ids.
        let rows = [row("a", 1), row("b", 2), row("b", 3), row("c", 4)];
        assert_eq!(first_duplicate(&rows), Some(("b", 3, 2)));
        assert_eq!(first_duplicate(&[row("a", 1), row("b", 2)]), None);
    }
}
