//! `rag-gate plan`: how many queries (or groups) each gated metric × slice needs for its rule
//! to work at a chosen power. It reads the gate file's inputs as `check` does (load → pair →
//! slices) and stops before resampling: the variance of today's paired deltas is the pilot,
//! and `stats::expected_power` turns it into units whose power holds on average over the
//! pilot's own uncertainty, with the gate's interval's width at that size measured on sets
//! drawn from the pilot (`width`), and an interval on the units from the variance's.

mod measure;
mod predict;
pub mod width;

use std::collections::BTreeSet;

use crate::cli::PlanArgs;
use crate::config::{Config, Gate, Statistic, Unit};
use crate::error::{Error, Result};
use crate::model::plan::{PlanReport, PlanResolution, PlanRow};
use crate::outcome::Outcome;
use measure::Measured;

/// `rag-gate plan`: the gate file → the plan, rendered (exit 0; 2 on bad input).
pub fn run(args: &PlanArgs) -> Result<Outcome> {
    if !(args.power > 0.5 && args.power < 1.0) {
        return Err(Error::Usage(format!(
            "--power {}: expected a chance strictly between 0.5 and 1, e.g. 0.8",
            args.power
        )));
    }
    if let Some(d) = args.drop.filter(|d| !(d.is_finite() && *d > 0.0)) {
        return Err(Error::Usage(format!(
            "--drop {d}: expected a drop greater than 0 on the metric's scale, e.g. 0.02"
        )));
    }
    let cfg = crate::config::load(&args.gate_file)?;
    let report = plan(&cfg, args)?;
    let stdout = crate::report::plan::render(&report, args.format);
    Ok(Outcome {
        stdout,
        ..Outcome::default()
    })
}

/// Every gated metric × slice × rule with a size to plan.
fn plan(cfg: &Config, args: &PlanArgs) -> Result<PlanReport> {
    let prepared = crate::check::prepare(cfg)?;
    let known: BTreeSet<&str> = prepared.slices.iter().map(|s| s.name.as_str()).collect();
    let mut targets: Vec<(&Gate, String)> = Vec::new();
    for gate in &cfg.gates {
        for slice in crate::verdict::gate_slices(cfg, gate, &known)? {
            targets.push((gate, slice));
        }
    }
    let family: BTreeSet<(&str, &str, &str)> = targets
        .iter()
        .map(|(g, s)| (g.metric.as_str(), g.statistic.as_str(), s.as_str()))
        .collect();
    let mut report = PlanReport {
        schema: "rag-gate-plan/1",
        gate_file: args.gate_file.display().to_string(),
        source: "the paired deltas of the gate file's baseline and candidate (a pilot: a \
                 change that moves more queries varies more)"
            .into(),
        unit: match cfg.bootstrap.unit {
            Unit::Query => "query".into(),
            Unit::Group => "group".into(),
        },
        power: args.power,
        confidence: cfg.bootstrap.confidence,
        family: family.len(),
        rows: Vec::new(),
        resolutions: Vec::new(),
        stream: None,
        not_planned: Vec::new(),
        warnings: Vec::new(),
    };
    for (gate, slice) in &targets {
        let Some(s) = prepared.slices.iter().find(|s| &s.name == slice) else {
            continue;
        };
        if gate.statistic != Statistic::Mean {
            report.not_planned.push(format!(
                "gate #{} {} {} on {slice}: plan sizes the mean; a median or p95 is judged from {} on",
                gate.index,
                gate.metric,
                gate.statistic.as_str(),
                crate::numbers::count(
                    crate::verdict::quantile_fewest(gate.statistic.as_str()).unwrap_or(0),
                    "query",
                    "queries"
                )
            ));
            continue;
        }
        let m = measure::measure(cfg, &prepared.paired, s, gate)?;
        report.resolutions.extend(resolution(gate, &m));
        for (rule, margin) in rules(gate) {
            report
                .rows
                .push(row(cfg, args, gate, (rule, margin), &m, family.len()));
        }
        report.not_planned.extend(absolute_rules(gate, slice));
    }
    report.warnings = warnings(&report.rows);
    if cfg.verdict.guarantee == crate::config::Guarantee::DistributionFree {
        too_small(cfg, &mut report);
    }
    report.stream = stream(cfg, &prepared, &targets, args.pull_requests);
    Ok(report)
}

/// The pull-request stream on the gate file's own pair (`predict`), when some gate has a
/// `max-drop` and `pull_requests` is above 0.
fn stream(
    cfg: &Config,
    prepared: &crate::check::Prepared,
    targets: &[(&Gate, String)],
    pull_requests: usize,
) -> Option<crate::model::plan::PlanStream> {
    if pull_requests == 0 || !cfg.gates.iter().any(|g| g.max_drop.is_some()) {
        return None;
    }
    let metrics: BTreeSet<&str> = targets.iter().map(|(g, _)| g.metric.as_str()).collect();
    let metrics: Vec<String> = metrics.into_iter().map(String::from).collect();
    let gated: BTreeSet<&str> = targets.iter().map(|(_, s)| s.as_str()).collect();
    let slices: Vec<crate::slices::Slice> = prepared
        .slices
        .iter()
        .filter(|s| gated.contains(s.name.as_str()))
        .cloned()
        .collect();
    Some(predict::stream(
        cfg,
        &prepared.paired,
        &slices,
        &metrics,
        pull_requests,
    ))
}

/// The resolution of `gate` on the measured slice, for a `max-drop` or `max-change`.
fn resolution(gate: &Gate, m: &Measured) -> Option<PlanResolution> {
    let margin = [gate.max_drop, gate.max_change]
        .into_iter()
        .flatten()
        .min_by(f64::total_cmp)?;
    let units = m.groups.unwrap_or(m.queries);
    let share = crate::stats::ties::unseen_share(units, crate::config::DEFAULT_CONFIDENCE);
    let most = crate::metric_names::is_bounded(&crate::metric_names::canonical(&gate.metric))
        .then_some(1.0);
    Some(PlanResolution {
        gate: gate.index,
        metric: gate.metric.clone(),
        slice: m.slice.clone(),
        units,
        share,
        margin,
        worst_cost: most.map(|r| share * r),
        unseen_at_margin: most.and_then(|r| predict::unseen_at_margin(units, margin, r)),
    })
}

/// The rules of `gate` that a size decides.
fn rules(gate: &Gate) -> Vec<(&'static str, f64)> {
    [
        ("max-drop", gate.max_drop),
        ("max-change", gate.max_change),
        ("fail-if-significant-drop", gate.fail_if_significant_drop),
    ]
    .into_iter()
    .filter_map(|(r, m)| Some((r, m?)))
    .collect()
}

/// The rules of `gate` that are facts, not estimates: no size to plan.
fn absolute_rules(gate: &Gate, slice: &str) -> Vec<String> {
    [
        ("min-mean", gate.min_mean.is_some()),
        ("max-mean", gate.max_mean.is_some()),
        ("max-loss-rate", gate.max_loss_rate.is_some()),
        ("max-drift", gate.max_drift.is_some()),
    ]
    .into_iter()
    .filter(|(_, on)| *on)
    .map(|(rule, _)| {
        format!(
            "gate #{} {} on {slice}, {rule}: no size to plan (a bar or a share, not a test of the delta)",
            gate.index, gate.metric
        )
    })
    .collect()
}

/// One row: what `rule` at `margin` needs on the measured comparison.
fn row(
    cfg: &Config,
    args: &PlanArgs,
    gate: &Gate,
    (rule, margin): (&str, f64),
    m: &Measured,
    family: usize,
) -> PlanRow {
    let drop = (rule == "fail-if-significant-drop").then(|| {
        args.drop.or(if margin > 0.0 {
            Some(2.0 * margin)
        } else {
            gate.max_drop.filter(|&d| d > 0.0)
        })
    });
    let need = measure::needed(cfg, args.power, (rule, margin, drop.flatten()), m, family);
    let units_now = m.groups.unwrap_or(m.queries);
    PlanRow {
        gate: gate.index,
        metric: gate.metric.clone(),
        slice: m.slice.clone(),
        rule: rule.into(),
        margin,
        drop: drop.flatten(),
        queries: m.queries,
        groups: m.groups,
        moved: m.moved,
        sd: m.sd_query,
        se: m.se,
        design_effect: m.design_effect,
        icc: m.icc,
        discordant: m.discordant,
        detectable: need.detectable,
        p_floor: crate::stats::sample_size::sign_flip_floor(m.moved),
        needed: need.units,
        needed_interval: need.interval,
        needed_queries: need
            .units
            .and_then(|u| m.groups.map(|g| queries_for(u, m.queries, g))),
        moved_needed: need.moved_needed,
        discordant_needed: need.discordant_needed,
        enough: need.units.is_some_and(|u| u <= units_now),
        notes: need.notes,
    }
}

/// The queries `groups` groups bring at today's mean group size.
fn queries_for(groups: usize, queries: usize, today: usize) -> usize {
    (groups as f64 * queries as f64 / today.max(1) as f64).ceil() as usize
}

/// Under `guarantee = "distribution-free"`: where the set is too small for a gate's margin (its
/// bound at zero moved, p* × the worst loss, beyond the margin), a warning in the user's words
/// with the units the margin needs, and those units as a floor on the gate's delta rows.
fn too_small(cfg: &Config, report: &mut PlanReport) {
    let conf = cfg.bootstrap.confidence;
    let unit = report.unit.clone();
    let (one, many) = if unit == "group" {
        ("group", "groups")
    } else {
        ("query", "queries")
    };
    for res in &report.resolutions {
        let Some(cost) = res.worst_cost.filter(|&w| w > res.margin) else {
            continue;
        };
        let loss = cost / res.share.max(1e-300);
        let Some(k) = crate::verdict::resolution::units_closing(res.margin, loss, conf) else {
            continue;
        };
        report.warnings.push(format!(
            "gate #{} {} on {}: guarantee = \"distribution-free\" needs {} for a margin of {} (its bound stays {} below the mean even when nothing moved on these {}); below that a pull request that changes nothing fails, so on this set use guarantee = \"regular\" with its stated resolution, or widen the margin to {}",
            res.gate,
            crate::safe_text::shown(&res.metric),
            crate::safe_text::shown(&res.slice),
            crate::numbers::count(k, one, many),
            crate::numbers::plain(res.margin),
            crate::numbers::plain(cost),
            crate::numbers::count(res.units, one, many),
            crate::numbers::plain(cost),
        ));
        for row in report.rows.iter_mut().filter(|r| {
            r.gate == res.gate
                && r.slice == res.slice
                && matches!(r.rule.as_str(), "max-drop" | "max-change")
        }) {
            if let Some(n) = row.needed.filter(|&n| n < k) {
                row.notes.push(format!(
                    "guarantee = \"distribution-free\" sets the size: {} for an unchanged pull request to pass at this margin (the power answer is {n})",
                    crate::numbers::count(k, one, many)
                ));
                row.needed = Some(k);
                row.enough = k <= res.units;
            }
        }
    }
}

/// The report's warnings: rows planned from a handful of moved units.
fn warnings(rows: &[PlanRow]) -> Vec<String> {
    let mut seen = BTreeSet::new();
    rows.iter()
        .filter(|r| r.moved < measure::FEW_MOVED && r.needed.is_some() && r.moved > 0)
        .filter(|r| seen.insert((r.metric.clone(), r.slice.clone())))
        .map(|r| {
            format!(
                "{} on {}: planned from only {} that moved: the variance rests on them, so the needed size is rough (see its interval); measure a larger pilot or an A/A run before trusting it, and fix the size in advance (adding queries until the gate passes biases it)",
                crate::safe_text::shown(&r.metric),
                crate::safe_text::shown(&r.slice),
                crate::numbers::count(r.moved, "unit", "units")
            )
        })
        .collect()
}
