//! `cargo bench --bench engine`: the bootstrap engine alone at N = 100,000, B = 10,000
//! (query unit, and 10,000 groups of 10), on all cores and on one thread. Prints the median of
//! five runs and the cost per resampled element. A measurement, never an assertion.

use std::time::Instant;

use rag_gate::stats::bootstrap::{bootstrap_means, group_sums, Units};
use rag_gate::stats::streams::stream_key;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn median_secs(mut f: impl FnMut() -> f64) -> f64 {
    let mut t: Vec<f64> = (0..5)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(f());
            start.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[2]
}

fn main() {
    let n = 100_000usize;
    let b = 10_000usize;
    let deltas: Vec<f64> = (0..n)
        .map(|i| ((i * 7919) % 1000) as f64 / 1000.0 - 0.5)
        .collect();
    let group_of: Vec<u32> = (0..n).map(|i| (i / 10) as u32).collect();
    let (sums, sizes) = group_sums(&deltas, &group_of, n / 10);
    let key = stream_key(17, &["bootstrap", "bench", "all"]);
    let threads = rayon::current_num_threads();
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();

    let q = median_secs(|| bootstrap_means(Units::Queries(&deltas), b, key)[0]);
    let q1 = one.install(|| median_secs(|| bootstrap_means(Units::Queries(&deltas), b, key)[0]));
    let g = median_secs(|| {
        bootstrap_means(
            Units::Groups {
                sums: &sums,
                sizes: &sizes,
            },
            b,
            key,
        )[0]
    });
    // The reference of the issue: a plain loop, ChaCha8 + random_range per element, one thread.
    let plain = median_secs(|| {
        let mut rng = ChaCha8Rng::from_seed(key);
        let mut last = 0.0;
        for _ in 0..b {
            let mut sum = 0.0;
            for _ in 0..n {
                sum += deltas[rng.random_range(0..n)];
            }
            last = sum / n as f64;
        }
        last
    });
    let elems = (n * b) as f64;
    println!("bootstrap engine, N = {n}, B = {b} (median of 5)");
    println!(
        "  query unit, {threads} threads: {q:.3} s  ({:.2} ns per resampled element per core)",
        q * 1e9 * threads as f64 / elems
    );
    println!(
        "  query unit, 1 thread:  {q1:.3} s  ({:.2} ns per resampled element)",
        q1 * 1e9 / elems
    );
    println!("  group unit (10,000 groups of 10), {threads} threads: {g:.3} s");
    println!(
        "  plain loop (ChaCha8 + random_range, 1 thread): {plain:.3} s  ({:.2} ns per element)",
        plain * 1e9 / elems
    );
    println!("  ratios: plain / engine on {threads} threads = {:.2}x; plain / engine on 1 thread = {:.2}x", plain / q, plain / q1);
}
