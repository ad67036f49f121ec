//! The calibration of `rag-gate plan`: does the size it plans give the rule the promised power
//! (80%) on average over the pilots it is planned from (`calibration/plan.rs`)? Per model, rule
//! and pilot size (50, 100, 1,000 and 20,000 units): the median planned units and the share of
//! sets at those units where the rule does its job, one set per pilot, each share with its
//! binomial Monte-Carlo standard error; before (the plug-in paired-t size) and after (the size
//! averaged over the pilot's uncertainty, with the interval's skew-aware width). `ok` when the
//! share is within 80% ± 3 Monte-Carlo standard errors or above it (over-delivering costs
//! queries, not correctness; the size in queries is in the row).
//!
//!     nice -n 10 cargo run --release --example calibration_plan [-- PILOTS RESAMPLES DATA_SEED [MODEL] [sizes=50,100]]
//!
//! Defaults: 1000 pilots per cell, 500 resamples per set, data seed 2026; MODEL one of query,
//! group, binary, carried (all when absent); `sizes=` keeps those pilot sizes only (each row is
//! seeded on its own, so a row run alone repeats the full run's to the digit); `kurtosis=0.5`
//! plans with Bonett's point kurtosis in place of its upper limit (the plan before it).

#[path = "../calibration/plan.rs"]
mod plan;

use plan::{Model, Planner, POWER};

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<usize> = raw.iter().filter_map(|a| a.parse().ok()).collect();
    let pilots = args.first().copied().unwrap_or(1000);
    let b = args.get(1).copied().unwrap_or(500);
    let seed = args.get(2).map_or(2026, |&s| s as u64);
    let only = raw.iter().find(|a| {
        a.parse::<usize>().is_err() && !a.starts_with("sizes=") && !a.starts_with("kurtosis=")
    });
    let level = raw
        .iter()
        .find_map(|a| a.strip_prefix("kurtosis="))
        .and_then(|l| l.parse::<f64>().ok());
    if let Some(l) = level {
        plan::set_kurtosis_level(l);
    }
    let sizes: Option<Vec<usize>> = raw
        .iter()
        .find_map(|a| a.strip_prefix("sizes="))
        .map(|list| list.split(',').filter_map(|s| s.parse().ok()).collect());
    println!(
        "plan calibration: {pilots} pilots per cell (one set each), {b} resamples per set, data seed {seed}, bootstrap-t 95% with its Student t floor, power {POWER}"
    );
    if let Some(l) = level {
        println!("the planner reads the kurtosis at its {l} upper limit (0.5: the point estimate)");
    }
    let cells: [(Model, &str, f64, f64); 4] = [
        (Model::Query, "query", 0.05, 0.04),
        (Model::Group, "group", 0.03, 0.03),
        (Model::Binary, "binary", 0.10, 0.05),
        (Model::Carried, "carried", 0.03, 0.02),
    ];
    let mc = |p: f64| (p * (1.0 - p) / pilots as f64).sqrt();
    for (model, key, m, f) in cells {
        if only.is_some_and(|o| o != key) {
            continue;
        }
        println!("[{}]", model.name());
        for rule in [("max-drop", m, 0.0), ("fisd", f, 2.0 * f)] {
            let what = match rule.0 {
                "max-drop" => format!("max-drop {m}, true change 0: passes"),
                _ => format!("fail-if-significant-drop {f}, true drop {}: fires", 2.0 * f),
            };
            println!("  {what}   pilot units | before: median n, power | after: median n, power");
            for pilot in [50, 100, 1_000, 20_000] {
                if sizes.as_ref().is_some_and(|k| !k.contains(&pilot)) {
                    continue;
                }
                let cell =
                    |planner| plan::average_power(model, pilot, rule, planner, pilots, b, seed);
                let (before, n0) = cell(Planner::PlugIn);
                let (after, n1) = cell(Planner::Expected);
                let ok = if after >= POWER - 3.0 * mc(after) {
                    "ok"
                } else {
                    "SHORT"
                };
                println!(
                    "    {pilot:>6} | {n0:>5}, {:5.2}% ± {:.2} | {n1:>5}, {:5.2}% ± {:.2}  {ok}",
                    100.0 * before,
                    100.0 * mc(before),
                    100.0 * after,
                    100.0 * mc(after),
                );
            }
        }
    }
}
