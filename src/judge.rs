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
//!   family of gated comparisons (every metric × statistic × slice some gate applies to, each
//!   once), so many slices do not multiply false alarms.
//! - `max-change = m`: equivalence, "prove nothing changed": the whole CI of the difference must
//!   lie inside (−m, +m). With the reported two-sided interval at `confidence` this is two
//!   one-sided tests (TOST, Schuirmann 1987), each at (1 − confidence) / 2 — 2.5% at the default
//!   0.95; `confidence = 0.90` gives TOST at 5%. Like `max-drop` it is an intersection–union
//!   test and needs no multiplicity adjustment.
//! - `max-loss-rate = r`: at most this share of the slice's queries may get worse (delta < −ε).
//!
//! For a lower-is-better metric (`higher-is-better = false`, e.g. latency) a drop is a rise.
//! "Too small to judge" is never a pass: absolute bars are judged at any size; the statistical
//! rules on a comparison with fewer than `min-queries` queries or (group unit) fewer than
//! `min-groups` effective groups (1 + the Imbens–Kolesár df of the CR2 SE, `stats::small_sample`) are *not judged* (`too-small`), which fails
//! the build on `all` and, on a slice, warns (default) or fails (`on-small-slice = "fail"`). So
//! is a passing `fail-if-significant-drop` that could not have fired: its sign-flip p-value
//! cannot go below 2 / 2^G (G units with a non-zero delta), and Holm rejects nothing unless some
//! p is below α/m. So is a passing `max-drop` / `max-change` on a comparison where 1 to
//! `min-moved` − 1 units moved (a drop carried by so few passes at its margin far above 2.5%,
//! calibration/results.txt); a no-op, where nothing moved, is judged.
//! See [`too_small`], [`cannot_fire`] and [`too_few_moved`].

pub mod efficiency;
mod headline;
mod rules;
mod run_rules;

pub use headline::{headline, headline_at};
pub use rules::{equivalent, label, oriented};

/// Labels every comparison against its margin (what the interval says: better, worse, …).
pub fn label_comparisons(comparisons: &mut [Comparison]) {
    for c in comparisons {
        c.label = Some(label(c.ci, c.higher_is_better, c.margin));
    }
}

use std::collections::{BTreeMap, BTreeSet};

use crate::config::{Config, Gate, GateSlices, OnSmallSlice, Statistic};
use crate::error::Result;
use crate::model::{Comparison, GateResult, GateStatus, NotJudged, Verdict};
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

const RULES: [&str; 6] = [
    "min-mean",
    "max-mean",
    "max-drop",
    "max-change",
    "fail-if-significant-drop",
    "max-loss-rate",
];

fn threshold(gate: &Gate, rule: &str) -> Option<f64> {
    match rule {
        "min-mean" => gate.min_mean,
        "max-mean" => gate.max_mean,
        "max-drop" => gate.max_drop,
        "max-change" => gate.max_change,
        "fail-if-significant-drop" => gate.fail_if_significant_drop,
        _ => gate.max_loss_rate,
    }
}

/// What judging gives: one result per gate × slice × rule, the warnings and the notes.
pub struct Judged {
    pub results: Vec<GateResult>,
    pub warnings: Vec<String>,
    pub notes: Vec<String>,
}

/// Why a comparison is too small for a statistical rule to judge it, if it is, and the size rule
/// that says so: fewer queries than `min-queries`, a median or p95 with fewer than `TAIL_VALUES`
/// beyond its quantile, or (group unit) fewer effective groups than `min-groups`. The one place
/// that decides "too small".
pub fn too_small(cfg: &Config, c: &Comparison) -> Option<(String, NotJudged)> {
    let min = cfg.slices.min_queries;
    if c.n < min {
        let n = crate::numbers::count(c.n, "query", "queries");
        return Some((format!("{n} < min-queries {min}"), NotJudged::MinQueries));
    }
    if let Some(fewest) = quantile_fewest(&c.statistic).filter(|&f| c.n < f) {
        let n = crate::numbers::count(c.n, "query", "queries");
        return Some((
            format!(
                "{n} < {fewest}, the fewest a {} is judged on ({TAIL_VALUES} beyond its quantile)",
                c.statistic
            ),
            NotJudged::ThinTail,
        ));
    }
    let min_groups = cfg.slices.min_groups;
    let g = c.effective_groups.filter(|&g| g < min_groups as f64)?;
    let counted = match c.groups {
        Some(raw) if (raw as f64 - g).abs() > 1e-9 => {
            format!("{g:.1} effective groups ({raw} groups, weighed by size and within-group correlation)")
        }
        _ => crate::numbers::count(g.round() as usize, "group", "groups"),
    };
    Some((
        format!("{counted} < min-groups {min_groups}"),
        NotJudged::MinGroups,
    ))
}

/// The fewest values a median or p95 comparison must have beyond its quantile (on the far side
/// from the bulk) to be judged: with fewer, the p95's interval rests on its top 1–4 values and
/// misses 4–5% per side at 30–50 queries, where it holds from 100 (calibration/results.txt,
/// `quantile` cells).
pub const TAIL_VALUES: usize = 5;

/// The fewest queries a comparison of `statistic` is judged on, for a quantile: `TAIL_VALUES`
/// beyond it (100 for a p95, 10 for a median); None for the mean.
pub fn quantile_fewest(statistic: &str) -> Option<usize> {
    let p = [Statistic::Median, Statistic::P95]
        .into_iter()
        .find(|s| s.as_str() == statistic)?
        .level()?;
    Some((TAIL_VALUES as f64 / p.min(1.0 - p)).round() as usize)
}

/// Absolute bars are facts about the candidate's statistic and are judged at any size; the
/// other rules are statistical and need `min-queries` (and `min-groups`).
fn is_statistical(rule: &str) -> bool {
    !matches!(rule, "min-mean" | "max-mean")
}

/// Marks `r` as not judged: never a pass. On `all` it fails the build (a set too small to
/// judge cannot show the candidate is safe); on a slice `on-small-slice` decides.
fn not_judged(r: &mut GateResult, why: &str, reason: NotJudged, on_small: OnSmallSlice) {
    let fails = r.slice == "all" || on_small == OnSmallSlice::Fail;
    r.status = GateStatus::TooSmall;
    r.passed = false;
    r.fails_build = fails;
    r.not_judged = Some(reason);
    r.decided_by = format!("not judged: {}", reason.decided_by());
    let consequence = match (r.slice == "all", on_small) {
        (true, _) => "the whole set must be large enough to judge, so this fails",
        (false, OnSmallSlice::Fail) => "fails (on-small-slice = \"fail\")",
        (false, OnSmallSlice::Warn) => "a warning (on-small-slice = \"warn\"), not a pass",
    };
    r.detail = format!("not judged, {why}: {consequence}");
}

/// Each gate × slice it applies to with the index of its comparison, and the family: every
/// (metric, statistic, slice) some gate applies to, each once, in first-use order (two gates on
/// one comparison count once, the mean and the p95 of one metric twice), with each comparison's
/// place in it.
type Targets<'a> = (
    Vec<(&'a Gate, String, usize)>,
    Vec<usize>,
    BTreeMap<usize, usize>,
);

fn targets<'a>(cfg: &'a Config, comparisons: &[Comparison]) -> Result<Targets<'a>> {
    // Lookups by name are maps, not scans: 100,000 critical slices stay linear.
    let known: BTreeSet<&str> = comparisons.iter().map(|c| c.slice.as_str()).collect();
    let at: BTreeMap<(&str, &str, &str), usize> = comparisons
        .iter()
        .enumerate()
        .map(|(i, c)| {
            (
                (c.metric.as_str(), c.statistic.as_str(), c.slice.as_str()),
                i,
            )
        })
        .collect();
    let mut targets: Vec<(&Gate, String, usize)> = Vec::new();
    let mut family: Vec<usize> = Vec::new();
    let mut family_at: BTreeMap<usize, usize> = BTreeMap::new();
    for gate in &cfg.gates {
        for slice in gate_slices(cfg, gate, &known)? {
            let ci = *at
                .get(&(
                    gate.metric.as_str(),
                    gate.statistic.as_str(),
                    slice.as_str(),
                ))
                .expect("every gated metric × statistic × slice was compared");
            family_at.entry(ci).or_insert_with(|| {
                family.push(ci);
                family.len() - 1
            });
            targets.push((gate, slice, ci));
        }
    }
    Ok((targets, family, family_at))
}

pub fn judge(cfg: &Config, comparisons: &[Comparison]) -> Result<Judged> {
    let (targets, family, family_at) = targets(cfg, comparisons)?;
    let adjusted = holm(
        &family
            .iter()
            .map(|&i| comparisons[i].p_value)
            .collect::<Vec<_>>(),
    );
    let alpha = 1.0 - cfg.bootstrap.confidence;

    let mut out = Judged {
        results: Vec::new(),
        warnings: Vec::new(),
        notes: Vec::new(),
    };
    for (gate, slice, ci) in &targets {
        let c = &comparisons[*ci];
        let p_adj = adjusted[family_at[ci]];
        for rule in RULES {
            let Some(t) = threshold(gate, rule) else {
                continue;
            };
            let mut r = rules::apply(gate.index, rule, t, c, p_adj, alpha);
            r.family_size = family.len();
            let small = is_statistical(rule)
                .then(|| too_small(cfg, c))
                .flatten()
                .or_else(|| cannot_fire(rule, &r, c, alpha, family.len()))
                .or_else(|| too_few_moved(cfg, &r, c));
            if let Some((why, reason)) = small {
                not_judged(&mut r, &why, reason, cfg.slices.on_small_slice);
                out.warnings.push(format!(
                    "gate #{} {} on {}, {rule}: {}",
                    gate.index,
                    shown(&c.name()),
                    shown(slice),
                    r.detail
                ));
            } else if let Some(w) = power_warning(gate, rule, &r, c) {
                out.warnings.push(w);
            }
            out.results.push(r);
        }
    }
    for &i in &family {
        let c = &comparisons[i];
        if c.mc_rerun {
            out.notes.push(format!(
                "{} on {}: an interval bound lay within 3 Monte-Carlo standard errors of its threshold; re-ran with {} resamples (derived stream) before deciding",
                shown(&c.name()),
                shown(&c.slice),
                c.resamples_used
            ));
        }
    }
    Ok(out)
}

/// Why a passing `fail-if-significant-drop` on `c` could not have fired, if so: its sign-flip
/// p floor is at least α/m (Holm's first step), so it has 0 power at this size.
fn cannot_fire(
    rule: &str,
    r: &GateResult,
    c: &Comparison,
    alpha: f64,
    family: usize,
) -> Option<(String, NotJudged)> {
    (rule == "fail-if-significant-drop" && r.passed && c.p_floor >= alpha / family as f64).then(
        || {
            (
                format!(
                    "{}; fail-if-significant-drop has 0 power: this rule cannot fire here",
                    p_floor_words(c, alpha, family)
                ),
                NotJudged::CannotFire,
            )
        },
    )
}

/// The rules whose pass claims the change is small, and so rests on the units that moved.
const PASS_NEEDS_MOVES: [&str; 2] = ["max-drop", "max-change"];

/// Why a passing `max-drop` / `max-change` on `c` is not judged, if so: some units moved but
/// fewer than `min-moved`. With so few, a drop carried by them alone passes `max-drop` at its
/// margin far more often than the interval's 2.5% (12–36% at 1–3 moved queries,
/// calibration/results.txt); a change that moved nothing (every delta within tie-epsilon) is a
/// no-op and is judged.
fn too_few_moved(cfg: &Config, r: &GateResult, c: &Comparison) -> Option<(String, NotJudged)> {
    let min = cfg.slices.min_moved;
    (r.passed && PASS_NEEDS_MOVES.contains(&r.rule.as_str()))
        .then(|| few_moved(c, min))
        .flatten()
        .map(|why| {
            (
                format!("{why}: a pass would rest on these alone"),
                NotJudged::TooFewMoved {
                    moved: c.moved,
                    min,
                },
            )
        })
}

/// "3 queries moved (delta beyond tie-epsilon) < min-moved 8" when some but fewer than `min`
/// units of `c` moved: where a passing `max-drop` / `max-change` is not judged. `compare` warns
/// with it at check's default.
pub fn few_moved(c: &Comparison, min: usize) -> Option<String> {
    (c.moved > 0 && c.moved < min).then(|| format!("{} < min-moved {min}", moved_words(c)))
}

/// "3 queries moved (delta beyond tie-epsilon)", or "3 groups held a moved query".
pub fn moved_words(c: &Comparison) -> String {
    match c.groups.filter(|_| c.effective_groups.is_some()) {
        Some(_) => format!(
            "{} a moved query (delta beyond tie-epsilon)",
            crate::numbers::count(c.moved, "group held", "groups held")
        ),
        None => format!(
            "{} moved (delta beyond tie-epsilon)",
            crate::numbers::count(c.moved, "query", "queries")
        ),
    }
}

/// "the sign-flip p-value cannot go below 0.0625 (5 units with a non-zero delta) and Holm over
/// 4 comparisons needs p < 0.0125, so at least 8 units".
fn p_floor_words(c: &Comparison, alpha: f64, family: usize) -> String {
    let (units, needed) = sign_flip_units(c, alpha, family);
    format!(
        "the sign-flip p-value cannot go below {:.4} ({units} units with a non-zero delta) and Holm over {family} comparison{} needs p < {:.4}, so at least {needed} units",
        c.p_floor,
        if family == 1 { "" } else { "s" },
        alpha / family as f64
    )
}

/// The units with a non-zero delta `c` has, and the fewest the sign-flip test needs for a
/// p-value below α/m (Holm's first step over `family` comparisons): its floor is 2 / 2^units.
pub fn sign_flip_units(c: &Comparison, alpha: f64, family: usize) -> (usize, usize) {
    let needed = (1.0 + (family.max(1) as f64 / alpha).log2()).floor() as usize + 1;
    let units = (1.0 - c.p_floor.log2()).round().max(0.0) as usize;
    (units, needed)
}

/// "gate #3 ndcg@10 on risk=compliance, max-drop: 41 queries can only detect drops ≥ 0.0620 (80%
/// power) and the margin is 0.0100: …", only where power matters: a `max-drop` that failed
/// without showing harm (its interval reaches inside the margin: the data may be too few to
/// prove no harm), a `max-change` that failed without showing a change beyond ±m, or a
/// `fail-if-significant-drop` that passed (it could hardly have failed).
/// A zero margin has no size to detect.
fn power_warning(gate: &Gate, rule: &str, r: &GateResult, c: &Comparison) -> Option<String> {
    // A failed max-drop whose whole interval lies past the margin was not short of data: the
    // harm is shown.
    let shown_harm = |m: f64| oriented(c.ci, c.higher_is_better)[1] < -m;
    let margin = match rule {
        "max-drop" if !r.passed && !shown_harm(gate.max_drop?) => gate.max_drop?,
        // A failed max-change whose whole interval lies beyond ±m has shown the change.
        "max-change" if !r.passed && !shown_change(c.ci, gate.max_change?) => gate.max_change?,
        "fail-if-significant-drop" if r.passed => gate.fail_if_significant_drop?,
        _ => return None,
    };
    if margin <= 0.0 || c.mde <= margin {
        return None;
    }
    let size = match c.groups {
        Some(g) if c.n != g => format!(
            "{} in {}",
            crate::numbers::count(c.n, "query", "queries"),
            crate::numbers::count(g, "group", "groups")
        ),
        _ => crate::numbers::count(c.n, "query", "queries"),
    };
    let what = if r.passed {
        "it passed but could hardly have failed"
    } else {
        "it failed, perhaps for want of data"
    };
    Some(format!(
        "gate #{} {} on {}, {rule}: {size} can only detect {} ≥ {} (80% power) and the margin is {}: {what}",
        gate.index,
        shown(&c.name()),
        shown(&c.slice),
        if c.higher_is_better { "drops" } else { "rises" },
        crate::numbers::plain(c.mde),
        crate::numbers::plain(margin)
    ))
}

/// The whole interval beyond +m or below −m: a change larger than m is shown, not just possible.
fn shown_change(ci: [f64; 2], m: f64) -> bool {
    ci[0] > m || ci[1] < -m
}

/// Pass only when no check fails the build (a slice not judged under `on-small-slice = "warn"`
/// does not; nothing else that was not judged passes).
pub fn verdict(results: &[GateResult]) -> Verdict {
    if results.iter().all(|r| !r.fails_build) {
        Verdict::Pass
    } else {
        Verdict::Fail
    }
}
