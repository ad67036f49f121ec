//! The probe's say in the verdict (`[probe]`), after the labelled gates were judged:
//!
//! - no top k moved on the N probe queries, and no labelled query moved: **untouched**, with
//!   the probe's resolution 1 − (α/2)^(1/N), however few the labelled queries;
//! - some moved: a `max-drop` / `max-change` check on `all` passes when the probe's worst-case
//!   bound of the metric's mean change (at α/2) stays within its margin, unless the labelled
//!   set proves a drop beyond the margin (its interval wholly past it);
//! - a check whose labelled queries did not move at all while probe queries did (the change
//!   touched queries the labelled set is too small to see) fails when the worst case exceeds
//!   the margin: the labelled set has no evidence on the change, and the moved queries are the
//!   batch to label; a rule the probe does not bound (`min-mean`, …) reads it as a pass;
//! - otherwise the labelled analysis decides, as without a probe.
//!
//! The labelled interval and the probe bound each hold at α/2, so the tighter of the two
//! decides at α. `decided` says, in the header's words, which evidence decided.

use crate::model::probe::ProbeReport;
use crate::model::{GateResult, GateStatus, Label, Report};
use crate::numbers::{count, percent, plain};

/// The probe's worst-case bound for `g` (None when the probe does not bound its rule or metric).
fn bound_for(p: &ProbeReport, g: &GateResult) -> Option<f64> {
    if g.slice != "all" {
        return None;
    }
    let b = p.bounds.iter().find(|b| b.metric == g.metric)?;
    match g.rule.as_str() {
        "max-drop" => Some(b.loss_bound),
        "max-change" => Some(b.loss_bound.max(b.gain_bound)),
        _ => None,
    }
}

fn cut(p: &ProbeReport) -> String {
    p.cutoff.map_or("ranking".into(), |k| format!("top {k}"))
}

/// Applies the probe to the judged gates of `r` and says which evidence decided; the caller
/// recomputes the verdict and headline from the gates.
pub fn apply(r: &mut Report, p: &mut ProbeReport) {
    let seen = format!(
        "{} of {} moved their {}",
        p.changed,
        count(p.queries, "unlabelled query", "unlabelled queries"),
        cut(p)
    );
    if p.changed == 0 {
        let untouched = r.gates.iter().any(|g| g.status == GateStatus::Untouched)
            && r.gates
                .iter()
                .all(|g| g.status == GateStatus::Untouched || g.passed);
        p.decided = if untouched {
            format!(
                "untouched by the probe: no {} moved on {}; a change touching fewer than {} of queries can hide (the probe's resolution)",
                cut(p),
                count(p.queries, "unlabelled query", "unlabelled queries"),
                percent(p.resolution)
            )
        } else {
            format!(
                "no {} moved on {} (resolution {}), but labelled queries moved: the labelled set decided",
                cut(p),
                count(p.queries, "unlabelled query", "unlabelled queries"),
                percent(p.resolution)
            )
        };
        return;
    }
    let mut by_probe: Vec<String> = Vec::new();
    let mut unseen: Vec<String> = Vec::new();
    for g in r.gates.iter_mut() {
        let bound = bound_for(p, g);
        if g.status == GateStatus::Untouched {
            if let Some(b) = bound.filter(|b| *b > g.threshold.abs()) {
                g.status = GateStatus::Fail;
                g.passed = false;
                g.fails_build = true;
                g.decided_by = "probe: moved where the labelled set saw nothing".into();
                g.detail.push_str(&format!(
                    "; no labelled query moved, but {seen}, whose worst case of the mean change reaches {} (margin {}): the labelled set cannot see this change; label the moved probe queries (--probe-batch)",
                    plain(b),
                    plain(g.threshold.abs())
                ));
                unseen.push(format!("{} ≤ {}", g.metric, plain(b)));
                continue;
            }
            g.status = GateStatus::Pass;
            g.passed = true;
            g.decided_by = "labelled set: no labelled query moved (the probe saw moves)".into();
            g.detail.push_str(&format!(
                "; no labelled query moved, but {seen}: a pass, not untouched"
            ));
        }
        let Some(b) = bound else { continue };
        let proven_worse = g.label == Label::Worse;
        if b <= g.threshold.abs() && !proven_worse && g.status != GateStatus::Pass {
            g.status = GateStatus::Pass;
            g.passed = true;
            g.fails_build = false;
            g.decided_by = "probe worst case (max-drop / max-change)".into();
            g.detail.push_str(&format!(
                "; the probe's worst case of the mean change is ≤ {} (margin {}): passed on the probe",
                plain(b),
                plain(g.threshold.abs())
            ));
            by_probe.push(format!("{} ≤ {}", g.metric, plain(b)));
        }
    }
    let worst = p
        .bounds
        .iter()
        .map(|b| format!("{} ≤ {}", b.metric, plain(b.loss_bound)))
        .collect::<Vec<_>>()
        .join(", ");
    p.decided = if !unseen.is_empty() {
        format!(
            "{seen} (share ≤ {}) where no labelled query moved; worst-case mean loss {worst}: beyond the margin, the probe decided (fail: label the moved queries)",
            percent(p.changed_share_bound)
        )
    } else if by_probe.is_empty() {
        format!(
            "{seen} (share ≤ {}); worst-case mean loss {worst}: beyond the margin, the labelled set decided",
            percent(p.changed_share_bound)
        )
    } else {
        format!(
            "{seen} (share ≤ {}); worst-case mean loss {worst}: within the margin, the probe decided ({})",
            percent(p.changed_share_bound),
            by_probe.join(", ")
        )
    };
}
