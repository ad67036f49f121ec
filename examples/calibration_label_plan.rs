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
//!     nice -n 10 cargo run --release --example calibration_label_plan [-- SETS PILOTS LEVELS [replan]]
//!     nice -n 10 cargo run --release --example calibration_label_plan -- oracle [SETS]
//!
//! With `replan`, the team follows the plan in two steps, as `label-plan` says: it labels the
//! pilot's size, runs `label-plan` again on every labelled unit and tops up to the size named
//! then (all but two units when that plan says "not reachable"). The power is then counted per
//! fresh set, split by what the second plan said: reached (it states the asked 80%) or not
//! reachable (it states the power with all but two labelled).
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
        let o = label_plan::run(
            shape,
            (pilot, margin, assurance),
            label_plan::Follow::Once,
            sets,
            seed,
        );
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

/// Sums over the fresh sets of one cell when the team plans twice.
#[derive(Default)]
struct TwoStep {
    first_reached: usize,
    r: label_plan::Replanned,
    /// Per pilot: (sets passed, sets) where the second plan reached the margin.
    per_pilot: Vec<(usize, usize)>,
    /// Per pilot whose first plan reached the margin: (sets passed, sets), whatever the second
    /// plan said (the pilots that plan once deliver less than 80% in the hardest cell).
    first: Vec<(usize, usize)>,
}

/// The standard error of a share pooled over pilots, each pilot a cluster of sets (the sets of
/// one pilot share its first plan): the ratio estimator's cluster-robust variance.
fn clustered_se(per_pilot: &[(usize, usize)]) -> f64 {
    let (a, n): (usize, usize) = per_pilot
        .iter()
        .fold((0, 0), |(a, n), &(x, m)| (a + x, n + m));
    let k = per_pilot.iter().filter(|(_, m)| *m > 0).count();
    if n == 0 || k < 2 {
        return f64::NAN;
    }
    let p = a as f64 / n as f64;
    let ss: f64 = per_pilot
        .iter()
        .map(|&(x, m)| (x as f64 - p * m as f64).powi(2))
        .sum();
    (ss * k as f64 / (k - 1) as f64).sqrt() / n as f64
}

fn two_step(shape: (usize, usize), levels: (f64, f64, f64), sets: usize, pilots: u64) -> TwoStep {
    let mut c = TwoStep::default();
    for seed in 1..=pilots {
        let o = label_plan::run(shape, levels, label_plan::Follow::Replan, sets, seed);
        c.first_reached += usize::from(o.planned.is_some());
        let (r, t) = (&mut c.r, o.replanned);
        r.reached += t.reached;
        r.reached_passed += t.reached_passed;
        r.short += t.short;
        r.short_passed += t.short_passed;
        r.short_stated += t.short_stated;
        r.labelled += t.labelled;
        c.per_pilot.push((t.reached_passed, t.reached));
        if o.planned.is_some() {
            c.first.push((o.passed, o.sets));
        }
    }
    c
}

/// The table of `replan`: per cell, the share of sets whose second plan reached the margin and
/// the power there (stated: 80%), the others' stated and delivered power, and all sets' power.
fn replan_table(sets: usize, pilots: u64, levels: &[f64]) {
    println!(
        "power 0.8 stated; planned twice (pilot, then every labelled unit); {pilots} pilots per cell, {sets} fresh sets per pilot; pass = corrected lower bound ≥ −margin, true delta 0"
    );
    println!("assurance  unit   queries  pilot  margin  true need  first reached: pilots  power ± se  mean labelled  second reached: sets  power ± se  | second not reachable: stated  delivered  | all sets: power");
    for &assurance in levels {
        for (unit, queries, group_size) in [("query", 1000, 1), ("group", 1200, 3)] {
            for (pilot, margin) in [(0.05, 0.02), (0.05, 0.03), (0.33, 0.02), (0.33, 0.03)] {
                let shape = (queries, group_size);
                let (need, _) = label_plan::oracle(shape, margin, 0, 0);
                let c = two_step(shape, (pilot, margin, assurance), sets, pilots);
                let all = sets * pilots as usize;
                let share = |a: usize, b: usize| a as f64 / b.max(1) as f64;
                let p = share(c.r.reached_passed, c.r.reached);
                let se = clustered_se(&c.per_pilot);
                let (fa, fn_) = c
                    .first
                    .iter()
                    .fold((0, 0), |(a, n), &(x, m)| (a + x, n + m));
                let first = format!(
                    "{:7}/{pilots:<5}  {:5.1}% ± {:.1}",
                    c.first_reached,
                    100.0 * share(fa, fn_),
                    100.0 * clustered_se(&c.first)
                );
                let short = match c.r.short {
                    0 => "                   -          -".to_string(),
                    m => format!(
                        "                {:5.1}%     {:5.1}%",
                        100.0 * c.r.short_stated / m as f64,
                        100.0 * share(c.r.short_passed, m)
                    ),
                };
                println!(
                    "{assurance:9}  {unit:6} {queries:7}  {:4.0}%  {margin:6}  {:9}  {first}  {:13.0}  {:20.1}%  {:5.1}% ± {:.1}  |{short}  | {:5.1}%",
                    100.0 * pilot,
                    need.map_or("-".into(), |n| n.to_string()),
                    share(c.r.labelled, all),
                    100.0 * share(c.r.reached, all),
                    100.0 * p,
                    100.0 * se,
                    100.0 * share(c.r.reached_passed + c.r.short_passed, all)
                );
            }
        }
    }
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
    if arg(4, "") == "replan" {
        return replan_table(sets, pilots, &levels);
    }
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
