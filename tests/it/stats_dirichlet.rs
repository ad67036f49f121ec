//! The distribution-free bound (`stats::dirichlet_bound`) against an independent numpy
//! implementation (`calibration/numpy_dirichlet_bound.py` → `tests/data/stats/numpy_dirichlet.json`:
//! numpy's Dirichlet sampler, 400,000 draws a case), within Monte-Carlo error; its known answer
//! with every delta 0; and, as a property, that lowering any delta never raises either bound and
//! a nudge moves them by no more than the nudge (continuity).

use proptest::prelude::*;
use rag_gate::stats::dirichlet_bound::{bounds, zero_bound};
use rag_gate::stats::streams::stream_key;
use serde_json::Value;

const DRAWS: usize = 20_000;

fn reference() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/stats/numpy_dirichlet.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

#[test]
fn the_bound_matches_numpy_within_monte_carlo_error() {
    let r = reference();
    for case in r["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let values = floats(&case["values"]);
        let sizes = case["sizes"].as_array().map(|_| floats(&case["sizes"]));
        let worst = case["worst"].as_f64().unwrap();
        let conf = case["confidence"].as_f64().unwrap();
        let key = stream_key(11, &["dirichlet", name]);
        let b = bounds(&values, sizes.as_deref(), worst, conf, DRAWS, key).unwrap();
        for (side, got) in [("low", b[0]), ("high", b[1])] {
            let want = case[side].as_f64().unwrap();
            let se = case[&format!("{side}_se")].as_f64().unwrap();
            // rag-gate's draws carry √(400,000 / DRAWS) times numpy's error.
            let tol = 4.0 * se * (1.0 + 400_000.0 / DRAWS as f64).sqrt();
            assert!(
                (got - want).abs() <= tol,
                "{name} {side}: rag-gate {got}, numpy {want} ± {se} (tolerance {tol})"
            );
        }
    }
}

#[test]
fn with_every_delta_zero_the_bound_is_the_clopper_pearson_reach_times_the_worst_loss() {
    // Wₙ₊₁ ~ Beta(1, n): its 97.5% quantile is 1 − 0.025^(1/n).
    assert!((zero_bound(43, 1.0, 0.95) - (1.0 - 0.025f64.powf(1.0 / 43.0))).abs() < 1e-15);
    let r = reference();
    let zeros = r["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "zeros-43")
        .unwrap();
    let want = zero_bound(43, 1.0, 0.95);
    let numpy = zeros["low"].as_f64().unwrap();
    assert!(
        (numpy + want).abs() < 4.0 * zeros["low_se"].as_f64().unwrap(),
        "{numpy}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn lowering_a_delta_never_raises_the_bound(
        deltas in prop::collection::vec(-1.0f64..1.0, 1..30),
        at in 0usize..30,
        by in 0.0f64..0.5,
    ) {
        let i = at % deltas.len();
        let mut lower = deltas.clone();
        lower[i] = (lower[i] - by).max(-1.0);
        let key = [9u8; 32];
        let a = bounds(&deltas, None, 1.0, 0.95, 500, key).unwrap();
        let b = bounds(&lower, None, 1.0, 0.95, 500, key).unwrap();
        prop_assert!(b[0] <= a[0] && b[1] <= a[1], "{a:?} → {b:?}");
        // Continuity: each draw's weight on one unit is below 1, so a bound moves by less than
        // the nudge.
        let moved = deltas[i] - lower[i];
        prop_assert!(a[0] - b[0] <= moved + 1e-12 && a[1] - b[1] <= moved + 1e-12);
    }
}
