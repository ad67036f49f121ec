//! The replicate-aware calibration: on simulated replicate runs with per-query jitter and
//! whole-run shifts (`calibration/replicates.rs`), the false-alarm rate and coverage of the plain
//! query bootstrap on one run per side and of the crossed interval on 3, 5 and 7 runs per side.
//!
//!     nice -n 10 cargo run --release --example calibration_replicates [-- SETS RESAMPLES DATA_SEED]
//!
//! With `aa` last: one run per side on 200 queries, gated at `max-drop = 0.02` and 0.04, without and with
//! an A/A noise file of 3, 5 and 10 runs of main (`aa_set`): the escape (a pass at a true delta
//! of −0.02) and the friction (a fail at a true delta of 0).
//!
//! Defaults: 2000 sets, 1000 resamples per set, data seed 2026. Figures carry their Monte-Carlo
//! standard error (binomial, over the sets).

#[path = "../calibration/replicates.rs"]
mod replicates;

use replicates::{aa_set, scenario, Tally, DELTA, QUERIES};

fn in_range(x: f64, lo: f64, hi: f64) -> &'static str {
    if (lo..=hi).contains(&x) {
        "ok"
    } else {
        "OUT OF RANGE"
    }
}

fn pct(t: &Tally, rate: f64) -> String {
    format!("{:.2}% ± {:.2}", 100.0 * rate, 100.0 * t.mc_se(rate))
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sets = args.first().copied().unwrap_or(2000);
    let b = args.get(1).copied().unwrap_or(1000);
    let seed = args.get(2).map_or(2026, |&s| s as u64);
    if std::env::args().any(|a| a == "aa") {
        return aa_rows(sets, b, seed);
    }
    let modes = [1, 3, 5, 7];
    println!(
        "replicate calibration: {sets} sets, {QUERIES} queries, {b} resamples per set, data seed {seed}, 95% percentile intervals"
    );
    let t = std::time::Instant::now();
    let null = scenario(seed, sets, 0.0, &modes, b);
    let shift = scenario(seed ^ 1, sets, DELTA, &modes, b);
    for ((m, n), s) in modes.iter().zip(&null).zip(&shift) {
        let label = match m {
            1 => "1 run per side, query bootstrap".to_string(),
            m => format!("{m} runs per side, crossed"),
        };
        let (fa, cov) = (n.miss_rate(), 1.0 - s.miss_rate());
        let verdict = match m {
            3 | 5 | 7 => format!(
                "  false alarms {} coverage {}",
                in_range(fa, 0.035, 0.065),
                in_range(cov, 0.935, 0.965)
            ),
            1 => format!(
                "  (want far above 5: {})",
                if fa > 0.15 { "yes" } else { "NO" }
            ),
            _ => String::new(),
        };
        let df = match m {
            1 => String::new(),
            _ => format!(", mean df {:.1}", n.mean_df()),
        };
        println!(
            "  {label}: no change: CI excludes 0 in {}, p < 0.05 in {}; true delta {DELTA}: coverage {}; mean half-width {:.4}{df}{verdict}",
            pct(n, fa),
            pct(n, n.reject_rate()),
            pct(s, cov),
            n.mean_half_width(),
        );
    }
    println!("  ({:.1} s)", t.elapsed().as_secs_f64());
}

/// The single-run design with and without an A/A noise file (`aa`).
fn aa_rows(sets: usize, b: usize, seed: u64) {
    let n = 200;
    for m in [0.02, 0.04] {
        aa_margin(sets, b, seed, n, m);
    }
}

fn aa_margin(sets: usize, b: usize, seed: u64, n: usize, m: f64) {
    println!(
        "A/A noise file in the interval: {sets} sets, {n} queries, one run per side, {b} resamples, data seed {seed}, max-drop = {m} on the bootstrap-t interval; escape = pass at a true delta of -{m}, friction = fail at 0"
    );
    for aa in [3, 5, 10] {
        let mut escape = [0usize; 2];
        let mut friction = [0usize; 2];
        let mut width = [0.0f64; 2];
        for set in 0..sets {
            let drop = aa_set(seed, set, (n, aa, b), -m);
            let null = aa_set(seed ^ 1, set, (n, aa, b), 0.0);
            for k in 0..2 {
                escape[k] += usize::from(drop[k][0] >= -m);
                friction[k] += usize::from(null[k][0] < -m);
                width[k] += (null[k][1] - null[k][0]) / 2.0;
            }
        }
        let rate = |x: usize| {
            let r = x as f64 / sets as f64;
            format!(
                "{:.2}% ± {:.2}",
                100.0 * r,
                100.0 * (r * (1.0 - r) / sets as f64).sqrt()
            )
        };
        for (k, label) in ["without the noise file", "with the noise file"]
            .iter()
            .enumerate()
        {
            println!(
                "  {aa} A/A runs, {label}: escape {}, friction {}, mean half-width {:.4}",
                rate(escape[k]),
                rate(friction[k]),
                width[k] / sets as f64
            );
        }
    }
}
