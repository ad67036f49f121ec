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

/// Tags a candidate value's slot in `Layout::Units::inside` (a baseline value's is untagged).
const CAND: u32 = 1 << 31;

/// Both sides' values coded for windowed counts, in unit order: the window of the baseline's
/// counts and of the candidate's, and what each unit adds to them.
#[derive(Debug, Clone)]
pub struct Coded {
    pub windows: [Window; 2],
    layout: Layout,
    /// Queries over all units.
    queries: usize,
}

#[derive(Debug, Clone)]
enum Layout {
    /// The query unit (unit u is query u): per query its baseline value's code and its candidate
    /// value's code (`Window::code`, in `windows[0]` and `windows[1]` for the bootstrap; both in
    /// the one window of the sign flip).
    Queries(Vec<[u32; 2]>),
    /// Any other units: per unit a `Head` (one more at the end, where the last unit's slots end),
    /// and in `inside` the slots of the units' values inside the windows, unit after unit, a
    /// candidate's tagged with `CAND`.
    Units { heads: Vec<Head>, inside: Vec<u32> },
}

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
        let layout = if query_unit(units) {
            Layout::Queries(
                (0..units.len())
                    .map(|i| {
                        let [b, c] = ranks.ranks[i];
                        [windows[0].code(b, i), windows[1].code(c, i)]
                    })
                    .collect(),
            )
        } else {
            units_layout(ranks, units, &windows)
        };
        Coded {
            windows,
            layout,
            queries,
        }
    }

    /// Queries over all units.
    pub fn queries(&self) -> usize {
        self.queries
    }

    /// Resampling units.
    pub fn units(&self) -> usize {
        match &self.layout {
            Layout::Queries(codes) => codes.len(),
            Layout::Units { heads, .. } => heads.len() - 1,
        }
    }

    /// Counts the values of the units in `run` (baseline in `b`, candidate in `c`); returns how
    /// many queries they hold.
    #[inline]
    pub fn add_units(&self, run: &[u32], b: &mut [u32], c: &mut [u32]) -> usize {
        match &self.layout {
            Layout::Queries(codes) => {
                for &u in run {
                    let [x, y] = codes[u as usize];
                    b[x as usize] += 1;
                    c[y as usize] += 1;
                }
                run.len()
            }
            Layout::Units { heads, inside } => {
                let (mut below, mut total) = ([0u32; 2], 0usize);
                for &u in run {
                    let (h, end) = (heads[u as usize], heads[u as usize + 1].at);
                    below[0] += h.below[0];
                    below[1] += h.below[1];
                    total += h.size as usize;
                    for &s in &inside[h.at as usize..end as usize] {
                        if s & CAND == 0 {
                            b[s as usize] += 1;
                        } else {
                            c[(s & !CAND) as usize] += 1;
                        }
                    }
                }
                b[0] += below[0];
                c[0] += below[1];
                total
            }
        }
    }

    /// Counts every baseline value in `b` and every candidate value in `c`.
    pub fn add_all(&self, b: &mut [u32], c: &mut [u32]) {
        let all: Vec<u32> = (0..self.units() as u32).collect();
        self.add_units(&all, b, c);
    }

    /// Moves the units `start + i` for the set bits i of `word` from the baseline's side to the
    /// candidate's in the counts `b` of the baseline side (their candidate values counted, their
    /// baseline values no longer): the sign flip counts one side from the unswapped counts and
    /// the other as the pooled counts minus it. Wrapping: a slot may dip below zero until the
    /// slot's own values come.
    #[inline]
    pub fn swap_units(&self, start: usize, mut word: u32, b: &mut [u32]) {
        match &self.layout {
            Layout::Queries(codes) => {
                while word != 0 {
                    let [x, y] = codes[start + word.trailing_zeros() as usize];
                    b[y as usize] = b[y as usize].wrapping_add(1);
                    b[x as usize] = b[x as usize].wrapping_sub(1);
                    word &= word - 1;
                }
            }
            Layout::Units { heads, inside } => {
                let mut below = 0u32;
                while word != 0 {
                    let u = start + word.trailing_zeros() as usize;
                    let (h, end) = (heads[u], heads[u + 1].at);
                    below = below.wrapping_add(h.below[1]).wrapping_sub(h.below[0]);
                    for &s in &inside[h.at as usize..end as usize] {
                        let (slot, step) = if s & CAND == 0 {
                            (s, u32::MAX)
                        } else {
                            (s & !CAND, 1)
                        };
                        b[slot as usize] = b[slot as usize].wrapping_add(step);
                    }
                    word &= word - 1;
                }
                b[0] = b[0].wrapping_add(below);
            }
        }
    }
}

/// `Layout::Units` of `units` in `windows`.
fn units_layout(ranks: &Ranks, units: &[Vec<u32>], windows: &[Window; 2]) -> Layout {
    assert!(
        windows
            .iter()
            .all(|w| w.width() + 2 * SPILL < CAND as usize),
        "a window too wide to tag"
    );
    let mut heads = Vec::with_capacity(units.len() + 1);
    let mut inside = Vec::new();
    for members in units {
        let mut head = Head {
            at: u32::try_from(inside.len()).expect("fewer than 2^32 values"),
            size: members.len() as u32,
            below: [0; 2],
        };
        for &i in members {
            for (side, w) in windows.iter().enumerate() {
                let rank = ranks.ranks[i as usize][side];
                if rank < w.lo {
                    head.below[side] += 1;
                } else if rank < w.hi {
                    let tag = if side == 0 { 0 } else { CAND };
                    inside.push(tag | w.code(rank, 0));
                }
            }
        }
        heads.push(head);
    }
    heads.push(Head {
        at: u32::try_from(inside.len()).expect("fewer than 2^32 values"),
        ..Head::default()
    });
    Layout::Units { heads, inside }
}
