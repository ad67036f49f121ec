//! Calibration of `label-plan`'s size: does labelling the number of units the plan asks for
//! deliver the stated power? A pilot with 5% or 33% of units labelled plans the size for a max-drop
//! margin at power 0.8; fresh sets of a change that changes nothing, with that many units
//! labelled at random, should pass the corrected gate (its interval's lower bound ≥ −margin) in
//! about 80% of sets (at least 0.8 less two Monte-Carlo standard errors; the pilot's estimated
//! spreads make the plan itself vary, which the several pilot seeds show).
//!
//!     nice -n 10 cargo run --release --example calibration_label_plan [-- SETS]
//!
//! Default: 1000 sets per cell. Cells: 1000 queries (query unit), 1200 queries in conversations
//! of 3 (group unit); pilots of 5% and 33% of units; margins 0.02 and 0.03; pilot seeds 1–3.

#[path = "../calibration/label_plan.rs"]
mod label_plan;

fn main() {
    let sets: usize = std::env::args()
        .nth(1)
        .map_or(1000, |s| s.parse().expect("SETS"));
    println!("power 0.8 stated, {sets} sets per cell; pass = corrected lower bound ≥ −margin, true delta 0");
    println!("unit   queries  pilot  margin  pilot seed  planned labelled units  passed        se planned / mean estimated / true");
    for (unit, queries, group_size) in [("query", 1000, 1), ("group", 1200, 3)] {
        for (pilot, margin) in [(0.05, 0.02), (0.05, 0.03), (0.33, 0.02), (0.33, 0.03)] {
            for seed in 1..=3u64 {
                let pct = 100.0 * pilot;
                match label_plan::run((queries, group_size), pilot, margin, sets, seed) {
                    Some(o) => {
                        let rate = o.passed as f64 / o.sets as f64;
                        let se = (rate * (1.0 - rate) / o.sets as f64).sqrt();
                        println!(
                            "{unit:6} {queries:7}  {pct:4.0}%  {margin:6}  {seed:10}  {:22}  {:.1}% ± {:.1}  {:.4} / {:.4} / {:.4}",
                            o.planned,
                            100.0 * rate,
                            100.0 * se,
                            o.planned_se,
                            o.mean_se,
                            o.sd_estimate
                        );
                    }
                    None => println!(
                        "{unit:6} {queries:7}  {pct:4.0}%  {margin:6}  {seed:10}  not reachable"
                    ),
                }
            }
        }
    }
}
