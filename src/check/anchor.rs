//! `[anchor]` in `check`: the candidate and main (the baseline) each paired with the approved
//! anchor by the same load → pair → resample → verdict stages as the baseline (a second and third
//! analysis of the same gate file, on the `max-drift` gates as `max-drop` rules), main's ledger
//! read beside the baseline, and each gate × slice judged by `verdict::drift`.

use crate::config::{AnchorSettings, BaselineSettings, Config, InputSpec, ReportSettings};
use crate::error::{Error, Result};
use crate::load::ledger::{self, LedgerRead};
use crate::model::ledger::{AnchorReport, Ledger, LedgerStatus, Spend};
use crate::model::{Comparison, GateResult, Report};

/// The gate file narrowed to its `max-drift` gates, each a `max-drop` with the budget as its
/// margin, comparing `side` (and its replicates) against the anchor.
pub fn drift_config(
    cfg: &Config,
    anchor: &AnchorSettings,
    side: &InputSpec,
    more: &[InputSpec],
) -> Config {
    let mut d = cfg.clone();
    d.inputs.baseline = anchor.file.clone();
    d.inputs.baseline_more = Vec::new();
    d.inputs.candidate = side.clone();
    d.inputs.candidate_more = more.to_vec();
    d.gates = cfg
        .gates
        .iter()
        .filter_map(|g| {
            g.max_drift.map(|b| crate::config::Gate {
                min_mean: None,
                max_mean: None,
                max_drop: Some(b),
                max_change: None,
                fail_if_significant_drop: None,
                max_loss_rate: None,
                max_drift: None,
                ..g.clone()
            })
        })
        .collect();
    let mut metrics: Vec<String> = d.gates.iter().map(|g| g.metric.clone()).collect();
    metrics.sort();
    metrics.dedup();
    d.report = ReportSettings {
        metrics: Some(metrics.into_iter().map(|m| (m, None)).collect()),
        ..cfg.report.clone()
    };
    d.efficiency = Default::default();
    d.baseline = BaselineSettings {
        today: cfg.baseline.today,
        ..Default::default()
    };
    d.anchor = None;
    d.probe = None;
    d.warnings = Vec::new();
    d
}

/// The anchor analysis of `side` against the anchor, `pooled` (earlier attempts' runs of the
/// candidate, the summarised attempts' stand-ins first, and how many those are) among its
/// replicates; an error says it was the anchor's.
fn against_anchor(
    cfg: &Config,
    a: &AnchorSettings,
    (side, more): (&InputSpec, &[InputSpec]),
    pooled: (&[crate::load::MetricTable], usize),
) -> Result<Report> {
    super::analyze_pooled_runs(&drift_config(cfg, a, side, more), pooled).map_err(|e| match e {
        Error::Usage(m) => Error::Usage(format!(
            "[anchor] file = {}: {}",
            crate::safe_text::quoted(&a.file.written),
            m.replace(": baseline ", ": anchor ")
        )),
        other => other,
    })
}

/// The anchor must carry its protocol fingerprint: a drift is only a drift when both sides were
/// measured the same way.
fn require_sidecar(cfg: &Config, a: &AnchorSettings) -> Result<()> {
    if crate::protocol::sidecar_path(&a.file.path).is_file() || !a.file.path.exists() {
        return Ok(());
    }
    Err(cfg.error_at(
        &a.file.span,
        format!(
            "[anchor] file: {} has no protocol fingerprint ({}.protocol.json): an anchor must say how it was measured, so a candidate measured another way is refused; write it with `rag-gate anchor write`, which copies the fingerprint",
            crate::safe_text::shown(&a.file.shown()),
            crate::safe_text::shown(&a.file.shown())
        ),
    ))
}

/// main's ledger beside the baseline (or at `[anchor] ledger`), checked; a warning when it is
/// not trusted.
fn ledger(
    cfg: &Config,
    a: &AnchorSettings,
    anchor_sha: &str,
) -> (Option<Ledger>, LedgerStatus, Option<String>) {
    let base = &cfg.inputs.baseline;
    let path = a
        .ledger
        .as_ref()
        .map(|l| l.path.clone())
        .unwrap_or_else(|| ledger::beside(&base.path, ".ledger.json"));
    let results = match base.kind {
        crate::config::InputKind::Metrics { .. } => {
            ledger::file_sha256(&base.path, &base.shown()).ok()
        }
        crate::config::InputKind::Run => None,
    };
    match ledger::read_ledger(
        &path,
        &path.display().to_string(),
        anchor_sha,
        results.as_deref(),
    ) {
        LedgerRead::Verified(l) => (Some(l), LedgerStatus::Verified, None),
        LedgerRead::Absent => (None, LedgerStatus::Absent, None),
        LedgerRead::Stale(_) => (None, LedgerStatus::Absent, None),
        LedgerRead::Ignored(w) => (None, LedgerStatus::Ignored, Some(w)),
    }
}

/// The merges that made main worse on `c`'s metric, statistic and slice (deltas as measured).
fn spent_by(ledger: Option<&Ledger>, c: &Comparison) -> Vec<Spend> {
    let Some(l) = ledger else { return Vec::new() };
    let sign = if c.higher_is_better { 1.0 } else { -1.0 };
    l.entries
        .iter()
        .filter_map(|e| {
            let d = e.deltas.iter().find(|d| {
                d.metric == c.metric && d.statistic == c.statistic && d.slice == c.slice
            })?;
            let delta = d.vs_parent?.estimate;
            (sign * delta < 0.0).then(|| Spend {
                commit: e.commit.clone(),
                pr: e.pr,
                delta,
            })
        })
        .collect()
}

fn find<'a>(comparisons: &'a [Comparison], r: &GateResult) -> Option<&'a Comparison> {
    comparisons.iter().find(|c| r.is_on(c))
}

/// Each drift gate × slice judged from the anchor analyses of the candidate and of main (`two`),
/// its result and warning added to `report`; the drift rows.
fn drift_rows(
    cfg: &Config,
    report: &mut Report,
    two: [&Report; 2],
    ledger: Option<&Ledger>,
    name: &str,
) -> Vec<crate::model::ledger::DriftRow> {
    let [cand, main] = two;
    let mut drift = Vec::new();
    for r in &cand.gates {
        let main_result = main
            .gates
            .iter()
            .find(|m| m.gate == r.gate && m.slice == r.slice && m.rule == r.rule);
        let (Some(c), Some(main_result)) = (find(&cand.comparisons, r), main_result) else {
            continue;
        };
        let (Some(m), Some(change)) = (
            find(&main.comparisons, main_result),
            find(&report.comparisons, r),
        ) else {
            continue;
        };
        let budget = cfg
            .gates
            .iter()
            .find(|g| g.index == r.gate)
            .and_then(|g| g.max_drift)
            .unwrap_or(0.0);
        let pairs = crate::verdict::drift::Pairs {
            result: r,
            candidate: c,
            main_result: Some(main_result),
            main: m,
            change,
            guarantee: cfg.verdict.guarantee,
            confidence: cfg.bootstrap.confidence,
        };
        let (result, row, warning) =
            crate::verdict::drift::judge(&pairs, budget, name, spent_by(ledger, c));
        report.gates.push(result);
        report.warnings.extend(warning);
        drift.push(row);
    }
    drift
}

/// Judges the `max-drift` gates of `cfg` and adds them, the anchor section and their warnings
/// to `report` (whose comparisons are the candidate against the baseline). `pooled` are the
/// earlier attempts' runs pooled into the candidate (the summarised attempts' stand-ins first,
/// and how many those are): the drift test reads them too, so every rule judges the same
/// evidence.
pub fn judge_anchor(
    cfg: &Config,
    report: &mut Report,
    pooled: (&[crate::load::MetricTable], usize),
) -> Result<()> {
    let Some(a) = &cfg.anchor else { return Ok(()) };
    require_sidecar(cfg, a)?;
    let anchor_sha = ledger::file_sha256(&a.file.path, &a.file.shown())
        .map_err(|e| cfg.error_at(&a.file.span, format!("[anchor] file: {e}")))?;
    let record = ledger::anchor_record(&a.file.path, &a.file.shown())?;
    let name = a
        .name
        .clone()
        .or_else(|| record.as_ref().map(|r| r.name.clone()))
        .unwrap_or_else(|| {
            a.file
                .path
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned()
        });
    let i = &cfg.inputs;
    let cand = against_anchor(cfg, a, (&i.candidate, &i.candidate_more), pooled)?;
    let main = against_anchor(cfg, a, (&i.baseline, &i.baseline_more), (&[], 0))?;
    let (ledger, status, ledger_warning) = ledger(cfg, a, &anchor_sha);
    report.warnings.extend(ledger_warning);
    let drift = drift_rows(cfg, report, [&cand, &main], ledger.as_ref(), &name);
    for w in cand.warnings.iter().filter(|w| w.starts_with("gate #")) {
        report.warnings.push(format!(
            "against anchor {}: {w}",
            crate::safe_text::shown(&name)
        ));
    }
    report.verdict = crate::verdict::verdict(&report.gates);
    report.headline = crate::verdict::headline_at(
        &report.gates,
        &report.comparisons,
        1.0 - cfg.bootstrap.confidence,
    );
    report.anchor = Some(AnchorReport {
        name,
        file: a.file.written.clone(),
        sha256: anchor_sha,
        commit: record.and_then(|r| r.commit),
        protocol_hash: cand.protocol.and_then(|p| p.hash),
        ledger: status,
        ledger_entries: ledger.map_or(0, |l| l.entries.len()),
        drift,
    });
    Ok(())
}
