//! Judge stage: each gate × each slice it applies to → pass / fail / untouched / inconclusive /
//! too small, and the verdict.
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
//!
//! Outcomes of a statistical rule, decided in this order:
//! - **untouched**: no unit of the comparison moved (every delta within tie-epsilon; its
//!   interval is the point). Never a failure, whatever the size, the slice or the margin, under
//!   the regular guarantee; under `distribution-free` a `max-drop` / `max-change` is untouched
//!   only when its finite-sample bound, which reaches past zero moves, passes (else it fails).
//!   With an A/A noise file, also a mean no query moved beyond its run-to-run band
//!   (`noise::band`) when the bands' mean is within the margin (`no_op::within_noise`).
//! - **not judged** (`too-small`), a matter of the setup: fewer than `min-queries` queries or
//!   (group unit) fewer than `min-groups` effective groups (1 + the Imbens–Kolesár df of the CR2
//!   SE, `stats::small_sample`), a median or p95 with too thin a tail, a sign-flip test held
//!   back by the resamples. It fails the build on `all` and, on a slice, warns or fails
//!   (`on-small-slice`). See [`too_small`] and `resample_floor`.
//! - **undecided on this sample**: a passing `fail-if-significant-drop` that could not have
//!   fired (its p floor 2 / 2^G, G units with a non-zero delta, is at least Holm's α/m), a
//!   passing `max-drop` / `max-change` on a median or p95 sitting on an atom; also a slice
//!   below `min-judged` (`bounds`). A judge below its floors (`judge_labels`) is the setup's and
//!   stays not judged. It fails when
//!   the observed mean delta is at or below −m/2 and is inconclusive otherwise ([`undecided`]).
//! - otherwise the rule's own pass or fail.
//!
//! No count of moved units and no pattern of ties decides a pass: the interval does
//! (`resample::estimate`, and under `guarantee = "distribution-free"` the Dirichlet bound).
//! The resolution a pass has is stated in the report (`resolution`).

pub mod drift;
pub mod efficiency;
mod headline;
pub mod no_op;
pub mod probe;
pub mod resolution;
mod rules;
mod run_rules;
pub mod spent;

pub use headline::{check_line, headline, headline_at};
pub use rules::{difference, equivalent, label, oriented};

/// Labels every comparison against its margin (what the interval says: better, worse, …), for
/// `check` and `compare` alike: a comparison where no unit moved and whose interval is the point
/// (the regular guarantee's reading; under `distribution-free` the bound reaches past zero moves
/// and labels as any interval) is `untouched`, as the judge reads it, never `no change`.
pub fn label_comparisons(comparisons: &mut [Comparison]) {
    for c in comparisons {
        c.label = Some(if c.untouched && c.ci[0] == c.ci[1] {
            crate::model::Label::Untouched
        } else {
            label(c.ci, c.higher_is_better, c.margin)
        });
    }
}

use std::collections::{BTreeMap, BTreeSet};

use crate::config::{Config, Gate, GateSlices, OnSmallSlice, Statistic};
use crate::error::Result;
use crate::model::{Comparison, GateResult, GateStatus, NotJudged, Verdict};
use crate::safe_text::shown;
use crate::stats::holm::holm;

/// The slice names a gate applies to, checked against the slices that exist.
pub fn gate_slices(cfg: &Config, gate: &Gate, known: &BTreeSet<&str>) -> Result<Vec<String>> {
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
/// that decides "too small". Under `on-small-slice = "judge"` (the default) fewer queries than
/// `min-queries` is too small only below `JUDGED_FEWEST`, where no interval exists, and is then
/// undecided on the sample (`undecided_or_small`); from there the interval judges and the size
/// is a setup warning (`small_but_judged`).
pub fn too_small(cfg: &Config, c: &Comparison) -> Option<(String, NotJudged)> {
    let min = fewest_judged(cfg);
    if c.n < min {
        let n = crate::numbers::count(c.n, "query", "queries");
        let why = match min < cfg.slices.min_queries {
            true => format!("{n}: no interval on fewer than {min}"),
            false => format!("{n} < min-queries {min}"),
        };
        return Some((why, NotJudged::MinQueries));
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
    if few_groups_judged(cfg, c) {
        return None;
    }
    let counted = groups_words(c, g);
    Some((
        format!("{counted} < min-groups {min_groups}"),
        NotJudged::MinGroups,
    ))
}

/// "5 groups", or "4.3 effective groups (6 groups, weighed by size and within-group
/// correlation)" when `g`, the effective groups, differs from the groups counted.
fn groups_words(c: &Comparison, g: f64) -> String {
    match c.groups {
        Some(raw) if (raw as f64 - g).abs() > 1e-9 => {
            format!("{g:.1} effective groups ({raw} groups, weighed by size and within-group correlation)")
        }
        _ => crate::numbers::count(g.round() as usize, "group", "groups"),
    }
}

/// Whether a group-unit comparison of the mean below `min-groups` effective groups, on 2
/// groups or more (a standard error needs two), is judged on its interval: under `on-small-slice =
/// "judge"` (the default) with the default bootstrap-t, whose interval there is the
/// small-sample cluster interval (`resample::estimate`: per side the wider of the Student t on
/// the CR2 standard error with the Imbens–Kolesár df and the tilted score bound; exact for
/// normal group means of equal sizes; calibration/results.txt `fewgroups` holds each side at
/// 3–7 groups). Other methods, quantiles and replicate runs keep the floor.
pub fn few_groups_judged(cfg: &Config, c: &Comparison) -> bool {
    few_groups_setup(cfg) && c.judged_on_few_groups()
}

/// The gate file's side of `few_groups_judged`: `on-small-slice = "judge"` and the bootstrap-t.
pub fn few_groups_setup(cfg: &Config) -> bool {
    cfg.slices.on_small_slice == OnSmallSlice::Judge
        && cfg.bootstrap.method == crate::config::Method::BootstrapT
}

/// Whether `c` is a group-unit comparison below `min-groups` judged on its small-sample cluster
/// interval (`few_groups_judged`).
pub fn below_min_groups(cfg: &Config, c: &Comparison) -> bool {
    c.effective_groups
        .is_some_and(|g| g < cfg.slices.min_groups as f64)
        && few_groups_judged(cfg, c)
}

/// The fewest queries an interval is computed on (a spread needs two): below it, under
/// `on-small-slice = "judge"`, a statistical rule is undecided on the sample.
pub const JUDGED_FEWEST: usize = 2;

/// The fewest queries a statistical rule is judged on: `min-queries`, or under `on-small-slice
/// = "judge"` (the default) `JUDGED_FEWEST`. Reports show a comparison's interval from here.
pub fn fewest_judged(cfg: &Config) -> usize {
    match cfg.slices.on_small_slice {
        OnSmallSlice::Judge => cfg.slices.min_queries.min(JUDGED_FEWEST),
        _ => cfg.slices.min_queries,
    }
}

/// The setup warning of a rule judged on fewer queries than `min-queries` (`on-small-slice =
/// "judge"`), unless the gate file accepted the blind spot: the size, and that the interval
/// decided. None when `c` is not below `min-queries`, has no interval (fewer than
/// `JUDGED_FEWEST` queries: undecided there), or the rule is not statistical.
fn small_but_judged(cfg: &Config, rule: &str, r: &GateResult, c: &Comparison) -> Option<String> {
    if below_min_groups(cfg, c) {
        return few_groups_judged_words(cfg, rule, r, c);
    }
    let min = cfg.slices.min_queries;
    let judged = cfg.slices.on_small_slice == OnSmallSlice::Judge
        && is_statistical(rule)
        && r.not_judged.is_none()
        && (JUDGED_FEWEST..min).contains(&c.n)
        && !cfg.verdict.accept_blind_spot;
    judged.then(|| {
        format!(
            "judged on {}, fewer than min-queries {min}: the interval decided (on-small-slice = \"judge\", the default), and the resolution line says what a set this small can miss; to accept this size once, set [verdict] accept-blind-spot = true",
            crate::numbers::count(c.n, "query", "queries")
        )
    })
}

/// As `small_but_judged`, for a group-unit comparison judged below `min-groups` effective
/// groups (`below_min_groups`).
fn few_groups_judged_words(
    cfg: &Config,
    rule: &str,
    r: &GateResult,
    c: &Comparison,
) -> Option<String> {
    let judged = is_statistical(rule) && r.not_judged.is_none() && !cfg.verdict.accept_blind_spot;
    let g = c.effective_groups?;
    judged.then(|| {
        format!(
            "judged on {}, fewer than min-groups {}: the small-sample cluster interval decided (the Student t on the CR2 standard error with the Imbens–Kolesár degrees of freedom, effective groups − 1; on-small-slice = \"judge\", the default), and the resolution line says what so few groups can miss; to accept this size once, set [verdict] accept-blind-spot = true",
            groups_words(c, g),
            cfg.slices.min_groups
        )
    })
}

/// The words `decided_by` gains when a group-unit comparison below `min-groups` effective groups
/// was judged on its small-sample cluster interval.
pub const FEW_GROUPS_INTERVAL: &str = "small-sample cluster interval (CR2, Imbens–Kolesár t)";

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
/// judge cannot show the candidate is safe); on a slice it fails unless `on-small-slice =
/// "warn"`.
fn not_judged(r: &mut GateResult, why: &str, reason: NotJudged, on_small: OnSmallSlice) {
    let fails = r.slice == "all" || on_small != OnSmallSlice::Warn;
    r.status = GateStatus::TooSmall;
    r.passed = false;
    r.fails_build = fails;
    r.not_judged = Some(reason);
    r.decided_by = format!("not judged: {}", reason.decided_by());
    let consequence = match (r.slice == "all", on_small) {
        (true, _) => "the whole set must be large enough to judge, so this fails",
        (false, OnSmallSlice::Fail) => {
            "a slice a gate names must be judged, so this fails (on-small-slice = \"fail\"): \
             give the slice enough queries, or set on-small-slice = \"warn\" to let it warn \
             instead"
        }
        (false, OnSmallSlice::Judge) => {
            "a slice a gate names must be judged, so this fails: give the slice enough queries, \
             or set on-small-slice = \"warn\" to let it warn instead"
        }
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
        warnings: no_op::unlikely_pass(&targets, comparisons, cfg.bootstrap.confidence)
            .into_iter()
            .collect(),
        notes: Vec::new(),
    };
    for (gate, slice, ci) in &targets {
        let c = &comparisons[*ci];
        let p_adj = adjusted[family_at[ci]];
        for rule in RULES {
            let Some(t) = threshold(gate, rule) else {
                continue;
            };
            // A re-run after failing attempts: the rules that need evidence read the interval
            // at the spent level.
            let widened = spent::view(cfg, rule, c);
            let c = widened.as_ref().unwrap_or(c);
            let mut r = rules::apply(gate.index, rule, t, c, p_adj, alpha);
            if widened.is_some() {
                r.detail.push_str(&spent::words(cfg));
            }
            r.family_size = family.len();
            if is_statistical(rule) && reads_untouched(cfg, rule, &mut r, c) {
                out.results.push(r);
                continue;
            }
            let judged = (cfg, *gate, slice.as_str(), family.len());
            out.warnings.extend(size_warnings(judged, &mut r, c, alpha));
            if r.not_judged.is_none() && is_statistical(rule) {
                if let Some(words) = atom_words(c) {
                    out.warnings.push(format!(
                        "gate #{} {} on {}, {rule}: {words}",
                        gate.index,
                        shown(&c.name_with_statistic()),
                        shown(slice)
                    ));
                }
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

/// The warnings of one check about its size: not decided here (too small or undecided, with
/// the size `plan` asks for), a rule with little power, a rule judged on fewer queries than
/// `min-queries`. Marks `r` when it is not decided here.
fn size_warnings(
    (cfg, gate, slice, family): (&Config, &Gate, &str, usize),
    r: &mut GateResult,
    c: &Comparison,
    alpha: f64,
) -> Vec<String> {
    let rule = r.rule.clone();
    let at = |words: &str| {
        format!(
            "gate #{} {} on {}, {rule}: {words}",
            gate.index,
            shown(&c.name()),
            shown(slice)
        )
    };
    let mut out = Vec::new();
    if let Some(reason) = undecided_or_small(cfg, r, c, alpha, family) {
        if matches!(reason, NotJudged::MinQueries | NotJudged::MinGroups) {
            r.detail.push_str(&plan_hint(cfg, gate, &rule, c, family));
        }
        out.push(at(&r.detail));
    } else if let Some(w) = power_warning(gate, &rule, r, c) {
        out.push(w + &plan_hint(cfg, gate, &rule, c, family));
    }
    if r.not_judged.is_none() && is_statistical(&rule) && below_min_groups(cfg, c) {
        r.decided_by = format!("{}, {FEW_GROUPS_INTERVAL}", r.decided_by);
    }
    if let Some(words) = small_but_judged(cfg, &rule, r, c) {
        out.push(at(&(words + &plan_hint(cfg, gate, &rule, c, family))));
    }
    out
}

/// A statistical rule not decided here: too small (the setup's: `not_judged`) or undecided on
/// this sample (`undecided`); marks `r` and returns the reason, or None when `r` stands.
fn undecided_or_small(
    cfg: &Config,
    r: &mut GateResult,
    c: &Comparison,
    alpha: f64,
    family: usize,
) -> Option<NotJudged> {
    let (why, reason) = is_statistical(&r.rule)
        .then(|| too_small(cfg, c))
        .flatten()
        .or_else(|| cannot_fire(&r.rule, r, c, alpha, family))
        .map(|(why, reason)| resample_floor(cfg, c, alpha, family, why, reason))
        .or_else(|| pass_on_atom(r, c))?;
    let no_interval =
        reason == NotJudged::MinQueries && cfg.slices.on_small_slice == OnSmallSlice::Judge;
    if is_per_sample(reason) || no_interval {
        undecided(r, &why, reason, c);
    } else {
        not_judged(r, &why, reason, cfg.slices.on_small_slice);
    }
    Some(reason)
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

/// A `fail-if-significant-drop` that cannot fire because of the resamples, not the data: its
/// p floor is the random sign-flip test's 1 / (resamples + 1), not 2 / 2^units. Then the words
/// (and the reason) name the resample floor and the resamples that would lift it below Holm's
/// α/m: R ≥ ⌊m/α⌋ gives 1 / (R + 1) < α/m. Any other reason passes through.
fn resample_floor(
    cfg: &Config,
    c: &Comparison,
    alpha: f64,
    family: usize,
    why: String,
    reason: NotJudged,
) -> (String, NotJudged) {
    let resamples = cfg.bootstrap.resamples;
    let floor = 1.0 / (resamples as f64 + 1.0);
    if reason != NotJudged::CannotFire || c.p_floor > floor * (1.0 + 1e-12) {
        return (why, reason);
    }
    let needed = resamples_lifting_floor(alpha, family);
    (
        format!(
            "the sign-flip p-value cannot go below 1/(resamples + 1) = {:.6} with {resamples} resamples (the resample floor, not the data: {}) and Holm over {family} comparisons needs p < {:.6}; [bootstrap] resamples = {needed} or more would lift it: fail-if-significant-drop has 0 power at these resamples",
            floor,
            moved_words(c),
            alpha / family.max(1) as f64
        ),
        NotJudged::ResampleFloor { resamples, needed },
    )
}

/// The fewest resamples R whose sign-flip floor 1 / (R + 1) lies below α/m.
pub fn resamples_lifting_floor(alpha: f64, family: usize) -> u64 {
    // 1/(R + 1) < α/m ⇔ R + 1 > m/α; m/α is often a whole number but for the rounding of α
    // (1 − 0.95 is 0.05000000000000004): take it whole then.
    let x = family.max(1) as f64 / alpha;
    if (x - x.round()).abs() < 1e-6 {
        x.round() as u64
    } else {
        x.floor() as u64
    }
}

/// The rules whose pass claims the change is small, and so rests on the units that moved.
const PASS_NEEDS_MOVES: [&str; 2] = ["max-drop", "max-change"];

/// What zero moves on `c` bound against `margin`, in the words of `unseen_words`.
pub fn nothing_moved_words(c: &Comparison, margin: f64, alpha: f64) -> String {
    let u = no_op::unseen(moving_units(c), c.value_range, margin, alpha);
    unseen_words(c, &u, margin, alpha)
}

/// The units `moved` counts on `c`: its groups with the group unit, else its queries.
pub(crate) fn moving_units(c: &Comparison) -> usize {
    match c.groups.filter(|_| c.effective_groups.is_some()) {
        Some(g) => g,
        None => c.n,
    }
}

/// "no query moved (delta beyond tie-epsilon) among 40 queries, which leaves up to 8.8% of
/// them movable unseen (one-sided 97.5% bound) and so a drop of up to 0.0880 on the metric's
/// range 1, over the margin 0.0100; 368 queries would prove a no-op".
fn unseen_words(c: &Comparison, u: &no_op::Unseen, margin: f64, alpha: f64) -> String {
    let (one, many) = if moving_units(c) == c.n {
        ("query", "queries")
    } else {
        ("group", "groups")
    };
    let range = if crate::metric_names::is_bounded(&crate::metric_names::canonical(&c.metric)) {
        "the metric's range [0, 1]".to_string()
    } else {
        format!(
            "the values' observed range {}",
            crate::numbers::plain(c.value_range)
        )
    };
    let needed = match u.needed {
        Some(k) => format!(
            "{} would prove a no-op",
            crate::numbers::count(k, one, many)
        ),
        None => "no number would prove a no-op within a zero margin".to_string(),
    };
    format!(
        "no {one} moved (delta beyond tie-epsilon) among {}, which leaves up to {} of them movable unseen (one-sided {} bound) and so a {} of up to {} on {range}, over the margin {}; {needed}",
        crate::numbers::count(moving_units(c), one, many),
        crate::numbers::percent(u.share),
        crate::numbers::percent(1.0 - alpha / 2.0),
        if c.higher_is_better { "drop" } else { "rise" },
        crate::numbers::plain(u.drop),
        crate::numbers::plain(margin),
    )
}

/// The share of each side's values that must equal its quantile for a median or p95 to sit on
/// an atom (nDCG's ceiling of 1.0 under a p95): there its interval over-covers (99.4–100% in an
/// outside audit) and cannot see a change in the tail beyond the atom.
pub const ATOM_SHARE: f64 = 0.05;

/// "the p95 sits on an atom: 12.0% of the baseline's and 13.0% of the candidate's values equal
/// it (1.0000 and 1.0000), …" when `c` is a quantile comparison on an atom.
pub fn atom_words(c: &Comparison) -> Option<String> {
    let a = c
        .atom
        .filter(|a| a.shares.iter().all(|&s| s >= ATOM_SHARE))?;
    Some(format!(
        "the {q} sits on an atom: {} of the baseline's and {} of the candidate's values equal their {q} ({} and {}; {} or more on both sides is an atom), so the difference {q} of candidate − {q} of baseline cannot see a change in the tail beyond it",
        crate::numbers::percent(a.shares[0]),
        crate::numbers::percent(a.shares[1]),
        crate::numbers::plain(a.values[0]),
        crate::numbers::plain(a.values[1]),
        crate::numbers::percent(ATOM_SHARE),
        q = c.statistic,
    ))
}

/// Why a passing `max-drop` / `max-change` on a quantile that sits on an atom is not judged, if
/// so: its pass would claim no harm in a tail it cannot see.
fn pass_on_atom(r: &GateResult, c: &Comparison) -> Option<(String, NotJudged)> {
    if !(r.passed && PASS_NEEDS_MOVES.contains(&r.rule.as_str())) {
        return None;
    }
    atom_words(c).map(|w| {
        (
            format!("{w}: a pass would not show the tail unharmed; gate the mean, or a quantile off the atom"),
            NotJudged::OnAtom,
        )
    })
}

/// "no query moved among 40 queries, so an unseen drop up to 0.0881 is not ruled out (margin
/// 0.0100)" when no unit of `c` moved and that bound exceeds `margin`: where check would not
/// judge a passing `max-drop` / `max-change`. `compare` warns with it.
pub fn unproven_no_op_words(c: &Comparison, margin: f64, alpha: f64) -> Option<String> {
    let u = no_op::unseen(moving_units(c), c.value_range, margin, alpha);
    (c.moved == 0 && !no_op::proven(&u, margin)).then(|| {
        format!(
            "no unit moved among {}, so an unseen {} up to {} is not ruled out (margin {})",
            moving_units(c),
            if c.higher_is_better { "drop" } else { "rise" },
            crate::numbers::plain(u.drop),
            crate::numbers::plain(margin)
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

/// "; `rag-gate plan` puts max-drop 0.0100 at about 412 queries (80% power)": the units the
/// rule needs on this comparison's spread (`stats::sample_size`, as `plan` computes them, with
/// `min-queries` / `min-groups` and `min-moved` at today's share of moved units as floors), or
/// nothing when no size can be said.
fn plan_hint(cfg: &Config, gate: &Gate, rule: &str, c: &Comparison, family: usize) -> String {
    use crate::stats::sample_size::{units_for, units_to_catch};
    let conf = cfg.bootstrap.confidence;
    let p = crate::stats::power::POWER;
    let (units, floor, one, many) = match (c.effective_groups, c.groups) {
        (Some(_), Some(g)) => (g, cfg.slices.min_groups, "group", "groups"),
        _ => (c.n, cfg.slices.min_queries, "query", "queries"),
    };
    let sd = c.se * (units as f64).sqrt();
    if sd.is_nan() || sd <= 0.0 || c.statistic != "mean" {
        return String::new();
    }
    let needed = match rule {
        "max-drop" => gate.max_drop.and_then(|m| units_for(sd, m, conf, p)),
        "max-change" => gate
            .max_change
            .and_then(|m| units_for(sd, m, conf, (1.0 + p) / 2.0)),
        "fail-if-significant-drop" => gate.fail_if_significant_drop.and_then(|f| {
            let drop = if f > 0.0 {
                Some(2.0 * f)
            } else {
                gate.max_drop
            };
            units_to_catch(sd, drop?, f, conf, p, family)
        }),
        _ => None,
    };
    // At today's share of moved units, `min-moved` (max-drop, max-change) asks for this many.
    let share = c.moved as f64 / units.max(1) as f64;
    let moved_floor = match rule {
        "max-drop" | "max-change" if share > 0.0 => {
            (cfg.slices.min_moved as f64 / share).ceil() as usize
        }
        _ => 0,
    };
    needed.map_or(String::new(), |n| {
        let n = n.max(floor).max(moved_floor);
        // With groups, the queries they bring at today's mean group size (min-queries applies).
        let queries = (units != c.n).then(|| {
            let q = (n as f64 * c.n as f64 / units.max(1) as f64).ceil() as usize;
            format!(
                " ({})",
                crate::numbers::count(q.max(cfg.slices.min_queries), "query", "queries")
            )
        });
        format!(
            "; `rag-gate plan` puts {rule} {} at about {}{} ({:.0}% power)",
            crate::numbers::plain(threshold(gate, rule).unwrap_or(0.0)),
            crate::numbers::count(n, one, many),
            queries.unwrap_or_default(),
            100.0 * p
        )
    })
}

/// The whole interval beyond +m or below −m: a change larger than m is shown, not just possible.
fn shown_change(ci: [f64; 2], m: f64) -> bool {
    ci[0] > m || ci[1] < -m
}

/// A slice the trusted side (the baseline and the queries file) makes large enough to judge,
/// left too small by the pairing (the candidate lacks some of its queries under `missing =
/// "intersect"`), fails the build whatever `on-small-slice` says: leaving queries out of the
/// candidate must not turn a judged slice into a warning, nor into one judged on fewer queries
/// than the setup gives it. Returns a warning per such check.
pub fn shrunk_slices(
    cfg: &Config,
    results: &mut [GateResult],
    trusted: &BTreeMap<String, usize>,
    paired_n: &BTreeMap<String, usize>,
) -> Vec<String> {
    let min = cfg.slices.min_queries;
    let mut warnings = Vec::new();
    for r in results.iter_mut() {
        let (Some(&size), Some(&n)) = (trusted.get(&r.slice), paired_n.get(&r.slice)) else {
            continue;
        };
        let by_size = match r.status {
            GateStatus::TooSmall => matches!(
                r.not_judged,
                Some(NotJudged::MinQueries | NotJudged::MinGroups | NotJudged::ThinTail)
            ),
            // Judged below `min-queries` (`on-small-slice = "judge"`), or undecided there.
            _ => is_statistical(&r.rule) && n < min,
        };
        if !by_size || size < min || n >= size {
            continue;
        }
        if r.status != GateStatus::TooSmall {
            r.detail = format!(
                "not judged, {} < min-queries {min}",
                crate::numbers::count(n, "query", "queries")
            );
            r.status = GateStatus::TooSmall;
            r.not_judged = Some(NotJudged::MinQueries);
            r.decided_by = format!("not judged: {}", NotJudged::MinQueries.decided_by());
        }
        r.passed = false;
        r.fails_build = true;
        r.detail = format!(
            "{}; the baseline and queries file give the slice {size} queries (≥ min-queries {min}) \
             but the candidate lacks {} of them: a slice shrunk by the pairing fails",
            r.detail,
            size - n
        );
        warnings.push(format!(
            "gate #{} {} on {}: {}",
            r.gate,
            r.name(),
            shown(&r.slice),
            r.detail
        ));
    }
    warnings
}

/// The verdict: fail when a check fails the build (a slice not judged under `on-small-slice =
/// "warn"` does not); else inconclusive when a check is; else untouched when every statistical
/// check is untouched (and every absolute bar holds); else pass.
pub fn verdict(results: &[GateResult]) -> Verdict {
    if results.iter().any(|r| r.fails_build) {
        Verdict::Fail
    } else if results.iter().any(|r| r.status == GateStatus::Inconclusive) {
        Verdict::Inconclusive
    } else if results.iter().any(|r| r.status == GateStatus::Untouched)
        && results
            .iter()
            .all(|r| r.status == GateStatus::Untouched || (!is_statistical(&r.rule) && r.passed))
    {
        Verdict::Untouched
    } else {
        Verdict::Pass
    }
}

/// Whether a reason a check is not decided belongs to this sample (what the pull request's
/// values did: too few moved units for the sign-flip test, a quantile on an atom, judged
/// coverage below its floor here) rather than to the setup (sizes, resamples, the judge's
/// labels and their agreement with the humans).
pub fn is_per_sample(reason: NotJudged) -> bool {
    matches!(
        reason,
        NotJudged::CannotFire | NotJudged::OnAtom | NotJudged::TooFewJudgments
    )
}

/// Whether a comparison where no unit moved reads untouched under `rule`: always under the
/// regular guarantee; under `guarantee = "distribution-free"` a `max-drop` / `max-change` only
/// when its finite-sample bound (which reaches past zero moves among n units) passes, since
/// that guarantee holds for every design, a change touching too few units to show included.
fn untouched_proven(cfg: &Config, rule: &str, r: &GateResult) -> bool {
    cfg.verdict.guarantee != crate::config::Guarantee::DistributionFree
        || !matches!(rule, "max-drop" | "max-change")
        || r.passed
}

/// Marks a statistical rule untouched when no unit of `c` moved, or (with a noise file) none
/// beyond its run-to-run band (`no_op::within_noise`), and the guarantee allows it; a comparison
/// where nothing moved that the distribution-free bound does not prove says so in its detail.
fn reads_untouched(cfg: &Config, rule: &str, r: &mut GateResult, c: &Comparison) -> bool {
    let proven = untouched_proven(cfg, rule, r);
    if c.untouched && !proven {
        unproven_untouched(r, c);
    }
    let reads = (c.untouched && proven) || no_op::within_noise(rule, r, c, proven);
    if reads {
        untouched(r, c);
    }
    reads
}

/// A `max-drop` / `max-change` where no unit moved whose distribution-free bound does not pass:
/// the failure says why.
fn unproven_untouched(r: &mut GateResult, c: &Comparison) {
    let units = match c.groups.filter(|_| c.effective_groups.is_some()) {
        Some(g) => crate::numbers::count(g, "group", "groups"),
        None => crate::numbers::count(c.n, "query", "queries"),
    };
    r.detail = format!(
        "{}; nothing moved among {units}, but under guarantee = \"distribution-free\" that \
         cannot rule out an unseen change up to the finite-sample bound: anything not proven \
         fails (more queries, a wider margin, or the regular guarantee with its stated \
         resolution)",
        r.detail
    );
}

/// A statistical rule on a comparison where no unit moved: untouched, never a failure, whatever
/// the size of the slice or the margin (under the regular guarantee).
fn untouched(r: &mut GateResult, c: &Comparison) {
    if c.ci[0] == c.ci[1] {
        r.label = crate::model::Label::Untouched;
    }
    r.status = GateStatus::Untouched;
    r.passed = true;
    r.fails_build = false;
    r.not_judged = None;
    r.decided_by = "untouched: no query moved".into();
    let units = match c.groups.filter(|_| c.effective_groups.is_some()) {
        Some(g) => crate::numbers::count(g, "group", "groups"),
        None => crate::numbers::count(c.n, "query", "queries"),
    };
    r.detail = format!(
        "untouched: unchanged on all {units} (every delta within tie-epsilon), nothing to judge"
    );
    if let Some(w) = &c.within_noise {
        r.decided_by = "untouched: no query moved beyond run-to-run noise".into();
        r.detail = format!(
            "untouched: unchanged beyond run-to-run noise on all {} ({}), nothing to judge",
            crate::numbers::count(c.n, "query", "queries"),
            no_op::band_words(w)
        );
    }
}

/// A check undecided on this sample (`reason`, in `why`): it fails when the gated slice's
/// observed mean delta (oriented, so a drop is negative) is at or below −m/2, m the rule's
/// margin, and is inconclusive (amber, not a pass) otherwise; a check its rule failed stays
/// failed. The observed mean is the candidate's own per-query values: nothing else a pull
/// request controls moves it.
pub fn undecided(r: &mut GateResult, why: &str, reason: NotJudged, c: &Comparison) {
    // A check its own rule already failed stays failed: nothing a pull request controls beyond
    // its per-query values (its judged coverage, the judge's agreement on its documents) turns
    // a failure into an amber check.
    if r.status == GateStatus::Fail {
        r.detail = format!("{}; also undecided on this sample, {why}", r.detail);
        return;
    }
    let observed = if c.higher_is_better {
        c.delta
    } else {
        -c.delta
    };
    let half = r.threshold.abs() / 2.0;
    let words = if c.higher_is_better { "drop" } else { "rise" };
    r.passed = false;
    r.not_judged = Some(reason);
    if observed <= -half {
        r.status = GateStatus::Fail;
        r.fails_build = true;
        r.decided_by = format!("undecided, observed {words} at or past half the margin");
        r.detail = format!(
            "undecided on this sample, {why}; the observed mean delta {} is at or below −m/2 = {}, so this fails ({})",
            crate::numbers::signed(c.delta),
            crate::numbers::plain(-half),
            r.detail,
        );
    } else {
        r.status = GateStatus::Inconclusive;
        r.fails_build = false;
        r.decided_by = format!("inconclusive: {}", reason.decided_by());
        r.detail = format!(
            "inconclusive, {why}; the observed mean delta {} is above −m/2 = {}: neither shown safe nor shown worse ({})",
            crate::numbers::signed(c.delta),
            crate::numbers::plain(-half),
            r.detail,
        );
    }
}
