//! Judge stage: each gate × each slice it applies to → pass / fail / too small, and the verdict.
//!
//! Rules (each compared plainly, and named in the report):
//! - `min-mean = x`: the candidate's mean must be ≥ x (an absolute bar).
//! - `max-mean = x`: the candidate's mean must be ≤ x (e.g. latency).
//! - `max-drop = m`: non-inferiority, "prove no harm": the CI lower bound of the mean delta must
//!   be ≥ −m.
//! - `max-loss-rate = r`: at most this share of the slice's queries may get worse (delta < −ε).
//!
//! A slice with fewer than `min-queries` queries is never silently passed: it is `too-small`,
//! a warning by default, a failure with `on-small-slice = "fail"`.

use crate::config::{Config, Gate, GateSlices, OnSmallSlice};
use crate::error::Result;
use crate::report::{Comparison, GateResult, GateStatus, Verdict};

/// The slice names a gate applies to, checked against the slices that exist.
fn gate_slices(cfg: &Config, gate: &Gate, known: &[String]) -> Result<Vec<String>> {
    let names: Vec<String> = match &gate.slices {
        GateSlices::All => vec!["all".into()],
        GateSlices::Critical => std::iter::once("all".to_string())
            .chain(cfg.slices.critical.iter().map(|(n, _)| n.clone()))
            .collect(),
        GateSlices::List(l) => l.clone(),
    };
    for n in &names {
        if !known.contains(n) {
            return Err(cfg.error_at(
                &gate.slices_span,
                format!("[[gate]] #{} ({}): no slice {n:?}; slices are `all`, the values of [slices] by, and [slices] critical", gate.index, gate.metric),
            ));
        }
    }
    Ok(names)
}

pub fn judge(cfg: &Config, comparisons: &[Comparison]) -> Result<(Vec<GateResult>, Vec<String>)> {
    let known: Vec<String> = comparisons.iter().map(|c| c.slice.clone()).collect();
    let mut results = Vec::new();
    let mut warnings = Vec::new();
    for gate in &cfg.gates {
        for slice in gate_slices(cfg, gate, &known)? {
            let c = comparisons
                .iter()
                .find(|c| c.metric == gate.metric && c.slice == slice)
                .expect("every gated metric × slice was compared");
            let rules = [
                ("min-mean", gate.min_mean),
                ("max-mean", gate.max_mean),
                ("max-drop", gate.max_drop),
                ("max-loss-rate", gate.max_loss_rate),
            ];
            for (rule, threshold) in rules {
                let Some(threshold) = threshold else { continue };
                let mut r = apply(gate.index, rule, threshold, c);
                if c.n < cfg.slices.min_queries {
                    r.status = GateStatus::TooSmall;
                    r.passed = cfg.slices.on_small_slice == OnSmallSlice::Warn;
                    r.detail = format!(
                        "{} queries < min-queries {}: too small to judge ({})",
                        c.n, cfg.slices.min_queries, r.detail
                    );
                    warnings.push(format!(
                        "gate #{} {} on {}: {}",
                        gate.index, gate.metric, slice, r.detail
                    ));
                }
                results.push(r);
            }
        }
    }
    Ok((results, warnings))
}

fn apply(gate: usize, rule: &str, threshold: f64, c: &Comparison) -> GateResult {
    let loss_rate = c.losses as f64 / c.n as f64;
    let (value, bound, passed, detail) = match rule {
        "min-mean" => {
            let v = c.candidate_mean;
            (
                v,
                threshold,
                v >= threshold,
                format!("candidate mean {v:.4} must be ≥ {threshold}"),
            )
        }
        "max-mean" => {
            let v = c.candidate_mean;
            (
                v,
                threshold,
                v <= threshold,
                format!("candidate mean {v:.4} must be ≤ {threshold}"),
            )
        }
        "max-drop" => {
            let v = c.ci[0];
            (
                v,
                -threshold,
                v >= -threshold,
                format!(
                    "CI lower bound of the delta {v:+.4} must be ≥ {:+}",
                    -threshold
                ),
            )
        }
        _ => (
            loss_rate,
            threshold,
            loss_rate <= threshold,
            format!(
                "{} of {} queries worse ({:.1}%) must be ≤ {:.1}%",
                c.losses,
                c.n,
                100.0 * loss_rate,
                100.0 * threshold
            ),
        ),
    };
    GateResult {
        gate,
        metric: c.metric.clone(),
        slice: c.slice.clone(),
        rule: rule.to_string(),
        threshold: bound,
        value,
        passed,
        status: if passed {
            GateStatus::Pass
        } else {
            GateStatus::Fail
        },
        detail,
    }
}

pub fn verdict(results: &[GateResult]) -> Verdict {
    if results.iter().all(|r| r.passed) {
        Verdict::Pass
    } else {
        Verdict::Fail
    }
}

/// One line: the verdict and the reason that matters most. Among failures, a proven drop
/// (max-drop) comes first, then absolute bars, then loss rates, then small slices; within a rule,
/// the largest miss.
pub fn headline(results: &[GateResult], comparisons: &[Comparison]) -> String {
    let failed: Vec<&GateResult> = results.iter().filter(|r| !r.passed).collect();
    let Some(worst) = failed.iter().min_by(|a, b| {
        priority(a)
            .cmp(&priority(b))
            .then_with(|| miss(b).total_cmp(&miss(a)))
            .then_with(|| a.gate.cmp(&b.gate))
    }) else {
        let small = results
            .iter()
            .filter(|r| r.status == GateStatus::TooSmall)
            .count();
        let tail = if small > 0 {
            format!(" ({small} on slices too small to judge)")
        } else {
            String::new()
        };
        return format!("PASS: {} gate checks passed{tail}", results.len());
    };
    let c = comparisons
        .iter()
        .find(|c| c.metric == worst.metric && c.slice == worst.slice);
    let reason = match (worst.rule.as_str(), c, worst.status) {
        (_, Some(c), GateStatus::TooSmall) => format!(
            "{} on {} has {} queries, too few to judge",
            c.metric, c.slice, c.n
        ),
        ("max-drop", Some(c), _) => format!(
            "{} dropped {:.3} [{:+.3}, {:+.3}] on {} (allowed drop {:.3})",
            c.metric, -c.delta, c.ci[0], c.ci[1], c.slice, -worst.threshold
        ),
        ("max-loss-rate", Some(c), _) => {
            format!(
                "{}: {:.1}% of queries worse on {} (max {:.1}%)",
                c.metric,
                100.0 * worst.value,
                c.slice,
                100.0 * worst.threshold
            )
        }
        (rule, _, _) => format!(
            "{} mean {:.4} {} {} on {}",
            worst.metric,
            worst.value,
            if rule == "max-mean" { "above" } else { "below" },
            worst.threshold,
            worst.slice
        ),
    };
    let more = if failed.len() > 1 {
        format!(" (+{} more failed)", failed.len() - 1)
    } else {
        String::new()
    };
    format!("FAIL: {reason}{more}")
}

fn priority(r: &GateResult) -> u8 {
    if r.status == GateStatus::TooSmall {
        return 4;
    }
    match r.rule.as_str() {
        "max-drop" => 0,
        "min-mean" | "max-mean" => 1,
        _ => 2,
    }
}

fn miss(r: &GateResult) -> f64 {
    (r.value - r.threshold).abs()
}
