//! `cargo bench --bench engine [-- --deltas FILE] [--resamples B]`: the bootstrap engine alone at
//! N = 100,000, B = 10,000 (or the deltas in FILE, one per line, as `bench/check_bench.sh` passes them): one
//! metric (query unit, all threads and one thread), 10,000 groups of 10, three metrics sharing the
//! draws (percentile, and bootstrap-t with its per-resample SEs), and the sign-flip test for one
//! and three metrics; against a plain ChaCha8 +
//! `random_range` loop on one thread. Prints the median of five runs and the cost per resampled
//! element, then `engine-seconds <s>` for scripts; `--only-engine` times the first case alone.
//! A measurement, never an assertion.

use std::time::Instant;

use rag_gate::stats::bootstrap::{bootstrap_means, bootstrap_means_many, group_sums, Units};
use rag_gate::stats::signflip::{p_value_mean, p_values_mean_many};
use rag_gate::stats::streams::stream_key;
use rag_gate::stats::studentized::bootstrap_studentized_many;
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

/// The value after `flag` on the command line.
fn option<'a>(args: &'a [String], flag: &str) -> Option<&'a str> {
    let i = args.iter().position(|a| a == flag)?;
    Some(
        args.get(i + 1)
            .unwrap_or_else(|| panic!("{flag} takes a value")),
    )
}

fn deltas(args: &[String]) -> Vec<f64> {
    match option(args, "--deltas") {
        Some(path) => std::fs::read_to_string(path)
            .expect("readable deltas file")
            .lines()
            .map(|l| l.trim().parse().expect("one number per line"))
            .collect(),
        // 100,000 distinct values (7919 is prime to 100,000): the per-unit paths, which cost
        // the same whatever the values (repeated values resample by value: benches/bins.rs).
        None => (0..100_000)
            .map(|i| ((i * 7919) % 100_000) as f64 / 100_000.0 - 0.5)
            .collect(),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deltas = deltas(&args);
    let n = deltas.len();
    let b = option(&args, "--resamples")
        .map_or(10_000, |v| v.parse().expect("--resamples takes a count"));
    let other: Vec<f64> = deltas.iter().map(|d| d * 0.5 + 0.01).collect();
    let third: Vec<f64> = deltas.iter().rev().copied().collect();
    let group_of: Vec<u32> = (0..n).map(|i| (i / 10) as u32).collect();
    let (sums, sizes) = group_sums(&deltas, &group_of, n.div_ceil(10));
    let key = stream_key(17, &["bootstrap", "all"]);
    let threads = rayon::current_num_threads();
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();

    let q = median_secs(|| bootstrap_means(Units::Queries(&deltas), b, key)[0]);
    if args.iter().any(|a| a == "--only-engine") {
        println!("engine-seconds {q:.4}");
        return;
    }
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
    let three =
        median_secs(|| bootstrap_means_many(&[&deltas, &other, &third], None, b, key)[0][0]);
    // The default interval's draws: the same indices, each metric's SE per resample besides.
    let three_t = median_secs(|| {
        bootstrap_studentized_many(&[&deltas, &other, &third], None, b, key)[0].means[0]
    });
    let s1 = median_secs(|| p_value_mean(Units::Queries(&deltas), b, key));
    let s3 = median_secs(|| p_values_mean_many(&[&deltas, &other, &third], None, b, key)[0]);
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
    let per = |t: f64, cores: usize| t * 1e9 * cores as f64 / elems;
    println!("bootstrap engine, N = {n}, B = {b} (median of 5)");
    println!(
        "  1 metric, query unit, {threads} threads: {q:.3} s  ({:.2} ns per resampled element per core)",
        per(q, threads)
    );
    println!(
        "  1 metric, query unit, 1 thread:  {q1:.3} s  ({:.2} ns per resampled element)",
        per(q1, 1)
    );
    println!("  1 metric, group unit (groups of 10), {threads} threads: {g:.3} s");
    println!(
        "  3 metrics sharing the draws, {threads} threads: {three:.3} s  ({:.2}x one metric)",
        three / q
    );
    println!(
        "  3 metrics, bootstrap-t draws (means and SEs), {threads} threads: {three_t:.3} s  ({:.2}x the percentile draws)",
        three_t / three
    );
    println!(
        "  sign-flip p-value, {b} rounds, {threads} threads: 1 metric {s1:.3} s, 3 metrics {s3:.3} s"
    );
    println!(
        "  plain loop (ChaCha8 + random_range, 1 thread): {plain:.3} s  ({:.2} ns per element)",
        per(plain, 1)
    );
    println!(
        "  ratios: plain / engine on {threads} threads = {:.2}x; plain / engine on 1 thread = {:.2}x",
        plain / q,
        plain / q1
    );
    println!("engine-seconds {q:.4}");
}
