//! Compact columns for a million-row table: query ids in one byte buffer with their end offsets
//! (13 bytes a nine-character id, not a `String`'s 24 bytes and a heap block of 32), and whole
//! numbers (ends, lines) stored in 4 bytes each while they fit, or in none while each is the
//! previous plus one (a file's lines, one query a line).

use std::ops::Index;

/// Whole numbers, one a row: `Step` while every one is the first plus its index, then `Narrow`
/// (u32) while they fit, then `Wide` (u64).
#[derive(Debug, Clone)]
pub enum Numbers {
    Step { first: u64, len: usize },
    Narrow(Vec<u32>),
    Wide(Vec<u64>),
}

impl Default for Numbers {
    fn default() -> Self {
        Numbers::Step { first: 0, len: 0 }
    }
}

impl Numbers {
    pub fn len(&self) -> usize {
        match self {
            Numbers::Step { len, .. } => *len,
            Numbers::Narrow(v) => v.len(),
            Numbers::Wide(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    #[inline]
    pub fn get(&self, i: usize) -> u64 {
        match self {
            Numbers::Step { first, .. } => first + i as u64,
            Numbers::Narrow(v) => u64::from(v[i]),
            Numbers::Wide(v) => v[i],
        }
    }

    pub fn push(&mut self, x: u64) {
        match self {
            Numbers::Step { first, len } if *len == 0 => (*first, *len) = (x, 1),
            Numbers::Step { first, len } if *first + *len as u64 == x => *len += 1,
            Numbers::Narrow(v) if x <= u64::from(u32::MAX) => v.push(x as u32),
            Numbers::Wide(v) => v.push(x),
            _ => {
                self.widen(x);
                self.push(x);
            }
        }
    }

    /// The next form that can hold `x` after every number so far.
    fn widen(&mut self, x: u64) {
        let n = self.len();
        let all = (0..n).map(|i| self.get(i));
        let last = if n == 0 { 0 } else { self.get(n - 1) };
        *self = match last.max(x) <= u64::from(u32::MAX) {
            true => Numbers::Narrow(all.map(|v| v as u32).collect()),
            false => Numbers::Wide(all.collect()),
        };
    }
}

/// Query ids in one buffer, in row order.
#[derive(Debug, Clone, Default)]
pub struct IdColumn {
    bytes: Vec<u8>,
    ends: Numbers,
}

impl IdColumn {
    pub fn with_capacity(rows: usize, bytes: usize) -> Self {
        IdColumn {
            bytes: Vec::with_capacity(bytes),
            ends: Numbers::Narrow(Vec::with_capacity(rows)),
        }
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    #[inline]
    pub fn get(&self, i: usize) -> &str {
        let start = if i == 0 {
            0
        } else {
            self.ends.get(i - 1) as usize
        };
        let end = self.ends.get(i) as usize;
        // Only whole `&str`s are pushed, so every span is valid UTF-8.
        std::str::from_utf8(&self.bytes[start..end]).expect("ids are pushed as str")
    }

    pub fn push(&mut self, id: &str) {
        self.bytes.extend_from_slice(id.as_bytes());
        self.ends.push(self.bytes.len() as u64);
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + DoubleEndedIterator + Clone + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Gives back the spare capacity of a column built by pushing.
    pub fn shrink_to_fit(&mut self) {
        self.bytes.shrink_to_fit();
        if let Numbers::Narrow(v) = &mut self.ends {
            v.shrink_to_fit();
        }
    }
}

impl Index<usize> for IdColumn {
    type Output = str;
    fn index(&self, i: usize) -> &str {
        self.get(i)
    }
}

impl PartialEq for IdColumn {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<S: AsRef<str>> PartialEq<Vec<S>> for IdColumn {
    fn eq(&self, other: &Vec<S>) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter().map(AsRef::as_ref))
    }
}

impl<S: AsRef<str>> FromIterator<S> for IdColumn {
    fn from_iter<I: IntoIterator<Item = S>>(it: I) -> Self {
        let mut ids = IdColumn::default();
        it.into_iter().for_each(|s| ids.push(s.as_ref()));
        ids
    }
}

impl<'a> IntoIterator for &'a IdColumn {
    type Item = &'a str;
    type IntoIter = Box<dyn Iterator<Item = &'a str> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_every_value_through_each_form() {
        let mut n = Numbers::default();
        for x in [3, 4, 5] {
            n.push(x);
        }
        assert!(matches!(n, Numbers::Step { first: 3, len: 3 }));
        n.push(9);
        assert!(matches!(n, Numbers::Narrow(_)));
        n.push(u64::from(u32::MAX) + 7);
        assert!(matches!(n, Numbers::Wide(_)));
        let got: Vec<u64> = (0..n.len()).map(|i| n.get(i)).collect();
        assert_eq!(got, [3, 4, 5, 9, u64::from(u32::MAX) + 7]);
    }

    #[test]
    fn ids_come_back_as_pushed() {
        let ids: IdColumn = ["q1", "", "é-2", "q1"].into_iter().collect();
        assert_eq!(ids.len(), 4);
        assert_eq!(&ids[2], "é-2");
        assert_eq!(ids, vec!["q1", "", "é-2", "q1"]);
        assert_eq!(ids.iter().next_back(), Some("q1"));
        assert!(IdColumn::default().is_empty());
    }
}
