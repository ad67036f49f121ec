//! The Efficiency section: the two run cards side by side (model fields and conditions, each
//! difference marked), every run-level metric, and the run-level gates judged on them
//! (`run_rules`). Like with like: a gate on a metric whose cards' conditions differ is refused
//! (exit 2) unless the gate names the difference in `allow-condition-change`.

use std::collections::{BTreeMap, BTreeSet};

use crate::config::{Config, RunGate};
use crate::error::{Error, Result};
use crate::model::{CardField, EfficiencyReport, RunCard, RunGateResult, RunMetric};
use crate::stats::qps_at_recall::{qps_at, Reading};

use super::run_rules::{judge_rule, too_few_measurements, SideValues};

/// The section for these two cards (`written`: as the gate file or command line named them).
pub fn section(cfg: &Config, written: [&str; 2], cards: [&RunCard; 2]) -> Result<EfficiencyReport> {
    let conditions = side_by_side(&cards[0].conditions, &cards[1].conditions);
    let mut gates = Vec::new();
    let mut warnings = Vec::new();
    for g in &cfg.efficiency.gates {
        like_with_like(cfg, g, &conditions, cards)?;
        let values = gate_values(cfg, g, cards)?;
        let allowed: Vec<String> = conditions
            .iter()
            .filter(|c| c.changed && g.allow_condition_change.contains(&c.key))
            .map(|c| c.key.clone())
            .collect();
        for rule in &g.rules {
            warnings.extend(too_few_measurements(
                g,
                rule,
                &values,
                cfg.bootstrap.confidence,
            ));
            let mut r = judge_rule(g, rule, &values, cfg.bootstrap.confidence);
            r.allowed_changes = allowed.clone();
            gates.push(r);
        }
    }
    Ok(EfficiencyReport {
        baseline_card: written[0].to_string(),
        candidate_card: written[1].to_string(),
        model: side_by_side(&cards[0].model, &cards[1].model),
        conditions,
        metrics: metrics(cfg, cards),
        gates,
        warnings,
    })
}

/// Every key of either map, with both values and whether they differ.
fn side_by_side(b: &BTreeMap<String, String>, c: &BTreeMap<String, String>) -> Vec<CardField> {
    let keys: BTreeSet<&String> = b.keys().chain(c.keys()).collect();
    keys.into_iter()
        .map(|k| CardField {
            key: k.clone(),
            baseline: b.get(k).cloned(),
            candidate: c.get(k).cloned(),
            changed: b.get(k) != c.get(k),
        })
        .collect()
}

fn mean(x: &[f64]) -> Option<f64> {
    (!x.is_empty()).then(|| x.iter().sum::<f64>() / x.len() as f64)
}

/// Every run-level metric of either card: both means, the change, the direction (a gate's, else
/// known from the name).
fn metrics(cfg: &Config, cards: [&RunCard; 2]) -> Vec<RunMetric> {
    let names: BTreeSet<&String> = cards[0]
        .metrics
        .keys()
        .chain(cards[1].metrics.keys())
        .collect();
    names
        .into_iter()
        .map(|m| {
            let none: &[f64] = &[];
            let b = cards[0].metrics.get(m).map_or(none, Vec::as_slice);
            let c = cards[1].metrics.get(m).map_or(none, Vec::as_slice);
            let (mb, mc) = (mean(b), mean(c));
            let gate = cfg
                .efficiency
                .gates
                .iter()
                .find(|g| &g.metric == m && g.at.is_none());
            RunMetric {
                metric: m.clone(),
                baseline: mb,
                candidate: mc,
                baseline_n: b.len(),
                candidate_n: c.len(),
                change: mb.zip(mc).map(|(b, c)| c - b),
                relative_change: mb
                    .zip(mc)
                    .filter(|(b, _)| *b > 0.0)
                    .map(|(b, c)| c / b - 1.0),
                higher_is_better: gate
                    .map(|g| g.higher_is_better)
                    .or_else(|| crate::metric_names::run_level::higher_is_better(m)),
            }
        })
        .collect()
}

/// Refuses a gate whose cards were measured under different conditions, unless it allows each
/// difference; an allowed name that is no condition of either card is a typo, refused too.
/// `deterministic` says what the retriever is, not how it was measured: a change of it (a
/// pull request moving to an approximate index) is the change under review, never refused.
fn like_with_like(
    cfg: &Config,
    g: &RunGate,
    conditions: &[CardField],
    cards: [&RunCard; 2],
) -> Result<()> {
    for a in &g.allow_condition_change {
        if !conditions.iter().any(|c| &c.key == a) {
            let known: Vec<&str> = conditions.iter().map(|c| c.key.as_str()).collect();
            return Err(cfg.error_at(
                &g.allow_span,
                format!(
                    "[[gate]] #{} ({}): allow-condition-change: no condition {a:?} in either run card; conditions: {}",
                    g.index,
                    g.metric,
                    if known.is_empty() { "none".to_string() } else { known.join(", ") }
                ),
            ));
        }
    }
    let refused = |c: &&CardField| {
        c.changed
            && !g.allow_condition_change.contains(&c.key)
            && c.key != crate::load::run_card::DETERMINISTIC
    };
    let differ: Vec<String> = conditions
        .iter()
        .filter(refused)
        .map(|c| {
            let v = |x: &Option<String>| x.clone().unwrap_or_else(|| "(not given)".into());
            format!("{} {} → {}", c.key, v(&c.baseline), v(&c.candidate))
        })
        .collect();
    if differ.is_empty() {
        return Ok(());
    }
    let keys: Vec<String> = conditions
        .iter()
        .filter(refused)
        .map(|c| format!("{:?}", c.key))
        .collect();
    Err(cfg.error_at(
        &g.metric_span,
        format!(
            "[[gate]] #{} ({}): the run cards were measured under different conditions: {} ({} vs {}); compare like with like, or accept the change with allow-condition-change = [{}]",
            g.index,
            g.metric,
            differ.join(", "),
            cards[0].source,
            cards[1].source,
            keys.join(", ")
        ),
    ))
}

/// Each side's measurements of the gate's metric, or its QPS read off its curve at the target.
fn gate_values(cfg: &Config, g: &RunGate, cards: [&RunCard; 2]) -> Result<SideValues> {
    let Some((recall, target)) = &g.at else {
        let side = |c: &RunCard| {
            c.metrics.get(&g.metric).cloned().ok_or_else(|| {
                let have: Vec<&str> = c.metrics.keys().map(String::as_str).collect();
                let near = crate::metric_names::did_you_mean(&g.metric, have.iter().copied())
                    .map_or(String::new(), |n| format!(" (did you mean {n:?}?)"));
                cfg.error_at(
                    &g.metric_span,
                    format!(
                        "[[gate]] #{} ({}): {} has no metric {:?}{near}; its metrics: {}",
                        g.index,
                        g.metric,
                        c.source,
                        g.metric,
                        if have.is_empty() {
                            "none".to_string()
                        } else {
                            have.join(", ")
                        }
                    ),
                )
            })
        };
        return Ok(SideValues::Measured([side(cards[0])?, side(cards[1])?]));
    };
    let read = |c: &RunCard| -> Result<Reading> {
        let points: Vec<(f64, f64)> = c
            .qps_at_recall
            .iter()
            .filter_map(|p| Some((*p.get(recall)?, *p.get("qps")?)))
            .collect();
        if points.is_empty() {
            return Err(no_curve(cfg, g, c, recall));
        }
        Ok(qps_at(&points, *target))
    };
    Ok(SideValues::Curve {
        recall: recall.clone(),
        target: *target,
        readings: [read(cards[0])?, read(cards[1])?],
    })
}

fn no_curve(cfg: &Config, g: &RunGate, c: &RunCard, recall: &str) -> Error {
    cfg.error_at(
        &g.metric_span,
        format!(
            "[[gate]] #{} (qps at {recall}): {} has no curves.qps_at_recall points with {recall:?}; give the sweep as [{{\"{recall}\": 0.95, \"qps\": 1200}}, …]",
            g.index, c.source
        ),
    )
}

/// The run-level gates judged on every attempt of the same candidate: each earlier attempt's
/// card (`earlier`, oldest first) against this baseline card, and each rule decided by the
/// worst attempt: the oldest whose card fails it, else this attempt's. A run card is one
/// machine's measurements at one time, and attempts may run on other machines, so the cards are
/// not averaged into one sample; a rule holds only where every attempt's card holds it.
/// `folded`: the summarised attempts (first, last) and the rules that failed in them (their
/// cards are not kept: such a rule fails). Returns the warnings (a card that could not be
/// judged) and the attempts each rule read, by gate.
pub fn worst_of(
    cfg: &Config,
    (written, baseline): ([&str; 2], &RunCard),
    own: &mut EfficiencyReport,
    earlier: &[(u32, &RunCard)],
    folded: Option<((u32, u32), &[String])>,
) -> (Vec<String>, BTreeMap<usize, usize>) {
    let mut warnings = Vec::new();
    let mut judged: Vec<(u32, EfficiencyReport)> = Vec::new();
    for (attempt, card) in earlier {
        match section(cfg, written, [baseline, card]) {
            Ok(e) if e.gates.len() == own.gates.len() => judged.push((*attempt, e)),
            Ok(_) => {}
            Err(e) => warnings.push(format!(
                "the run card of attempt {attempt} is not judged with this one: {e}"
            )),
        }
    }
    let mut reads = BTreeMap::new();
    let attempts = 1 + judged.len();
    for (i, r) in own.gates.iter_mut().enumerate() {
        let words = crate::model::looks::card_rule(r);
        let worse = judged
            .iter()
            .find(|(_, e)| e.gates[i].fails_build)
            .filter(|_| !r.fails_build);
        if let Some((attempt, e)) = worse {
            let mut w = e.gates[i].clone();
            w.detail = format!(
                "attempt {attempt}'s run card, the worst of {attempts} attempts: {}",
                w.detail
            );
            *r = w;
        }
        let mut n = attempts;
        if let Some(((first, last), failed)) = folded {
            n += (last + 1).saturating_sub(first) as usize;
            if failed.contains(&words) && !r.fails_build {
                r.passed = false;
                r.fails_build = true;
                r.status = crate::model::RunGateStatus::Fail;
                r.detail = format!(
                    "failed in the summarised attempts {first}–{last} (their run cards are \
                     folded; the worst attempt decides): {}",
                    r.detail
                );
            }
        }
        reads.insert(r.gate, n);
    }
    (warnings, reads)
}

/// Whether a run-level result fails the build, for the verdict.
pub fn fails(results: &[RunGateResult]) -> bool {
    results.iter().any(|r| r.fails_build)
}

/// The run-level gates in the verdict and the headline: a failure fails the verdict; the
/// headline names the first one when the per-query gates passed, and counts them otherwise.
pub fn add_to_verdict(report: &mut crate::model::Report, e: &EfficiencyReport) {
    use crate::model::Verdict;
    report.warnings.extend(e.warnings.iter().cloned());
    if e.gates.is_empty() {
        return;
    }
    let n = e.gates.len();
    let failed: Vec<&RunGateResult> = e.gates.iter().filter(|r| r.fails_build).collect();
    let checks = crate::numbers::count(n, "run-level check", "run-level checks");
    let quality_gates = !report.gates.is_empty();
    report.headline = match (failed.first(), report.verdict) {
        (None, Verdict::Pass) if !quality_gates => format!("PASS: {n} of {checks} passed"),
        // Otherwise say that the run-level ones passed, so the counts before it ("2 of 6 checks
        // failed (3 gates)") are not read as all the gates.
        (None, _) => format!("{}; {n} of {checks} passed", report.headline),
        (Some(first), Verdict::Pass | Verdict::Untouched | Verdict::Inconclusive) => format!(
            "FAIL: run-level gate #{} {}{} {}: {} ({} of {checks} failed)",
            first.gate,
            crate::safe_text::shown(&first.metric),
            first.at.as_ref().map_or(String::new(), |a| format!(
                " at {} = {}",
                a.metric, a.target
            )),
            first.rule,
            first.detail,
            failed.len()
        ),
        (Some(_), Verdict::Fail) => format!(
            "{}; and {} of {checks} failed",
            report.headline,
            failed.len()
        ),
    };
    if !failed.is_empty() {
        report.verdict = Verdict::Fail;
    }
}
