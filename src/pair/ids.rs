//! Rows by query id for pairing. Both sides are usually written by one harness from one list of
//! queries, so an id is first looked for at the row where it sits in the other file; only a miss
//! builds a hash map of every id (once, on the first miss). The ids of a table are unique (every
//! loader refuses a repeat), so both ways find the same row; files in the same order pair
//! without hashing a single id.

use std::cell::OnceCell;

use crate::input::fasthash::SeededMap;
use crate::load::QueryRow;

/// The rows of one table (or of the queries file), found by query id.
pub struct Ids<'a> {
    rows: &'a [QueryRow],
    map: OnceCell<SeededMap<&'a str, usize>>,
}

impl<'a> Ids<'a> {
    pub fn new(rows: &'a [QueryRow]) -> Self {
        Ids {
            rows,
            map: OnceCell::new(),
        }
    }

    /// The row holding `id`, looked for first at row `at` (where it sits in the other file).
    #[inline]
    pub fn find(&self, id: &str, at: usize) -> Option<usize> {
        if self.rows.get(at).is_some_and(|r| r.query_id == id) {
            return Some(at);
        }
        let map = self.map.get_or_init(|| {
            self.rows
                .iter()
                .enumerate()
                .map(|(i, r)| (r.query_id.as_str(), i))
                .collect()
        });
        map.get(id).copied()
    }

    /// The row `find` gives.
    pub fn row(&self, id: &str, at: usize) -> Option<&'a QueryRow> {
        self.find(id, at).map(|i| &self.rows[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::table::Tags;

    fn rows(ids: &[&str]) -> Vec<QueryRow> {
        ids.iter()
            .enumerate()
            .map(|(line, id)| QueryRow {
                query_id: id.to_string(),
                line: line + 1,
                group: None,
                slices: Tags::default(),
            })
            .collect()
    }

    #[test]
    fn finds_every_id_wherever_it_is_looked_for_first() {
        let t = rows(&["c", "a", "b"]);
        let ids = Ids::new(&t);
        assert_eq!(ids.find("a", 1), Some(1));
        assert!(ids.map.get().is_none(), "a hit at its place builds no map");
        for at in [0, 1, 2, 3, 99] {
            assert_eq!(ids.find("a", at), Some(1));
            assert_eq!(ids.find("c", at), Some(0));
            assert_eq!(ids.find("z", at), None);
        }
        assert_eq!(ids.row("b", 0).map(|r| r.line), Some(3));
        assert_eq!(Ids::new(&[]).find("a", 0), None);
    }
}
