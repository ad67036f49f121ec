//! `stats::welch` against scipy: `ttest_ind(c, b, equal_var=False)` intervals of the difference
//! and of the log-ratio, at 95% and 90% (tests/data/stats/scipy_welch.json, made by
//! calibration/scipy_welch.py).

use rag_gate::stats::welch::{difference, log_ratio};
use serde_json::Value;

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

#[test]
fn welch_intervals_match_scipy() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/stats/scipy_welch.json"
    );
    let refs: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut checked = 0;
    for case in refs["cases"].as_array().unwrap() {
        let (b, c) = (numbers(&case["baseline"]), numbers(&case["candidate"]));
        for conf in ["0.95", "0.9"] {
            let want = &case[conf];
            let level: f64 = conf.parse().unwrap();
            let d = difference(&b, &c, level).unwrap();
            let r = log_ratio(&b, &c, level).unwrap();
            let close = |got: f64, v: &Value| {
                let w = v.as_f64().unwrap();
                assert!(
                    (got - w).abs() < 1e-9 * w.abs().max(1.0),
                    "{} at {conf}: {got} vs {w}",
                    case["name"]
                );
            };
            close(d.low, &want["difference"][0]);
            close(d.high, &want["difference"][1]);
            close(d.df, &want["df"]);
            close(r.low, &want["ratio"][0]);
            close(r.high, &want["ratio"][1]);
            close(r.estimate, &want["ratio_estimate"]);
            close(r.df, &want["log_df"]);
            checked += 1;
        }
    }
    assert_eq!(checked, 6);
}
