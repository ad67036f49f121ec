//! The text forest plot, one per metric: each slice's interval as `[--o--]` on the metric's
//! own axis, `:` at the allowed drop of a `max-drop` gate on that metric and slice, and `|` at
//! zero. Zero has a column of its own (negative values sit left of it, zero and positive ones
//! right), so no bracket or estimate can ever hide it. It sits in a fenced code block, so user
//! text there needs only [`code_safe`].

use std::fmt::Write;

use super::text::{code_safe, signed3, signed4};
use crate::model::{Comparison, GateResult};
use crate::report::allowed_drop;

/// Plot width in characters, the zero column included.
const W: usize = 41;
/// Slice labels are cut to this many characters.
const LABEL: usize = 24;

/// The axis of one metric: where zero sits and how many columns one unit takes.
struct Axis {
    lo: f64,
    hi: f64,
    zero: usize,
    scale: f64,
}

impl Axis {
    fn new(lo: f64, hi: f64) -> Axis {
        let (lo, hi) = (lo.min(0.0), hi.max(0.0));
        let span = if hi > lo { hi - lo } else { 1.0 };
        let usable = (W - 2) as f64;
        let zero = ((-lo / span) * usable).round() as usize;
        Axis {
            lo,
            hi,
            zero,
            scale: usable / span,
        }
    }

    /// Column of `x`: left of the zero column when negative, right of it otherwise.
    fn col(&self, x: f64) -> usize {
        let steps = (x.abs() * self.scale).floor();
        if x < 0.0 {
            let left = self.zero.saturating_sub(1) as f64;
            (left - steps).max(0.0) as usize
        } else {
            ((self.zero + 1) as f64 + steps).min((W - 1) as f64) as usize
        }
    }
}

/// One plot per metric, in the order the comparisons come (metrics in name order).
pub(super) fn forest(s: &mut String, cs: &[Comparison], gates: &[GateResult]) {
    if cs.is_empty() {
        return;
    }
    s.push_str("<details><summary>Forest plot of Δ per metric: interval [--o--], zero |, ");
    s.push_str("allowed drop :, gated *, failing !</summary>\n\n```text\n");
    let mut start = 0;
    while start < cs.len() {
        let first = &cs[start];
        let end = start
            + cs[start..]
                .iter()
                .take_while(|c| c.metric == first.metric && c.statistic == first.statistic)
                .count();
        plot(s, &cs[start..end], gates);
        start = end;
        if start < cs.len() {
            s.push('\n');
        }
    }
    s.push_str("```\n\n</details>\n\n");
}

fn plot(s: &mut String, cs: &[Comparison], gates: &[GateResult]) {
    // Each row's gates by one lookup: a scan of every gate per row was quadratic in slices.
    let on = crate::model::OnIndex::new(cs, gates);
    let gated = |c| on.gates_on(c).iter().map(|&i| &gates[i]);
    let rows: Vec<(&Comparison, Option<f64>)> =
        cs.iter().map(|c| (c, allowed_drop(c, gated(c)))).collect();
    let lo = rows
        .iter()
        .map(|(c, m)| c.ci[0].min(c.estimate).min(m.unwrap_or(0.0)))
        .fold(0.0_f64, f64::min);
    let hi = rows
        .iter()
        .map(|(c, m)| c.ci[1].max(c.estimate).max(m.unwrap_or(0.0)))
        .fold(0.0_f64, f64::max);
    let axis = Axis::new(lo, hi);
    let _ = writeln!(
        s,
        "{:LABEL$}  {}",
        code_safe(&cs[0].name(), LABEL),
        ticks(&axis)
    );
    for (c, m) in rows {
        let mut line = vec![' '; W];
        let (a, b) = (
            axis.col(c.ci[0].min(c.ci[1])),
            axis.col(c.ci[0].max(c.ci[1])),
        );
        for ch in &mut line[a..=b] {
            *ch = '-';
        }
        line[a] = '[';
        line[b] = ']';
        if let Some(m) = m {
            line[axis.col(m)] = ':';
        }
        line[axis.col(c.estimate)] = 'o';
        line[axis.zero] = '|';
        let line: String = line.into_iter().collect();
        let gated: Vec<&GateResult> = gated(c).collect();
        let mark = if gated.iter().any(|g| g.fails_build) {
            '!'
        } else if gated.is_empty() {
            ' '
        } else {
            '*'
        };
        let _ = writeln!(
            s,
            "{:LABEL$}{mark} {line}  {:>8} [{}, {}]",
            code_safe(&c.slice, LABEL),
            signed4(c.estimate),
            signed4(c.ci[0]),
            signed4(c.ci[1])
        );
    }
}

/// The axis line: the lowest value at the left edge, `0` over the zero column, the highest at
/// the right edge (each only where it does not run into another).
fn ticks(axis: &Axis) -> String {
    let mut line = vec![' '; W];
    let put = |at: usize, text: &str, line: &mut Vec<char>| {
        let chars: Vec<char> = text.chars().collect();
        if at + chars.len() <= W && line[at..at + chars.len()].iter().all(|&c| c == ' ') {
            line[at..at + chars.len()].copy_from_slice(&chars);
        }
    };
    put(axis.zero, "0", &mut line);
    if axis.lo < 0.0 {
        let t = signed3(axis.lo);
        if axis.zero > t.chars().count() {
            put(0, &t, &mut line);
        }
    }
    if axis.hi > 0.0 {
        let t = signed3(axis.hi);
        let n = t.chars().count();
        if W - n > axis.zero + 1 {
            put(W - n, &t, &mut line);
        }
    }
    line.into_iter().collect::<String>().trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_has_its_own_column_so_nothing_hides_it() {
        let a = Axis::new(-0.05, 0.02);
        for x in [-0.05, -0.0001, 0.0, 0.0001, 0.02] {
            assert_ne!(a.col(x), a.zero, "{x}");
        }
        assert!(a.col(-0.0001) < a.zero && a.col(0.0) > a.zero);
        assert_eq!((a.col(-0.05), a.col(0.02)), (0, W - 1));
    }

    #[test]
    fn an_all_positive_axis_still_has_zero_at_the_left() {
        let a = Axis::new(0.01, 0.03);
        assert_eq!(a.zero, 0);
        assert!(a.col(0.01) > 0);
    }
}
