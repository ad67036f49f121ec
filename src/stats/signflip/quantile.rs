//! The sign-flip test of a quantile difference q(candidate) − q(baseline), swapping the two
//! sides of whole units (the method and generator layout: the `signflip` module header). A
//! round's signs come 32 per generator word, low bits first, unit by unit, every round on a
//! fresh word. Each round counts both sides in one window around the pooled quantile
//! (`quantile_window`), updating only the swapped units' slots; a chunk with a round whose quantile falls outside it is redone with full
//! counts over every rank (`order_counts`), which give the same numbers.

use rand::RngCore;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::{as_extreme, count_patterns, is_exact, p_value, CHUNK};
use crate::stats::bootstrap::chunk_rng;
use crate::stats::order_counts::{Counts, Ranks};
use crate::stats::paired_quantile::PairedSample;
use crate::stats::quantile::quantile_unsorted;
use crate::stats::quantile_window::Coded;

/// What a round is compared with.
#[derive(Clone, Copy)]
struct Observed {
    p: f64,
    value: f64,
    scale: f64,
}

impl Observed {
    fn extreme(&self, round: f64) -> bool {
        as_extreme(round, self.value, self.scale)
    }
}

/// Two-sided randomization p-value of q(candidate) − q(baseline), swapping sides per unit.
///
/// Panics if there are no units or `rounds` is 0.
pub fn p_value_quantile(s: &PairedSample<'_>, p: f64, rounds: usize, key: [u8; 32]) -> f64 {
    assert!(
        !s.units.is_empty() && rounds > 0,
        "sign-flip test needs units and rounds"
    );
    let scale = s
        .base
        .iter()
        .chain(s.cand)
        .fold(0.0f64, |m, v| m.max(v.abs()));
    let o = Observed {
        p,
        value: s.quantile_diff(p),
        scale,
    };
    let units = s.units.len();
    if is_exact(units, rounds) {
        let k = count_patterns(units, 1, |ms, count| {
            for m in ms {
                let t = swapped_diff(s, p, |u| (m >> u) & 1 == 1);
                count[0] += usize::from(o.extreme(t));
            }
        });
        return k[0] as f64 / (1u64 << units) as f64;
    }
    let ranks = Ranks::new(s.base, s.cand);
    let coded = Coded::for_signflip(&ranks, s.units, p);
    p_value(count_rounds(s, &ranks, &coded, o, rounds, key), rounds)
}

/// The random rounds as extreme as observed, from windowed counts in `coded`'s window, each
/// chunk with a quantile outside it redone with full counts.
fn count_rounds(
    s: &PairedSample<'_>,
    ranks: &Ranks,
    coded: &Coded,
    o: Observed,
    rounds: usize,
    key: [u8; 32],
) -> usize {
    (0..rounds.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let len = CHUNK.min(rounds - c * CHUNK);
            windowed_rounds(coded, o, chunk_rng(key, c), len)
                .unwrap_or_else(|| full_rounds(s, ranks, o, chunk_rng(key, c), len))
        })
        .sum()
}

/// The rounds of one chunk as extreme as observed, from windowed counts; None when a quantile
/// falls outside the window. A round starts from the unswapped baseline counts, moves the
/// swapped units (the set bits of each word) and reads the candidate side as the pooled counts
/// minus the baseline side's: one update per query of a swapped unit, none for the others.
fn windowed_rounds(coded: &Coded, o: Observed, mut rng: ChaCha8Rng, len: usize) -> Option<usize> {
    let g = coded.units();
    let n = coded.queries();
    let w = &coded.windows[0];
    let mut both = coded.counts();
    coded.add_all(&mut both);
    let (unswapped, cand) = both.split_at(coded.split());
    let pooled: Vec<u32> = unswapped.iter().zip(cand).map(|(&b, &c)| b + c).collect();
    let (mut b, mut c) = (unswapped.to_vec(), w.counts());
    let mut extreme = 0;
    for _ in 0..len {
        b.copy_from_slice(unswapped);
        for start in (0..g).step_by(32) {
            let mut word = rng.next_u32();
            if g - start < 32 {
                word &= (1u32 << (g - start)) - 1;
            }
            coded.swap_units(start, word, &mut b);
        }
        for ((c, &all), &b) in c.iter_mut().zip(&pooled).zip(&b) {
            *c = all.wrapping_sub(b);
        }
        let t = w.quantile(&c, n, o.p)? - w.quantile(&b, n, o.p)?;
        extreme += usize::from(o.extreme(t));
    }
    Some(extreme)
}

/// The same rounds from full counts over every rank, one sign at a time.
fn full_rounds(
    s: &PairedSample<'_>,
    ranks: &Ranks,
    o: Observed,
    mut rng: ChaCha8Rng,
    len: usize,
) -> usize {
    let d = ranks.values.len();
    let (mut b, mut c) = (Counts::new(d), Counts::new(d));
    let mut extreme = 0;
    for _ in 0..len {
        let mut word = 0u32;
        for (u, members) in s.units.iter().enumerate() {
            if u % 32 == 0 {
                word = rng.next_u32();
            }
            let swapped = (word >> (u % 32)) & 1 == 1;
            for &i in members {
                let [rb, rc] = ranks.ranks[i as usize];
                let (x, y) = if swapped { (rc, rb) } else { (rb, rc) };
                b.add(x);
                c.add(y);
            }
        }
        let t = c.quantile(&ranks.values, o.p) - b.quantile(&ranks.values, o.p);
        extreme += usize::from(o.extreme(t));
        b.clear();
        c.clear();
    }
    extreme
}

/// q(candidate) − q(baseline) with the sides of unit u swapped where `swap(u)`.
fn swapped_diff(s: &PairedSample<'_>, p: f64, swap: impl Fn(usize) -> bool) -> f64 {
    let mut b = Vec::with_capacity(s.base.len());
    let mut c = Vec::with_capacity(s.cand.len());
    for (u, members) in s.units.iter().enumerate() {
        let swapped = swap(u);
        for &i in members {
            let (x, y) = (s.base[i as usize], s.cand[i as usize]);
            if swapped {
                b.push(y);
                c.push(x);
            } else {
                b.push(x);
                c.push(y);
            }
        }
    }
    quantile_unsorted(&mut c, p) - quantile_unsorted(&mut b, p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::paired_quantile::{members, singletons};
    use crate::stats::streams::stream_key;

    fn full_count(s: &PairedSample<'_>, o: Observed, rounds: usize, key: [u8; 32]) -> usize {
        let ranks = Ranks::new(s.base, s.cand);
        (0..rounds.div_ceil(CHUNK))
            .map(|c| {
                full_rounds(
                    s,
                    &ranks,
                    o,
                    chunk_rng(key, c),
                    CHUNK.min(rounds - c * CHUNK),
                )
            })
            .sum()
    }

    #[test]
    fn windowed_rounds_count_what_full_counts_count() {
        let n = 2000;
        let base: Vec<f64> = (0..n)
            .map(|i| ((i * 31 % 401) as f64 / 40.0).exp())
            .collect();
        let cand: Vec<f64> = base
            .iter()
            .enumerate()
            .map(|(i, b)| b * (1.0 + (i % 7) as f64 * 0.03))
            .collect();
        let group_of: Vec<u32> = (0..n as u32).map(|i| i / 5).collect();
        let (queries, groups) = (singletons(n), members(&group_of, n / 5));
        for units in [&queries, &groups] {
            let s = PairedSample {
                base: &base,
                cand: &cand,
                units,
            };
            for p in [0.5, 0.95] {
                let key = stream_key(8, &["signflip", "windowed"]);
                let ranks = Ranks::new(&base, &cand);
                let coded = Coded::for_signflip(&ranks, units, p);
                // Near the null and far from it: about half the rounds extreme, and none.
                for value in [s.quantile_diff(p) * 0.05, s.quantile_diff(p)] {
                    let o = Observed {
                        p,
                        value,
                        scale: 1.0,
                    };
                    let fast = count_rounds(&s, &ranks, &coded, o, 700, key);
                    assert_eq!(fast, full_count(&s, o, 700, key), "p = {p}");
                }
                // A window too narrow for most rounds: every chunk falls back, same count.
                let w = coded.windows[0].narrowed(1);
                let narrow = Coded::with_windows(&ranks, units, [w.clone(), w]);
                let o = Observed {
                    p,
                    value: 0.0,
                    scale: 1.0,
                };
                assert!(windowed_rounds(&narrow, o, chunk_rng(key, 0), CHUNK).is_none());
                assert_eq!(
                    count_rounds(&s, &ranks, &narrow, o, 700, key),
                    full_count(&s, o, 700, key)
                );
            }
        }
    }
}
