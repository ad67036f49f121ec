//! The headline: one line with the verdict, the reason that matters most, and what the counts
//! count ("2 of 6 checks failed (3 gates)": a check is one rule of one gate on one slice).

use crate::model::{Comparison, GateResult, GateStatus, Label, NotJudged};
use crate::numbers::{count, percent, plain, signed};
use crate::safe_text::shown;

/// One line: the verdict and the reason that matters most. Among failures, a proven drop
/// (max-drop) or change (max-change) comes first, then absolute bars, then loss rates; a check
/// that was not judged (too small) is the reason only when nothing judged failed. Within a rule, a failure whose whole
/// interval lies below zero (label `worse`) comes before one whose interval still reaches a gain,
/// then the larger drop of the estimate, then the larger miss, then the larger slice: a wide
/// interval on a few queries misses a threshold by more without being the stronger evidence.
pub fn headline(results: &[GateResult], comparisons: &[Comparison]) -> String {
    headline_at(
        results,
        comparisons,
        1.0 - crate::config::DEFAULT_CONFIDENCE,
    )
}

/// [`headline`] at the significance level `alpha` (1 − confidence), which says how many units
/// a sign-flip test needs.
pub fn headline_at(results: &[GateResult], comparisons: &[Comparison], alpha: f64) -> String {
    if results.is_empty() {
        // `compare`: nothing was judged.
        let n = comparisons.len();
        return format!(
            "no gates; {} (metric × slice)",
            count(n, "comparison", "comparisons")
        );
    }
    let failed: Vec<&GateResult> = results.iter().filter(|r| r.fails_build).collect();
    let gates = {
        let mut g: Vec<usize> = results.iter().map(|r| r.gate).collect();
        g.dedup();
        g.sort_unstable();
        g.dedup();
        count(g.len(), "gate", "gates")
    };
    let checks = results.len();
    let not_judged = results
        .iter()
        .filter(|r| r.status == GateStatus::TooSmall)
        .count();
    let index = crate::model::OnIndex::new(comparisons, results);
    let find = |g: &GateResult| index.comparison_of(g).map(|i| &comparisons[i]);
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
        if let Some(line) = amber_or_untouched(results, comparisons, alpha, &gates) {
            return line;
        }
        let passed = results.iter().filter(|r| r.passed).count();
        let tail = if not_judged > 0 {
            format!(
                "; {not_judged} not judged ({}), not passed",
                not_judged_why(results)
            )
        } else {
            String::new()
        };
        return format!(
            "PASS: {passed} of {} passed ({gates}){tail}{}",
            count(checks, "check", "checks"),
            rerun_tail(results.iter().filter(|r| r.passed))
        );
    };
    let c = comparisons.iter().find(|c| worst.is_on(c));
    let reason = match c {
        Some(c) => reason(worst, c, alpha, results),
        None => format!(
            "{} on {}: {}",
            shown(&worst.name()),
            shown(&worst.slice),
            worst.detail
        ),
    };
    format!(
        "FAIL: {reason}{}; {} of {} failed ({gates})",
        rerun_tail(std::iter::once(*worst)),
        failed.len(),
        count(checks, "check", "checks")
    )
}

/// The headline of a verdict with no failure that is not a plain pass: "INCONCLUSIVE: …" naming
/// the first inconclusive check and its reason, or "UNTOUCHED: unchanged on all 43 queries …"
/// when every statistical check is untouched. None for a pass.
fn amber_or_untouched(
    results: &[GateResult],
    comparisons: &[Comparison],
    alpha: f64,
    gates: &str,
) -> Option<String> {
    let checks = count(results.len(), "check", "checks");
    match crate::verdict::verdict(results) {
        crate::model::Verdict::Inconclusive => {
            let amber: Vec<&GateResult> = results
                .iter()
                .filter(|r| r.status == GateStatus::Inconclusive)
                .collect();
            let first = amber.first()?;
            Some(format!(
                "INCONCLUSIVE: gate #{} {}, {}; {} of {checks} inconclusive, none failed ({gates})",
                first.gate,
                first.rule,
                check_line(first, results, comparisons, alpha),
                amber.len(),
            ))
        }
        crate::model::Verdict::Untouched => {
            let n = comparisons
                .iter()
                .filter(|c| c.slice == "all" && results.iter().any(|r| r.is_on(c)))
                .map(|c| c.n)
                .max()
                .unwrap_or(0);
            let noisy = comparisons
                .iter()
                .filter(|c| results.iter().any(|r| r.is_on(c)))
                .find_map(|c| c.within_noise.as_ref().map(|w| (c, w)));
            Some(match noisy {
                Some((c, w)) => format!(
                    "UNTOUCHED: unchanged beyond run-to-run noise on all {} ({checks}, {gates}): {} on {}: {}; nothing to judge",
                    count(n, "query", "queries"),
                    shown(&c.name()),
                    shown(&c.slice),
                    crate::verdict::no_op::band_words(w)
                ),
                None => format!(
                    "UNTOUCHED: unchanged on all {} ({checks}, {gates}): every delta within tie-epsilon, nothing to judge",
                    count(n, "query", "queries")
                ),
            })
        }
        _ => None,
    }
}

/// Why checks were not judged, in a few words: "slices too small", "too small, or too few
/// queries moved", "too few resamples for the sign-flip test".
fn not_judged_why(results: &[GateResult]) -> &'static str {
    let any =
        |f: fn(&NotJudged) -> bool| results.iter().any(|r| r.not_judged.as_ref().is_some_and(f));
    if any(|n| matches!(n, NotJudged::ResampleFloor { .. })) {
        "too small, or too few resamples for the sign-flip test"
    } else if any(|n| {
        matches!(
            n,
            NotJudged::TooFewMoved { .. } | NotJudged::NothingMoved { .. }
        )
    }) {
        "too small, or too few queries moved"
    } else {
        "slices too small"
    }
}

/// One failed or not-judged check in the headline's words: the reason the headline gives when
/// this check is the one that matters most (the JUnit report's failure and skip messages).
pub fn check_line(
    check: &GateResult,
    results: &[GateResult],
    comparisons: &[Comparison],
    alpha: f64,
) -> String {
    match comparisons.iter().find(|c| check.is_on(c)) {
        Some(c) => format!(
            "{}{}",
            reason(check, c, alpha, results),
            rerun_tail(std::iter::once(check))
        ),
        None => format!(
            "{} on {}: {}",
            shown(&check.name()),
            shown(&check.slice),
            check.detail
        ),
    }
}

/// " (decided after a Monte-Carlo re-run)" when a result shown depends on the re-run.
fn rerun_tail<'a>(mut shown: impl Iterator<Item = &'a GateResult>) -> String {
    if shown.any(|r| r.mc_rerun && r.status != GateStatus::TooSmall) {
        " (decided after a Monte-Carlo re-run with more resamples)".into()
    } else {
        String::new()
    }
}

/// An unreliable gate: today's delta and both bounds with their intervals.
fn unreliable_reason(c: &Comparison) -> String {
    let j = c.judged.as_ref();
    let at = |b: Option<&crate::model::DeltaAtBound>| {
        b.map_or(signed(c.delta), |b| {
            format!(
                "{} [{}, {}]",
                signed(b.delta),
                signed(b.ci[0]),
                signed(b.ci[1])
            )
        })
    };
    format!(
        "{} on {}: unreliable, unjudged documents could flip it (delta {}; {} to {} over their judgments)",
        shown(&c.name()),
        shown(&c.slice),
        signed(c.delta),
        at(j.and_then(|j| j.lower.as_ref())),
        at(j.and_then(|j| j.upper.as_ref()))
    )
}

fn reason(worst: &GateResult, c: &Comparison, alpha: f64, results: &[GateResult]) -> String {
    let allowed = if c.higher_is_better { "drop" } else { "rise" };
    let ci = format!("[{}, {}]", signed(c.ci[0]), signed(c.ci[1]));
    match (worst.rule.as_str(), worst.status) {
        _ if worst.decided_by.starts_with("unreliable") => unreliable_reason(c),
        (_, GateStatus::Inconclusive | GateStatus::Fail) if worst.not_judged.is_some() => {
            undecided_reason(worst, c, alpha, results)
        }
        (_, GateStatus::TooSmall) => match worst.not_judged {
            Some(NotJudged::TooFewJudgments) => format!(
                "{} on {} not judged: too few judgments ({})",
                shown(&c.name()),
                shown(&c.slice),
                worst.detail
            ),
            Some(NotJudged::CannotFire) => cannot_fire_reason(worst, c, alpha, results),
            Some(NotJudged::ResampleFloor { resamples, needed }) => {
                resample_floor_reason(worst, c, alpha, [resamples, needed], results)
            }
            Some(NotJudged::ThinTail) => thin_tail_reason(worst, c),
            Some(NotJudged::UntrustedJudge) => format!(
                "{} on {} not judged: {}",
                shown(&c.name()),
                shown(&c.slice),
                worst.detail
            ),
            Some(NotJudged::TooFewMoved { min, .. }) => {
                too_few_moved_reason(worst, c, min, results)
            }
            Some(NotJudged::OnAtom) => {
                would_pass_but(worst, c, &super::atom_words(c).unwrap_or_default(), results)
            }
            Some(NotJudged::NothingMoved { .. }) => nothing_moved_reason(worst, c, alpha, results),
            reason => format!(
                "{} on {} not judged: {}, too few to judge {}",
                shown(&c.name()),
                shown(&c.slice),
                too_small_size(c, reason),
                worst.rule
            ),
        },
        ("max-drop", _) => max_drop_reason(worst, c, &ci),
        ("max-change", _) => format!(
            "{} not shown equivalent within ±{} on {}: changed by {} {ci}",
            shown(&c.name_with_statistic()),
            plain(worst.threshold),
            shown(&c.slice),
            signed(c.estimate)
        ),
        ("fail-if-significant-drop", _) => format!(
            "{} proven {allowed} {} {ci} on {} (margin {}, Holm p {:.4})",
            shown(&c.name_with_statistic()),
            plain(c.estimate.abs()),
            shown(&c.slice),
            plain(worst.threshold.abs()),
            worst.p_adjusted
        ),
        ("max-loss-rate", _) => format!(
            "{}: {} of queries worse on {} (max {})",
            shown(&c.name()),
            percent(worst.value),
            shown(&c.slice),
            percent(worst.threshold)
        ),
        (rule, _) => format!(
            "{} {} {} {} on {}",
            shown(&c.metric),
            c.statistic,
            plain(worst.value),
            if rule == "max-mean" {
                format!("above the maximum {}", plain(worst.threshold))
            } else {
                format!("below the minimum {}", plain(worst.threshold))
            },
            shown(&worst.slice)
        ),
    }
}

/// A check undecided on this sample, in the headline's words: why it could not be decided, then
/// what the observed mean delta made of it (a failure at −m/2 or below, else inconclusive).
fn undecided_reason(
    worst: &GateResult,
    c: &Comparison,
    alpha: f64,
    results: &[GateResult],
) -> String {
    if worst.not_judged != Some(NotJudged::CannotFire) {
        return format!(
            "{} on {}: {}",
            shown(&c.name_with_statistic()),
            shown(&c.slice),
            worst.detail
        );
    }
    let half = plain(-worst.threshold.abs() / 2.0);
    let outcome = if worst.status == GateStatus::Fail {
        format!(
            "the observed mean delta {} is at or below −m/2 = {half}, so it fails",
            signed(c.delta)
        )
    } else {
        format!(
            "inconclusive: the observed mean delta {} is above −m/2 = {half}",
            signed(c.delta)
        )
    };
    format!(
        "{}; {outcome}",
        cannot_fire_reason(worst, c, alpha, results)
    )
}

/// A median or p95 on too few queries for its quantile, in the headline's words.
fn thin_tail_reason(worst: &GateResult, c: &Comparison) -> String {
    format!(
        "{} on {} not judged: {}, fewer than the {} a {} needs ({} beyond its quantile) to judge {}",
        shown(&c.name_with_statistic()),
        shown(&c.slice),
        count(c.n, "query", "queries"),
        super::quantile_fewest(&c.statistic).unwrap_or(0),
        c.statistic,
        super::TAIL_VALUES,
        worst.rule
    )
}

/// A `max-drop` / `max-change` where no unit moved and zero moves cannot prove the no-op, in
/// the headline's words: what the zero moves bound, and the units that would prove it.
fn nothing_moved_reason(
    worst: &GateResult,
    c: &Comparison,
    alpha: f64,
    results: &[GateResult],
) -> String {
    format!(
        "{} on {} not judged for {}: {}{}",
        shown(&c.name_with_statistic()),
        shown(&c.slice),
        worst.rule,
        super::nothing_moved_words(c, worst.threshold.abs(), alpha),
        passed_beside(worst, results)
    )
}

/// "ndcg@10 on all not judged: max-drop would pass, but {why} (min-mean passed)".
fn would_pass_but(worst: &GateResult, c: &Comparison, why: &str, results: &[GateResult]) -> String {
    format!(
        "{} on {} not judged: {} would pass, but {why}{}",
        shown(&c.name_with_statistic()),
        shown(&c.slice),
        worst.rule,
        passed_beside(worst, results)
    )
}

/// A `fail-if-significant-drop` held back by the resample floor, in the headline's words: the
/// floor, Holm's bar, the units that moved, and the resamples that would lift it.
fn resample_floor_reason(
    worst: &GateResult,
    c: &Comparison,
    alpha: f64,
    [resamples, needed]: [u64; 2],
    results: &[GateResult],
) -> String {
    format!(
        "{} on {}: {} cannot fire at {resamples} resamples, the sign-flip test's resample floor 1/({resamples} + 1) is above Holm's p < {:.6} over {} ({}); set [bootstrap] resamples to {needed} or more{}",
        shown(&c.name()),
        shown(&c.slice),
        worst.rule,
        alpha / worst.family_size.max(1) as f64,
        count(worst.family_size, "comparison", "comparisons"),
        super::moved_words(c),
        passed_beside(worst, results)
    )
}

/// A `max-drop` / `max-change` that would pass on too few moved units, in the headline's words:
/// the rule, how many moved, how many it needs, what to change, and the rules that passed on
/// the same comparison.
fn too_few_moved_reason(
    worst: &GateResult,
    c: &Comparison,
    min: usize,
    results: &[GateResult],
) -> String {
    let units = if c.effective_groups.is_some() {
        "groups"
    } else {
        "queries"
    };
    format!(
        "{} on {} not judged: {} would pass on only {}, and needs at least {min}; add {units} the change touches, or set [slices] min-moved lower{}",
        shown(&c.name()),
        shown(&c.slice),
        worst.rule,
        super::moved_words(c),
        passed_beside(worst, results)
    )
}

/// " (min-mean, max-loss-rate passed)": the rules of `worst`'s gate that passed on its slice.
fn passed_beside(worst: &GateResult, results: &[GateResult]) -> String {
    let passed: Vec<&str> = results
        .iter()
        .filter(|r| r.gate == worst.gate && r.slice == worst.slice && r.passed)
        .map(|r| r.rule.as_str())
        .collect();
    if passed.is_empty() {
        String::new()
    } else {
        format!(" ({} passed)", passed.join(", "))
    }
}

/// A `fail-if-significant-drop` that cannot fire on a slice this small, in the headline's words:
/// the rule, how many units it had, how many it needs, what to change, and the rules that
/// passed on the same comparison (they are not hidden behind it).
fn cannot_fire_reason(
    worst: &GateResult,
    c: &Comparison,
    alpha: f64,
    results: &[GateResult],
) -> String {
    let (had, needed) = super::sign_flip_units(c, alpha, worst.family_size);
    let passed = passed_beside(worst, results);
    format!(
        "{} on {}: {} cannot fire, the sign-flip test has {} with a non-zero delta and needs at least {needed}; add {more}, or gate with max-drop instead{passed}",
        shown(&c.name()),
        shown(&c.slice),
        worst.rule,
        count(had, "unit", "units"),
        more = if c.groups.is_some() { "groups" } else { "queries" },
    )
}

/// A failed `max-drop`: what the estimate did, then why it failed. When the estimate itself
/// dropped by more than the margin, "dropped 0.0300 (allowed drop 0.0100)"; otherwise the
/// estimate is within the margin (or a gain) and only the interval's worse end reaches past it:
/// "+0.0077 [−0.0286, +0.0430] on all: a drop over 0.0100 is not ruled out" — never "dropped"
/// for a mean that rose.
fn max_drop_reason(worst: &GateResult, c: &Comparison, ci: &str) -> String {
    let (dropped, drop) = if c.higher_is_better {
        ("dropped", "drop")
    } else {
        ("rose", "rise")
    };
    let margin = worst.threshold.abs();
    let name = shown(&c.name_with_statistic());
    // A re-run judged at the spent level: the bound it read, beside the configured interval.
    let ci = match super::spent::judged_level(&worst.detail) {
        Some(level) => format!("{ci} (judged at {level}: {})", signed(worst.value)),
        None => ci.to_string(),
    };
    if drop_of(Some(c)) > margin {
        format!(
            "{name} {dropped} {} {ci} on {} (allowed {drop} {})",
            plain(drop_of(Some(c))),
            shown(&c.slice),
            plain(margin)
        )
    } else {
        format!(
            "{name} {} {ci} on {}: a {drop} over {} is not ruled out",
            signed(c.estimate),
            shown(&c.slice),
            plain(margin)
        )
    }
}

fn priority(r: &GateResult) -> u8 {
    if r.status == GateStatus::TooSmall {
        return 4;
    }
    match r.rule.as_str() {
        "max-drop" | "max-change" | "fail-if-significant-drop" | "max-drift" => 0,
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

/// What was too small: the queries, or (`min-groups`) the groups, counted as effective groups
/// when their sizes differ.
fn too_small_size(c: &Comparison, reason: Option<NotJudged>) -> String {
    match (
        reason == Some(NotJudged::MinGroups),
        c.effective_groups,
        c.groups,
    ) {
        (true, Some(g), Some(raw)) if (raw as f64 - g).abs() > 1e-9 => {
            format!("{g:.1} effective groups (of {raw})")
        }
        (true, _, Some(raw)) => count(raw, "group", "groups"),
        _ => count(c.n, "query", "queries"),
    }
}
