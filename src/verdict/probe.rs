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

/// What the probe did to one gate result.
enum Said {
    /// Nothing: the labelled analysis stands.
    Nothing,
    /// Passed on the probe's worst case (the bound).
    Passed(f64),
    /// Failed: probe queries moved where no labelled query did, beyond the margin.
    Unseen(f64),
}

/// The line when no probe query moved.
fn still_line(r: &Report, p: &ProbeReport) -> String {
    let untouched = r.gates.iter().any(|g| g.status == GateStatus::Untouched)
        && r.gates
            .iter()
            .all(|g| g.status == GateStatus::Untouched || g.passed);
    let n = count(p.queries, "unlabelled query", "unlabelled queries");
    if untouched {
        format!(
            "untouched by the probe: no {} moved on {n}; a change touching fewer than {} of queries can hide (the probe's resolution)",
            cut(p),
            percent(p.resolution)
        )
    } else {
        format!(
            "no {} moved on {n} (resolution {}), but labelled queries moved: the labelled set decided",
            cut(p),
            percent(p.resolution)
        )
    }
}

/// One gate result under a probe that saw `seen` (some queries moved).
fn judge_gate(g: &mut GateResult, bound: Option<f64>, seen: &str) -> Said {
    let margin = g.threshold.abs();
    let untouched = g.status == GateStatus::Untouched;
    match bound {
        Some(b) if untouched && b > margin => {
            g.status = GateStatus::Fail;
            g.passed = false;
            g.fails_build = true;
            g.decided_by = "probe: moved where the labelled set saw nothing".into();
            g.detail.push_str(&format!(
                "; no labelled query moved, but {seen}, whose worst case of the mean change reaches {} (margin {}): the labelled set cannot see this change; label the moved probe queries (--probe-batch)",
                plain(b),
                plain(margin)
            ));
            Said::Unseen(b)
        }
        Some(b) if b <= margin && g.label != Label::Worse && g.status != GateStatus::Pass => {
            g.status = GateStatus::Pass;
            g.passed = true;
            g.fails_build = false;
            g.decided_by = "probe worst case (max-drop / max-change)".into();
            g.detail.push_str(&format!(
                "; the probe's worst case of the mean change is ≤ {} (margin {}): passed on the probe",
                plain(b),
                plain(margin)
            ));
            Said::Passed(b)
        }
        _ if untouched => {
            g.status = GateStatus::Pass;
            g.passed = true;
            g.decided_by = "labelled set: no labelled query moved (the probe saw moves)".into();
            g.detail.push_str(&format!(
                "; no labelled query moved, but {seen}: a pass, not untouched"
            ));
            Said::Nothing
        }
        _ => Said::Nothing,
    }
}

/// Applies the probe to the judged gates of `r` and says which evidence decided; the caller
/// recomputes the verdict and headline from the gates.
pub fn apply(r: &mut Report, p: &mut ProbeReport) {
    if p.changed == 0 {
        p.decided = still_line(r, p);
        return;
    }
    let seen = format!(
        "{} of {} moved their {}",
        p.changed,
        count(p.queries, "unlabelled query", "unlabelled queries"),
        cut(p)
    );
    let (mut by_probe, mut unseen) = (Vec::new(), Vec::new());
    for g in r.gates.iter_mut() {
        let bound = bound_for(p, g);
        match judge_gate(g, bound, &seen) {
            Said::Passed(b) => by_probe.push(format!("{} ≤ {}", g.metric, plain(b))),
            Said::Unseen(b) => unseen.push(format!("{} ≤ {}", g.metric, plain(b))),
            Said::Nothing => {}
        }
    }
    let worst = p
        .bounds
        .iter()
        .map(|b| format!("{} ≤ {}", b.metric, plain(b.loss_bound)))
        .collect::<Vec<_>>()
        .join(", ");
    let share = percent(p.changed_share_bound);
    p.decided = if !unseen.is_empty() {
        format!("{seen} (share ≤ {share}) where no labelled query moved; worst-case mean loss {worst}: beyond the margin, the probe decided (fail: label the moved queries)")
    } else if by_probe.is_empty() {
        format!("{seen} (share ≤ {share}); worst-case mean loss {worst}: beyond the margin, the labelled set decided")
    } else {
        format!(
            "{seen} (share ≤ {share}); worst-case mean loss {worst}: within the margin, the probe decided ({})",
            by_probe.join(", ")
        )
    };
}
