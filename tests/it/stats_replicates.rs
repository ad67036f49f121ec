//! The fast version of the replicate calibration (`cargo run --release --example
//! calibration_replicates`): 200 sets, 300 resamples, wide tolerances (binomial error of 200 sets
//! is ±3 points at 95% around 5%).

// The example reads every figure; this test only the rates.
#[allow(dead_code)]
#[path = "../../calibration/replicates.rs"]
mod replicates;

use replicates::{scenario, DELTA};

#[test]
fn one_run_per_side_alarms_far_too_often_and_three_or_five_replicates_do_not() {
    let t = scenario(2026, 200, 0.0, &[1, 5, 3], 300);
    assert!(t[0].miss_rate() > 0.2, "single run: {}", t[0].miss_rate());
    // 3 baseline runs alarm at most 10%: the run-mean mean square keeps its own df when the
    // shift variance truncates (without that, 10-11% at 4000 sets).
    assert!(
        t[2].miss_rate() <= 0.1,
        "three replicates: {}",
        t[2].miss_rate()
    );
    assert!(
        t[1].miss_rate() <= 0.1,
        "five replicates: {}",
        t[1].miss_rate()
    );
    assert!(
        t[1].reject_rate() <= 0.1,
        "five replicates, p: {}",
        t[1].reject_rate()
    );
}

#[test]
fn three_and_five_replicates_cover_the_true_delta() {
    let t = scenario(7, 200, DELTA, &[5, 3], 300);
    for (runs, t) in [5, 3].iter().zip(&t) {
        let cov = 1.0 - t.miss_rate();
        assert!((0.9..=0.995).contains(&cov), "{runs} runs: coverage {cov}");
    }
}
