//! `[bootstrap] weights = "keyed"`: what the keyed path (the one `rag-gate partial` and `merge`
//! share with `check`) can compute exactly from shard summaries, and the refusal of the rest,
//! each named with the reason it does not merge.

use super::{Config, Guarantee, InputKind, Method, Missing, Weights};
use crate::error::Result;
use crate::stats::statistic::Statistic;

/// Refuses, at the gate file's `weights` key, what the keyed path cannot merge exactly.
pub fn refuse_unmergeable(cfg: &Config) -> Result<()> {
    if cfg.bootstrap.weights != Weights::Keyed {
        return Ok(());
    }
    match reason(cfg) {
        None => Ok(()),
        Some(why) => Err(cfg.error_at(
            &cfg.bootstrap.weights_span,
            format!("[bootstrap] weights = \"keyed\": {why}"),
        )),
    }
}

/// The first thing the keyed path cannot do, in words.
fn reason(cfg: &Config) -> Option<String> {
    if cfg.bootstrap.method != Method::Percentile {
        return Some(format!(
            "method = \"{}\" does not merge (bootstrap-t's tilted bound and BCa's jackknife read every unit at once, the expanded percentile its small-sample levels); write method = \"percentile\"",
            cfg.bootstrap.method.as_str()
        ));
    }
    if let Some(g) = cfg.gates.iter().find(|g| g.statistic != Statistic::Mean) {
        return Some(format!(
            "gate #{} on {}: statistic = \"{}\" is a quantile, which needs every delta at once and does not merge; keyed weights gate means",
            g.index,
            g.metric,
            g.statistic.as_str()
        ));
    }
    if let Some(g) = cfg.gates.iter().find(|g| g.max_drift.is_some()) {
        return Some(format!(
            "gate #{} on {}: max-drift reads the anchor's per-query values, which shard summaries do not carry",
            g.index, g.metric
        ));
    }
    if let Some(g) = cfg
        .gates
        .iter()
        .find(|g| !crate::metric_names::is_bounded(&crate::metric_names::canonical(&g.metric)))
    {
        return Some(format!(
            "gate #{} on {}: not a metric bounded to [0, 1]; keyed sums round each value once to a grid of 2^-32 that only a known range makes exact",
            g.index, g.metric
        ));
    }
    feature_reason(cfg)
}

/// The sections and inputs the keyed path does not carry.
fn feature_reason(cfg: &Config) -> Option<String> {
    let i = &cfg.inputs;
    let refused = [
        (cfg.verdict.guarantee == Guarantee::DistributionFree, "guarantee = \"distribution-free\" (its Dirichlet bound reads every unit at once)"),
        (!i.baseline_more.is_empty() || !i.candidate_more.is_empty(), "replicate runs (the crossed interval reads every run's values at once)"),
        (i.missing == Missing::Intersect, "missing = \"intersect\" (the dropped queries' examples do not merge; pair each shard strictly)"),
        (matches!(i.baseline.kind, InputKind::Run) || matches!(i.candidate.kind, InputKind::Run), "runs as inputs (give per-query metric files: the judged bounds read every ranking)"),
        (cfg.judge.is_some(), "[judge]"),
        (cfg.probe.is_some(), "[probe]"),
        (cfg.anchor.is_some(), "[anchor]"),
        (cfg.noise.file.is_some() || cfg.noise.quarantine.is_some(), "[noise]"),
        (cfg.efficiency.cards.is_some(), "[efficiency]"),
    ];
    refused
        .into_iter()
        .find(|(on, _)| *on)
        .map(|(_, what)| format!("{what} is not supported with keyed weights"))
}
