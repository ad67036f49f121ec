//! Quantiles of resamples from counts over a window of ranks around the observed quantile.
//!
//! `order_counts` counts every drawn rank over all distinct values. A resample's quantile,
//! though, lies close to the observed one: the number of drawn values below a fixed value is a
//! sum over drawn units with standard deviation σ, σ² = Σ_u (d_u − d̄)², d_u the unit's values
//! below the quantile minus p times its size (the paired bootstrap), or σ² = Σ_u d_u², d_u half
//! the difference of the unit's two sides below it (the sign flip). So each value is coded once:
//! its rank inside a window of ranks reaching `REACH_SD`·σ + `REACH_SLACK` values either side of
//! the quantile's position, or one of `SPILL` slots below or above the window (spread by the
//! query's index, so the increments of the many values outside do not wait on each other). The
//! counts of a resample fit in L1, and the quantile is read by walking the window.
//!
//! The result is the number `Counts::quantile` gives, bit for bit: the same two order
//! statistics and the same interpolation. When an order statistic falls outside the window (for
//! roughly normal sums a 7σ event; possible with few units or very skewed groups)
//! `Window::quantile` returns None and the caller recomputes with full counts, so the window
//! changes the cost, never the result.

use super::order_counts::Ranks;

/// Spill slots below and above the window.
pub const SPILL: usize = 8;
/// Standard deviations of the count below the quantile that the window reaches on either side.
const REACH_SD: f64 = 7.0;
/// Values the window reaches beyond that on either side.
const REACH_SLACK: usize = 32;

/// Ranks `lo..hi` of a ranking (ascending distinct values), coded for counting.
#[derive(Debug, Clone)]
pub struct Window {
    lo: u32,
    hi: u32,
    /// The values of ranks `lo..hi`.
    values: Vec<f64>,
}

impl Window {
    /// The window of ranks around `center`, the 0-based position in the counted multiset (whose
    /// count per rank is `per_rank`) of the order statistic to be read, reaching `reach` values
    /// below it and `reach + 1` above (the interpolation reads the next one too).
    pub fn around(values: &[f64], per_rank: &[u32], center: usize, reach: usize) -> Window {
        let total: usize = per_rank.iter().map(|&c| c as usize).sum();
        let first = center.saturating_sub(reach);
        let last = (center + reach + 1).min(total.saturating_sub(1));
        let (mut lo, mut hi) = (0, per_rank.len());
        let mut seen = 0usize;
        for (r, &c) in per_rank.iter().enumerate() {
            if seen <= first && first < seen + c as usize {
                lo = r;
            }
            seen += c as usize;
            if seen > last {
                hi = r + 1;
                break;
            }
        }
        Window {
            lo: lo as u32,
            hi: hi as u32,
            values: values[lo..hi].to_vec(),
        }
    }

    /// The middle `2 · reach + 1` ranks of the window at most (tests force a refusal with it).
    pub fn narrowed(&self, reach: u32) -> Window {
        let mid = (self.lo + self.hi) / 2;
        let (lo, hi) = (
            mid.saturating_sub(reach).max(self.lo),
            (mid + reach + 1).min(self.hi),
        );
        Window {
            lo,
            hi,
            values: self.values[(lo - self.lo) as usize..(hi - self.lo) as usize].to_vec(),
        }
    }

    fn width(&self) -> usize {
        (self.hi - self.lo) as usize
    }

    /// Zero counts: the spill slots below, the window's ranks, the spill slots above.
    pub fn counts(&self) -> Vec<u32> {
        vec![0; 2 * SPILL + self.width()]
    }

    /// The counting slot of `rank`; `salt` (the query's index) spreads the spill slots.
    pub fn code(&self, rank: u32, salt: usize) -> u32 {
        let spill = (salt % SPILL) as u32;
        if rank < self.lo {
            spill
        } else if rank >= self.hi {
            (SPILL + self.width()) as u32 + spill
        } else {
            SPILL as u32 + rank - self.lo
        }
    }

    /// The p-quantile of the `total` counted values, the number `Counts::quantile` gives, or
    /// None when an order statistic it needs lies outside the window.
    pub fn quantile(&self, counts: &[u32], total: usize, p: f64) -> Option<f64> {
        assert!(total > 0, "quantile of an empty sample");
        let h = (total - 1) as f64 * p.clamp(0.0, 1.0);
        let lo = h.floor() as usize;
        let frac = h - lo as f64;
        let inside = &counts[SPILL..SPILL + self.width()];
        let mut seen: usize = counts[..SPILL].iter().map(|&c| c as usize).sum();
        if seen > lo {
            return None;
        }
        let mut r = 0;
        loop {
            seen += *inside.get(r)? as usize;
            if seen > lo {
                break;
            }
            r += 1;
        }
        let at = self.values[r];
        if frac == 0.0 || lo + 1 >= total {
            return Some(at);
        }
        let next = if seen > lo + 1 {
            at
        } else {
            let s = r + 1 + inside[r + 1..].iter().position(|&c| c > 0)?;
            self.values[s]
        };
        Some(at + frac * (next - at))
    }
}

/// Values either side of the quantile's position a window needs for a count whose standard
/// deviation is `sd`.
pub fn reach(sd: f64) -> usize {
    (REACH_SD * sd).ceil() as usize + REACH_SLACK
}

/// The rank of the order statistic at 0-based `position` of a multiset with `per_rank` counts.
pub fn rank_at(per_rank: &[u32], position: usize) -> usize {
    let mut seen = 0usize;
    for (r, &c) in per_rank.iter().enumerate() {
        seen += c as usize;
        if seen > position {
            return r;
        }
    }
    per_rank.len().saturating_sub(1)
}

/// √(Σ (d − d̄)²) when `centred`, else √(Σ d²).
pub fn spread(d: impl Iterator<Item = f64> + Clone, centred: bool) -> f64 {
    let (n, sum) = d.clone().fold((0usize, 0.0), |(n, s), v| (n + 1, s + v));
    let mean = if centred && n > 0 {
        sum / n as f64
    } else {
        0.0
    };
    d.map(|v| (v - mean) * (v - mean)).sum::<f64>().sqrt()
}

/// Both sides' values coded for windowed counts, in unit order: the window of the baseline's
/// counts and of the candidate's, and per query its two values' codes.
#[derive(Debug, Clone)]
pub struct Coded {
    pub windows: [Window; 2],
    /// Per query in unit order: its baseline value's code and its candidate value's code (in
    /// `windows[0]` and `windows[1]` for the bootstrap; both in the one window of the sign flip).
    codes: Vec<[u32; 2]>,
    /// Where each unit's queries start in `codes` (and one past the last); None for the query
    /// unit, whose unit u is query u.
    starts: Option<Vec<u32>>,
}

/// Every unit's queries in unit order, and where each unit starts (None when unit u is query u).
fn unit_order(units: &[Vec<u32>]) -> (Vec<u32>, Option<Vec<u32>>) {
    let singletons = units
        .iter()
        .enumerate()
        .all(|(u, m)| m.len() == 1 && m[0] as usize == u);
    let order: Vec<u32> = units.iter().flatten().copied().collect();
    if singletons {
        return (order, None);
    }
    let mut starts = Vec::with_capacity(units.len() + 1);
    let mut at = 0u32;
    starts.push(0);
    for m in units {
        at += m.len() as u32;
        starts.push(at);
    }
    (order, Some(starts))
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

/// Units coded for weighted counts: per unit, how many of its values each side has below its
/// window and which fall inside it. A unit of weight w adds w times its below count to one spill
/// slot below the window (u mod `SPILL`) and w to each inside slot; values above a window are
/// never read by `Window::quantile`, so they are only in the total. The counts a quantile reads
/// are the same integers as counting every value (`Coded::add_weighted`), so the same quantile.
#[derive(Debug, Clone)]
pub struct Weighted {
    below: Vec<[u32; 2]>,
    sizes: Vec<u32>,
    /// (side, slot) of the values inside a window, unit by unit.
    inside: Vec<(u32, u32)>,
    starts: Vec<u32>,
}

impl Weighted {
    /// Counts every unit `weights[u]` times (baseline in `b`, candidate in `c`, as
    /// `Coded::add_weighted` but for the slots above the windows); returns the values counted per
    /// side.
    pub fn add(&self, weights: &[u8], b: &mut [u32], c: &mut [u32]) -> usize {
        let mut total = 0usize;
        for (u, &w) in weights.iter().enumerate().take(self.sizes.len()) {
            let w = u32::from(w);
            let spill = u % SPILL;
            let [lo_b, lo_c] = self.below[u];
            b[spill] += w * lo_b;
            c[spill] += w * lo_c;
            total += (w * self.sizes[u]) as usize;
            let (from, to) = (self.starts[u] as usize, self.starts[u + 1] as usize);
            for &(side, slot) in &self.inside[from..to] {
                let counts = if side == 0 { &mut *b } else { &mut *c };
                counts[slot as usize] += w;
            }
        }
        total
    }
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
        let (order, starts) = unit_order(units);
        let codes = order
            .iter()
            .map(|&i| {
                let [b, c] = ranks.ranks[i as usize];
                let i = i as usize;
                [windows[0].code(b, i), windows[1].code(c, i)]
            })
            .collect();
        Coded {
            windows,
            codes,
            starts,
        }
    }

    /// Queries over all units.
    pub fn queries(&self) -> usize {
        self.codes.len()
    }

    /// Resampling units.
    pub fn units(&self) -> usize {
        self.starts
            .as_ref()
            .map_or(self.codes.len(), |s| s.len() - 1)
    }

    /// Counts the values of the units in `run` (baseline in `b`, candidate in `c`); returns how
    /// many queries they hold.
    #[inline]
    pub fn add_units(&self, run: &[u32], b: &mut [u32], c: &mut [u32]) -> usize {
        match &self.starts {
            None => {
                for &u in run {
                    let [x, y] = self.codes[u as usize];
                    b[x as usize] += 1;
                    c[y as usize] += 1;
                }
                run.len()
            }
            Some(starts) => {
                let mut total = 0;
                for &u in run {
                    let (from, to) = (starts[u as usize], starts[u as usize + 1]);
                    for &[x, y] in &self.codes[from as usize..to as usize] {
                        b[x as usize] += 1;
                        c[y as usize] += 1;
                    }
                    total += (to - from) as usize;
                }
                total
            }
        }
    }

    /// Counts the values of every unit `weights[u]` times (the Poisson bootstrap); returns how
    /// many values each side counted.
    pub fn add_weighted(&self, weights: &[u8], b: &mut [u32], c: &mut [u32]) -> usize {
        // Branch-free: a weight of zero (a third of them) adds nothing.
        let mut total = 0u32;
        for (&[x, y], &w) in self.codes.iter().zip(weights) {
            let w = u32::from(w);
            b[x as usize] += w;
            c[y as usize] += w;
            total += w;
        }
        total as usize
    }

    /// The per-unit form of the codes for weighted counts of units with several queries
    /// (`Weighted`).
    pub fn weighted(&self) -> Weighted {
        let widths = self.windows.each_ref().map(Window::width);
        let mut w = Weighted {
            below: Vec::with_capacity(self.units()),
            sizes: Vec::with_capacity(self.units()),
            inside: Vec::new(),
            starts: vec![0],
        };
        for u in 0..self.units() {
            let unit = self.unit(u);
            let mut below = [0u32; 2];
            for codes in unit {
                for side in 0..2 {
                    let code = codes[side] as usize;
                    if code < SPILL {
                        below[side] += 1;
                    } else if code < SPILL + widths[side] {
                        w.inside.push((side as u32, codes[side]));
                    }
                }
            }
            w.below.push(below);
            w.sizes.push(unit.len() as u32);
            w.starts.push(w.inside.len() as u32);
        }
        w
    }

    /// The queries of unit u, in `codes`.
    #[inline]
    fn unit(&self, u: usize) -> &[[u32; 2]] {
        match &self.starts {
            None => std::slice::from_ref(&self.codes[u]),
            Some(starts) => &self.codes[starts[u] as usize..starts[u + 1] as usize],
        }
    }

    /// Counts every baseline value in `b` and every candidate value in `c`.
    pub fn add_all(&self, b: &mut [u32], c: &mut [u32]) {
        for &[x, y] in &self.codes {
            b[x as usize] += 1;
            c[y as usize] += 1;
        }
    }

    /// Moves unit u from the baseline's side to the candidate's in the counts `b` of the
    /// baseline side (its candidate values counted, its baseline values no longer): the sign
    /// flip counts one side from the unswapped counts and the other as the pooled counts minus
    /// it. Wrapping: a slot may dip below zero until the slot's own values come.
    #[inline]
    pub fn swap_unit(&self, u: usize, b: &mut [u32]) {
        for &[x, y] in self.unit(u) {
            b[y as usize] = b[y as usize].wrapping_add(1);
            b[x as usize] = b[x as usize].wrapping_sub(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::order_counts::{Counts, Ranks};

    #[test]
    fn windowed_quantiles_are_the_full_counts_or_none() {
        let base: Vec<f64> = (0..500).map(|i| ((i * 37 % 211) as f64) / 7.0).collect();
        let cand: Vec<f64> = base.iter().map(|b| b * 0.9 + 1.0).collect();
        let r = Ranks::new(&base, &cand);
        let mut per_rank = vec![0u32; r.values.len()];
        for q in &r.ranks {
            per_rank[q[0] as usize] += 1;
        }
        let (mut some, mut none) = (0, 0);
        for reach in [0, 3, 40, 1000] {
            for p in [0.5, 0.95, 0.0, 1.0, 0.3] {
                let center = (499.0f64 * p).floor() as usize;
                let w = Window::around(&r.values, &per_rank, center, reach);
                for (take, step) in [(500, 7), (499, 3), (1, 1), (2, 5), (250, 2), (500, 13)] {
                    let mut full = Counts::new(r.values.len());
                    let mut counts = w.counts();
                    for i in 0..take {
                        let q = (i * step + take) % 500;
                        full.add(r.ranks[q][0]);
                        counts[w.code(r.ranks[q][0], q) as usize] += 1;
                    }
                    match w.quantile(&counts, take, p) {
                        Some(v) => {
                            some += 1;
                            assert_eq!(v.to_bits(), full.quantile(&r.values, p).to_bits());
                        }
                        None => none += 1,
                    }
                }
            }
        }
        assert!(some > 50 && none > 10, "{some} read, {none} refused");
    }

    #[test]
    fn a_window_reaching_everything_holds_every_rank() {
        let values = [1.0, 2.0, 3.0];
        let w = Window::around(&values, &[2, 0, 5], 3, 100);
        assert_eq!((w.lo, w.hi), (0, 3));
        let w = Window::around(&values, &[2, 1, 5], 6, 0);
        assert_eq!((w.lo, w.hi), (2, 3));
        assert_eq!(rank_at(&[2, 1, 5], 2), 1);
        assert!((spread([1.0, 3.0].into_iter(), true) - 2f64.sqrt()).abs() < 1e-15);
    }
}
