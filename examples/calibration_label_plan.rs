//! Calibration of `label-plan`'s size: does labelling the number of units the plan asks for
//! deliver the stated power? A pilot with 5% or 33% of units labelled plans the size for a max-drop
//! margin at power 0.8; fresh sets of a change that changes nothing, with that many units
//! labelled at random, should pass the corrected gate (its interval's lower bound ≥ −margin) in
//! at least 80% of sets. The pilot's spreads are estimates, so the plan varies with the pilot:
//! each cell draws PILOTS pilots and reports the mean power over them and the share of pilots
//! whose plan gave at least 80% (the assurance), at each `--assurance` level asked.
//!
//!     nice -n 10 cargo run --release --example calibration_label_plan [-- SETS PILOTS LEVELS]
//!
//! Default: 200 fresh sets per pilot, 100 pilots per cell, assurance levels 0.5,0.8. Cells: 1000
//! queries (query unit), 1200 queries in conversations of 3 (group unit); pilots of 5% and 33% of
//! units; margins 0.02 and 0.03.

#[path = "../calibration/label_plan.rs"]
mod label_plan;

fn main() {
    let arg = |i: usize, default: &str| std::env::args().nth(i).unwrap_or(default.into());
    let sets: usize = arg(1, "200").parse().expect("SETS");
    let pilots: u64 = arg(2, "100").parse().expect("PILOTS");
    let levels: Vec<f64> = arg(3, "0.5,0.8")
        .split(',')
        .map(|l| l.parse().expect("LEVELS: assurances, comma-separated"))
        .collect();
    println!(
        "power 0.8 stated; {pilots} pilots per cell, {sets} fresh sets per pilot; pass = corrected lower bound ≥ −margin, true delta 0"
    );
    println!("assurance  unit   queries  pilot  margin  reachable  mean planned  mean power  pilots at ≥ 80%");
    for &assurance in &levels {
        for (unit, queries, group_size) in [("query", 1000, 1), ("group", 1200, 3)] {
            for (pilot, margin) in [(0.05, 0.02), (0.05, 0.03), (0.33, 0.02), (0.33, 0.03)] {
                let (mut reached, mut planned, mut power, mut assured) = (0, 0, 0.0, 0);
                for seed in 1..=pilots {
                    let o = label_plan::run(
                        (queries, group_size),
                        pilot,
                        margin,
                        assurance,
                        sets,
                        seed,
                    );
                    let Some(n) = o.planned else { continue };
                    let rate = o.passed as f64 / o.sets as f64;
                    reached += 1;
                    planned += n;
                    power += rate;
                    assured += usize::from(rate >= 0.8);
                }
                let per = |x: f64| x / reached.max(1) as f64;
                println!(
                    "{assurance:9}  {unit:6} {queries:7}  {:4.0}%  {margin:6}  {reached:5}/{pilots:<3}  {:12.0}  {:9.1}%  {:14.0}%",
                    100.0 * pilot,
                    per(planned as f64),
                    100.0 * per(power),
                    100.0 * per(assured as f64)
                );
            }
        }
    }
}
