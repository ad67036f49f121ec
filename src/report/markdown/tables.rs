//! The tables of the Markdown report: the gated rows (what decided the verdict), the comparisons
//! that changed beyond their margin, and every comparison (folded). Each takes the rows it may
//! show, already chosen by importance (see `trim.rs`), and says how many it left out.

use std::fmt::Write;

use super::text::{escape, fmt_pct, name, name_cell, plain4, signed4};
use crate::model::{Comparison, GateResult, GateStatus, Label, Report};
use crate::report::text::fmt_p;

/// What the gate's `value` is, in words, with the value: "mean 0.9650", "CI low −0.0480",
/// "loss share 50.0%"; and the threshold as a condition: "≥ 0.95", "≥ −0.0100", "≤ 25.0%". An
/// untouched statistical rule reads "unchanged" (or "unchanged beyond run-to-run noise" with an
/// A/A noise file), as the text report's detail does: its interval was not what decided it.
pub(super) fn value_and_threshold(g: &GateResult, c: Option<&Comparison>) -> (String, String) {
    let (value, threshold) = value_and_threshold_read(g, c);
    if g.status != GateStatus::Untouched {
        return (value, threshold);
    }
    let unchanged = match c.and_then(|c| c.within_noise.as_ref()) {
        Some(_) => "unchanged beyond run-to-run noise",
        None => "unchanged",
    };
    (unchanged.into(), threshold)
}

/// The value and threshold as the rule reads them (`value_and_threshold`).
fn value_and_threshold_read(g: &GateResult, c: Option<&Comparison>) -> (String, String) {
    let stat = c.map_or("mean", |c| c.statistic.as_str());
    let higher = c.is_none_or(|c| c.higher_is_better);
    if g.status == GateStatus::TooSmall {
        let n = c.map_or("—".to_string(), |c| format!("n = {}", c.n));
        let why = match g.not_judged {
            Some(crate::model::NotJudged::CannotFire) => "too few units for the sign-flip test",
            Some(crate::model::NotJudged::ResampleFloor { .. }) => {
                "too few resamples for the sign-flip test"
            }
            Some(crate::model::NotJudged::NothingMoved { .. }) => "nothing moved: no-op not proven",
            _ => "too few queries",
        };
        return (n, why.into());
    }
    match g.rule.as_str() {
        "min-mean" => (
            format!("{} {}", escape(stat), plain4(g.value)),
            format!("≥ {}", plain4(g.threshold)),
        ),
        "max-mean" => (
            format!("{} {}", escape(stat), plain4(g.value)),
            format!("≤ {}", plain4(g.threshold)),
        ),
        "max-drop" if higher => (
            format!("CI low {}", signed4(g.value)),
            format!("≥ {}", signed4(g.threshold)),
        ),
        "max-drop" => (
            format!("CI high {}", signed4(g.value)),
            format!("≤ {}", signed4(g.threshold)),
        ),
        "max-drift" => (
            format!("vs anchor: CI bound {}", signed4(g.value)),
            format!("budget {}", signed4(g.threshold)),
        ),
        "max-change" => (
            format!("CI far end {}", signed4(g.value)),
            format!("inside ±{}", plain4(g.threshold)),
        ),
        "fail-if-significant-drop" if higher => (
            format!("CI high {}", signed4(g.value)),
            format!("fails if < {}", signed4(g.threshold)),
        ),
        "fail-if-significant-drop" => (
            format!("CI low {}", signed4(g.value)),
            format!("fails if > {}", signed4(g.threshold)),
        ),
        "max-loss-rate" => (
            format!("loss share {:.1}%", 100.0 * g.value),
            format!("≤ {:.1}%", 100.0 * g.threshold),
        ),
        other => (
            plain4(g.value),
            format!("{} {}", escape(other), plain4(g.threshold)),
        ),
    }
}

pub(super) fn result_cell(g: &GateResult) -> &'static str {
    match (g.status, g.fails_build) {
        (GateStatus::Pass, _) => "✅ pass",
        (GateStatus::Fail, _) => "❌ **fail**",
        (GateStatus::TooSmall, false) => "⚠️ not judged (too small)",
        (GateStatus::TooSmall, true) => "❌ **not judged (too small)**",
        (GateStatus::Untouched, _) => "✅ untouched",
        (GateStatus::Inconclusive, _) => "🟠 **inconclusive**",
    }
}

/// The gated rows: metric, slice, rule, value (saying what it is), threshold, result, label.
/// `shown` are indices into `r.gates`, in gate-file order.
pub(super) fn gates(s: &mut String, r: &Report, shown: &[usize]) {
    if r.gates.is_empty() {
        return;
    }
    s.push_str("| metric | slice | rule | value | threshold | result | label |\n");
    s.push_str("|---|---|---|--:|--:|---|---|\n");
    let on = crate::model::OnIndex::new(&r.comparisons, &r.gates);
    for &i in shown {
        let g = &r.gates[i];
        let c = on.comparison_of(g).map(|k| &r.comparisons[k]);
        let (value, threshold) = value_and_threshold(g, c);
        let _ = writeln!(
            s,
            "| {}{} | {} | {} | {value} | {threshold} | {} | {} |",
            name_cell(&g.metric, &g.statistic, g.statistic_in_name),
            g.runs_note(),
            name(&g.slice),
            escape(&g.rule),
            result_cell(g),
            g.label.as_str()
        );
    }
    more(s, r.gates.len(), shown.len(), "gated rows");
}

/// `+0.0122 [+0.0041, +0.0205]`, with the statistic when it is not the mean and ↻ after an
/// interval recomputed with more resamples.
fn delta_ci(c: &Comparison) -> String {
    format!(
        "{}{} [{}, {}]{}",
        signed4(c.estimate),
        if c.statistic == "mean" {
            String::new()
        } else {
            format!(" ({})", escape(&c.statistic))
        },
        signed4(c.ci[0]),
        signed4(c.ci[1]),
        if c.mc_rerun { " ↻" } else { "" }
    )
}

fn label_cell(l: Option<Label>) -> &'static str {
    match l {
        None => "",
        Some(Label::Worse) => "▼ worse",
        Some(Label::Better) => "▲ better",
        Some(l) => l.as_str(),
    }
}

/// The comparisons whose interval lies beyond their margin (worse or better). `shown` are
/// indices into `r.comparisons`; `total` is how many changed.
pub(super) fn changed(s: &mut String, r: &Report, shown: &[usize], total: usize) {
    if total == 0 {
        s.push_str("No comparison changed beyond its margin.\n\n");
        return;
    }
    let _ = writeln!(
        s,
        "**Changed beyond the margin** ({total} of {})\n",
        r.comparisons.len()
    );
    let _ = writeln!(
        s,
        "| metric | slice | n | Δ [{}% CI] | margin | label |",
        fmt_pct(r.confidence)
    );
    s.push_str("|---|---|--:|--:|--:|---|\n");
    for &i in shown {
        let c = &r.comparisons[i];
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | ±{} | {} |",
            name_cell(&c.metric, &c.statistic, c.statistic_in_name),
            name(&c.slice),
            c.n,
            delta_ci(c),
            plain4(c.margin),
            label_cell(c.label)
        );
    }
    more(s, total, shown.len(), "changed rows");
}

/// Every comparison, folded: the means, the delta and its interval, p, MDE, label and
/// win / tie / loss.
pub(super) fn all(s: &mut String, r: &Report, shown: &[usize]) {
    if r.comparisons.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "<details><summary>All {} ({})</summary>\n",
        crate::numbers::count(r.comparisons.len(), "comparison", "comparisons"),
        crate::report::words::comparison_unit(r)
    );
    let _ = writeln!(
        s,
        "| metric | slice | n | baseline → candidate | Δ [{}% CI] | p | MDE | label | win / tie / loss |",
        fmt_pct(r.confidence)
    );
    s.push_str("|---|---|--:|---|--:|--:|--:|---|---|\n");
    for &i in shown {
        let c = &r.comparisons[i];
        let n = match c.groups {
            Some(g) => format!("{} ({g} groups)", c.n),
            None => c.n.to_string(),
        };
        // Too small for an interval: no interval or MDE, only that it is too small.
        let (delta, mde) = match (r.view.too_small(c), c.mde > 0.0) {
            (Some(words), _) => (
                format!("{} ({words})", signed4(c.estimate)),
                "—".to_string(),
            ),
            (None, true) => (delta_ci(c), format!("{:.4}", c.mde)),
            (None, false) => (delta_ci(c), "—".to_string()),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {n} | {:.4} → {:.4} | {delta} | {} | {mde} | {} | {} / {} / {} |",
            name_cell(&c.metric, &c.statistic, c.statistic_in_name),
            name(&c.slice),
            c.baseline_value,
            c.candidate_value,
            fmt_p(c.p_value),
            c.label_str(),
            c.wins,
            c.ties,
            c.losses
        );
    }
    more(s, r.comparisons.len(), shown.len(), "comparison rows");
    s.push_str("</details>\n\n");
}

fn more(s: &mut String, total: usize, shown: usize, what: &str) {
    if total > shown {
        let _ = writeln!(
            s,
            "\n_… and {} more {what}, left out to fit the size limit._",
            total - shown
        );
    }
    s.push('\n');
}
