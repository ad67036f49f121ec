//! Rows by query id for pairing. Both sides are usually written by one harness from one list of
//! queries, so an id is first looked for at the row where it sits in the other file; only a miss
//! builds a hash map of every id (once, on the first miss). The ids of a table are unique (every
//! loader refuses a repeat), so both ways find the same row; files in the same order pair
//! without hashing a single id.

use std::cell::OnceCell;

use crate::input::fasthash::SeededMap;
use crate::load::{Row, Rows};

/// The rows of one table (or of the queries file), found by query id.
pub struct Ids<'a> {
    rows: &'a Rows,
    map: OnceCell<SeededMap<&'a str, usize>>,
}

impl<'a> Ids<'a> {
    pub fn new(rows: &'a Rows) -> Self {
        Ids {
            rows,
            map: OnceCell::new(),
        }
    }

    /// The row holding `id`, looked for first at row `at` (where it sits in the other file).
    #[inline]
    pub fn find(&self, id: &str, at: usize) -> Option<usize> {
        if at < self.rows.len() && self.rows.id(at) == id {
            return Some(at);
        }
        let map = self.map.get_or_init(|| {
            self.rows
                .ids()
                .iter()
                .enumerate()
                .map(|(i, id)| (id, i))
                .collect()
        });
        map.get(id).copied()
    }

    /// The row `find` gives.
    pub fn row(&self, id: &str, at: usize) -> Option<Row<'a>> {
        self.find(id, at).map(|i| self.rows.row(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::table::Tags;

    fn rows(ids: &[&str]) -> Rows {
        let mut rows = Rows::default();
        for (line, id) in ids.iter().enumerate() {
            rows.push(id, line + 1, None, Tags::default());
        }
        rows
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
        assert_eq!(Ids::new(&Rows::default()).find("a", 0), None);
    }
}
