//! Per-unit values of several columns kept row by row, in blocks of up to eight columns, so one
//! drawn unit feeds every column from one cache line: the layout that lets all metrics of a
//! slice share one index stream (`bootstrap`) and one sign stream (`signflip`). Five to eight
//! columns share one 64-byte row aligned to a cache line (bootstrap-t's three means and three
//! spreads: one memory access a draw instead of two).
//!
//! Sums use four lanes per column: the value at position j of a run of rows goes to lane j mod 4,
//! and a column's total is (lane0 + lane1) + (lane2 + lane3). A column's sums therefore do not
//! depend on which other columns share the table.

use super::page_rows::PageRows;

/// What the bootstrap draws from: per-unit rows whose columns are summed over drawn runs of
/// indices in four lanes (`Columns`, or `spread_columns::SpreadColumns`).
pub trait Rows: Sync {
    /// Number of units (rows).
    fn units(&self) -> usize;
    /// Number of summed columns.
    fn width(&self) -> usize;
    /// Lane accumulators, all zero.
    fn lanes(&self) -> Vec<f64>;
    /// Adds the rows `idx` (a run; position j goes to lane j mod 4) into `acc`.
    fn add_rows(&self, idx: &[u32], acc: &mut [f64]);
    /// Each column's total from the lanes: (lane0 + lane1) + (lane2 + lane3).
    fn totals(&self, acc: &[f64], out: &mut [f64]);
}

impl Rows for Columns {
    fn units(&self) -> usize {
        Columns::units(self)
    }
    fn width(&self) -> usize {
        Columns::width(self)
    }
    fn lanes(&self) -> Vec<f64> {
        Columns::lanes(self)
    }
    #[inline(always)]
    fn add_rows(&self, idx: &[u32], acc: &mut [f64]) {
        Columns::add_rows(self, idx, acc)
    }
    fn totals(&self, acc: &[f64], out: &mut [f64]) {
        Columns::totals(self, acc, out)
    }
}

/// Rows of one block: `L` columns per unit.
#[derive(Debug, Clone)]
enum Block {
    One(PageRows<[f64; 1]>),
    Two(PageRows<[f64; 2]>),
    /// Three columns stored as four (a zero fourth), so rows are 32 bytes and never straddle a
    /// cache line.
    Three(PageRows<[f64; 4]>),
    Four(PageRows<[f64; 4]>),
    /// Five to eight columns in one cache-line row (zeros after the `usize` real ones).
    Eight(PageRows<Line>, usize),
}

/// Eight values in one 64-byte row, aligned so a row is one cache line.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
struct Line([f64; 8]);

/// A stored row of `L` values.
trait Row<const L: usize> {
    fn values(&self) -> &[f64; L];
}

impl<const L: usize> Row<L> for [f64; L] {
    #[inline]
    fn values(&self) -> &[f64; L] {
        self
    }
}

impl Row<8> for Line {
    #[inline]
    fn values(&self) -> &[f64; 8] {
        &self.0
    }
}

impl Block {
    /// Columns stored per row, and how many of them are real (a block of three has a zero fourth).
    fn widths(&self) -> (usize, usize) {
        match self {
            Block::One(_) => (1, 1),
            Block::Two(_) => (2, 2),
            Block::Three(_) => (4, 3),
            Block::Four(_) => (4, 4),
            Block::Eight(_, used) => (8, *used),
        }
    }
}

/// A table of `units` rows × `width` columns.
#[derive(Debug, Clone)]
pub struct Columns {
    units: usize,
    width: usize,
    blocks: Vec<Block>,
}

fn rows<const L: usize>(cols: &[&[f64]], units: usize) -> Vec<[f64; L]> {
    (0..units)
        .map(|i| std::array::from_fn(|c| cols[c][i]))
        .collect()
}

impl Columns {
    /// Panics if there are no columns or they differ in length.
    pub fn new(cols: &[&[f64]]) -> Columns {
        assert!(!cols.is_empty(), "a table needs at least one column");
        let units = cols[0].len();
        assert!(
            cols.iter().all(|c| c.len() == units),
            "columns differ in length"
        );
        let zero = vec![0.0; units];
        let blocks = cols
            .chunks(8)
            .map(|b| match b.len() {
                1 => Block::One(PageRows::new(rows(b, units))),
                2 => Block::Two(PageRows::new(rows(b, units))),
                3 => Block::Three(PageRows::new(rows(&[b[0], b[1], b[2], &zero], units))),
                4 => Block::Four(PageRows::new(rows(b, units))),
                used => {
                    let mut padded = b.to_vec();
                    padded.resize(8, &zero);
                    let lines = rows::<8>(&padded, units).into_iter().map(Line).collect();
                    Block::Eight(PageRows::new(lines), used)
                }
            })
            .collect();
        Columns {
            units,
            width: cols.len(),
            blocks,
        }
    }

    pub fn units(&self) -> usize {
        self.units
    }

    pub fn width(&self) -> usize {
        self.width
    }

    /// Lane accumulators for this table, all zero (see `add_rows`).
    pub fn lanes(&self) -> Vec<f64> {
        let stored: usize = self.blocks.iter().map(|b| b.widths().0).sum();
        vec![0.0; 4 * stored]
    }

    /// Adds the rows `idx` (a run; position j goes to lane j mod 4) into `acc`.
    #[inline(always)]
    pub fn add_rows(&self, idx: &[u32], acc: &mut [f64]) {
        let mut at = 0;
        for b in &self.blocks {
            at += match b {
                Block::One(r) => add_rows(r, idx, &mut acc[at..]),
                Block::Two(r) => add_rows(r, idx, &mut acc[at..]),
                Block::Three(r) => add_rows(r, idx, &mut acc[at..]),
                Block::Four(r) => add_rows(r, idx, &mut acc[at..]),
                Block::Eight(r, _) => add_line_rows(r, idx, &mut acc[at..]),
            };
        }
    }

    /// Adds rows `start..start + len` (start a multiple of 64, len ≤ 64), row start + j with its
    /// sign flipped when bit j of `signs` is set, into `acc` (lane j mod 4).
    #[inline(always)]
    pub fn add_signed_rows(&self, start: usize, len: usize, signs: u64, acc: &mut [f64]) {
        let mut at = 0;
        for b in &self.blocks {
            at += match b {
                Block::One(r) => add_signed(&r[start..start + len], signs, &mut acc[at..]),
                Block::Two(r) => add_signed(&r[start..start + len], signs, &mut acc[at..]),
                Block::Three(r) => add_signed(&r[start..start + len], signs, &mut acc[at..]),
                Block::Four(r) => add_signed(&r[start..start + len], signs, &mut acc[at..]),
                Block::Eight(r, _) => add_signed(&r[start..start + len], signs, &mut acc[at..]),
            };
        }
    }

    /// Each column's total from the lanes: (lane0 + lane1) + (lane2 + lane3).
    pub fn totals(&self, acc: &[f64], out: &mut [f64]) {
        let mut at = 0;
        let mut col = 0;
        for b in &self.blocks {
            let (l, used) = b.widths();
            let a = &acc[at..at + 4 * l];
            for c in 0..used {
                out[col + c] = (a[c] + a[l + c]) + (a[2 * l + c] + a[3 * l + c]);
            }
            at += 4 * l;
            col += used;
        }
    }
}

/// Lane-major accumulators of one block: `acc[lane * L + c]`. Returns the slots used (4·L).
#[inline(always)]
fn add_rows<const L: usize, R: Row<L>>(rows: &[R], idx: &[u32], acc: &mut [f64]) -> usize {
    let mut a = [[0.0f64; L]; 4];
    for (lane, v) in a.iter_mut().enumerate() {
        v.copy_from_slice(&acc[lane * L..(lane + 1) * L]);
    }
    let mut quads = idx.chunks_exact(4);
    for q in &mut quads {
        for lane in 0..4 {
            let r = rows[q[lane] as usize].values();
            for c in 0..L {
                a[lane][c] += r[c];
            }
        }
    }
    for (lane, &i) in quads.remainder().iter().enumerate() {
        let r = rows[i as usize].values();
        for c in 0..L {
            a[lane][c] += r[c];
        }
    }
    for (lane, v) in a.iter().enumerate() {
        acc[lane * L..(lane + 1) * L].copy_from_slice(v);
    }
    4 * L
}

/// `add_rows` for cache-line rows, in two passes over `idx`: columns 0–3, then 4–7. A run of
/// drawn indices (one batch, a few hundred at most) stays in L1 between the passes, so the
/// second costs no memory access, and each pass's 16 accumulators fit the registers (one pass of
/// 32 spills them). Each column gets the same additions in the same order as in `add_rows`.
#[inline]
fn add_line_rows(rows: &[Line], idx: &[u32], acc: &mut [f64]) -> usize {
    for half in [0, 4] {
        let mut a = [[0.0f64; 4]; 4];
        for (lane, v) in a.iter_mut().enumerate() {
            v.copy_from_slice(&acc[lane * 8 + half..lane * 8 + half + 4]);
        }
        let mut quads = idx.chunks_exact(4);
        for q in &mut quads {
            for lane in 0..4 {
                let r = &rows[q[lane] as usize].0[half..half + 4];
                for c in 0..4 {
                    a[lane][c] += r[c];
                }
            }
        }
        for (lane, &i) in quads.remainder().iter().enumerate() {
            let r = &rows[i as usize].0[half..half + 4];
            for c in 0..4 {
                a[lane][c] += r[c];
            }
        }
        for (lane, v) in a.iter().enumerate() {
            acc[lane * 8 + half..lane * 8 + half + 4].copy_from_slice(v);
        }
    }
    32
}

/// For each byte value, the eight sign-bit masks its bits stand for (bit r → mask r).
static SIGN_MASKS: [[u64; 8]; 256] = {
    let mut t = [[0u64; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut r = 0;
        while r < 8 {
            t[b][r] = ((b as u64 >> r) & 1) << 63;
            r += 1;
        }
        b += 1;
    }
    t
};

/// As `add_rows` over consecutive rows, flipping the sign bit of row j when bit j of `signs` is
/// set (no branch).
#[inline(always)]
fn add_signed<const L: usize, R: Row<L>>(rows: &[R], signs: u64, acc: &mut [f64]) -> usize {
    let mut a = [[0.0f64; L]; 4];
    for (lane, v) in a.iter_mut().enumerate() {
        v.copy_from_slice(&acc[lane * L..(lane + 1) * L]);
    }
    // Eight rows at a time, their sign masks looked up by the byte of `signs` that covers them.
    let mut octets = rows.chunks_exact(8);
    let mut j = 0;
    for o in &mut octets {
        let masks = &SIGN_MASKS[((signs >> j) & 0xFF) as usize];
        for (r, row) in o.iter().enumerate() {
            let row = row.values();
            for c in 0..L {
                a[r & 3][c] += f64::from_bits(row[c].to_bits() ^ masks[r]);
            }
        }
        j += 8;
    }
    for (r, row) in octets.remainder().iter().enumerate() {
        let flip = ((signs >> (j + r)) & 1) << 63;
        let row = row.values();
        for c in 0..L {
            a[r & 3][c] += f64::from_bits(row[c].to_bits() ^ flip);
        }
    }
    for (lane, v) in a.iter().enumerate() {
        acc[lane * L..(lane + 1) * L].copy_from_slice(v);
    }
    4 * L
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_per_column_do_not_depend_on_the_other_columns() {
        let x: Vec<f64> = (0..37).map(|i| (i as f64 * 0.37).sin()).collect();
        let y: Vec<f64> = (0..37).map(|i| (i as f64 * 1.1).cos()).collect();
        let idx: Vec<u32> = (0..53).map(|i| (i * 7 % 37) as u32).collect();
        let alone = Columns::new(&[&x]);
        let mut a = alone.lanes();
        alone.add_rows(&idx[..10], &mut a);
        alone.add_rows(&idx[10..], &mut a);
        let mut xs = [0.0];
        alone.totals(&a, &mut xs);
        for width in 2..=9 {
            let mut cols: Vec<&[f64]> = vec![&y; width];
            cols[width / 2] = &x;
            let t = Columns::new(&cols);
            let mut acc = t.lanes();
            t.add_rows(&idx[..10], &mut acc);
            t.add_rows(&idx[10..], &mut acc);
            let mut out = vec![0.0; width];
            t.totals(&acc, &mut out);
            assert_eq!(out[width / 2].to_bits(), xs[0].to_bits(), "width {width}");
            // Against a plain sum in the same lane order.
            let mut lanes = [0.0; 4];
            for run in [&idx[..10], &idx[10..]] {
                for (j, &i) in run.iter().enumerate() {
                    lanes[j & 3] += y[i as usize];
                }
            }
            assert_eq!(out[0], (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]));
        }
    }

    #[test]
    fn signed_rows_flip_the_marked_rows() {
        let x: Vec<f64> = (0..70).map(|i| i as f64 + 1.0).collect();
        let t = Columns::new(&[&x, &x, &x]);
        let mut acc = t.lanes();
        t.add_signed_rows(0, 64, 0b1011, &mut acc);
        t.add_signed_rows(64, 6, u64::MAX, &mut acc);
        let mut out = [0.0; 3];
        t.totals(&acc, &mut out);
        let want: f64 = (1..=64).map(f64::from).sum::<f64>()
            - 2.0 * (1.0 + 2.0 + 4.0)
            - (65..=70).map(f64::from).sum::<f64>();
        assert_eq!(out, [want; 3]);
    }
}
