//! The headline: one line with the verdict and the reason that matters most.

use crate::model::{Comparison, GateResult, GateStatus, Label};

/// One line: the verdict and the reason that matters most, the most severe failure among the
/// judged comparisons. A drop rule (max-drop, fail-if-significant-drop) comes first, then
/// absolute bars, then loss rates, and a too-small slice only when nothing judged failed. Within
/// a rule, a failure whose whole interval lies beyond the margin (label `worse`) comes before
/// one whose interval still reaches a gain, then the larger drop of the estimate, then the
/// larger slice: a wide interval on a few queries misses a threshold by more without being the
/// stronger evidence.
pub fn headline(results: &[GateResult], comparisons: &[Comparison]) -> String {
    let failed: Vec<&GateResult> = results.iter().filter(|r| !r.passed).collect();
    let find = |g: &GateResult| {
        comparisons
            .iter()
            .find(|c| c.metric == g.metric && c.slice == g.slice)
    };
    let Some(worst) = failed.iter().min_by(|a, b| {
        let (ca, cb) = (find(a), find(b));
        priority(a)
            .cmp(&priority(b))
            .then_with(|| (a.label != Label::Worse).cmp(&(b.label != Label::Worse)))
            .then_with(|| drop_of(cb).total_cmp(&drop_of(ca)))
            .then_with(|| miss(b).total_cmp(&miss(a)))
            .then_with(|| cb.map_or(0, |c| c.n).cmp(&ca.map_or(0, |c| c.n)))
            .then_with(|| a.gate.cmp(&b.gate))
    }) else {
        if results.is_empty() {
            // `compare`, or a gate file without [[gate]]: nothing was judged.
            let n = comparisons.len();
            return format!(
                "no gates; {n} comparison{} (metric × slice)",
                if n == 1 { "" } else { "s" }
            );
        }
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
        (_, Some(c), _) if worst.decided_by.starts_with("unreliable") => {
            let j = c.judged.as_ref();
            format!(
                "{} on {}: unreliable, unjudged documents could flip it (delta {:+.3}; {:+.3} to {:+.3} if they were relevant)",
                c.metric,
                c.slice,
                c.delta,
                j.map_or(c.delta, |j| j.delta_baseline_optimistic),
                j.map_or(c.delta, |j| j.delta_candidate_optimistic)
            )
        }
        (_, Some(c), GateStatus::TooSmall) if worst.decided_by.starts_with("too few judgments") => {
            format!(
                "{} on {} has too few judgments to judge ({})",
                c.metric, c.slice, worst.detail
            )
        }
        (_, Some(c), GateStatus::TooSmall) => format!(
            "{} on {} has {} queries, too few to judge",
            c.metric, c.slice, c.n
        ),
        ("max-drop", Some(c), _) => format!(
            "{}{} {} {:.3} [{:+.3}, {:+.3}] on {} (allowed {} {:.3})",
            c.metric,
            stat_suffix(c),
            if c.higher_is_better {
                "dropped"
            } else {
                "rose"
            },
            if c.higher_is_better {
                -c.estimate
            } else {
                c.estimate
            },
            c.ci[0],
            c.ci[1],
            c.slice,
            if c.higher_is_better { "drop" } else { "rise" },
            worst.threshold.abs()
        ),
        ("fail-if-significant-drop", Some(c), _) => format!(
            "{}{} proven {} {:.3} [{:+.3}, {:+.3}] on {} (margin {:.3}, Holm p {:.4})",
            c.metric,
            stat_suffix(c),
            if c.higher_is_better { "drop" } else { "rise" },
            c.estimate.abs(),
            c.ci[0],
            c.ci[1],
            c.slice,
            worst.threshold.abs(),
            worst.p_adjusted
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
        "max-drop" | "fail-if-significant-drop" => 0,
        "min-mean" | "max-mean" => 1,
        _ => 2,
    }
}

/// How far the estimate moved for the worse (a rise for a lower-is-better metric).
fn drop_of(c: Option<&Comparison>) -> f64 {
    c.map_or(0.0, |c| {
        if c.higher_is_better {
            -c.estimate
        } else {
            c.estimate
        }
    })
}

fn miss(r: &GateResult) -> f64 {
    (r.value - r.threshold).abs()
}

/// " p95" for a non-mean statistic, nothing for the mean.
fn stat_suffix(c: &Comparison) -> String {
    if c.statistic == "mean" {
        String::new()
    } else {
        format!(" {}", c.statistic)
    }
}
