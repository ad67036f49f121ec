//! Checks of binned resampling against per-unit draws of the same laws (independent streams).

use super::*;
use crate::stats::poisson::POISSON_FROM;
use crate::stats::streams::{chunk_rng, pool, stream_key, CHUNK};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// `n` values with many ties: 4-decimal deltas of 599 levels, k/10⁴ for |k| < 300 (k the
/// difference of two uniform integers in 0..300: a triangular law).
fn tied(n: usize, seed: u64) -> Vec<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let a = i64::from(rng.next_u32() % 300);
            let b = i64::from(rng.next_u32() % 300);
            (a - b) as f64 / 1e4
        })
        .collect()
}

/// Each resample's per-row totals as the module header's layout says: chunk c on stream c, rows
/// in order, one `Poisson(count)` draw each.
pub(crate) fn layout_totals(bins: &Bins, resamples: usize, key: [u8; 32]) -> Vec<Vec<f64>> {
    let mut out = Vec::new();
    for c in 0..resamples.div_ceil(CHUNK) {
        let mut rng = chunk_rng(key, c);
        for _ in 0..CHUNK.min(resamples - c * CHUNK) {
            let totals = bins
                .rows()
                .map(|(_, count)| Poisson::new(count as f64).unwrap().sample(&mut rng))
                .collect();
            out.push(totals);
        }
    }
    out
}

#[test]
fn poisson_sums_follow_the_documented_layout() {
    let x = tied(2 * POISSON_FROM, 13);
    let y: Vec<f64> = x.iter().map(|v| 2.0 * v * v).collect();
    let bins = worth(&[&x, &y]).unwrap();
    let key = stream_key(21, &["layout"]);
    let got = bins.poisson_sums(CHUNK + 3, key);
    for (row, totals) in got
        .chunks_exact(3)
        .zip(layout_totals(&bins, CHUNK + 3, key))
    {
        let mut want = [0.0; 3];
        for ((v, _), w) in bins.rows().zip(&totals) {
            if *w != 0.0 {
                want[0] += w * v[0];
                want[1] += w * v[1];
                want[2] += w;
            }
        }
        assert_eq!(row, want);
    }
}

/// The two-sample Kolmogorov–Smirnov distance of `a` and `b`.
fn ks(mut a: Vec<f64>, mut b: Vec<f64>) -> f64 {
    a.sort_by(f64::total_cmp);
    b.sort_by(f64::total_cmp);
    let (mut i, mut j, mut d) = (0, 0, 0.0f64);
    while i < a.len() && j < b.len() {
        let x = a[i].min(b[j]);
        while i < a.len() && a[i] <= x {
            i += 1;
        }
        while j < b.len() && b[j] <= x {
            j += 1;
        }
        d = d.max((i as f64 / a.len() as f64 - j as f64 / b.len() as f64).abs());
    }
    d
}

/// The KS distance that two samples of these sizes from one law exceed with probability 0.001.
fn ks_critical(n: usize, m: usize) -> f64 {
    1.95 * ((n + m) as f64 / (n * m) as f64).sqrt()
}

fn mean_var(x: &[f64]) -> (f64, f64) {
    let m = x.iter().sum::<f64>() / x.len() as f64;
    let v = x.iter().map(|y| (y - m) * (y - m)).sum::<f64>() / (x.len() - 1) as f64;
    (m, v)
}

#[test]
fn distinct_rows_are_sorted_counted_and_independent_of_order() {
    let x = [0.5, -0.25, 0.5, 0.0, -0.0, 0.5, -0.25];
    let y = [1.0, 2.0, 1.0, 3.0, 3.0, 4.0, 2.0];
    let bins = Bins::of(&[&x, &y], 10).unwrap();
    let got: Vec<(Vec<f64>, u64)> = bins.rows().map(|(r, c)| (r.to_vec(), c)).collect();
    // -0.0 and 0.0 differ in their bits: two rows (each sums to the same).
    let want = vec![
        (vec![-0.25, 2.0], 2),
        (vec![-0.0, 3.0], 1),
        (vec![0.0, 3.0], 1),
        (vec![0.5, 1.0], 2),
        (vec![0.5, 4.0], 1),
    ];
    assert_eq!(got, want);
    let (rx, ry): (Vec<f64>, Vec<f64>) = (0..7).rev().map(|i| (x[i], y[i])).unzip();
    assert_eq!(Bins::of(&[&rx, &ry], 10).unwrap(), bins);
    assert_eq!(Bins::of(&[&x, &y], 4), None);
    assert_eq!(Bins::of(&[&x, &y], 5).map(|b| b.len()), Some(5));
}

#[test]
fn worth_needs_few_rows_per_unit() {
    let many = tied(2 * POISSON_FROM, 1);
    let bins = worth(&[&many]).expect("under 600 distinct values");
    assert_eq!(
        bins.rows().map(|(_, c)| c).sum::<u64>(),
        2 * POISSON_FROM as u64
    );
    let distinct: Vec<f64> = (0..POISSON_FROM).map(|i| i as f64).collect();
    assert!(worth(&[&distinct]).is_none());
    // One row per UNITS_PER_BIN units is the most.
    let edge: Vec<f64> = (0..64 * UNITS_PER_BIN).map(|i| (i % 64) as f64).collect();
    assert_eq!(worth(&[&edge]).map(|b| b.len()), Some(64));
    assert!(worth(&[&edge[..64 * UNITS_PER_BIN - 1]]).is_none());
}

#[test]
fn poisson_sums_have_the_law_of_per_unit_poisson_weights() {
    // Independent: per-unit Poisson(1) weights from rand_distr on another stream, summed unit
    // by unit. The resampled means of both must be one law (KS at the 0.001 level), with the
    // known moments: E Σw·x = Σx and Var Σw·x = Σx² (Poisson variance 1).
    let n = 3000;
    let x = tied(n, 2);
    let b = 4000;
    let bins = Bins::of(&[&x], n).unwrap();
    assert!(bins.len() < 600);
    let sums = bins.poisson_sums(b, stream_key(3, &["bins"]));
    let binned: Vec<f64> = sums.chunks_exact(2).map(|r| r[0] / r[1]).collect();
    let one = Poisson::new(1.0).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut by_unit = Vec::with_capacity(b);
    let mut totals = Vec::with_capacity(b);
    for _ in 0..b {
        let (mut s, mut w) = (0.0, 0.0);
        for &v in &x {
            let k: f64 = one.sample(&mut rng);
            s += k * v;
            w += k;
        }
        by_unit.push(s / w);
        totals.push(s);
    }
    let d = ks(binned.clone(), by_unit);
    assert!(d < ks_critical(b, b), "KS distance {d}");
    let raw: Vec<f64> = sums.chunks_exact(2).map(|r| r[0]).collect();
    let (m, v) = mean_var(&raw);
    let (sx, sx2) = (x.iter().sum::<f64>(), x.iter().map(|v| v * v).sum::<f64>());
    assert!(
        (m - sx).abs() < 4.0 * (sx2 / b as f64).sqrt(),
        "{m} vs {sx}"
    );
    // Relative s.e. of a variance from 4000 draws: about √(2/3999) ≈ 2.2%.
    assert!((v / sx2 - 1.0).abs() < 0.1, "{v} vs {sx2}");
    let (_, vt) = mean_var(&totals);
    assert!((vt / sx2 - 1.0).abs() < 0.1, "{vt} vs {sx2}");
    // Σw is an integer with mean n and variance n.
    let drawn: Vec<f64> = sums.chunks_exact(2).map(|r| r[1]).collect();
    assert!(drawn.iter().all(|w| w.fract() == 0.0));
    let (mw, vw) = mean_var(&drawn);
    assert!((mw - n as f64).abs() < 4.0 * (n as f64 / b as f64).sqrt());
    assert!((vw / n as f64 - 1.0).abs() < 0.1, "{vw}");
}

#[test]
fn poisson_sums_match_the_per_unit_five_level_weights_in_law() {
    // The per-unit path's weights (mean 1, variance 1, third moment 1.008) against true
    // Poisson(1) by row: the resampled means agree in law at this size.
    let n = POISSON_FROM;
    let x = tied(n, 4);
    let b = 3000;
    let key = stream_key(5, &["bins", "law"]);
    let per_unit = crate::stats::poisson::unit_sums(&[&x], b, stream_key(6, &["other"]));
    let binned = Bins::of(&[&x], n).unwrap().poisson_sums(b, key);
    let means = |s: &[f64]| s.chunks_exact(2).map(|r| r[0] / r[1]).collect::<Vec<_>>();
    let d = ks(means(&per_unit), means(&binned));
    assert!(d < ks_critical(b, b), "KS distance {d}");
}

#[test]
fn sign_flip_sums_have_the_law_of_per_unit_signs() {
    // Known moments: E Σs·x = 0, Var Σs·x = Σx²; the law of per-unit fair signs (KS). Counts
    // above BITS_UP_TO take the Binomial sampler, below it the stream's bits (one word or
    // several): all three are here.
    let n = 20_000;
    let mut x = tied(n - 10_000, 7);
    x.extend((0..10_000).map(|i| if i % 16 == 0 { -0.11 } else { 0.037 }));
    let bins = Bins::of(&[&x], n).unwrap();
    let counts: Vec<u64> = bins.rows().map(|(_, c)| c).collect();
    assert!(counts.iter().any(|&c| c > BITS_UP_TO));
    assert!(counts.iter().any(|&c| c > 64 && c <= BITS_UP_TO));
    assert!(counts.iter().any(|&c| c <= 64));
    let rounds = 4000;
    let sums = bins.sign_flip_sums(rounds, stream_key(8, &["signflip"]));
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let by_unit: Vec<f64> = (0..rounds)
        .map(|_| {
            x.iter()
                .map(|&v| if rng.next_u32() & 1 == 1 { v } else { -v })
                .sum()
        })
        .collect();
    let d = ks(sums.clone(), by_unit);
    assert!(d < ks_critical(rounds, rounds), "KS distance {d}");
    let (m, v) = mean_var(&sums);
    let sx2 = x.iter().map(|v| v * v).sum::<f64>();
    assert!(m.abs() < 4.0 * (sx2 / rounds as f64).sqrt(), "{m}");
    assert!((v / sx2 - 1.0).abs() < 0.1, "{v} vs {sx2}");
}

#[test]
fn a_row_of_count_c_draws_poisson_c() {
    // One bin of 40 units and one of 3: each resample's Σw for a one-valued column is the
    // sum of two Poisson draws, checked against the Poisson(43) probabilities of a few counts.
    let x: Vec<f64> = (0..43).map(|i| if i < 40 { 1.0 } else { 1000.0 }).collect();
    let bins = Bins::of(&[&x], 2).unwrap();
    let b = 20_000;
    let sums = bins.poisson_sums(b, stream_key(9, &["c"]));
    let (mut ones, mut big) = (Vec::new(), Vec::new());
    for r in sums.chunks_exact(2) {
        let m = (r[0] / 1000.0).floor();
        big.push(m);
        ones.push(r[0] - 1000.0 * m);
        assert_eq!(r[1], m + ones.last().unwrap());
    }
    for (draws, lambda) in [(&ones, 40.0f64), (&big, 3.0)] {
        let (m, v) = mean_var(draws);
        let se = (lambda / b as f64).sqrt();
        assert!(
            (m - lambda).abs() < 4.0 * se,
            "mean {m} of Poisson({lambda})"
        );
        assert!(
            (v / lambda - 1.0).abs() < 0.06,
            "variance {v} of Poisson({lambda})"
        );
    }
    // P(Poisson(3) = 0) = e^-3.
    let zeros = big.iter().filter(|&&m| m == 0.0).count() as f64 / b as f64;
    let p0 = (-3.0f64).exp();
    assert!((zeros - p0).abs() < 4.0 * (p0 * (1.0 - p0) / b as f64).sqrt());
}

#[test]
fn same_key_same_numbers_whatever_the_thread_count() {
    let x = tied(2 * POISSON_FROM + 3, 10);
    let y: Vec<f64> = x.iter().map(|v| v * v).collect();
    let bins = worth(&[&x, &y]).unwrap();
    let key = stream_key(17, &["bootstrap", "all"]);
    let run = |n| {
        pool(n).install(|| {
            (
                bins.poisson_sums(2 * CHUNK + 5, key),
                bins.sign_flip_sums(2 * CHUNK + 5, key),
            )
        })
    };
    assert_eq!(run(1), run(3));
}
