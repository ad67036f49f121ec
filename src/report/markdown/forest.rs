//! The text forest plot: each comparison's interval as `[--o--]` on one shared axis, `|` at
//! zero, in a fenced code block (so user text there needs only [`code_safe`]).

use std::fmt::Write;

use super::text::{code_safe, signed3, signed4};
use crate::report::model::Comparison;

/// One line per comparison: the interval as `[--o--]` on a shared axis, `|` at zero.
pub(super) fn forest(s: &mut String, cs: &[Comparison], max_rows: usize) {
    const W: usize = 41;
    let cs: Vec<&Comparison> = cs.iter().take(max_rows).collect();
    if cs.is_empty() {
        return;
    }
    let lo = cs
        .iter()
        .map(|c| c.ci[0].min(c.delta))
        .fold(0.0_f64, f64::min);
    let hi = cs
        .iter()
        .map(|c| c.ci[1].max(c.delta))
        .fold(0.0_f64, f64::max);
    let span = if hi > lo { hi - lo } else { 1.0 };
    let pos = |x: f64| {
        (((x - lo) / span) * (W - 1) as f64)
            .round()
            .clamp(0.0, (W - 1) as f64) as usize
    };
    let labels: Vec<String> = cs
        .iter()
        .map(|c| code_safe(&format!("{} {}", c.metric, c.slice), 40))
        .collect();
    let width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    s.push_str("<details><summary>Forest plot of Δ (interval against zero)</summary>\n\n```text\n");
    let (left, right) = (signed3(lo), signed3(hi));
    let gap = W.saturating_sub(left.chars().count() + right.chars().count());
    let _ = writeln!(s, "{:width$}  {left}{:gap$}{right}", "", "");
    for (c, label) in cs.iter().zip(&labels) {
        let mut line = vec![' '; W];
        let (a, b) = (pos(c.ci[0]), pos(c.ci[1]));
        for ch in line.iter_mut().take(b + 1).skip(a) {
            *ch = '-';
        }
        line[pos(0.0)] = '|';
        line[a] = '[';
        line[b] = ']';
        line[pos(c.delta)] = 'o';
        let line: String = line.into_iter().collect();
        let pad = width - label.chars().count();
        let _ = writeln!(s, "{label}{:pad$}  {line}  {}", "", signed4(c.delta));
    }
    s.push_str("```\n\n</details>\n\n");
}
