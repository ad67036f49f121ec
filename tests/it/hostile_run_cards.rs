//! Run cards a pull request writes, through the binary: a percentage gate on a baseline that is
//! not positive is never judged (its sign would flip), and replicates near 1e160 give a finite
//! Welch interval, never a panic. Each test is a row of docs/hostile.md, listed in
//! `hostile_cases.rs`.

use crate::support;

use std::time::Duration;

use serde_json::Value;
use support::output::Out;
use support::{example_with_cards, TestContext};

/// Run cards whose `metrics` are `base` and `cand`, and a gate file on the shipped example's
/// per-query files (their quality gate passes) with the run-level `gates`.
fn cards(ctx: &TestContext, base: &str, cand: &str, gates: &str) {
    let card = |m: &str| {
        format!("{{\"model\": {{\"id\": \"m\"}}, \"conditions\": {{}}, \"metrics\": {m}}}")
    };
    ctx.write("b.card.json", card(base));
    ctx.write("c.card.json", card(cand));
    ctx.gate(example_with_cards().gates_raw(gates));
}

/// A context whose runs are killed after a minute.
fn context() -> TestContext {
    TestContext::new().timeout(Duration::from_secs(60))
}

fn run_gates(o: &Out) -> Vec<Value> {
    let r: Value = serde_json::from_str(&o.stdout).expect(&o.stderr);
    r["efficiency"]["gates"].as_array().unwrap().clone()
}

/// `percent-of-non-positive-baseline`: −5 → 100 is a rise; as a fraction of −5 it would be
/// "−2100%", a fall that passes `max-increase = "10%"`. A fraction of a baseline ≤ 0 is not
/// judged, and a gate not judged fails the build; `{ absolute = x }` judges it.
#[test]
fn a_percentage_of_a_negative_or_zero_baseline_is_not_judged() {
    let ctx = context();
    for (base, cand) in [
        ("-5", "100"),
        ("0", "100"),
        ("[-5, -4, -6]", "[100, 101, 99]"),
    ] {
        cards(
            &ctx,
            &format!("{{\"drift\": {base}}}"),
            &format!("{{\"drift\": {cand}}}"),
            "[[gate]]\nmetric = \"drift\"\nhigher-is-better = false\nmax-increase = \"10%\"\n",
        );
        let o = ctx.check_json(&[]);
        assert_eq!(o.code, Some(1), "{base} → {cand}: {}", o.stderr);
        let g = &run_gates(&o)[0];
        assert_eq!(g["status"], "not-judged", "{base} → {cand}: {g}");
        assert!(
            g["detail"]
                .as_str()
                .unwrap()
                .contains("use { absolute = x }"),
            "{g}"
        );
    }
    cards(
        &ctx,
        "{\"drift\": -5}",
        "{\"drift\": 100}",
        "[[gate]]\nmetric = \"drift\"\nhigher-is-better = false\nmax-increase = { absolute = 10 }\n",
    );
    let o = ctx.check_json(&[]);
    assert_eq!(o.code, Some(1), "{}", o.stderr);
    let g = &run_gates(&o)[0];
    assert_eq!(g["status"], "fail", "{g}");
    assert_eq!(g["value"], 105.0, "{g}");
}

/// `welch-huge-replicates`: replicates near 1e160 overflowed the variance (an infinite se², a
/// NaN df) and an assert panicked (exit 101). The values are scaled by an exact power of two
/// first: the interval is finite and the same as for the values ÷ 1e160, times 1e160.
#[test]
fn replicates_near_1e160_give_an_interval_not_a_panic() {
    let ctx = context();
    let gate = "[[gate]]\nmetric = \"cost\"\nhigher-is-better = false\nmax-increase = { absolute = 1e150 }\n";
    cards(
        &ctx,
        "{\"cost\": [1e160, 2e160, 3e160]}",
        "{\"cost\": [1.5e160, 2.5e160, 3.5e160]}",
        gate,
    );
    let o = ctx.check_json(&[]);
    assert_eq!(o.code, Some(1), "{}", o.stderr);
    let g = &run_gates(&o)[0];
    assert_eq!(g["status"], "fail", "{g}");
    cards(
        &ctx,
        "{\"cost\": [1, 2, 3]}",
        "{\"cost\": [1.5, 2.5, 3.5]}",
        &gate.replace("1e150", "0.1"),
    );
    let small = ctx.check_json(&[]);
    let s = &run_gates(&small)[0];
    for i in 0..2 {
        let big = g["interval"][i].as_f64().unwrap();
        let unit = s["interval"][i].as_f64().unwrap();
        assert!(
            big.is_finite() && (big / 1e160 - unit).abs() < 1e-9,
            "{g} vs {s}"
        );
    }
    assert!((g["df"].as_f64().unwrap() - s["df"].as_f64().unwrap()).abs() < 1e-9);
    // At f64's edge (values of both signs near 1.7e308), the difference itself overflows: not
    // judged, never a panic.
    cards(
        &ctx,
        "{\"cost\": [-1.7e308, 1.7e308, -1.7e308]}",
        "{\"cost\": [1.7e308, -1.7e308, 1.7e308]}",
        gate,
    );
    let edge = ctx.check_json(&[]);
    assert_eq!(edge.code, Some(1), "{}", edge.stderr);
}
