//! The SVG forest plot of one metric for the HTML report, built with the `svg` crate: one row
//! per slice with its interval (a line) and estimate (a circle, the "mark"), a solid line at
//! zero, a dashed tick at each row's allowed drop (a `max-drop` gate), gated rows drawn in blue
//! and failing ones in red, and an axis with ticks. Text nodes are escaped by the crate; no user
//! text goes into an attribute.

use svg::node::element::{Circle, Group, Line, Rectangle, Text as TextEl, Title};
use svg::node::Text;
use svg::Document;

use crate::model::{Comparison, GateResult};
use crate::report::allowed_drop;
use crate::safe_text::one_line;

const WIDTH: f64 = 860.0;
const LEFT: f64 = 190.0;
const RIGHT: f64 = 640.0;
const ROW: f64 = 24.0;
const TOP: f64 = 10.0;
const AXIS: f64 = 34.0;

/// What a row is to the gates.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Failing,
    Gated,
    Plain,
}

/// `gates` are the results judged on `c` (or any superset: each is checked).
fn role<'g>(c: &Comparison, gates: impl IntoIterator<Item = &'g GateResult>) -> Role {
    let mut gs = gates.into_iter().filter(|g| g.is_on(c));
    let mut any = false;
    for g in gs.by_ref() {
        if g.fails_build {
            return Role::Failing;
        }
        any = true;
    }
    if any {
        Role::Gated
    } else {
        Role::Plain
    }
}

/// A "nice" tick step (1, 2 or 5 × 10^k) for about five ticks over `span`.
fn tick_step(span: f64) -> f64 {
    let raw = span / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag)
}

/// The forest plot of `cs` (the comparisons of one metric read as one statistic).
pub(super) fn forest(cs: &[Comparison], gates: &[GateResult]) -> Document {
    // Each row's gates by one lookup: a scan of every gate per row was quadratic in slices.
    let on = crate::model::OnIndex::new(cs, gates);
    let gated = |c| on.gates_on(c).iter().map(|&i| &gates[i]);
    let margins: Vec<Option<f64>> = cs.iter().map(|c| allowed_drop(c, gated(c))).collect();
    let lo = cs
        .iter()
        .zip(&margins)
        .map(|(c, m)| c.ci[0].min(c.estimate).min(m.unwrap_or(0.0)))
        .fold(0.0_f64, f64::min);
    let hi = cs
        .iter()
        .zip(&margins)
        .map(|(c, m)| c.ci[1].max(c.estimate).max(m.unwrap_or(0.0)))
        .fold(0.0_f64, f64::max);
    let pad = ((hi - lo) * 0.05).max(1e-6);
    let (lo, hi) = (lo - pad, hi + pad);
    let x = |v: f64| LEFT + (v - lo) / (hi - lo) * (RIGHT - LEFT);
    let height = TOP + ROW * cs.len() as f64 + AXIS;
    let bottom = TOP + ROW * cs.len() as f64;

    let mut doc = Document::new()
        .set("viewBox", (0.0, 0.0, WIDTH, height))
        .set("width", WIDTH)
        .set("height", height)
        .set("class", "forest")
        .set("role", "img");
    doc = doc.add(axis(lo, hi, bottom, &x));
    doc = doc.add(
        Line::new()
            .set("class", "zero")
            .set("x1", x(0.0))
            .set("x2", x(0.0))
            .set("y1", TOP - 4.0)
            .set("y2", bottom),
    );
    for (i, (c, m)) in cs.iter().zip(&margins).enumerate() {
        let y = TOP + ROW * (i as f64 + 0.5);
        doc = doc.add(row(c, *m, role(c, gated(c)), y, &x, i));
    }
    doc
}

fn axis(lo: f64, hi: f64, bottom: f64, x: &dyn Fn(f64) -> f64) -> Group {
    let mut g = Group::new().set("class", "axis");
    g = g.add(
        Line::new()
            .set("x1", LEFT)
            .set("x2", RIGHT)
            .set("y1", bottom + 2.0)
            .set("y2", bottom + 2.0),
    );
    let step = tick_step(hi - lo);
    let mut t = (lo / step).ceil() * step;
    while t <= hi + 1e-12 {
        let label = if t.abs() < step / 2.0 {
            "0".to_string()
        } else {
            super::signed(t, 3)
        };
        g = g
            .add(
                Line::new()
                    .set("x1", x(t))
                    .set("x2", x(t))
                    .set("y1", bottom + 2.0)
                    .set("y2", bottom + 6.0),
            )
            .add(
                TextEl::new("")
                    .set("x", x(t))
                    .set("y", bottom + 18.0)
                    .set("text-anchor", "middle")
                    .add(Text::new(label)),
            );
        t += step;
    }
    g
}

/// One slice's row: a band on odd rows, the slice's label, the margin tick (if any), then the
/// interval, the estimate's mark and the numbers.
fn row(
    c: &Comparison,
    m: Option<f64>,
    role: Role,
    y: f64,
    x: &dyn Fn(f64) -> f64,
    i: usize,
) -> Group {
    let class = match role {
        Role::Failing => "row failing",
        Role::Gated => "row gated",
        Role::Plain => "row",
    };
    let mut g = Group::new().set("class", class);
    if i % 2 == 1 {
        g = g.add(
            Rectangle::new()
                .set("class", "band")
                .set("x", 0)
                .set("y", y - ROW / 2.0)
                .set("width", WIDTH)
                .set("height", ROW),
        );
    }
    g = g.add(slice_label(c, role, y));
    if let Some(m) = m {
        g = g.add(
            Line::new()
                .set("class", "margin")
                .set("x1", x(m))
                .set("x2", x(m))
                .set("y1", y - 8.0)
                .set("y2", y + 8.0),
        );
    }
    g.add(
        Line::new()
            .set("class", "ci")
            .set("x1", x(c.ci[0]))
            .set("x2", x(c.ci[1]))
            .set("y1", y)
            .set("y2", y),
    )
    .add(mark(c, y, x))
    .add(numbers(c, y))
}

/// The slice's name left of the plot, with what it is to the gates.
fn slice_label(c: &Comparison, role: Role, y: f64) -> TextEl {
    let tag = match role {
        Role::Failing => " (gate fails)",
        Role::Gated => " (gated)",
        Role::Plain => "",
    };
    TextEl::new("")
        .set("class", "label")
        .set("x", LEFT - 10.0)
        .set("y", y + 4.0)
        .set("text-anchor", "end")
        .add(Text::new(format!(
            "{}{tag}",
            one_line(&crate::safe_text::cut_marked(&c.slice))
        )))
}

/// The estimate's circle, titled with the metric, the slice and the interval.
fn mark(c: &Comparison, y: f64, x: &dyn Fn(f64) -> f64) -> Circle {
    let words = format!(
        "{} {}: {} [{}, {}]",
        one_line(&crate::safe_text::cut_marked(&c.name())),
        one_line(&crate::safe_text::cut_marked(&c.slice)),
        super::signed(c.estimate, 4),
        super::signed(c.ci[0], 4),
        super::signed(c.ci[1], 4)
    );
    Circle::new()
        .set("class", "mark")
        .set("cx", x(c.estimate))
        .set("cy", y)
        .set("r", 4.5)
        .add(Title::new("").add(Text::new(words)))
}

/// The estimate and the interval as numbers, right of the plot.
fn numbers(c: &Comparison, y: f64) -> TextEl {
    TextEl::new("")
        .set("class", "value")
        .set("x", RIGHT + 12.0)
        .set("y", y + 4.0)
        .add(Text::new(format!(
            "{} [{}, {}]",
            super::signed(c.estimate, 4),
            super::signed(c.ci[0], 4),
            super::signed(c.ci[1], 4)
        )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_steps_are_round() {
        assert_eq!(tick_step(0.1), 0.02);
        assert_eq!(tick_step(0.07), 0.02);
        assert_eq!(tick_step(3.0), 1.0);
    }
}
