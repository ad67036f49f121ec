//! One metric's values in a per-query table: plain `f64`s and a bitmap of the missing ones.

/// One metric's values, one a row: `f64`s and a bit for each missing one (no bits at all while
/// none is missing).
#[derive(Debug, Clone, Default)]
pub struct Column {
    values: Vec<f64>,
    /// Bit `i % 64` of word `i / 64` set: row `i` has no value; words past the end: all present.
    absent: Vec<u64>,
}

impl Column {
    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    #[inline]
    pub fn get(&self, i: usize) -> Option<f64> {
        let missing = self
            .absent
            .get(i / 64)
            .is_some_and(|w| w >> (i % 64) & 1 == 1);
        (!missing).then(|| self.values[i])
    }

    pub fn push(&mut self, v: Option<f64>) {
        self.values.push(0.0);
        self.set(self.values.len() - 1, v);
    }

    /// Sets row `i` (which must exist).
    pub fn set(&mut self, i: usize, v: Option<f64>) {
        let (w, bit) = (i / 64, 1u64 << (i % 64));
        match v {
            Some(x) => {
                self.values[i] = x;
                if let Some(word) = self.absent.get_mut(w) {
                    *word &= !bit;
                }
            }
            None => {
                self.values[i] = 0.0;
                if self.absent.len() <= w {
                    self.absent.resize(w + 1, 0);
                }
                self.absent[w] |= bit;
            }
        }
    }

    /// Pads the column with missing values to `n` rows.
    pub fn pad_to(&mut self, n: usize) {
        while self.len() < n {
            self.push(None);
        }
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = Option<f64>> + Clone + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    pub fn shrink_to_fit(&mut self) {
        self.values.shrink_to_fit();
        self.absent.shrink_to_fit();
    }
}

impl PartialEq for Column {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl PartialEq<Vec<Option<f64>>> for Column {
    fn eq(&self, other: &Vec<Option<f64>>) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter().copied())
    }
}

impl FromIterator<Option<f64>> for Column {
    fn from_iter<I: IntoIterator<Item = Option<f64>>>(it: I) -> Self {
        let mut c = Column::default();
        it.into_iter().for_each(|v| c.push(v));
        c
    }
}

impl From<Vec<Option<f64>>> for Column {
    fn from(v: Vec<Option<f64>>) -> Self {
        v.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_keeps_values_and_missing_ones_past_a_bitmap_word() {
        let mut c = Column::default();
        for i in 0..130 {
            c.push((i % 3 != 0).then_some(i as f64 / 2.0));
        }
        assert_eq!(c.len(), 130);
        assert_eq!((c.get(0), c.get(1), c.get(129)), (None, Some(0.5), None));
        assert_eq!(c.get(128), Some(64.0));
        c.set(129, Some(-0.0));
        c.set(1, None);
        assert_eq!((c.get(129), c.get(1)), (Some(-0.0), None));
        c.pad_to(200);
        assert_eq!((c.len(), c.get(199)), (200, None));
        let full: Column = vec![Some(1.0), Some(f64::MAX)].into();
        assert_eq!(full, vec![Some(1.0), Some(f64::MAX)]);
        assert_eq!(full.iter().collect::<Vec<_>>(), [Some(1.0), Some(f64::MAX)]);
    }
}
