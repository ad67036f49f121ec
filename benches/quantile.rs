//! `cargo bench --bench quantile [-- --queries N] [--resamples B]`: the quantile engine (median
//! and p95 bootstrap draws and sign-flip p-value) against the mean engine (bootstrap-t draws and
//! sign-flip p-value) on the same data and resamples, query unit and groups of 10; values with 4
//! decimals (as `bench/check_bench.py` writes them) and continuous ones. Prints the median of
//! three runs per case and the ratio to the mean. A measurement, never an assertion.

use std::time::Instant;

use rag_gate::stats::bootstrap::group_sums;
use rag_gate::stats::paired_quantile::{
    bootstrap_quantile_diffs, members, singletons, PairedSample,
};
use rag_gate::stats::signflip::{p_value_quantile, p_values_mean_many};
use rag_gate::stats::streams::stream_key;
use rag_gate::stats::studentized::bootstrap_studentized_many;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn median_secs(mut f: impl FnMut() -> f64) -> f64 {
    let mut t: Vec<f64> = (0..3)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(f());
            start.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[1]
}

fn option(args: &[String], flag: &str, default: usize) -> usize {
    args.iter()
        .position(|a| a == flag)
        .map_or(default, |i| args[i + 1].parse().expect("a count"))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n = option(&args, "--queries", 100_000);
    let b = option(&args, "--resamples", 2_000);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for rounded in [true, false] {
        let base: Vec<f64> = (0..n)
            .map(|_| {
                let v: f64 = rng.random();
                if rounded {
                    (v * 1e4).round() / 1e4
                } else {
                    v
                }
            })
            .collect();
        let cand: Vec<f64> = base
            .iter()
            .map(|v| {
                let c = (v + rng.random::<f64>() * 0.2 - 0.095).clamp(0.0, 1.0);
                if rounded {
                    (c * 1e4).round() / 1e4
                } else {
                    c
                }
            })
            .collect();
        let deltas: Vec<f64> = base.iter().zip(&cand).map(|(b, c)| c - b).collect();
        let group_of: Vec<u32> = (0..n).map(|i| (i / 10) as u32).collect();
        let g = n.div_ceil(10);
        let (sums, sizes) = group_sums(&deltas, &group_of, g);
        let kind = if rounded { "4 decimals" } else { "continuous" };
        for grouped in [false, true] {
            let units = if grouped {
                members(&group_of, g)
            } else {
                singletons(n)
            };
            let s = PairedSample {
                base: &base,
                cand: &cand,
                units: &units,
            };
            let (values, z): (&[f64], Option<&[f64]>) = if grouped {
                (&sums, Some(&sizes))
            } else {
                (&deltas, None)
            };
            let key = stream_key(17, &["bootstrap", "all"]);
            let mean = median_secs(|| {
                bootstrap_studentized_many(&[values], z, b, key)[0].means[0]
                    + p_values_mean_many(&[values], z, b, key)[0]
            });
            let unit = if grouped {
                "groups of 10"
            } else {
                "query unit"
            };
            println!("N = {n}, B = {b}, {kind}, {unit}: mean (bootstrap-t draws + sign-flip) {mean:.3} s");
            for (name, p) in [("median", 0.5), ("p95", 0.95)] {
                let draws = median_secs(|| bootstrap_quantile_diffs(&s, p, b, key)[0]);
                let flips = median_secs(|| p_value_quantile(&s, p, b, key));
                println!(
                    "  {name}: draws {draws:.3} s, sign-flip {flips:.3} s, together {:.2}x the mean",
                    (draws + flips) / mean
                );
            }
        }
    }
}
