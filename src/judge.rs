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
//! A slice with fewer than `min-queries` queries is never silently passed: it is `too-small`,
//! a warning by default, a failure with `on-small-slice = "fail"`.

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

use std::collections::{BTreeMap, BTreeSet};

use crate::config::{Config, Gate, GateSlices, OnSmallSlice};
use crate::error::Result;
use crate::model::{Comparison, GateResult, GateStatus, Verdict};
use crate::safe_text::shown;
use crate::stats::holm::holm;

/// The slice names a gate applies to, checked against the slices that exist.
fn gate_slices(cfg: &Config, gate: &Gate, known: &BTreeSet<&str>) -> Result<Vec<String>> {
    let names: Vec<String> = match &gate.slices {
        GateSlices::All => vec!["all".into()],
        GateSlices::Critical => std::iter::once("all".to_string())
            .chain(cfg.slices.critical.iter().map(|(n, _)| n.clone()))
            .collect(),
        GateSlices::List(l) => l.clone(),
    };
    for n in &names {
        if !known.contains(n.as_str()) {
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
    // Lookups by name are maps, not scans: 100,000 critical slices stay linear.
    let known: BTreeSet<&str> = comparisons.iter().map(|c| c.slice.as_str()).collect();
    let at: BTreeMap<(&str, &str), usize> = comparisons
        .iter()
        .enumerate()
        .map(|(i, c)| ((c.metric.as_str(), c.slice.as_str()), i))
        .collect();
    // The family: every comparison some gate applies to, each once, in first-use order.
    let mut targets: Vec<(&Gate, String, usize)> = Vec::new();
    let mut family: Vec<usize> = Vec::new();
    let mut family_at: BTreeMap<usize, usize> = BTreeMap::new();
    for gate in &cfg.gates {
        for slice in gate_slices(cfg, gate, &known)? {
            let ci = *at
                .get(&(gate.metric.as_str(), slice.as_str()))
                .expect("every gated metric × slice was compared");
            family_at.entry(ci).or_insert_with(|| {
                family.push(ci);
                family.len() - 1
            });
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
        let p_adj = adjusted[family_at[ci]];
        for rule in RULES {
            let Some(t) = threshold(gate, rule) else {
                continue;
            };
            let mut r = rules::apply(gate.index, rule, t, c, p_adj, alpha);
            r.family_size = family.len();
            if c.n < cfg.slices.min_queries {
                r.status = GateStatus::TooSmall;
                r.passed = cfg.slices.on_small_slice == OnSmallSlice::Warn;
                r.decided_by = "too-small slice (min-queries)".into();
                r.detail = format!(
                    "{} queries < min-queries {}: too small to judge ({})",
                    c.n, cfg.slices.min_queries, r.detail
                );
                warnings.push(format!(
                    "gate #{} {} on {}: {}",
                    gate.index,
                    shown(&gate.metric),
                    shown(slice),
                    r.detail
                ));
            }
            results.push(r);
        }
        if let Some(w) = power_warning(gate, c) {
            warnings.push(w);
        }
    }
    for &i in &family {
        let c = &comparisons[i];
        if c.mc_rerun {
            warnings.push(format!(
                "{} on {}: an interval bound lay within 3 Monte-Carlo standard errors of its threshold; re-ran with {} resamples (derived stream) before deciding",
                shown(&c.metric),
                shown(&c.slice),
                c.resamples_used
            ));
        }
    }
    Ok((results, warnings))
}

/// "risk=compliance: 41 queries, can only detect drops ≥ 0.062; margin is 0.01" when the MDE of
/// a gated comparison exceeds the gate's delta margin.
fn power_warning(gate: &Gate, c: &Comparison) -> Option<String> {
    let margin = [gate.max_drop, gate.fail_if_significant_drop]
        .into_iter()
        .flatten()
        .reduce(f64::min)?;
    // A zero margin has no size to detect; the p-value and the interval speak for themselves.
    if margin <= 0.0 || c.mde <= margin {
        return None;
    }
    let size = match c.groups {
        Some(g) if c.n != g => format!("{} queries in {g} groups", c.n),
        _ => format!("{} queries", c.n),
    };
    Some(format!(
        "gate #{} {}: {}: {size}, can only detect {} ≥ {:.3} (80% power); margin is {margin}",
        gate.index,
        shown(&c.metric),
        shown(&c.slice),
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
