//! Judge stage: each gate × each slice it applies to → pass / fail / too small, and the verdict.
//!
//! Rules (each compared plainly, and named in the report as the rule that decided):
//! - `min-mean = x` / `max-mean = x`: the candidate's statistic (mean by default, or the
//!   gate's `statistic`) must be ≥ x / ≤ x — an absolute bar.
//! - `max-drop = m`: non-inferiority, "prove no harm": the CI lower bound of the difference must
//!   be ≥ −m. A set of non-inferiority claims that must all hold is an intersection–union test
//!   (Berger 1982, Technometrics 24:295), so it needs no multiplicity adjustment.
//! - `fail-if-significant-drop = m`: "flag proven harm": fail only if the CI upper bound is
//!   < −m and the Holm-adjusted sign-flip p-value is < 1 − confidence. Holm (1979) runs over the
//!   family of gated comparisons (every metric × slice some gate applies to), so many slices do
//!   not multiply false alarms.
//! - `max-loss-rate = r`: at most this share of the slice's queries may get worse (delta < −ε).
//!
//! For a lower-is-better metric (`higher-is-better = false`, e.g. latency) a drop is a rise.
//! A slice with fewer than `min-queries` queries, or (group unit) fewer than `min-groups`
//! effective groups (Σ n_g)² / Σ n_g², is never silently passed: it is `too-small`, a warning
//! by default, a failure with `on-small-slice = "fail"`. So is a `fail-if-significant-drop`
//! that could not fire: its sign-flip p-value cannot go below 2 / 2^G (G units with a non-zero
//! delta), and Holm rejects nothing unless some p is below α/m.

mod headline;
mod rules;

pub use headline::headline;
pub use rules::{label, oriented};

/// Labels every comparison against its margin (what the interval says: better, worse, …).
pub fn label_comparisons(comparisons: &mut [Comparison]) {
    for c in comparisons {
        c.label = Some(label(c.ci, c.higher_is_better, c.margin));
    }
}

use crate::config::{Config, Gate, GateSlices, OnSmallSlice};
use crate::error::Result;
use crate::model::{Comparison, GateResult, GateStatus, Verdict};
use crate::stats::holm::holm;

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

const RULES: [&str; 5] = [
    "min-mean",
    "max-mean",
    "max-drop",
    "fail-if-significant-drop",
    "max-loss-rate",
];

fn threshold(gate: &Gate, rule: &str) -> Option<f64> {
    match rule {
        "min-mean" => gate.min_mean,
        "max-mean" => gate.max_mean,
        "max-drop" => gate.max_drop,
        "fail-if-significant-drop" => gate.fail_if_significant_drop,
        _ => gate.max_loss_rate,
    }
}

pub fn judge(cfg: &Config, comparisons: &[Comparison]) -> Result<(Vec<GateResult>, Vec<String>)> {
    let known: Vec<String> = comparisons.iter().map(|c| c.slice.clone()).collect();
    // The family: every comparison some gate applies to, each once, in first-use order.
    let mut targets: Vec<(&Gate, String, usize)> = Vec::new();
    let mut family: Vec<usize> = Vec::new();
    for gate in &cfg.gates {
        for slice in gate_slices(cfg, gate, &known)? {
            let ci = comparisons
                .iter()
                .position(|c| c.metric == gate.metric && c.slice == slice)
                .expect("every gated metric × slice was compared");
            if !family.contains(&ci) {
                family.push(ci);
            }
            targets.push((gate, slice, ci));
        }
    }
    let adjusted = holm(
        &family
            .iter()
            .map(|&i| comparisons[i].p_value)
            .collect::<Vec<_>>(),
    );
    let alpha = 1.0 - cfg.bootstrap.confidence;

    let mut results = Vec::new();
    let mut warnings = Vec::new();
    for (gate, slice, ci) in &targets {
        let c = &comparisons[*ci];
        let p_adj = adjusted[family.iter().position(|i| i == ci).expect("in the family")];
        for rule in RULES {
            let Some(t) = threshold(gate, rule) else {
                continue;
            };
            let mut r = rules::apply(gate.index, rule, t, c, p_adj, alpha);
            r.family_size = family.len();
            if let Some((why, decided_by)) = too_small(cfg, c, rule, r.passed, alpha, family.len())
            {
                r.status = GateStatus::TooSmall;
                r.passed = cfg.slices.on_small_slice == OnSmallSlice::Warn;
                r.decided_by = decided_by.into();
                r.detail = format!("{why}: too small to judge ({})", r.detail);
                warnings.push(format!(
                    "gate #{} {} on {}: {}",
                    gate.index, gate.metric, slice, r.detail
                ));
            }
            results.push(r);
        }
        if let Some(w) = power_warning(gate, c, alpha, family.len()) {
            warnings.push(w);
        }
    }
    for &i in &family {
        let c = &comparisons[i];
        if c.mc_rerun {
            warnings.push(format!(
                "{} on {}: an interval bound lay within 3 Monte-Carlo standard errors of its threshold; re-ran with {} resamples (derived stream) before deciding",
                c.metric, c.slice, c.resamples_used
            ));
        }
    }
    Ok((results, warnings))
}

/// Why a rule on `c` is not judged, and the deciding rule's words: fewer queries than
/// `min-queries`, fewer effective groups than `min-groups` (group unit), or a passing
/// `fail-if-significant-drop` whose sign-flip p floor is at least α/m (Holm's first step).
fn too_small(
    cfg: &Config,
    c: &Comparison,
    rule: &str,
    passed: bool,
    alpha: f64,
    family: usize,
) -> Option<(String, &'static str)> {
    let min_groups = cfg.slices.min_groups as f64;
    if c.n < cfg.slices.min_queries {
        return Some((
            format!("{} queries < min-queries {}", c.n, cfg.slices.min_queries),
            "too-small slice (min-queries)",
        ));
    }
    if let Some(g) = c.effective_groups.filter(|&g| g < min_groups) {
        let counted = match c.groups {
            Some(raw) if (raw as f64 - g).abs() > 1e-9 => {
                format!("{g:.1} effective groups ({raw} groups of unequal sizes)")
            }
            _ => format!("{g:.0} groups"),
        };
        return Some((
            format!("{counted} < min-groups {}", cfg.slices.min_groups),
            "too-small slice (min-groups)",
        ));
    }
    if rule == "fail-if-significant-drop" && passed && c.p_floor >= alpha / family as f64 {
        return Some((
            format!(
                "{}; this rule cannot fire here",
                p_floor_words(c, alpha, family)
            ),
            "too few units for the sign-flip test",
        ));
    }
    None
}

/// "the sign-flip p-value cannot go below 0.0625 (5 units with a non-zero delta) and Holm over
/// 4 comparisons needs p < 0.0125, so at least 8 units".
fn p_floor_words(c: &Comparison, alpha: f64, family: usize) -> String {
    let needed = (1.0 + (family as f64 / alpha).log2()).floor() as usize + 1;
    let units = (1.0 - c.p_floor.log2()).round();
    format!(
        "the sign-flip p-value cannot go below {:.4} ({units} units with a non-zero delta) and Holm over {family} comparison{} needs p < {:.4}, so at least {needed} units",
        c.p_floor,
        if family == 1 { "" } else { "s" },
        alpha / family as f64
    )
}

/// "risk=compliance: 41 queries, can only detect drops ≥ 0.062; margin is 0.01" when the MDE of
/// a gated comparison exceeds the gate's delta margin; "… 0 power" for a
/// `fail-if-significant-drop` whose sign-flip p floor is at least α/m.
fn power_warning(gate: &Gate, c: &Comparison, alpha: f64, family: usize) -> Option<String> {
    let margin = [gate.max_drop, gate.fail_if_significant_drop]
        .into_iter()
        .flatten()
        .reduce(f64::min)?;
    let size = match c.groups {
        Some(g) if c.n != g => format!("{} queries in {g} groups", c.n),
        _ => format!("{} queries", c.n),
    };
    if gate.fail_if_significant_drop.is_some() && c.p_floor >= alpha / family as f64 {
        return Some(format!(
            "gate #{} {}: {}: {size}: fail-if-significant-drop has 0 power: {}",
            gate.index,
            c.metric,
            c.slice,
            p_floor_words(c, alpha, family)
        ));
    }
    // A zero margin has no size to detect; the p-value and the interval speak for themselves.
    if margin <= 0.0 || c.mde <= margin {
        return None;
    }
    Some(format!(
        "gate #{} {}: {}: {size}, can only detect {} ≥ {:.3} (80% power); margin is {margin}",
        gate.index,
        c.metric,
        c.slice,
        if c.higher_is_better { "drops" } else { "rises" },
        c.mde
    ))
}

pub fn verdict(results: &[GateResult]) -> Verdict {
    if results.iter().all(|r| r.passed) {
        Verdict::Pass
    } else {
        Verdict::Fail
    }
}
