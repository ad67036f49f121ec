//! The bootstrap-t's columns with the spread columns computed per draw instead of stored.
//!
//! `studentized` sums, per resample, each metric's values and its spread columns: (x − x̄)² for
//! queries; r² and r·N with r = S − x̄·N, then N and N², for groups. Stored as columns they double
//! (queries) or more than double (groups) the bytes each draw reads, and at 10^6 units the rows
//! no longer fit the caches, so the draws wait on memory. Here only the values (and the group
//! sizes) are stored, and each draw computes its spread terms with the same operations the
//! stored columns were made with, in the same lanes (position j of a run of indices to lane
//! j mod 4, totals (lane0 + lane1) + (lane2 + lane3), as `columns`). So every sum is the same
//! number, bit for bit, as the stored columns give: only memory traffic changes.

use super::columns::Rows;
use super::page_rows::PageRows;

/// Metrics a spread table takes (more go through stored `Columns`).
pub const MAX_METRICS: usize = 3;

/// The values (and group sizes) of up to `MAX_METRICS` metrics; the spread columns are
/// derived per draw around `centre`. Rows hold the M values, then (groups) the size, padded to
/// 1, 2 or 4 numbers so a row never straddles a cache line.
#[derive(Debug, Clone)]
pub struct SpreadColumns {
    data: Store,
    units: usize,
    metrics: usize,
    centre: [f64; MAX_METRICS],
    groups: bool,
}

/// Rows of 1, 2 or 4 numbers.
#[derive(Debug, Clone)]
enum Store {
    One(PageRows<[f64; 1]>),
    Two(PageRows<[f64; 2]>),
    Four(PageRows<[f64; 4]>),
}

/// Row i of `cols` (the values, then the sizes), zero-padded to `L`.
fn rows<const L: usize>(cols: &[&[f64]], units: usize) -> Vec<[f64; L]> {
    (0..units)
        .map(|i| std::array::from_fn(|c| cols.get(c).map_or(0.0, |col| col[i])))
        .collect()
}

impl SpreadColumns {
    /// `values[m]` per unit, `centre[m]` the observed mean, `sizes` the group sizes (None:
    /// queries). None when there are more metrics than `MAX_METRICS`.
    pub fn new(values: &[&[f64]], centre: &[f64], sizes: Option<&[f64]>) -> Option<Self> {
        let m = values.len();
        if m == 0 || m > MAX_METRICS {
            return None;
        }
        let units = values[0].len();
        let mut cols = values.to_vec();
        cols.extend(sizes);
        let data = match cols.len() {
            1 => Store::One(PageRows::new(rows(&cols, units))),
            2 => Store::Two(PageRows::new(rows(&cols, units))),
            _ => Store::Four(PageRows::new(rows(&cols, units))),
        };
        let mut c = [0.0; MAX_METRICS];
        c[..m].copy_from_slice(centre);
        Some(SpreadColumns {
            data,
            units,
            metrics: m,
            centre: c,
            groups: sizes.is_some(),
        })
    }
}

/// Output columns: queries, M values then M spreads; groups, M values, then r² and r·N per
/// metric, then N and N².
pub const fn width(m: usize, groups: bool) -> usize {
    if groups {
        3 * m + 2
    } else {
        2 * m
    }
}

/// The output columns of one group's row (see `width`), made as `studentized` makes its columns.
#[inline(always)]
fn outputs<const M: usize>(r: &[f64], c: &[f64; MAX_METRICS], out: &mut [f64; 11]) {
    let k = r[M];
    for j in 0..M {
        out[j] = r[j];
        let res = r[j] - c[j] * k;
        out[M + 2 * j] = res * res;
        out[M + 2 * j + 1] = res * k;
    }
    out[3 * M] = k;
    out[3 * M + 1] = k * k;
}

/// Groups: each lane's accumulators are the `width` output columns.
#[inline(always)]
fn add_groups<const M: usize, const L: usize>(
    rows: &[[f64; L]],
    centre: &[f64; MAX_METRICS],
    idx: &[u32],
    acc: &mut [f64],
) {
    let w = width(M, true);
    let mut a = [[0.0f64; 11]; 4];
    for (lane, v) in a.iter_mut().enumerate() {
        v[..w].copy_from_slice(&acc[lane * w..(lane + 1) * w]);
    }
    let mut o = [0.0f64; 11];
    let mut quads = idx.chunks_exact(4);
    for q in &mut quads {
        for lane in 0..4 {
            outputs::<M>(&rows[q[lane] as usize], centre, &mut o);
            for c in 0..w {
                a[lane][c] += o[c];
            }
        }
    }
    for (lane, &i) in quads.remainder().iter().enumerate() {
        outputs::<M>(&rows[i as usize], centre, &mut o);
        for c in 0..w {
            a[lane][c] += o[c];
        }
    }
    for (lane, v) in a.iter().enumerate() {
        acc[lane * w..(lane + 1) * w].copy_from_slice(&v[..w]);
    }
}

/// Queries: the same sums with each lane's accumulators as two rows of `L`, the values' sums and
/// the spreads' sums (a padding column sums zeros), so a drawn row is added with whole-row
/// operations. Lane-major: `acc[(2·lane + k)·L + j]`, k = 0 values, 1 spreads.
#[inline(always)]
fn add_queries<const L: usize>(
    rows: &[[f64; L]],
    centre: &[f64; MAX_METRICS],
    idx: &[u32],
    acc: &mut [f64],
) {
    let c: [f64; L] = std::array::from_fn(|j| centre.get(j).copied().unwrap_or(0.0));
    let mut a = [[[0.0f64; L]; 2]; 4];
    for (lane, sums) in a.iter_mut().enumerate() {
        for (k, s) in sums.iter_mut().enumerate() {
            s.copy_from_slice(&acc[(2 * lane + k) * L..(2 * lane + k + 1) * L]);
        }
    }
    let add = |sums: &mut [[f64; L]; 2], r: &[f64; L]| {
        for j in 0..L {
            sums[0][j] += r[j];
            sums[1][j] += (r[j] - c[j]) * (r[j] - c[j]);
        }
    };
    let mut quads = idx.chunks_exact(4);
    for q in &mut quads {
        for (sums, &i) in a.iter_mut().zip(q) {
            add(sums, &rows[i as usize]);
        }
    }
    for (sums, &i) in a.iter_mut().zip(quads.remainder()) {
        add(sums, &rows[i as usize]);
    }
    for (lane, sums) in a.iter().enumerate() {
        for (k, s) in sums.iter().enumerate() {
            acc[(2 * lane + k) * L..(2 * lane + k + 1) * L].copy_from_slice(s);
        }
    }
}

impl SpreadColumns {
    /// Numbers per stored row (1, 2 or 4).
    fn row_width(&self) -> usize {
        match self.data {
            Store::One(_) => 1,
            Store::Two(_) => 2,
            Store::Four(_) => 4,
        }
    }
}

impl Rows for SpreadColumns {
    fn units(&self) -> usize {
        self.units
    }

    fn width(&self) -> usize {
        width(self.metrics, self.groups)
    }

    fn lanes(&self) -> Vec<f64> {
        match self.groups {
            false => vec![0.0; 4 * 2 * self.row_width()],
            true => vec![0.0; 4 * self.width()],
        }
    }

    #[inline(always)]
    fn add_rows(&self, idx: &[u32], acc: &mut [f64]) {
        let c = &self.centre;
        match (&self.data, self.metrics, self.groups) {
            (Store::One(r), _, _) => add_queries(r, c, idx, acc),
            (Store::Two(r), _, false) => add_queries(r, c, idx, acc),
            (Store::Two(r), _, _) => add_groups::<1, 2>(r, c, idx, acc),
            (Store::Four(r), _, false) => add_queries(r, c, idx, acc),
            (Store::Four(r), 2, _) => add_groups::<2, 4>(r, c, idx, acc),
            (Store::Four(r), _, _) => add_groups::<3, 4>(r, c, idx, acc),
        }
    }

    fn totals(&self, acc: &[f64], out: &mut [f64]) {
        // Column c's lane l sits at acc[l·stride + at(c)].
        let (stride, m, l) = (acc.len() / 4, self.metrics, self.row_width());
        let at = |c: usize| match self.groups {
            false if c < m => c,
            false => l + c - m,
            true => c,
        };
        for (c, o) in out.iter_mut().enumerate().take(self.width()) {
            let a = |lane: usize| acc[lane * stride + at(c)];
            *o = (a(0) + a(1)) + (a(2) + a(3));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::columns::Columns;

    fn sums(t: &dyn Rows, runs: &[&[u32]]) -> Vec<f64> {
        let mut acc = t.lanes();
        for r in runs {
            t.add_rows(r, &mut acc);
        }
        let mut out = vec![0.0; t.width()];
        t.totals(&acc, &mut out);
        out
    }

    #[test]
    fn derived_sums_equal_the_stored_columns_bit_for_bit() {
        let n = 41;
        let x: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin() * 0.3).collect();
        let y: Vec<f64> = (0..n).map(|i| (i as f64 * 1.1).cos()).collect();
        let z: Vec<f64> = (0..n).map(|i| ((i * i) % 7) as f64 / 7.0 - 0.4).collect();
        let k: Vec<f64> = (0..n).map(|i| (1 + i % 4) as f64).collect();
        let idx: Vec<u32> = (0..97).map(|i| (i * 13 % n) as u32).collect();
        let runs: [&[u32]; 3] = [&idx[..10], &idx[10..63], &idx[63..]];
        let all: [&[f64]; 3] = [&x, &y, &z];
        for m in 1..=3 {
            let vals = &all[..m];
            let centre: Vec<f64> = vals.iter().map(|v| v.iter().sum::<f64>() / 29.0).collect();
            // Queries: values, then (v − c)².
            let mut cols: Vec<Vec<f64>> = vals.iter().map(|v| v.to_vec()).collect();
            for (v, c) in vals.iter().zip(&centre) {
                cols.push(v.iter().map(|v| (v - c) * (v - c)).collect());
            }
            let refs: Vec<&[f64]> = cols.iter().map(Vec::as_slice).collect();
            let stored = sums(&Columns::new(&refs), &runs);
            let spread = SpreadColumns::new(vals, &centre, None).expect("≤ 3 metrics");
            let derived = sums(&spread, &runs);
            assert_eq!(
                stored.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                derived.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                "queries, {m} metrics"
            );
            // Groups: values, then r² and r·N per metric, then N and N².
            let mut cols: Vec<Vec<f64>> = vals.iter().map(|v| v.to_vec()).collect();
            for (v, c) in vals.iter().zip(&centre) {
                let r: Vec<f64> = v.iter().zip(&k).map(|(s, k)| s - c * k).collect();
                cols.push(r.iter().map(|r| r * r).collect());
                cols.push(r.iter().zip(&k).map(|(r, k)| r * k).collect());
            }
            cols.push(k.clone());
            cols.push(k.iter().map(|k| k * k).collect());
            let refs: Vec<&[f64]> = cols.iter().map(Vec::as_slice).collect();
            let stored = sums(&Columns::new(&refs), &runs);
            let spread = SpreadColumns::new(vals, &centre, Some(&k)).expect("≤ 3 metrics");
            let derived = sums(&spread, &runs);
            assert_eq!(
                stored.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                derived.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                "groups, {m} metrics"
            );
        }
        assert!(SpreadColumns::new(&[&x, &y, &z, &x], &[0.0; 4], None).is_none());
    }
}
