//! The calibration of `rag-gate plan`: at the units it plans, does the rule do what the plan
//! promised as often as the power says (`calibration/plan.rs`)? Per cell: the units planned
//! from a pilot of 20,000 units, the share of `max-drop` passes under a true change of 0 and
//! of `fail-if-significant-drop` firing under a true drop of twice its margin, each with its
//! binomial Monte-Carlo standard error and `ok` when within 80% ± 3 MC standard errors (plus
//! 1.5 points for the normal approximation the plan rests on); and how often the interval a
//! 100- or 400-unit pilot gives on the units holds the large pilot's answer.
//!
//!     nice -n 10 cargo run --release --example calibration_plan [-- SETS RESAMPLES DATA_SEED]
//!
//! Defaults: 1000 sets per cell, 1000 resamples per set, data seed 2026.

#[path = "../calibration/plan.rs"]
mod plan;

use plan::{Model, POWER};

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sets = args.first().copied().unwrap_or(1000);
    let b = args.get(1).copied().unwrap_or(1000);
    let seed = args.get(2).map_or(2026, |&s| s as u64);
    println!(
        "plan calibration: {sets} sets per cell, {b} resamples per set, data seed {seed}, bootstrap-t 95%, power {POWER}"
    );
    let cells: [(Model, f64, f64); 3] = [
        (Model::Query, 0.05, 0.04),
        (Model::Group, 0.03, 0.03),
        (Model::Binary, 0.10, 0.05),
    ];
    let mc = (POWER * (1.0 - POWER) / sets as f64).sqrt();
    let ok = |x: f64| {
        if (x - POWER).abs() <= 3.0 * mc + 0.015 {
            "ok"
        } else {
            "OUT OF RANGE"
        }
    };
    for (model, m, f) in cells {
        let t = std::time::Instant::now();
        println!("[{}]", model.name());
        let (n, _) = plan::planned(model, 20_000, ("max-drop", m, 0.0), seed);
        let pass = plan::share(model, n, 0.0, ("max-drop", m), sets, b, seed);
        println!(
            "  max-drop {m}: planned {n} units; true change 0: passes {:.2}% ± {:.2}  (want 80) {}",
            100.0 * pass,
            100.0 * mc,
            ok(pass)
        );
        let (k, _) = plan::planned(model, 20_000, ("fisd", f, 2.0 * f), seed);
        let fired = plan::share(model, k, -2.0 * f, ("fisd", f), sets, b, seed);
        println!(
            "  fail-if-significant-drop {f}: planned {k} units to catch a drop of {}; true drop {}: fires {:.2}% ± {:.2}  (want 80) {}",
            2.0 * f,
            2.0 * f,
            100.0 * fired,
            100.0 * mc,
            ok(fired)
        );
        for pilot in [100, 400] {
            let (held, median) = plan::pilot_interval(model, pilot, ("max-drop", m, 0.0), n, sets);
            println!(
                "  a pilot of {pilot} units: median plan {median}; its 95% interval on the units holds {n} in {:.2}% ± {:.2}",
                100.0 * held,
                100.0 * (held * (1.0 - held) / sets as f64).sqrt()
            );
        }
        println!("  ({:.1} s)", t.elapsed().as_secs_f64());
    }
}
