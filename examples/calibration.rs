//! The calibration run: on simulated paired data sets, the error rates and coverage of the
//! intervals and the sign-flip p-value (scenarios in `calibration/sim.rs`).
//!
//!     cargo run --release --example calibration [-- SETS RESAMPLES DATA_SEED]
//!
//! Defaults: 2000 sets per scenario, 2000 resamples per set (and 2000 sign-flip rounds).

#[path = "../calibration/sim.rs"]
mod sim;

use rag_gate::stats::interval::IntervalMethod;

fn in_range(x: f64, lo: f64, hi: f64) -> bool {
    (lo..=hi).contains(&x)
}

fn verdict(ok: bool) -> &'static str {
    if ok {
        "ok"
    } else {
        "OUT OF RANGE"
    }
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sets = args.first().copied().unwrap_or(2000);
    let b = args.get(1).copied().unwrap_or(2000);
    let seed = args.get(2).map_or(sim::DATA_SEED, |&s| s as u64);
    println!("calibration: {sets} sets per scenario, {b} resamples per set, data seed {seed}, 95% intervals");
    for (method, name) in [
        (IntervalMethod::Percentile, "percentile"),
        (IntervalMethod::Bca, "bca"),
    ] {
        let t = std::time::Instant::now();
        let a = sim::null(seed, sets, 200, b, method);
        let s = sim::shift(seed, sets, 200, b, method);
        let (q, g) = sim::clustered(seed, sets, 80, b, method);
        let (q60, g60) = sim::clustered(seed, sets, 60, b, method);
        println!("[{name}]");
        let a_ok = in_range(a.miss_rate(), 0.035, 0.065) && in_range(a.reject_rate(), 0.035, 0.065);
        println!(
            "  (a) null, n = 200, query unit: CI excludes 0 in {:.2}% of sets; p < 0.05 in {:.2}%  (want 5 ± 1.5) {}",
            100.0 * a.miss_rate(),
            100.0 * a.reject_rate(),
            verdict(a_ok)
        );
        println!(
            "  (b) true delta {}, n = 200, query unit: coverage {:.2}%  (want 93.5–96.5) {}",
            sim::MU,
            100.0 * s.coverage(),
            verdict(in_range(s.coverage(), 0.935, 0.965))
        );
        for (groups, q, g) in [(80, q, g), (60, q60, g60)] {
            println!(
                "  (c) clustered, {groups} groups of 2–10: query-unit coverage {:.2}% (should under-cover), group-unit coverage {:.2}%  (want 92–97) {}",
                100.0 * q.coverage(),
                100.0 * g.coverage(),
                verdict(q.coverage() < 0.9 && in_range(g.coverage(), 0.92, 0.97))
            );
        }
        println!("  ({:.1} s)", t.elapsed().as_secs_f64());
    }
}
