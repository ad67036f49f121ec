//! Both sides' values coded once for windowed counts: what a drawn (or swapped) unit adds to the
//! counts of `Window`.
//!
//! The query unit keeps one code per value (its rank's slot, or a spill slot spread by the
//! query's index). A unit of several queries is coded as a whole: how many of its values lie
//! below each side's window, added to the first spill slot in one step, and the slots of its few
//! values inside the windows; its values above a window are not counted at all. `Window::quantile`
//! reads only the sum of the spill slots below and the window's own slots, so the quantiles are
//! the same numbers, and a drawn group of ten costs a couple of additions instead of twenty
//! increments (most values lie outside a window a few standard deviations wide).

use super::{rank_at, reach, spread, Window, SPILL};
use crate::stats::order_counts::Ranks;

/// Both sides' values coded for windowed counts, in unit order: the window of the baseline's
/// counts and of the candidate's, and what each unit adds to them. The counts of both sides are
/// one buffer (`counts`): the baseline window's slots, then from `split` the candidate's.
#[derive(Debug, Clone)]
pub struct Coded {
    pub windows: [Window; 2],
    layout: Layout,
    /// Resampling units.
    units: usize,
    /// Queries over all units.
    queries: usize,
    /// Where the candidate's counts start in `counts`.
    split: usize,
}

/// What each unit adds to the counts. A slot below `split` counts a baseline value, one from
/// `split` on a candidate value (the sign flip's two windows are the same, so `slot − split` is
/// the same rank's slot on the baseline side).
#[derive(Debug, Clone)]
enum Layout {
    /// The query unit (unit u is query u): per query its baseline value's slot and its candidate
    /// value's (`Window::code`, spill slots spread by the query's index).
    Queries(Vec<[u32; 2]>),
    /// Units of several queries, each inside the windows at most `stride − 3` times: one record
    /// of `stride` words a unit, `stride` dividing a line: its size, its baseline values below the
    /// baseline's window, its candidate values below the candidate's, then the slots of its values
    /// inside the windows, padded with slots above a window (counted, never read), so every unit
    /// costs the same and the loop over its slots has a fixed trip count.
    Fixed { stride: usize, lines: Vec<Line> },
    /// Any other units: per unit a `Head` (one more at the end, where the last unit's slots end),
    /// and in `inside` the slots of the units' values inside the windows, unit after unit.
    Units { heads: Vec<Head>, inside: Vec<u32> },
}

/// Sixteen words on one cache line: the records of `Layout::Fixed`.
#[derive(Debug, Clone, Copy, Default)]
#[repr(C, align(64))]
struct Line([u32; 16]);

/// A unit of `Layout::Units`.
#[derive(Debug, Clone, Copy, Default)]
#[repr(C, align(16))]
struct Head {
    /// Where its slots start in `inside` (they end where the next unit's start).
    at: u32,
    /// Its queries.
    size: u32,
    /// Its baseline values below the baseline's window and candidate values below the
    /// candidate's.
    below: [u32; 2],
}

/// Whether unit u is query u for every u: the query unit.
fn query_unit(units: &[Vec<u32>]) -> bool {
    units
        .iter()
        .enumerate()
        .all(|(u, m)| m.len() == 1 && m[0] as usize == u)
}

/// How many values of side `side` (0 baseline, 1 candidate) have each rank.
fn per_rank(ranks: &Ranks, side: usize) -> Vec<u32> {
    let mut c = vec![0u32; ranks.values.len()];
    for r in &ranks.ranks {
        c[r[side] as usize] += 1;
    }
    c
}

/// Per unit, f summed over its queries.
fn per_unit<'a>(
    units: &'a [Vec<u32>],
    f: impl Fn(usize) -> f64 + Clone + 'a,
) -> impl Iterator<Item = f64> + Clone + 'a {
    units
        .iter()
        .map(move |m| m.iter().map(|&i| f(i as usize)).sum())
}

impl Coded {
    /// The paired bootstrap's coding: each side's window around its own p-quantile, reaching
    /// by the spread of Σ (values below it − p) over drawn units.
    pub fn for_bootstrap(ranks: &Ranks, units: &[Vec<u32>], p: f64) -> Coded {
        let n = ranks.ranks.len();
        let center = ((n - 1) as f64 * p.clamp(0.0, 1.0)).floor() as usize;
        let windows = [0, 1].map(|side| {
            let counts = per_rank(ranks, side);
            let q = rank_at(&counts, center) as u32;
            let below = |i: usize| f64::from(u8::from(ranks.ranks[i][side] <= q)) - p;
            let sd = spread(per_unit(units, below), true);
            Window::around(&ranks.values, &counts, center, reach(sd))
        });
        Coded::with_windows(ranks, units, windows)
    }

    /// The sign flip's coding: one window for both sides' counts, around the pooled p-quantile
    /// (each side then holds about half of every pooled count), reaching twice the spread of
    /// Σ ± (baseline below − candidate below) / 2 over units.
    pub fn for_signflip(ranks: &Ranks, units: &[Vec<u32>], p: f64) -> Coded {
        let n = ranks.ranks.len();
        let center = 2 * ((n - 1) as f64 * p.clamp(0.0, 1.0)).floor() as usize;
        let mut counts = per_rank(ranks, 0);
        for (c, k) in counts.iter_mut().zip(per_rank(ranks, 1)) {
            *c += k;
        }
        let q = rank_at(&counts, center) as u32;
        let half = |i: usize| {
            let [b, c] = ranks.ranks[i];
            (f64::from(u8::from(b <= q)) - f64::from(u8::from(c <= q))) / 2.0
        };
        let sd = spread(per_unit(units, half), false);
        let w = Window::around(&ranks.values, &counts, center, 2 * reach(sd));
        Coded::with_windows(ranks, units, [w.clone(), w])
    }

    /// Both sides coded in the given windows (baseline, candidate).
    pub fn with_windows(ranks: &Ranks, units: &[Vec<u32>], windows: [Window; 2]) -> Coded {
        let queries = units.iter().map(Vec::len).sum();
        let split = windows[0].counts().len();
        assert!(
            split + windows[1].counts().len() <= u32::MAX as usize,
            "windows too wide for 32-bit slots"
        );
        let layout = if query_unit(units) {
            Layout::Queries(
                (0..units.len())
                    .map(|i| {
                        let [b, c] = ranks.ranks[i];
                        [windows[0].code(b, i), split as u32 + windows[1].code(c, i)]
                    })
                    .collect(),
            )
        } else {
            let coded: Vec<Unit> = units
                .iter()
                .map(|m| Unit::new(ranks, m, &windows, split))
                .collect();
            let len = split + windows[1].counts().len();
            fixed_layout(&coded, split, len).unwrap_or_else(|| units_layout(&coded))
        };
        Coded {
            windows,
            layout,
            units: units.len(),
            queries,
            split,
        }
    }

    /// Queries over all units.
    pub fn queries(&self) -> usize {
        self.queries
    }

    /// Resampling units.
    pub fn units(&self) -> usize {
        self.units
    }

    /// Zero counts of both sides: the baseline window's (`Window::counts`), then from `split`
    /// the candidate window's.
    pub fn counts(&self) -> Vec<u32> {
        vec![0; self.split + self.windows[1].counts().len()]
    }

    /// Where the candidate's counts start in `counts`.
    pub fn split(&self) -> usize {
        self.split
    }

    /// Counts the values of the units in `run` in `counts` (both sides, see `counts`); returns
    /// how many queries they hold.
    #[inline]
    pub fn add_units(&self, run: &[u32], counts: &mut [u32]) -> usize {
        match &self.layout {
            Layout::Queries(codes) => {
                for &u in run {
                    let [x, y] = codes[u as usize];
                    counts[x as usize] += 1;
                    counts[y as usize] += 1;
                }
                run.len()
            }
            Layout::Fixed { stride: 4, lines } => add_fixed::<4>(lines, run, counts, self.split),
            Layout::Fixed { stride: 8, lines } => add_fixed::<8>(lines, run, counts, self.split),
            Layout::Fixed { lines, .. } => add_fixed::<16>(lines, run, counts, self.split),
            Layout::Units { heads, inside } => {
                let (mut below, mut total) = ([0u32; 2], 0usize);
                for &u in run {
                    let (h, end) = (heads[u as usize], heads[u as usize + 1].at);
                    below[0] += h.below[0];
                    below[1] += h.below[1];
                    total += h.size as usize;
                    for &s in &inside[h.at as usize..end as usize] {
                        counts[s as usize] += 1;
                    }
                }
                counts[0] += below[0];
                counts[self.split] += below[1];
                total
            }
        }
    }

    /// Counts every value of both sides in `counts`.
    pub fn add_all(&self, counts: &mut [u32]) {
        let all: Vec<u32> = (0..self.units() as u32).collect();
        self.add_units(&all, counts);
    }

    /// Moves the units `start + i` for the set bits i of `word` from the baseline's side to the
    /// candidate's in the counts `b` of the baseline side (`split` slots: their candidate values
    /// counted, their baseline values no longer): the sign flip counts one side from the
    /// unswapped counts and the other as the pooled counts minus it. Wrapping: a slot may dip
    /// below zero until the slot's own values come.
    #[inline]
    pub fn swap_units(&self, start: usize, mut word: u32, b: &mut [u32]) {
        let split = self.split;
        match &self.layout {
            Layout::Queries(codes) => {
                while word != 0 {
                    let [x, y] = codes[start + word.trailing_zeros() as usize];
                    b[y as usize - split] = b[y as usize - split].wrapping_add(1);
                    b[x as usize] = b[x as usize].wrapping_sub(1);
                    word &= word - 1;
                }
            }
            Layout::Fixed { stride: 4, lines } => swap_fixed::<4>(lines, start, word, b, split),
            Layout::Fixed { stride: 8, lines } => swap_fixed::<8>(lines, start, word, b, split),
            Layout::Fixed { lines, .. } => swap_fixed::<16>(lines, start, word, b, split),
            Layout::Units { heads, inside } => {
                let mut below = 0u32;
                while word != 0 {
                    let u = start + word.trailing_zeros() as usize;
                    let (h, end) = (heads[u], heads[u + 1].at);
                    below = below.wrapping_add(h.below[1]).wrapping_sub(h.below[0]);
                    for &s in &inside[h.at as usize..end as usize] {
                        swap_slot(b, s, split);
                    }
                    word &= word - 1;
                }
                b[0] = b[0].wrapping_add(below);
            }
        }
    }
}

/// One unit's share of the counts: its size, its values below each side's window, and the
/// slots (in `Coded::counts`) of its values inside the windows.
struct Unit {
    size: u32,
    below: [u32; 2],
    inside: Vec<u32>,
}

impl Unit {
    fn new(ranks: &Ranks, members: &[u32], windows: &[Window; 2], split: usize) -> Unit {
        let mut unit = Unit {
            size: u32::try_from(members.len()).expect("fewer than 2^32 queries"),
            below: [0; 2],
            inside: Vec::new(),
        };
        for &i in members {
            for (side, w) in windows.iter().enumerate() {
                let rank = ranks.ranks[i as usize][side];
                if rank < w.lo {
                    unit.below[side] += 1;
                } else if rank < w.hi {
                    unit.inside.push((side * split) as u32 + w.code(rank, 0));
                }
            }
        }
        unit
    }
}

/// `Layout::Fixed` of the coded units (`len` slots of counts, the candidate's from `split`), or
/// None when a unit has more than 13 values inside the windows.
fn fixed_layout(units: &[Unit], split: usize, len: usize) -> Option<Layout> {
    let most = units.iter().map(|u| u.inside.len()).max().unwrap_or(0);
    let stride = match most {
        0..=1 => 4,
        2..=5 => 8,
        6..=13 => 16,
        _ => return None,
    };
    // The padding's slots: the spill slots above either window, a different one for each unit
    // and place, so the padding's increments do not wait on each other.
    let above = |j: usize| match j % (2 * SPILL) {
        j if j < SPILL => split - SPILL + j,
        j => len - 2 * SPILL + j,
    };
    let mut words = vec![0u32; (units.len() * stride).div_ceil(16) * 16];
    for (u, (unit, record)) in units.iter().zip(words.chunks_exact_mut(stride)).enumerate() {
        record[..3].copy_from_slice(&[unit.size, unit.below[0], unit.below[1]]);
        for (k, slot) in record[3..].iter_mut().enumerate() {
            *slot = unit
                .inside
                .get(k)
                .copied()
                .unwrap_or(above(u * stride + k) as u32);
        }
    }
    let lines = words
        .chunks_exact(16)
        .map(|w| Line(w.try_into().expect("16 words")))
        .collect();
    Some(Layout::Fixed { stride, lines })
}

/// `Layout::Units` of the coded units.
fn units_layout(units: &[Unit]) -> Layout {
    let mut heads = Vec::with_capacity(units.len() + 1);
    let mut inside = Vec::new();
    let at = |inside: &Vec<u32>| u32::try_from(inside.len()).expect("fewer than 2^32 values");
    for unit in units {
        heads.push(Head {
            at: at(&inside),
            size: unit.size,
            below: unit.below,
        });
        inside.extend_from_slice(&unit.inside);
    }
    heads.push(Head {
        at: at(&inside),
        ..Head::default()
    });
    Layout::Units { heads, inside }
}

/// The record of unit u in `Layout::Fixed` lines of `R`-word records.
#[inline(always)]
fn record<const R: usize>(lines: &[Line], u: usize) -> &[u32; R] {
    let at = u * R;
    lines[at / 16].0[at % 16..at % 16 + R]
        .try_into()
        .expect("R divides 16")
}

/// `Coded::add_units` for `Layout::Fixed` of stride `R`.
#[inline]
fn add_fixed<const R: usize>(
    lines: &[Line],
    run: &[u32],
    counts: &mut [u32],
    split: usize,
) -> usize {
    let (mut below, mut total) = ([0u32; 2], 0usize);
    for &u in run {
        let r = record::<R>(lines, u as usize);
        total += r[0] as usize;
        below[0] += r[1];
        below[1] += r[2];
        for &s in &r[3..] {
            counts[s as usize] += 1;
        }
    }
    counts[0] += below[0];
    counts[split] += below[1];
    total
}

/// `Coded::swap_units` for `Layout::Fixed` of stride `R`.
#[inline]
fn swap_fixed<const R: usize>(
    lines: &[Line],
    start: usize,
    mut word: u32,
    b: &mut [u32],
    split: usize,
) {
    let mut below = 0u32;
    while word != 0 {
        let r = record::<R>(lines, start + word.trailing_zeros() as usize);
        below = below.wrapping_add(r[2]).wrapping_sub(r[1]);
        for &s in &r[3..] {
            swap_slot(b, s, split);
        }
        word &= word - 1;
    }
    b[0] = b[0].wrapping_add(below);
}

/// The sign flip's move of one value of a swapped unit inside the window: a baseline value's
/// slot (below `split`) loses it, a candidate value's (from `split`) gains it on the baseline
/// side; without a branch.
#[inline(always)]
fn swap_slot(b: &mut [u32], s: u32, split: usize) {
    let cand = usize::from(s as usize >= split);
    let slot = s as usize - cand * split;
    b[slot] = b[slot].wrapping_add((2 * cand as u32).wrapping_sub(1));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `paired_quantile`'s skewed values with ties, ranked, and its two unit layouts: queries,
    /// and groups of 1 to 9.
    fn sample(n: usize) -> (Ranks, [Vec<Vec<u32>>; 2]) {
        let (base, cand, groups) = crate::stats::paired_quantile::tests::skewed(n);
        let queries = crate::stats::paired_quantile::singletons(n);
        (Ranks::new(&base, &cand), [queries, groups])
    }

    /// The coding `with_windows` picks, and the same windows in every other layout that fits.
    fn layouts(ranks: &Ranks, units: &[Vec<u32>], windows: [Window; 2]) -> Vec<Coded> {
        let first = Coded::with_windows(ranks, units, windows.clone());
        let coded: Vec<Unit> = units
            .iter()
            .map(|m| Unit::new(ranks, m, &windows, first.split))
            .collect();
        let len = first.counts().len();
        let mut all = vec![first.clone()];
        for layout in [
            fixed_layout(&coded, first.split, len),
            Some(units_layout(&coded)),
        ] {
            all.extend(layout.map(|layout| Coded {
                layout,
                ..first.clone()
            }));
        }
        all
    }

    /// Both sides' quantiles (as bits) of counts of `total` values.
    fn read(c: &Coded, counts: &[u32], total: usize, p: f64) -> [Option<u64>; 2] {
        let (b, k) = counts.split_at(c.split());
        [
            c.windows[0].quantile(b, total, p).map(f64::to_bits),
            c.windows[1].quantile(k, total, p).map(f64::to_bits),
        ]
    }

    #[test]
    fn every_layout_counts_the_same_quantiles() {
        let (ranks, unit_sets) = sample(3000);
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |g: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % g as u64) as u32
        };
        let (mut read_some, mut refused) = (0, 0);
        for units in &unit_sets {
            let g = units.len();
            for p in [0.5, 0.95] {
                let boot = Coded::for_bootstrap(&ranks, units, p);
                let narrow = boot.windows.clone().map(|w| w.narrowed(4));
                for windows in [boot.windows.clone(), narrow] {
                    let all = layouts(&ranks, units, windows);
                    assert!(all.len() >= 2);
                    for _ in 0..20 {
                        let run: Vec<u32> = (0..g).map(|_| next(g)).collect();
                        let got: Vec<_> = all
                            .iter()
                            .map(|c| {
                                let mut counts = c.counts();
                                let total = c.add_units(&run, &mut counts);
                                (total, read(c, &counts, total, p))
                            })
                            .collect();
                        assert!(got.iter().all(|x| *x == got[0]), "p = {p}: {got:?}");
                        match got[0].1 {
                            [Some(_), Some(_)] => read_some += 1,
                            _ => refused += 1,
                        }
                    }
                }
            }
        }
        assert!(
            read_some > 20 && refused > 20,
            "{read_some} read, {refused} refused"
        );
    }

    #[test]
    fn every_layout_swaps_the_same_quantiles() {
        let (ranks, unit_sets) = sample(2000);
        let mut word = 0x2545_f491_4f6c_dd1du64;
        for units in &unit_sets {
            let g = units.len();
            for p in [0.5, 0.95] {
                let flip = Coded::for_signflip(&ranks, units, p);
                let w = flip.windows[0].clone();
                let all = layouts(&ranks, units, [w.clone(), w]);
                assert!(all.len() >= 2);
                for _ in 0..20 {
                    let words: Vec<u32> = (0..g.div_ceil(32))
                        .map(|_| {
                            word ^= word << 13;
                            word ^= word >> 7;
                            word ^= word << 17;
                            word as u32
                        })
                        .collect();
                    let got: Vec<_> = all
                        .iter()
                        .map(|c| {
                            let mut both = c.counts();
                            c.add_all(&mut both);
                            let (unswapped, cand) = both.split_at(c.split());
                            let mut b = unswapped.to_vec();
                            for (k, &w) in words.iter().enumerate() {
                                let w = if g - 32 * k < 32 {
                                    w & ((1 << (g - 32 * k)) - 1)
                                } else {
                                    w
                                };
                                c.swap_units(32 * k, w, &mut b);
                            }
                            let k: Vec<u32> = unswapped
                                .iter()
                                .zip(cand)
                                .zip(&b)
                                .map(|((&u, &c), &b)| (u + c).wrapping_sub(b))
                                .collect();
                            let n = c.queries();
                            let w = &c.windows[0];
                            [w.quantile(&b, n, p), w.quantile(&k, n, p)]
                                .map(|q| q.map(f64::to_bits))
                        })
                        .collect();
                    assert!(got.iter().all(|x| *x == got[0]), "p = {p}: {got:?}");
                }
            }
        }
    }
}
