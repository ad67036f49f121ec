//! The text forest plot: each comparison's interval as `[--o--]` on one shared axis, `|` at
//! zero, `:` at the allowed drop of a `max-drop` gate on that metric and slice. It sits in a
//! fenced code block, so user text there needs only [`code_safe`].

use std::fmt::Write;

use super::text::{code_safe, signed4};
use crate::model::{Comparison, GateResult};

const W: usize = 41;

/// The allowed drop (as a negative delta) of a `max-drop` gate on this metric and slice.
fn margin(c: &Comparison, gates: &[GateResult]) -> Option<f64> {
    gates
        .iter()
        .find(|g| g.rule == "max-drop" && g.metric == c.metric && g.slice == c.slice)
        .map(|g| -g.threshold.abs())
}

pub(super) fn forest(s: &mut String, cs: &[Comparison], gates: &[GateResult], max_rows: usize) {
    let rows: Vec<(&Comparison, Option<f64>)> = cs
        .iter()
        .take(max_rows)
        .map(|c| (c, margin(c, gates)))
        .collect();
    if rows.is_empty() {
        return;
    }
    let lo = rows
        .iter()
        .map(|(c, m)| c.ci[0].min(c.delta).min(m.unwrap_or(0.0)))
        .fold(0.0_f64, f64::min);
    let hi = rows
        .iter()
        .map(|(c, _)| c.ci[1].max(c.delta))
        .fold(0.0_f64, f64::max);
    let span = if hi > lo { hi - lo } else { 1.0 };
    let pos = |x: f64| {
        (((x - lo) / span) * (W - 1) as f64)
            .round()
            .clamp(0.0, (W - 1) as f64) as usize
    };
    let labels: Vec<String> = rows
        .iter()
        .map(|(c, _)| code_safe(&format!("{} {}", c.metric, c.slice), 40))
        .collect();
    let width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    s.push_str("<details><summary>Forest plot of Δ: interval [--o--], zero |, allowed drop :");
    s.push_str("</summary>\n\n```text\n");
    let (left, right) = (signed4(lo), signed4(hi));
    let gap = W.saturating_sub(left.chars().count() + right.chars().count());
    let _ = writeln!(s, "{:width$}  {left}{:gap$}{right}", "", "");
    for ((c, m), label) in rows.iter().zip(&labels) {
        let mut line = vec![' '; W];
        let (a, b) = (pos(c.ci[0]), pos(c.ci[1]));
        for ch in line.iter_mut().take(b + 1).skip(a) {
            *ch = '-';
        }
        line[pos(0.0)] = '|';
        if let Some(m) = m {
            line[pos(*m)] = ':';
        }
        line[a] = '[';
        line[b] = ']';
        line[pos(c.delta)] = 'o';
        let line: String = line.into_iter().collect();
        let pad = width - label.chars().count();
        let _ = writeln!(s, "{label}{:pad$}  {line}  {}", "", signed4(c.delta));
    }
    s.push_str("```\n\n</details>\n\n");
}
