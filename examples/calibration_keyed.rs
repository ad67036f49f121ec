//! Calibration of keyed weights (`[bootstrap] weights = "keyed"`, `stats::keyed`): the
//! percentile interval of the mean delta from weights keyed by the unit's id (4-bit weights,
//! P(w = 0, 1, 2, 3) = (6, 6, 2, 2)/16, summed on the 2^-32 grid) beside the percentile interval
//! of the positional bootstrap (drawn indices below 10,000 units, Poisson weights from there),
//! on the same sets. Per cell: coverage of the true mean 0 and both one-sided misses, each with
//! its Monte-Carlo standard error. The low-side miss (the interval lies above the truth) is the
//! escape rate of `max-drop` at its margin; the high-side miss is the rate at which
//! `fail-if-significant-drop` fires on a drop of exactly its margin (friction).
//!
//!     nice -n 10 cargo run --release --example calibration_keyed -- SETS RESAMPLES DATA_SEED
//!
//! Cells (true mean delta 0 in each): (a) symmetric, n = 200; (b) zero-inflated skewed (70%
//! ties, exponential moves), n = 200; (c) the same, n = 30; (d) the same, n = 10,000; (e) 80
//! groups of 1 to 9 queries with a group effect, the group unit.

use rag_gate::stats::bootstrap::{bootstrap_means_many, group_sums};
use rag_gate::stats::interval::{interval, IntervalMethod};
use rag_gate::stats::keyed::{add_weighted, fixed, unfixed, unit_hash, Draws, Keys};
use rag_gate::stats::streams::stream_key;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A set's deltas and, for the group unit, each query's group.
struct Set {
    deltas: Vec<f64>,
    groups: Option<(Vec<u32>, usize)>,
}

fn skewed(rng: &mut ChaCha8Rng) -> f64 {
    // 30% move by an exponential of mean 0.1, everyone pays 0.03: mean 0.
    let moved = rng.random::<f64>() < 0.3;
    let e = -(1.0 - rng.random::<f64>()).ln() * 0.1;
    if moved {
        e - 0.03
    } else {
        -0.03
    }
}

fn make(cell: char, rng: &mut ChaCha8Rng) -> Set {
    let plain = |n: usize, f: &mut dyn FnMut(&mut ChaCha8Rng) -> f64, rng: &mut ChaCha8Rng| Set {
        deltas: (0..n).map(|_| f(rng)).collect(),
        groups: None,
    };
    match cell {
        'a' => plain(200, &mut |r| r.random::<f64>() - r.random::<f64>(), rng),
        'b' => plain(200, &mut skewed, rng),
        'c' => plain(30, &mut skewed, rng),
        'd' => plain(10_000, &mut skewed, rng),
        _ => {
            let (mut deltas, mut of) = (Vec::new(), Vec::new());
            for g in 0..80u32 {
                let effect = 0.2 * (rng.random::<f64>() - 0.5);
                for _ in 0..1 + g % 9 {
                    deltas.push(effect + 0.1 * (rng.random::<f64>() - 0.5));
                    of.push(g);
                }
            }
            // Group effects and query noise are centred: the true mean delta is 0.
            Set {
                deltas,
                groups: Some((of, 80)),
            }
        }
    }
}

/// Units' values and sizes: the deltas, or group sums and sizes.
fn units(s: &Set) -> (Vec<f64>, Vec<f64>) {
    match &s.groups {
        Some((of, g)) => group_sums(&s.deltas, of, *g),
        None => (s.deltas.clone(), vec![1.0; s.deltas.len()]),
    }
}

fn keyed_means(s: &Set, b: usize, seed: u64) -> Vec<f64> {
    let (values, sizes) = units(s);
    let keys = Keys::new(seed);
    let (mut sums, mut w) = (vec![0i64; b], vec![0i64; b]);
    let mut d = Draws::new(b);
    let mut total = 0i128;
    for (i, (&v, &z)) in values.iter().zip(&sizes).enumerate() {
        d.draw(&keys, unit_hash(&format!("u{i}")));
        let q: i64 = match &s.groups {
            // A group's sum of grid values, as the report sums them.
            Some((of, _)) => s
                .deltas
                .iter()
                .zip(of)
                .filter(|(_, &g)| g as usize == i)
                .map(|(&x, _)| fixed(x))
                .sum(),
            None => fixed(v),
        };
        total += i128::from(q);
        add_weighted(&mut sums, &d.weights, q);
        add_weighted(&mut w, &d.weights, z as i64);
    }
    let point = unfixed(total) / s.deltas.len() as f64;
    sums.iter()
        .zip(&w)
        .map(|(&x, &w)| {
            if w > 0 {
                unfixed(x.into()) / w as f64
            } else {
                point
            }
        })
        .collect()
}

fn positional_means(s: &Set, b: usize, seed: u64) -> Vec<f64> {
    let (values, sizes) = units(s);
    let z = s.groups.as_ref().map(|_| sizes.as_slice());
    bootstrap_means_many(&[&values], z, b, stream_key(seed, &["bootstrap", "all"]))
        .pop()
        .unwrap()
}

/// Coverage of 0, low-side miss, high-side miss over the sets, of each route.
fn cell(c: char, sets: usize, b: usize, seed: u64) -> [[usize; 3]; 2] {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ c as u64);
    let mut out = [[0usize; 3]; 2];
    for k in 0..sets {
        let s = make(c, &mut rng);
        let point = s.deltas.iter().sum::<f64>() / s.deltas.len() as f64;
        let truth = 0.0;
        let routes = [
            keyed_means(&s, b, seed + k as u64),
            positional_means(&s, b, seed + k as u64),
        ];
        for (r, mut means) in routes.into_iter().enumerate() {
            let iv = interval(
                &mut means,
                point,
                None,
                0.95,
                IntervalMethod::Percentile,
                0.0,
            );
            let [lo, hi] = iv.bounds;
            let i = if lo > truth {
                1
            } else if hi < truth {
                2
            } else {
                0
            };
            out[r][i] += 1;
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, d: usize| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let (sets, b, seed) = (num(0, 1000), num(1, 2000), num(2, 1) as u64);
    println!(
        "keyed vs positional percentile intervals: {sets} sets, {b} resamples, data seed {seed}"
    );
    println!("cell                                    route       coverage        low miss (escape)  high miss");
    let names = [
        ('a', "(a) symmetric, n = 200"),
        ('b', "(b) zero-inflated skewed, n = 200"),
        ('c', "(c) zero-inflated skewed, n = 30"),
        ('d', "(d) zero-inflated skewed, n = 10,000"),
        ('e', "(e) 80 unequal groups, group unit"),
    ];
    for (c, name) in names {
        let sets = if c == 'd' { sets / 4 } else { sets };
        let r = cell(c, sets, b, seed);
        for (route, counts) in ["keyed", "positional"].iter().zip(r) {
            let rate = |x: usize| {
                let p = x as f64 / sets as f64;
                format!(
                    "{:5.1}% ± {:.1}",
                    100.0 * p,
                    100.0 * (p * (1.0 - p) / sets as f64).sqrt()
                )
            };
            println!(
                "{name:<40}{route:<12}{:<16}{:<19}{}",
                rate(counts[0]),
                rate(counts[1]),
                rate(counts[2])
            );
        }
    }
}
