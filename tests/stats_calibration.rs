//! The fast version of the calibration run (`cargo run --release --example calibration`): fewer
//! sets and resamples, wider tolerances (binomial error of 150 sets is ±3.6 points at 95%).

#[path = "../calibration/sim.rs"]
mod sim;

use rag_gate::stats::interval::IntervalMethod;

const SETS: usize = 150;
const B: usize = 400;

#[test]
fn null_error_rates_are_near_five_percent() {
    let t = sim::null(sim::DATA_SEED, SETS, 200, B, IntervalMethod::Percentile);
    assert!(
        (0.0..=0.12).contains(&t.miss_rate()),
        "CI excludes 0 in {}",
        t.miss_rate()
    );
    assert!(
        (0.0..=0.12).contains(&t.reject_rate()),
        "p < 0.05 in {}",
        t.reject_rate()
    );
}

#[test]
fn true_delta_is_covered_about_95_percent() {
    let t = sim::shift(sim::DATA_SEED, SETS, 200, B, IntervalMethod::Bca);
    assert!(
        (0.89..=0.995).contains(&t.coverage()),
        "coverage {}",
        t.coverage()
    );
}

#[test]
fn clustered_data_need_the_group_unit() {
    let (q, g) = sim::clustered(sim::DATA_SEED, SETS / 2, 60, B, IntervalMethod::Percentile);
    assert!(
        q.coverage() < 0.8,
        "query unit should under-cover: {}",
        q.coverage()
    );
    assert!(
        (0.86..=1.0).contains(&g.coverage()),
        "group unit coverage {}",
        g.coverage()
    );
}
