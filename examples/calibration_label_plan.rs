//! Calibration of `label-plan`'s size: does labelling the number of units the plan asks for
//! deliver the stated power? A pilot with 5% or 33% of units labelled plans the size for a max-drop
//! margin at power 0.8; fresh sets of a change that changes nothing, with that many units
//! labelled at random, should pass the corrected gate (its interval's lower bound ≥ −margin) in
//! at least 80% of sets. The pilot's spreads are estimates, so the plan varies with the pilot:
//! each cell draws PILOTS pilots and reports the mean power over the pilots whose plan reaches
//! the margin and the share of them whose plan gave at least 80% (the assurance), at each
//! `--assurance` level asked; beside them the size planned from the generator's own spreads
//! (what a perfect pilot would ask) and, for the pilots whose plan says "not reachable", the
//! power the plan states for all but two units labelled and what that delivers.
//!
//!     nice -n 10 cargo run --release --example calibration_label_plan [-- SETS PILOTS LEVELS]
//!     nice -n 10 cargo run --release --example calibration_label_plan -- oracle [SETS]
//!
//! Default: 200 fresh sets per pilot, 100 pilots per cell, assurance levels 0.5,0.8. Cells: 1000
//! queries (query unit), 1200 queries in conversations of 3 (group unit); pilots of 5% and 33% of
//! units; margins 0.02 and 0.03.

#[path = "../calibration/label_plan.rs"]
mod label_plan;

/// Sums over the pilots of one cell.
#[derive(Default)]
struct Cell {
    reached: usize,
    planned: usize,
    power: f64,
    assured: usize,
    /// Not reachable: the power stated for all but two labelled, and the power delivered there.
    stated: f64,
    delivered: f64,
}

fn cell(
    shape: (usize, usize),
    pilot: f64,
    margin: f64,
    assurance: f64,
    sets: usize,
    pilots: u64,
) -> Cell {
    let mut c = Cell::default();
    for seed in 1..=pilots {
        let o = label_plan::run(shape, pilot, margin, assurance, sets, seed);
        let rate = o.passed as f64 / o.sets as f64;
        match o.planned {
            Some(n) => {
                c.reached += 1;
                c.planned += n;
                c.power += rate;
                c.assured += usize::from(rate >= 0.8);
            }
            None => {
                c.stated += o.stated.expect("stated when not reachable");
                c.delivered += rate;
            }
        }
    }
    c
}

/// `oracle SETS`: the size planned from the generator's own spreads and how often fresh sets at
/// that size pass (the formula's check, free of any pilot).
fn oracle(sets: usize) {
    println!(
        "true need: the plan from the generator's spreads, power 0.8 stated, {sets} sets a cell"
    );
    for (unit, queries, group_size) in [("query", 1000, 1), ("group", 1200, 3)] {
        for margin in [0.02, 0.03] {
            let (need, passed) = label_plan::oracle((queries, group_size), margin, sets, 7);
            let p = passed as f64 / sets as f64;
            println!(
                "{unit:6} {queries:7}  margin {margin}  need {}  passed {:.1}% ± {:.1}",
                need.map_or("-".into(), |n| n.to_string()),
                100.0 * p,
                100.0 * (p * (1.0 - p) / sets as f64).sqrt()
            );
        }
    }
}

fn main() {
    let arg = |i: usize, default: &str| std::env::args().nth(i).unwrap_or(default.into());
    if arg(1, "") == "oracle" {
        return oracle(arg(2, "4000").parse().expect("SETS"));
    }
    let sets: usize = arg(1, "200").parse().expect("SETS");
    let pilots: u64 = arg(2, "100").parse().expect("PILOTS");
    let levels: Vec<f64> = arg(3, "0.5,0.8")
        .split(',')
        .map(|l| l.parse().expect("LEVELS: assurances, comma-separated"))
        .collect();
    println!(
        "power 0.8 stated; {pilots} pilots per cell, {sets} fresh sets per pilot; pass = corrected lower bound ≥ −margin, true delta 0"
    );
    println!("assurance  unit   queries  pilot  margin  true need  reachable  mean planned  mean power  pilots at ≥ 80%  | not reachable: stated  delivered at all but 2");
    for &assurance in &levels {
        for (unit, queries, group_size) in [("query", 1000, 1), ("group", 1200, 3)] {
            for (pilot, margin) in [(0.05, 0.02), (0.05, 0.03), (0.33, 0.02), (0.33, 0.03)] {
                let shape = (queries, group_size);
                let (need, _) = label_plan::oracle(shape, margin, 0, 0);
                let c = cell(shape, pilot, margin, assurance, sets, pilots);
                let per = |x: f64| x / c.reached.max(1) as f64;
                let missed = pilots as usize - c.reached;
                let short = match missed {
                    0 => String::new(),
                    m => format!(
                        "  | {:5.1}%  {:5.1}%",
                        100.0 * c.stated / m as f64,
                        100.0 * c.delivered / m as f64
                    ),
                };
                println!(
                    "{assurance:9}  {unit:6} {queries:7}  {:4.0}%  {margin:6}  {:9}  {:5}/{pilots:<3}  {:12.0}  {:9.1}%  {:14.0}%{short}",
                    100.0 * pilot,
                    need.map_or("-".into(), |n| n.to_string()),
                    c.reached,
                    per(c.planned as f64),
                    100.0 * per(c.power),
                    100.0 * per(c.assured as f64)
                );
            }
        }
    }
}
