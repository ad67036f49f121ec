//! One rule of a run-level gate on the two sides' values:
//! - `max-increase = m` / `max-decrease = m`: the change (candidate / baseline − 1 for a
//!   fraction, candidate − baseline for `{ absolute = x }`) must stay within m. With ≥ 3
//!   measurements a side the interval decides, as `max-drop` does ("prove no harm"): Welch's t
//!   interval of the ratio of the arithmetic means (a fraction: the log-scale delta method, so
//!   the gate reads the change the metrics table shows) or of the difference (an amount), at
//!   the report's confidence, must lie within m (`stats::welch`). With fewer, the means are compared plainly,
//!   and the result says so.
//! - `min = x` / `max = x`: an absolute bar on the candidate's value (the mean of its
//!   measurements, or its QPS at the target recall).
//!
//! A QPS read at a recall the curve does not reach, or a fraction of a baseline ≤ 0 (zero,
//! negative or NaN), is not judged: never a pass, it fails the build, with the reason.

use crate::config::{RunGate, RunRule, RunRuleKind};
use crate::model::{CurveTarget, RunGateResult, RunGateStatus};
use crate::numbers::compact::{change_percent, value};
use crate::stats::qps_at_recall::Reading;
use crate::stats::welch;

/// What a gate reads on each side (baseline, candidate).
pub enum SideValues {
    /// A card metric's measurements.
    Measured([Vec<f64>; 2]),
    /// QPS read off each side's curve at `target` of `recall`.
    Curve {
        recall: String,
        target: f64,
        readings: [Reading; 2],
    },
}

/// The fewest measurements a side for an interval to decide.
pub const MIN_REPLICATES: usize = 3;

/// The result of `rule` of gate `g`, judged at `confidence`.
pub fn judge_rule(g: &RunGate, rule: &RunRule, v: &SideValues, confidence: f64) -> RunGateResult {
    let mut r = RunGateResult {
        gate: g.index,
        metric: g.metric.clone(),
        at: g.at.as_ref().map(|(m, t)| CurveTarget {
            metric: m.clone(),
            target: *t,
        }),
        rule: rule.kind.as_str().into(),
        threshold: rule.amount,
        relative: rule.relative,
        higher_is_better: g.higher_is_better,
        baseline_value: None,
        candidate_value: None,
        measurements: [0, 0],
        value: None,
        interval: None,
        df: None,
        decided_by: String::new(),
        status: RunGateStatus::NotJudged,
        passed: false,
        fails_build: true,
        detail: String::new(),
        allowed_changes: Vec::new(),
    };
    let (b, c) = match v {
        SideValues::Measured([b, c]) => {
            r.measurements = [b.len(), c.len()];
            (b.clone(), c.clone())
        }
        SideValues::Curve {
            recall,
            target,
            readings,
        } => match curve_values(recall, *target, readings) {
            Ok((b, c, how)) => {
                r.measurements = [1, 1];
                r.decided_by = how;
                (vec![b], vec![c])
            }
            Err(why) => return not_judged(r, why),
        },
    };
    let (mb, mc) = (mean(&b), mean(&c));
    r.baseline_value = Some(mb);
    r.candidate_value = Some(mc);
    if matches!(rule.kind, RunRuleKind::Min | RunRuleKind::Max) {
        return bar(r, rule, mc);
    }
    change(r, rule, &b, &c, confidence)
}

fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

/// Each side's QPS at the target and how it was read, or why it cannot be.
fn curve_values(
    recall: &str,
    target: f64,
    readings: &[Reading; 2],
) -> Result<(f64, f64, String), String> {
    let mut q = [0.0; 2];
    for (i, (side, reading)) in ["baseline", "candidate"].iter().zip(readings).enumerate() {
        match reading {
            Reading::Qps { qps, .. } => q[i] = *qps,
            Reading::NoPoints => return Err(format!("the {side}'s curve has no points")),
            Reading::Outside { low, high } => {
                let (end, at) = if target > *high {
                    ("above the highest", high)
                } else {
                    ("below the lowest", low)
                };
                return Err(format!(
                    "{recall} = {} is {end} recall on the {side}'s curve ({}); never extrapolated",
                    value(target),
                    value(*at)
                ));
            }
        }
    }
    Ok((q[0], q[1], format!("QPS at {recall} = {}, log-linear between each curve's neighbouring points; plain comparison (one sweep a side)", value(target))))
}

fn not_judged(mut r: RunGateResult, why: String) -> RunGateResult {
    r.status = RunGateStatus::NotJudged;
    r.passed = false;
    r.fails_build = true;
    if r.decided_by.is_empty() {
        r.decided_by = "not judged".into();
    }
    r.detail = format!("not judged: {why}; a gate that cannot be judged fails");
    r
}

fn decide(mut r: RunGateResult, pass: bool, detail: String) -> RunGateResult {
    r.status = if pass {
        RunGateStatus::Pass
    } else {
        RunGateStatus::Fail
    };
    r.passed = pass;
    r.fails_build = !pass;
    r.detail = detail;
    r
}

/// `min` / `max`: the candidate's value against the bar.
fn bar(mut r: RunGateResult, rule: &RunRule, c: f64) -> RunGateResult {
    r.value = Some(c);
    if r.decided_by.is_empty() {
        r.decided_by = format!(
            "absolute bar on the candidate's {}",
            of_measurements(r.measurements[1])
        );
    }
    let (pass, sign) = match rule.kind {
        RunRuleKind::Min => (c >= rule.amount, "≥"),
        _ => (c <= rule.amount, "≤"),
    };
    let detail = format!(
        "candidate {} must be {sign} {}",
        value(c),
        value(rule.amount)
    );
    decide(r, pass, detail)
}

fn of_measurements(n: usize) -> String {
    if n == 1 {
        "value (one measurement)".into()
    } else {
        format!("mean of {n} measurements")
    }
}

/// `max-increase` / `max-decrease`: the change within the allowed amount.
fn change(
    mut r: RunGateResult,
    rule: &RunRule,
    b: &[f64],
    c: &[f64],
    confidence: f64,
) -> RunGateResult {
    let (mb, mc) = (mean(b), mean(c));
    // A fraction of a baseline ≤ 0 has no meaning: of 0 it is undefined, and of a negative
    // value its sign flips (−5 → 100 would be "−2100%", a fall), so it is never judged.
    if rule.relative && (mb.is_nan() || mb <= 0.0) {
        let why = if mb == 0.0 {
            "the baseline is 0, so a change as a fraction of it is undefined".to_string()
        } else {
            format!(
                "the baseline is {} (not positive), so a change as a fraction of it has no \
                 meaning (its sign would flip)",
                value(mb)
            )
        };
        return not_judged(r, format!("{why}; use {{ absolute = x }}"));
    }
    let replicated = r.at.is_none() && b.len() >= MIN_REPLICATES && c.len() >= MIN_REPLICATES;
    let point = if rule.relative {
        mc / mb - 1.0
    } else {
        mc - mb
    };
    let (estimate, low, high) = if replicated {
        match interval(&mut r, rule, b, c, confidence) {
            Some(w) => (w.estimate, w.low, w.high),
            None if rule.relative && mean(c) <= 0.0 => return not_judged(r, "the candidate's mean is ≤ 0: the ratio's interval needs positive means; use { absolute = x }".into()),
            None => return not_judged(r, "the measurements are too large for a finite interval (their spread overflows an f64)".into()),
        }
    } else {
        if r.decided_by.is_empty() {
            r.decided_by = plain_words(b.len(), c.len());
        }
        (point, point, point)
    };
    r.value = Some(estimate);
    let show = |x: f64| {
        if rule.relative {
            change_percent(x)
        } else {
            signed_value(x)
        }
    };
    let allowed = if rule.relative {
        format!("{:.1}%", rule.amount * 100.0)
    } else {
        value(rule.amount)
    };
    let (pass, bound, word) = match rule.kind {
        RunRuleKind::MaxIncrease => (high <= rule.amount, high, "rise"),
        _ => (low >= -rule.amount, low, "fall"),
    };
    let shown_bound = if replicated {
        format!(
            " ({} bound {})",
            if word == "rise" { "upper" } else { "lower" },
            show(bound)
        )
    } else {
        String::new()
    };
    let detail = format!(
        "{} → {}: {}{shown_bound}; may {word} by at most {allowed}",
        value(mb),
        value(mc),
        show(estimate)
    );
    decide(r, pass, detail)
}

/// The chance a candidate that changes nothing passes `max-increase` / `max-decrease` of `g`,
/// read from the measurements' spread before judging (`stats::power::no_op_pass` on Welch's
/// standard error and df, of the log of the ratio of means for a fraction), and the measurements a side that
/// would let it pass `AIM_MEASURED` of the time: a warning when the chance is below 1/2.
pub fn too_few_measurements(
    g: &RunGate,
    rule: &RunRule,
    v: &SideValues,
    confidence: f64,
) -> Option<String> {
    use crate::stats::power::{no_op_pass, NoOpRule};
    let SideValues::Measured([b, c]) = v else {
        return None;
    };
    let changes = matches!(
        rule.kind,
        RunRuleKind::MaxIncrease | RunRuleKind::MaxDecrease
    );
    if !changes || b.len() < MIN_REPLICATES || c.len() < MIN_REPLICATES {
        return None;
    }
    // For a fraction, each measurement over its side's mean: the variance is then the squared
    // coefficient of variation, what the ratio-of-means interval's log-scale se reads.
    let scale = |x: &[f64]| -> Option<Vec<f64>> {
        if !rule.relative {
            return Some(x.to_vec());
        }
        let m = mean(x);
        (m > 0.0).then(|| x.iter().map(|v| v / m).collect())
    };
    let (lb, lc) = (scale(b)?, scale(c)?);
    let margin = match (rule.relative, rule.kind) {
        (false, _) => rule.amount,
        (true, RunRuleKind::MaxIncrease) => rule.amount.ln_1p(),
        (true, _) if rule.amount < 1.0 => -(-rule.amount).ln_1p(),
        (true, _) => return None,
    };
    let (vb, vc) = (variance(&lb), variance(&lc));
    let at = |nb: f64, nc: f64| {
        let (ab, ac) = (vb / nb, vc / nc);
        // The df the gate's interval reads: Hsu's for a fraction, Welch's for a difference.
        let df = if rule.relative {
            crate::stats::welch::ratio_df(nb, nc)
        } else {
            (ab + ac).powi(2) / (ab * ab / (nb - 1.0) + ac * ac / (nc - 1.0))
        };
        no_op_pass(NoOpRule::Drop, margin, (ab + ac).sqrt(), df, confidence)
    };
    let chance = at(b.len() as f64, c.len() as f64);
    if chance.is_nan() || chance >= 0.5 {
        return None;
    }
    let needed = (MIN_REPLICATES..=100_000).find(|&n| at(n as f64, n as f64) >= AIM_MEASURED);
    let spread = if rule.relative {
        format!(
            "a spread of {:.1}% and {:.1}% of the mean (SD over mean)",
            100.0 * vb.sqrt(),
            100.0 * vc.sqrt()
        )
    } else {
        format!("SDs {} and {}", value(vb.sqrt()), value(vc.sqrt()))
    };
    Some(format!(
        "run-level gate #{} {} {} {}: with {} and {} measurements ({spread}) a candidate that changes nothing passes about {:.0}% of the time, read from their spread before judging; {} would let it pass {:.0}% of the time",
        g.index,
        crate::safe_text::shown(&g.metric),
        rule.kind.as_str(),
        if rule.relative { format!("{:.1}%", rule.amount * 100.0) } else { value(rule.amount) },
        b.len(),
        c.len(),
        100.0 * chance,
        needed.map_or("no number of measurements up to 100,000".to_string(), |n| format!("about {n} measurements a side")),
        100.0 * AIM_MEASURED
    ))
}

/// The chance of a no-op passing that the warning's measurement count aims for.
pub const AIM_MEASURED: f64 = 0.8;

fn variance(x: &[f64]) -> f64 {
    let m = mean(x);
    x.iter().map(|v| (v - m).powi(2)).sum::<f64>() / (x.len() as f64 - 1.0)
}

/// Welch's interval of the change (of the ratio of means for a fraction), recorded in `r`; None
/// when a fraction meets a mean ≤ 0.
fn interval(
    r: &mut RunGateResult,
    rule: &RunRule,
    b: &[f64],
    c: &[f64],
    confidence: f64,
) -> Option<welch::WelchInterval> {
    let w = if rule.relative {
        let w = welch::ratio_of_means(b, c, confidence)?;
        welch::WelchInterval {
            estimate: w.estimate - 1.0,
            low: w.low - 1.0,
            high: w.high - 1.0,
            df: w.df,
        }
    } else {
        welch::difference(b, c, confidence)?
    };
    r.interval = Some([w.low, w.high]);
    r.df = Some(w.df);
    let df = if w.df.is_finite() {
        format!("{:.1}", w.df)
    } else {
        "∞: no spread".into()
    };
    r.decided_by = format!(
        "{}% {} (df {df}; {} and {} measurements)",
        (confidence * 1000.0).round() / 10.0,
        if rule.relative {
            "t interval of the ratio of means, on its log (delta method, Hsu's df)"
        } else {
            "Welch t interval of the difference of means"
        },
        b.len(),
        c.len()
    );
    Some(w)
}

fn signed_value(x: f64) -> String {
    if x > 0.0 {
        format!("+{}", value(x))
    } else {
        value(x)
    }
}

fn plain_words(nb: usize, nc: usize) -> String {
    if nb == 1 && nc == 1 {
        "plain comparison (one measurement a side, no interval)".into()
    } else {
        format!("plain comparison of means ({nb} and {nc} measurements; an interval needs ≥ {MIN_REPLICATES} a side)")
    }
}
