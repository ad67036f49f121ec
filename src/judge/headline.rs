//! The headline: one line with the verdict and the reason that matters most.

use crate::model::{Comparison, GateResult, GateStatus};
use crate::safe_text::shown;

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
            shown(&c.metric),
            c.slice,
            c.n
        ),
        ("max-drop", Some(c), _) => format!(
            "{}{} {} {:.3} [{:+.3}, {:+.3}] on {} (allowed {} {:.3})",
            shown(&c.metric),
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
            shown(&c.slice),
            if c.higher_is_better { "drop" } else { "rise" },
            worst.threshold.abs()
        ),
        ("fail-if-significant-drop", Some(c), _) => format!(
            "{}{} proven {} {:.3} [{:+.3}, {:+.3}] on {} (margin {:.3}, Holm p {:.4})",
            shown(&c.metric),
            stat_suffix(c),
            if c.higher_is_better { "drop" } else { "rise" },
            c.estimate.abs(),
            c.ci[0],
            c.ci[1],
            shown(&c.slice),
            worst.threshold.abs(),
            worst.p_adjusted
        ),
        ("max-loss-rate", Some(c), _) => {
            format!(
                "{}: {:.1}% of queries worse on {} (max {:.1}%)",
                shown(&c.metric),
                100.0 * worst.value,
                shown(&c.slice),
                100.0 * worst.threshold
            )
        }
        (rule, _, _) => format!(
            "{} mean {:.4} {} {} on {}",
            shown(&worst.metric),
            worst.value,
            if rule == "max-mean" { "above" } else { "below" },
            worst.threshold,
            shown(&worst.slice)
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
