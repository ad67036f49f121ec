//! `stats::ppi` against ppi-python (the authors' package): `ppi_mean_pointestimate` and
//! `ppi_mean_ci` with PPI++ tuning (`lam=None`), plain PPI (`lam=1`) and human only (`lam=0`), at
//! 95% and 90%, to 1e-9 (tests/data/stats/ppi_reference.json, made by
//! calibration/ppi_reference.py).

use rag_gate::stats::ppi::{mean_interval, Lambda, Units};
use serde_json::Value;

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

#[test]
fn ppi_estimates_and_intervals_match_ppi_python() {
    let refs: Value =
        serde_json::from_str(include_str!("../data/stats/ppi_reference.json")).unwrap();
    let mut checked = 0;
    for case in refs["cases"].as_array().unwrap() {
        let (y, yh, u) = (
            numbers(&case["human"]),
            numbers(&case["judge_labelled"]),
            numbers(&case["judge_unlabelled"]),
        );
        let units = Units {
            human: &y,
            judge_labelled: &yh,
            judge_unlabelled: &u,
            groups: None,
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
                    ("low", got.low),
                    ("high", got.high),
                ] {
                    let w = want[name].as_f64().unwrap();
                    assert!(
                        (g - w).abs() < 1e-9,
                        "{} {conf} {key} {name}: rust {g} vs ppi-python {w}",
                        case["name"]
                    );
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 36);
}
