//! Sample quantiles of a resample without sorting it: counts over the sorted distinct values.
//!
//! Every value of both sides is replaced once by its rank among the distinct values of the two
//! sides together (ascending by `f64::total_cmp`). A resample then only counts how often each
//! rank was drawn, and an order statistic is found by walking the counts: first over blocks of
//! `BLOCK` ranks, then inside one block. The quantile is Hyndman & Fan's definition 7 (as
//! `quantile::quantile_unsorted`): the order statistics at ⌊h⌋ and ⌊h⌋ + 1, h = (N − 1)·p, and
//! the same interpolation `at + frac · (next − at)` on the same two values, so the result is the
//! same number bit for bit (a counting sort; Knuth, TAOCP vol. 3, §5.2).
//!
//! Cost per resample: O(N) counter increments plus O(D / BLOCK + BLOCK) for the walk (D
//! distinct values), against O(N) selection with its comparisons and copies.

/// Ranks per block of the coarse counts.
const BLOCK: usize = 256;

/// The distinct values of both sides, ascending, and each query's rank on either side.
#[derive(Debug, Clone)]
pub struct Ranks {
    pub values: Vec<f64>,
    /// Per query: the rank of its baseline value and of its candidate value.
    pub ranks: Vec<[u32; 2]>,
}

impl Ranks {
    /// Panics if `base` and `cand` differ in length or hold more than `u32::MAX` values.
    pub fn new(base: &[f64], cand: &[f64]) -> Ranks {
        assert_eq!(base.len(), cand.len(), "paired sides differ in length");
        let n = base.len();
        assert!(2 * n <= u32::MAX as usize, "too many values to rank");
        let value = |k: usize| if k < n { base[k] } else { cand[k - n] };
        let mut order: Vec<u32> = (0..2 * n as u32).collect();
        order.sort_unstable_by(|&a, &b| value(a as usize).total_cmp(&value(b as usize)));
        let mut values: Vec<f64> = Vec::new();
        let mut ranks = vec![[0u32; 2]; n];
        for k in order {
            let v = value(k as usize);
            if values.last().is_none_or(|last| last.total_cmp(&v).is_ne()) {
                values.push(v);
            }
            let r = (values.len() - 1) as u32;
            let k = k as usize;
            ranks[k % n][k / n] = r;
        }
        Ranks { values, ranks }
    }
}

/// How often each rank was counted, and the same per block of ranks.
#[derive(Debug, Clone)]
pub struct Counts {
    fine: Vec<u32>,
    coarse: Vec<u32>,
    total: usize,
}

impl Counts {
    /// Zero counts over `distinct` ranks.
    pub fn new(distinct: usize) -> Counts {
        Counts {
            fine: vec![0; distinct],
            coarse: vec![0; distinct.div_ceil(BLOCK)],
            total: 0,
        }
    }

    #[inline]
    pub fn add(&mut self, rank: u32) {
        self.add_times(rank, 1);
    }

    /// Counts a value of `rank` `times` times (a Poisson weight).
    pub fn add_times(&mut self, rank: u32, times: u32) {
        self.fine[rank as usize] += times;
        self.coarse[rank as usize / BLOCK] += times;
        self.total += times as usize;
    }

    /// Whether nothing is counted.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// Forgets every count.
    pub fn clear(&mut self) {
        self.fine.fill(0);
        self.coarse.fill(0);
        self.total = 0;
    }

    /// The rank of the k-th smallest counted value (0-based) and how many values up to and
    /// including that rank were counted.
    fn order_statistic(&self, k: usize) -> (usize, usize) {
        let mut seen = 0usize;
        let mut block = 0;
        while seen + self.coarse[block] as usize <= k {
            seen += self.coarse[block] as usize;
            block += 1;
        }
        let mut r = block * BLOCK;
        loop {
            seen += self.fine[r] as usize;
            if seen > k {
                return (r, seen);
            }
            r += 1;
        }
    }

    /// The p-quantile of the counted values, the same number as `quantile_unsorted` of them.
    ///
    /// Panics if nothing was counted.
    pub fn quantile(&self, values: &[f64], p: f64) -> f64 {
        assert!(self.total > 0, "quantile of an empty sample");
        let h = (self.total - 1) as f64 * p.clamp(0.0, 1.0);
        let lo = h.floor() as usize;
        let frac = h - lo as f64;
        let (r, through) = self.order_statistic(lo);
        let at = values[r];
        if frac == 0.0 || lo + 1 >= self.total {
            return at;
        }
        let next = if through > lo + 1 {
            at
        } else {
            let mut s = r + 1;
            while self.fine[s] == 0 {
                s += 1;
            }
            values[s]
        };
        at + frac * (next - at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::quantile::quantile_unsorted;

    #[test]
    fn counted_quantiles_are_the_selected_ones_bit_for_bit() {
        // Ties, both zeros, negative values, and more distinct values than one block.
        let base: Vec<f64> = (0..700)
            .map(|i| match i % 9 {
                0 => 0.0,
                1 => -0.0,
                _ => ((i * 37 % 613) as f64 / 613.0) - 0.2,
            })
            .collect();
        let cand: Vec<f64> = base.iter().map(|b| (b * 3.0).sin() / 3.0).collect();
        let r = Ranks::new(&base, &cand);
        for (take, p) in [
            (700, 0.5),
            (699, 0.5),
            (1, 0.5),
            (2, 0.95),
            (333, 0.95),
            (700, 0.0),
            (700, 1.0),
            (10, 0.37),
        ] {
            let mut c = Counts::new(r.values.len());
            let (mut b, mut k) = (Vec::new(), Vec::new());
            for i in 0..take {
                let q = i * 7 % 700;
                c.add(r.ranks[q][0]);
                b.push(base[q]);
            }
            assert_eq!(
                c.quantile(&r.values, p).to_bits(),
                quantile_unsorted(&mut b, p).to_bits(),
                "{take} {p}"
            );
            c.clear();
            for i in 0..take {
                let q = i * 11 % 700;
                c.add(r.ranks[q][1]);
                k.push(cand[q]);
            }
            assert_eq!(
                c.quantile(&r.values, p).to_bits(),
                quantile_unsorted(&mut k, p).to_bits(),
                "{take} {p}"
            );
            c.clear();
        }
    }
}
