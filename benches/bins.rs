//! `cargo bench --bench bins [-- --resamples B]`: where resampling by distinct value (`stats::bins`)
//! pays against the per-unit Poisson and sign-flip paths. For n units and K distinct values
//! (each value on n/K units), the seconds of B resamples of one metric: the per-unit Poisson
//! sums (`poisson::unit_sums`, whatever the values) and the per-unit sign-flip test (on distinct
//! values, so it stays per unit), against `Bins::poisson_sums` and `Bins::sign_flip_sums`; and the
//! cost of building the bins. Prints one Markdown row per case, the units per value, and the
//! per-unit over binned time ratio: `bins::UNITS_PER_BIN` is set where it passes 1. Median of three
//! runs; a measurement, never an assertion.

use std::time::Instant;

use rag_gate::stats::bins::Bins;
use rag_gate::stats::poisson::unit_sums;
use rag_gate::stats::signflip::p_values_mean_many;
use rag_gate::stats::streams::stream_key;

fn median_secs(mut f: impl FnMut()) -> f64 {
    let mut t: Vec<f64> = (0..3)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[1]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let b = args
        .iter()
        .position(|a| a == "--resamples")
        .and_then(|i| args.get(i + 1))
        .map_or(1000, |v| v.parse().expect("--resamples takes a count"));
    let key = stream_key(1, &["bench", "bins"]);
    println!(
        "B = {b}, one metric, {} threads",
        rayon::current_num_threads()
    );
    println!("| n | K | n/K | per-unit Poisson | binned Poisson | ratio | per-unit sign flip | binned sign flip | ratio | building the bins |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for n in [100_000usize, 1_000_000] {
        // All distinct (the per-unit paths' cost does not depend on the values).
        let distinct: Vec<f64> = (0..n).map(|i| (i as f64 + 0.5) / n as f64 - 0.3).collect();
        let unit_poisson = median_secs(|| {
            std::hint::black_box(unit_sums(&[&distinct], b, key));
        });
        let unit_flip = median_secs(|| {
            std::hint::black_box(p_values_mean_many(&[&distinct], None, b, key));
        });
        for per in [4usize, 8, 16, 32, 64, 256] {
            let k = n / per;
            let x: Vec<f64> = (0..n)
                .map(|i| ((i * 7919) % k) as f64 / k as f64 - 0.3)
                .collect();
            let mut bins = None;
            let build = median_secs(|| bins = Bins::of(&[&x], n));
            let bins = bins.expect("bins");
            let poisson = median_secs(|| {
                std::hint::black_box(bins.poisson_sums(b, key));
            });
            let flip = median_secs(|| {
                std::hint::black_box(bins.sign_flip_sums(b, key));
            });
            println!(
                "| {n} | {k} | {per} | {unit_poisson:.3} s | {poisson:.3} s | {:.1} | {unit_flip:.3} s | {flip:.3} s | {:.1} | {build:.3} s |",
                unit_poisson / poisson,
                unit_flip / flip
            );
        }
    }
}
