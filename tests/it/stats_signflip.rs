//! The sign-flip p-value against exact enumeration of all 2^n sign vectors, for the mean (query
//! and group unit) and a quantile difference; and never 0.

use rag_gate::stats::bootstrap::Units;
use rag_gate::stats::paired_quantile::{singletons, PairedSample};
use rag_gate::stats::quantile::quantile_unsorted;
use rag_gate::stats::signflip::{p_value_mean, p_value_quantile};
use rag_gate::stats::streams::stream_key;

/// Exact two-sided p: the share of all 2^n sign vectors with |T| ≥ |T_obs|.
fn exact(n: usize, stat: impl Fn(u32) -> f64) -> f64 {
    let obs = stat(0).abs();
    let hits = (0..1u32 << n)
        .filter(|&m| stat(m).abs() >= obs - 1e-12)
        .count();
    hits as f64 / f64::from(1u32 << n)
}

fn close(p: f64, want: f64, rounds: usize) {
    // Binomial MC error of the randomization estimate; 4.5 standard errors.
    let se = (want * (1.0 - want) / rounds as f64).sqrt();
    assert!(
        (p - want).abs() <= 4.5 * se + 1.0 / rounds as f64,
        "{p} vs exact {want}"
    );
}

#[test]
fn mean_query_unit_matches_exact_enumeration() {
    let x = [0.12, -0.05, 0.3, 0.07, 0.0, 0.21, -0.1, 0.15, 0.09, -0.02];
    let want = exact(x.len(), |m| {
        x.iter()
            .enumerate()
            .map(|(i, &v)| if m >> i & 1 == 1 { -v } else { v })
            .sum::<f64>()
            / 10.0
    });
    assert!(want > 0.01 && want < 0.2, "a non-trivial case: {want}");
    let rounds = 100_000;
    close(
        p_value_mean(Units::Queries(&x), rounds, stream_key(1, &["signflip"])),
        want,
        rounds,
    );
}

#[test]
fn mean_group_unit_flips_whole_groups() {
    // Group sums and sizes; the statistic is Σ ± S_g / N.
    let sums = [0.5, -0.1, 0.35, 0.2, 0.05, 0.4, -0.15, 0.3];
    let sizes = [3.0, 1.0, 2.0, 2.0, 1.0, 4.0, 2.0, 1.0];
    let want = exact(8, |m| {
        sums.iter()
            .enumerate()
            .map(|(i, &v)| if m >> i & 1 == 1 { -v } else { v })
            .sum::<f64>()
    });
    let rounds = 100_000;
    let p = p_value_mean(
        Units::Groups {
            sums: &sums,
            sizes: &sizes,
        },
        rounds,
        stream_key(2, &["signflip"]),
    );
    close(p, want, rounds);
}

/// Nine paired values whose median difference the sign-flip tests read.
const MEDIAN_BASE: [f64; 9] = [3.0, 5.0, 2.0, 8.0, 6.0, 4.0, 7.0, 5.5, 1.0];
const MEDIAN_CAND: [f64; 9] = [4.0, 5.5, 3.5, 8.0, 7.5, 3.0, 9.0, 6.0, 2.5];

/// The exact sign-flip p-value of their median difference, over all 2^9 swaps.
fn exact_median_p() -> f64 {
    let (base, cand) = (MEDIAN_BASE, MEDIAN_CAND);
    exact(9, |m| {
        let (mut b, mut c) = (Vec::new(), Vec::new());
        for i in 0..9 {
            let (x, y) = if m >> i & 1 == 1 {
                (cand[i], base[i])
            } else {
                (base[i], cand[i])
            };
            b.push(x);
            c.push(y);
        }
        quantile_unsorted(&mut c, 0.5) - quantile_unsorted(&mut b, 0.5)
    })
}

#[test]
fn median_difference_matches_exact_enumeration() {
    let (base, cand) = (MEDIAN_BASE, MEDIAN_CAND);
    let want = exact_median_p();
    let units = singletons(9);
    let s = PairedSample {
        base: &base,
        cand: &cand,
        units: &units,
    };
    let rounds = 50_000;
    close(
        p_value_quantile(&s, 0.5, rounds, stream_key(3, &["signflip"])),
        want,
        rounds,
    );
}

#[test]
fn p_value_is_never_zero_and_same_key_same_value() {
    let x = vec![0.5; 40];
    let key = stream_key(4, &["signflip"]);
    let p = p_value_mean(Units::Queries(&x), 999, key);
    // Only the identity is as extreme: 2^-40 of the sign vectors; estimate (1 + 0)/(999 + 1).
    assert_eq!(p, 1.0 / 1000.0);
    assert_eq!(p, p_value_mean(Units::Queries(&x), 999, key));
}

#[test]
fn metrics_tested_together_get_the_p_values_they_get_alone() {
    use rag_gate::stats::signflip::p_values_mean_many;
    let cols: Vec<Vec<f64>> = (0..5)
        .map(|m| {
            (0..150)
                .map(|i| ((i * (7 + m) % 23) as f64 - 10.5 + m as f64) / 40.0)
                .collect()
        })
        .collect();
    let refs: Vec<&[f64]> = cols.iter().map(Vec::as_slice).collect();
    let key = stream_key(5, &["signflip", "all"]);
    let together = p_values_mean_many(&refs, None, 999, key);
    for (m, col) in cols.iter().enumerate() {
        assert_eq!(together[m], p_value_mean(Units::Queries(col), 999, key));
    }
    let sizes: Vec<f64> = (0..150).map(|i| (1 + i % 4) as f64).collect();
    let grouped = p_values_mean_many(&refs, Some(&sizes), 999, key);
    for (m, col) in cols.iter().enumerate() {
        let alone = p_value_mean(
            Units::Groups {
                sums: col,
                sizes: &sizes,
            },
            999,
            key,
        );
        assert_eq!(grouped[m], alone);
    }
    assert!(together.iter().any(|&p| p < 0.01) && together.iter().any(|&p| p > 0.05));
}

// With 2^G ≤ rounds every sign vector is enumerated, so the p-value IS the exact one.

#[test]
fn few_units_are_enumerated_exactly() {
    use rag_gate::stats::signflip::is_exact;
    let x = [0.12, -0.05, 0.3, 0.07, 0.0, 0.21, -0.1, 0.15, 0.09, -0.02];
    let want = exact(x.len(), |m| {
        x.iter()
            .enumerate()
            .map(|(i, &v)| if m >> i & 1 == 1 { -v } else { v })
            .sum::<f64>()
            / 10.0
    });
    // 2^10 = 1024 vectors: exact from 1024 rounds on, whatever the key.
    assert!(is_exact(10, 1024) && !is_exact(10, 1023));
    for (rounds, seed) in [(1024, 1), (10_000, 2)] {
        let p = p_value_mean(Units::Queries(&x), rounds, stream_key(seed, &["signflip"]));
        assert!((p - want).abs() < 1e-15, "{p} vs exact {want}");
    }
    // Groups: 8 groups, 256 vectors.
    let sums = [0.5, -0.1, 0.35, 0.2, 0.05, 0.4, -0.15, 0.3];
    let sizes = [3.0, 1.0, 2.0, 2.0, 1.0, 4.0, 2.0, 1.0];
    let want = exact(8, |m| {
        sums.iter()
            .enumerate()
            .map(|(i, &v)| if m >> i & 1 == 1 { -v } else { v })
            .sum::<f64>()
    });
    let units = Units::Groups {
        sums: &sums,
        sizes: &sizes,
    };
    let p = p_value_mean(units, 256, stream_key(3, &["signflip"]));
    assert!((p - want).abs() < 1e-15, "{p} vs exact {want}");
    // A quantile difference: 9 units, 512 vectors.
    let (base, cand) = (MEDIAN_BASE, MEDIAN_CAND);
    let want = exact_median_p();
    let units = singletons(9);
    let s = PairedSample {
        base: &base,
        cand: &cand,
        units: &units,
    };
    let p = p_value_quantile(&s, 0.5, 512, stream_key(4, &["signflip"]));
    assert!((p - want).abs() < 1e-15, "{p} vs exact {want}");
}

#[test]
fn random_path_above_the_enumeration_size_still_matches_the_exact_p() {
    // 18 units, 2^18 = 262,144 vectors > 100,000 rounds: the random path.
    let x: Vec<f64> = (0..18)
        .map(|i| ((i * 7 % 11) as f64 - 3.5) / 40.0)
        .collect();
    let want = exact(18, |m| {
        x.iter()
            .enumerate()
            .map(|(i, &v)| if m >> i & 1 == 1 { -v } else { v })
            .sum::<f64>()
    });
    assert!(want > 0.01 && want < 0.5, "a non-trivial case: {want}");
    let rounds = 100_000;
    close(
        p_value_mean(Units::Queries(&x), rounds, stream_key(6, &["signflip"])),
        want,
        rounds,
    );
}

#[test]
fn the_p_floor_counts_the_units_that_move() {
    use rag_gate::stats::signflip::p_floor;
    // 5 groups, all moved, exact: 2/32. 20 queries of which 3 moved: 2/8, whatever the rounds.
    assert_eq!(p_floor(5, 5, 10_000), 0.0625);
    assert_eq!(p_floor(3, 20, 10_000), 0.25);
    // Many units, random path: no lower than 1/(R + 1).
    assert_eq!(p_floor(200, 200, 999), 0.001);
    assert_eq!(p_floor(0, 7, 10_000), 1.0);
    // The test never goes below its floor: 3 moved of 20, every one positive.
    let mut x = vec![0.0; 20];
    x[3] = 0.2;
    x[9] = 0.1;
    x[15] = 0.3;
    let p = p_value_mean(Units::Queries(&x), 10_000, stream_key(7, &["signflip"]));
    assert!(p >= 0.25 - 0.02, "{p}");
}
