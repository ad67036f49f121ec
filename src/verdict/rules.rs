//! One gate rule on one comparison → pass or fail, with the words that say why, and the label
//! of the interval against zero and the margin.
//!
//! Deltas are oriented first: for a lower-is-better metric (latency) the interval [lo, hi]
//! becomes [−hi, −lo], so a "drop" is always a change for the worse.

use crate::model::{Comparison, GateResult, GateStatus, Label};
use crate::numbers::{percent, plain, signed};

/// The interval oriented so that positive is an improvement.
pub fn oriented(ci: [f64; 2], higher_is_better: bool) -> [f64; 2] {
    if higher_is_better {
        ci
    } else {
        [-ci[1], -ci[0]]
    }
}

/// The label of an interval against zero and the margin m (m ≥ 0); the rule is the one on
/// [`Label`], applied in this order.
pub fn label(ci: [f64; 2], higher_is_better: bool, m: f64) -> Label {
    let [lo, hi] = oriented(ci, higher_is_better);
    if lo > 0.0 {
        if hi <= m {
            Label::BetterBelowMargin
        } else {
            Label::Better
        }
    } else if hi < 0.0 {
        if lo >= -m {
            Label::WorseWithinMargin
        } else {
            Label::Worse
        }
    } else if lo >= -m && hi <= m {
        Label::NoChange
    } else {
        Label::Unclear
    }
}

/// The statistic's name as a reader sees it: "mean", "median", "p95".
fn stat(c: &Comparison) -> &str {
    &c.statistic
}

/// What the interval is of, in words: "mean difference", or for a quantile the difference of
/// the two sides' quantiles, "difference p95 of candidate − p95 of baseline" (not the p95 of
/// the per-query changes).
pub fn difference(c: &Comparison) -> String {
    match stat(c) {
        "mean" => "mean difference".to_string(),
        q => format!("difference {q} of candidate − {q} of baseline"),
    }
}

/// Applies `rule` with `threshold` to `c`. `p_adjusted` is the Holm-adjusted p-value of `c` and
/// `alpha` = 1 − confidence.
pub fn apply(
    gate: usize,
    rule: &str,
    threshold: f64,
    c: &Comparison,
    p_adjusted: f64,
    alpha: f64,
) -> GateResult {
    let decision = match rule {
        "min-mean" | "max-mean" => absolute_bar(rule, threshold, c),
        "max-drop" => non_inferiority(threshold, c),
        "max-change" => equivalence(threshold, c),
        "fail-if-significant-drop" => proven_harm(threshold, c, p_adjusted, alpha),
        _ => loss_rate(threshold, c),
    };
    let Decision {
        value,
        bound,
        passed,
        mut detail,
        decided_by,
    } = refuse_invalid_numbers(decision, c, p_adjusted);
    if let Some(k) = c.stacked_runs {
        detail.push_str(&format!(
            "; the candidate's {} over every value of {k} runs (the pooled attempts, stacked)",
            c.statistic
        ));
    }
    let margin = match rule {
        "max-drop" | "fail-if-significant-drop" | "max-change" => threshold,
        _ => c.margin,
    };
    GateResult {
        gate,
        metric: c.metric.clone(),
        statistic: c.statistic.clone(),
        slice: c.slice.clone(),
        rule: rule.to_string(),
        threshold: bound,
        value,
        passed,
        fails_build: !passed,
        status: if passed {
            GateStatus::Pass
        } else {
            GateStatus::Fail
        },
        detail,
        label: label(c.ci, c.higher_is_better, margin),
        p_value: c.p_value,
        p_adjusted,
        family_size: 0,
        mc_rerun: c.mc_rerun,
        decided_by,
        judged: None,
        condensed: None,
        stacked_runs: c.stacked_runs,
        statistic_in_name: c.statistic_in_name,
        not_judged: None,
    }
}

/// What one rule decided: the value it compared with the bound, whether it passed, the words
/// that say why, and the rule's name as the report shows it.
struct Decision {
    value: f64,
    bound: f64,
    passed: bool,
    detail: String,
    decided_by: String,
}

/// `min-mean` / `max-mean`: the candidate's statistic against an absolute bar.
fn absolute_bar(rule: &str, threshold: f64, c: &Comparison) -> Decision {
    let v = c.candidate_value;
    let (ok, op) = if rule == "min-mean" {
        (v >= threshold, "≥")
    } else {
        (v <= threshold, "≤")
    };
    Decision {
        value: v,
        bound: threshold,
        passed: ok,
        detail: format!(
            "candidate {} {} must be {op} {}",
            stat(c),
            plain(v),
            plain(threshold)
        ),
        decided_by: format!("absolute bar ({rule})"),
    }
}

/// `max-drop`: non-inferiority, the interval's worse bound must stay within the allowed drop.
fn non_inferiority(threshold: f64, c: &Comparison) -> Decision {
    let [lo, _] = oriented(c.ci, c.higher_is_better);
    Decision {
        value: c.ci[if c.higher_is_better { 0 } else { 1 }],
        bound: if c.higher_is_better {
            0.0 - threshold
        } else {
            threshold
        },
        passed: lo >= -threshold,
        detail: format!(
            "non-inferiority: the {} of the {} must be {} (CI [{}, {}])",
            if c.higher_is_better {
                "CI lower bound"
            } else {
                "CI upper bound"
            },
            difference(c),
            if c.higher_is_better {
                format!("≥ {}", signed(-threshold))
            } else {
                format!("≤ {}", signed(threshold))
            },
            signed(c.ci[0]),
            signed(c.ci[1])
        ),
        decided_by: "non-inferiority (max-drop)".to_string(),
    }
}

/// Equivalence within ±m: the interval [lo, hi] lies strictly inside (−m, +m). With the
/// reported two-sided interval at `confidence` this is two one-sided tests (TOST, Schuirmann
/// 1987, J. Pharmacokinet. Biopharm. 15:657), each at level (1 − confidence) / 2: the low bound
/// rejects "the change is ≤ −m", the high bound rejects "the change is ≥ +m".
pub fn equivalent(ci: [f64; 2], m: f64) -> bool {
    -m < ci[0] && ci[1] < m
}

/// `max-change`: equivalence, "prove nothing changed": the whole interval inside (−m, +m), in
/// either direction. The value is the interval bound farthest from zero.
fn equivalence(threshold: f64, c: &Comparison) -> Decision {
    let [lo, hi] = oriented(c.ci, c.higher_is_better);
    let m = plain(threshold);
    let ci = format!("CI [{}, {}]", signed(c.ci[0]), signed(c.ci[1]));
    let passed = equivalent([lo, hi], threshold);
    let open = match (lo > -threshold, hi < threshold) {
        (true, true) => String::new(),
        (true, false) => format!("an improvement of {m} or more"),
        (false, true) => format!("a regression of {m} or more"),
        (false, false) => format!("either a regression or an improvement of {m} or more"),
    };
    let detail = if passed {
        format!(
            "equivalent within ±{m}: the {ci} of the {} lies inside (−{m}, +{m})",
            difference(c)
        )
    } else {
        format!(
            "not shown equivalent within ±{m}: the {ci} of the {} cannot rule out {open}",
            difference(c)
        )
    };
    let far = if c.ci[1].abs() >= c.ci[0].abs() {
        c.ci[1]
    } else {
        c.ci[0]
    };
    Decision {
        value: far,
        bound: threshold,
        passed,
        detail,
        decided_by: "equivalence (max-change)".to_string(),
    }
}

/// `fail-if-significant-drop`: fails only on proven harm, the whole interval beyond the drop
/// and the Holm-adjusted p below `alpha`.
fn proven_harm(threshold: f64, c: &Comparison, p_adjusted: f64, alpha: f64) -> Decision {
    let [_, hi] = oriented(c.ci, c.higher_is_better);
    let alpha_shown = (alpha * 1e9).round() / 1e9;
    let drop = if c.higher_is_better { "drop" } else { "rise" };
    let proven = hi < -threshold && p_adjusted < alpha;
    Decision {
        value: c.ci[if c.higher_is_better { 1 } else { 0 }],
        bound: if c.higher_is_better { 0.0 - threshold } else { threshold },
        passed: !proven,
        detail: format!(
            "proven harm fails: CI [{}, {}] entirely beyond a {drop} of {} and Holm-adjusted p {p_adjusted:.4} < {alpha_shown}: {}",
            signed(c.ci[0]),
            signed(c.ci[1]),
            plain(threshold),
            if proven { "both hold" } else { "not shown" }
        ),
        decided_by: "proven harm (fail-if-significant-drop)".to_string(),
    }
}

/// `max-loss-rate`: the share of queries that got worse must stay within the threshold.
fn loss_rate(threshold: f64, c: &Comparison) -> Decision {
    let worse = c.losses; // oriented: a loss is a change for the worse
    let loss_rate = worse as f64 / c.n as f64;
    Decision {
        value: loss_rate,
        bound: threshold,
        passed: loss_rate <= threshold,
        detail: format!(
            "{worse} of {} worse ({}) must be ≤ {}",
            crate::numbers::count(c.n, "query", "queries"),
            percent(loss_rate),
            percent(threshold)
        ),
        decided_by: "loss rate (max-loss-rate)".to_string(),
    }
}

/// NaN or an inverted interval never passes (checked where it is used, whatever made it).
fn refuse_invalid_numbers(d: Decision, c: &Comparison, p_adjusted: f64) -> Decision {
    let numbers_ok = crate::stats::interval::is_valid(c.ci)
        && c.candidate_value.is_finite()
        && d.value.is_finite()
        && !p_adjusted.is_nan();
    if numbers_ok {
        return d;
    }
    let detail = format!(
        "no valid interval or value (CI [{}, {}], value {}): the rule cannot pass",
        c.ci[0], c.ci[1], d.value
    );
    Decision {
        passed: false,
        detail,
        ..d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_say_where_the_interval_lies_against_zero_and_the_margin() {
        let m = 0.01;
        // The case: above zero with p = 0.002 is never "inconclusive".
        assert_eq!(label([0.008, 0.037], true, m), Label::Better);
        assert_eq!(label([0.02, 0.05], true, m), Label::Better);
        assert_eq!(label([0.002, 0.008], true, m), Label::BetterBelowMargin);
        assert_eq!(label([-0.005, 0.008], true, m), Label::NoChange);
        assert_eq!(label([-0.02, 0.005], true, m), Label::Unclear);
        assert_eq!(label([-0.005, 0.03], true, m), Label::Unclear);
        assert_eq!(label([-0.008, -0.001], true, m), Label::WorseWithinMargin);
        // Below zero and past the margin: worse, even though not shown worse than −m.
        assert_eq!(label([-0.08, -0.008], true, m), Label::Worse);
        assert_eq!(label([-0.05, -0.02], true, m), Label::Worse);
        // A zero margin: any interval off zero is better or worse.
        assert_eq!(label([0.001, 0.002], true, 0.0), Label::Better);
        assert_eq!(label([0.0, 0.0], true, 0.0), Label::NoChange);
        // Lower is better: a rise of the latency is worse.
        assert_eq!(label([20.0, 40.0], false, 5.0), Label::Worse);
        assert_eq!(label([-40.0, -20.0], false, 5.0), Label::Better);
        assert_eq!(label([2.0, 4.0], false, 5.0), Label::WorseWithinMargin);
        assert_eq!(label([2.0, 9.0], false, 5.0), Label::Worse);
    }

    fn comparison(ci: [f64; 2]) -> Comparison {
        Comparison {
            metric: "ndcg@10".into(),
            slice: "all".into(),
            n: 10,
            groups: None,
            effective_groups: None,
            baseline_mean: 0.5,
            candidate_mean: 0.5,
            delta: 0.0,
            ci,
            wins: 0,
            ties: 10,
            losses: 0,
            moved: 0,
            untouched: false,
            within_noise: None,
            value_range: 1.0,
            atom: None,
            se: 0.0,
            df: 0.0,
            statistic: "mean".into(),
            higher_is_better: true,
            baseline_value: 0.5,
            candidate_value: 0.5,
            estimate: 0.0,
            ci_mc_se: [0.0, 0.0],
            resamples_used: 100,
            mc_rerun: false,
            p_value: 1.0,
            p_floor: 0.0,
            mde: 0.0,
            margin: 0.0,
            label: None,
            practical_tie: 0.0,
            practical_wins: 0,
            practical_ties: 10,
            practical_losses: 0,
            worst: Vec::new(),
            judged: None,
            replicates: None,
            stacked_runs: None,
            statistic_in_name: false,
        }
    }

    #[test]
    fn a_rule_never_passes_on_nan_or_an_inverted_interval() {
        for rule in RULES_FOR_TEST {
            assert!(
                apply(1, rule, 0.5, &comparison([-0.1, 0.1]), 1.0, 0.05).passed,
                "{rule}"
            );
            for ci in [[f64::NAN, f64::NAN], [0.2, -0.2], [f64::NEG_INFINITY, 0.0]] {
                let r = apply(1, rule, 0.5, &comparison(ci), 1.0, 0.05);
                assert!(!r.passed, "{rule} passed on {ci:?}");
                assert!(r.detail.contains("cannot pass"), "{}", r.detail);
            }
        }
    }

    #[test]
    fn max_change_passes_only_an_interval_inside_both_margins() {
        let c = |ci, higher| Comparison {
            higher_is_better: higher,
            ..comparison(ci)
        };
        let r = apply(1, "max-change", 0.01, &c([-0.004, 0.006], true), 1.0, 0.05);
        assert!(r.passed, "{}", r.detail);
        assert!(
            r.detail.starts_with("equivalent within ±0.0100"),
            "{}",
            r.detail
        );
        assert_eq!((r.value, r.threshold), (0.006, 0.01));
        let r = apply(1, "max-change", 0.01, &c([0.002, 0.013], true), 1.0, 0.05);
        assert!(!r.passed);
        assert!(
            r.detail
                .ends_with("cannot rule out an improvement of 0.0100 or more"),
            "{}",
            r.detail
        );
        let r = apply(1, "max-change", 0.01, &c([-0.02, -0.001], true), 1.0, 0.05);
        assert!(!r.passed);
        assert!(
            r.detail
                .ends_with("cannot rule out a regression of 0.0100 or more"),
            "{}",
            r.detail
        );
        assert_eq!(r.value, -0.02);
        let r = apply(1, "max-change", 0.01, &c([-0.02, 0.02], true), 1.0, 0.05);
        assert!(
            r.detail
                .ends_with("either a regression or an improvement of 0.0100 or more"),
            "{}",
            r.detail
        );
        // Lower is better: a rise of the latency is the regression.
        let r = apply(1, "max-change", 5.0, &c([1.0, 7.0], false), 1.0, 0.05);
        assert!(
            r.detail
                .ends_with("cannot rule out a regression of 5.0000 or more"),
            "{}",
            r.detail
        );
        // The margins are open: a bound exactly at ±m does not rule out a change of m.
        assert!(!equivalent([-0.01, 0.0], 0.01));
        assert!(!equivalent([0.0, 0.01], 0.01));
        assert!(!equivalent([0.0, 0.0], 0.0));
    }

    const RULES_FOR_TEST: [&str; 5] = [
        "max-drop",
        "max-change",
        "fail-if-significant-drop",
        "max-loss-rate",
        "min-mean",
    ];
}
