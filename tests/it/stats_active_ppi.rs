//! `stats::active_ppi` against an independent numpy/scipy implementation of the same formulas
//! (calibration/active_ppi_reference.py → tests/data/stats/active_ppi_reference.json): the
//! estimate, λ and interval at 95% and 90%, PPI++-tuned, λ = 1 and λ = 0, query and group units,
//! to 1e-9; and the known answer of a uniform design: the human mean at λ = 0.

use rag_gate::stats::active_ppi::{mean_interval, ActiveUnits};
use rag_gate::stats::ppi::Lambda;
use serde_json::Value;

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn indices(v: &Value) -> Vec<usize> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as usize)
        .collect()
}

#[test]
fn active_estimates_and_intervals_match_the_numpy_reference() {
    let refs: Value =
        serde_json::from_str(include_str!("../data/stats/active_ppi_reference.json")).unwrap();
    let mut checked = 0;
    for case in refs["cases"].as_array().unwrap() {
        let (y, yh, p, u) = (
            numbers(&case["human"]),
            numbers(&case["judge_labelled"]),
            numbers(&case["probability"]),
            numbers(&case["judge_unlabelled"]),
        );
        let (gl, gu) = (
            indices(&case["groups_labelled"]),
            indices(&case["groups_unlabelled"]),
        );
        let units = ActiveUnits {
            human: &y,
            judge_labelled: &yh,
            probability: &p,
            judge_unlabelled: &u,
            groups: case["grouped"]
                .as_bool()
                .unwrap()
                .then_some((gl.as_slice(), gu.as_slice())),
        };
        for conf in ["0.95", "0.9"] {
            let level: f64 = conf.parse().unwrap();
            for (key, lambda) in [
                ("tuned", Lambda::Tuned),
                ("ppi", Lambda::Fixed(1.0)),
                ("human", Lambda::Fixed(0.0)),
            ] {
                let want = &case[conf][key];
                let got = mean_interval(&units, lambda, level).unwrap();
                for (name, g) in [
                    ("estimate", got.estimate),
                    ("lambda", got.lambda),
                    ("low", got.low),
                    ("high", got.high),
                ] {
                    let w = want[name].as_f64().unwrap();
                    assert!(
                        (g - w).abs() < 1e-9,
                        "{} {conf} {key} {name}: rust {g} vs numpy {w}",
                        case["name"]
                    );
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 30);
}

#[test]
fn a_uniform_design_at_lambda_zero_is_the_human_mean() {
    let y = [0.3, -0.1, 0.0, 0.25, -0.05];
    let units = ActiveUnits {
        human: &y,
        judge_labelled: &[0.1, 0.2, 0.3, 0.4, 0.5],
        probability: &[0.2; 5],
        judge_unlabelled: &[0.0; 20],
        groups: None,
    };
    let e = mean_interval(&units, Lambda::Fixed(0.0), 0.95).unwrap();
    assert!((e.estimate - 0.08).abs() < 1e-15, "{}", e.estimate);
    assert_eq!((e.labelled, e.unlabelled), (5, 20));
}
