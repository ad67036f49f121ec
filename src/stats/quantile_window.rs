//! Quantiles of resamples from counts over a window of ranks around the observed quantile.
//!
//! `order_counts` counts every drawn rank over all distinct values. A resample's quantile,
//! though, lies close to the observed one: the number of drawn values below a fixed value is a
//! sum over drawn units with standard deviation σ, σ² = Σ_u (d_u − d̄)², d_u the unit's values
//! below the quantile minus p times its size (the paired bootstrap), or σ² = Σ_u d_u², d_u half
//! the difference of the unit's two sides below it (the sign flip). So each value is coded once:
//! its rank inside a window of ranks reaching `REACH_SD`·σ + `REACH_SLACK` values either side of
//! the quantile's position, or one of `SPILL` slots below or above the window (spread by the
//! query's index, so the increments of the many values outside do not wait on each other); a
//! unit of several queries adds its values below a window in one step and its values above not
//! at all (`coded`). The counts of a resample fit in L1, and the quantile is read by walking the
//! window.
//!
//! The result is the number `Counts::quantile` gives, bit for bit: the same two order
//! statistics and the same interpolation. When an order statistic falls outside the window (for
//! roughly normal sums a 7σ event; possible with few units or very skewed groups)
//! `Window::quantile` returns None and the caller recomputes with full counts, so the window
//! changes the cost, never the result.

mod coded;

pub use coded::Coded;

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
