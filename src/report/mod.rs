//! Report stage: renderers of the analysis model (`crate::model::Report`) as text, Markdown,
//! JSON, JUnit XML and a self-contained HTML page, each returning a String; the caller decides where it goes.

pub mod anchor;
pub mod looks;
pub mod combined;
pub mod efficiency;
pub mod html;
pub mod judge;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod noise;
pub mod plan;
pub mod probe;
pub mod text;
pub mod ties;
pub mod words;

use crate::model::{Comparison, GateResult, Report};
use crate::numbers::{delta_and_interval, signed};

/// Output format of `check` and `compare`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Markdown,
    Json,
    /// JUnit XML: a test case per gate × slice × rule (CI test-report widgets).
    Junit,
}

crate::choice!(Format {
    Text => "text",
    Markdown => "markdown",
    Json => "json",
    Junit => "junit": "JUnit XML: a test case per gate × slice × rule (CI test-report widgets)",
});

pub fn render(r: &Report, format: Format) -> String {
    match format {
        Format::Text => text::render(r),
        Format::Markdown => markdown::render(r),
        Format::Json => json::render(r),
        Format::Junit => junit::render(r),
    }
}

/// The comparisons on `all` with worst regressions, one per metric: a metric read as its mean and
/// its p95 has the same per-query deltas, so its regressions are listed once.
pub(crate) fn worst_per_metric(r: &Report) -> Vec<&Comparison> {
    let mut out: Vec<&Comparison> = Vec::new();
    for c in r
        .comparisons
        .iter()
        .filter(|c| c.slice == "all" && !c.worst.is_empty())
    {
        if out.last().is_none_or(|l| l.metric != c.metric) {
            out.push(c);
        }
    }
    out
}

/// The allowed drop (as a delta on the metric's own scale) of a `max-drop` gate on this metric
/// and slice: negative for a higher-is-better metric, positive for a lower-is-better one. The
/// forest plots of the Markdown and the HTML mark it.
/// `gates` are the results judged on `c` (or any superset: each is checked).
pub(crate) fn allowed_drop<'g>(
    c: &Comparison,
    gates: impl IntoIterator<Item = &'g GateResult>,
) -> Option<f64> {
    gates
        .into_iter()
        .find(|g| g.rule == "max-drop" && g.is_on(c))
        .map(|g| {
            if c.higher_is_better {
                -g.threshold.abs()
            } else {
                g.threshold.abs()
            }
        })
}

/// One row of the judged table, the same in every format: metric, slice, judged@k per side,
/// unjudged documents per side, today's delta, each bound's delta with its interval, and each
/// gate's decision at the lower and upper bound.
pub(crate) fn judged_row(c: &Comparison, gates: &[GateResult]) -> Option<[String; 8]> {
    let j = c.judged.as_ref()?;
    let share = |x: Option<f64>| x.map_or("—".into(), |v| format!("{v:.3}"));
    let count = |x: Option<usize>| x.map_or("—".into(), |v| v.to_string());
    let bound = |b: Option<&crate::model::DeltaAtBound>| match (b, &j.not_computed) {
        // AP over a large pool: a proved bound wider than the optimum (docs/protocol.md).
        (Some(b), _) if !j.exact => {
            format!("{} (proved, wider)", delta_and_interval(b.delta, b.ci))
        }
        (Some(b), _) => delta_and_interval(b.delta, b.ci),
        (None, Some(_)) => "not computed".into(),
        (None, None) => "—".into(),
    };
    let decisions: Vec<String> = gates
        .iter()
        .filter(|g| g.is_on(c))
        .filter_map(|g| {
            let b = g.judged.as_ref()?;
            let flag = if b.unreliable { " (unreliable)" } else { "" };
            Some(format!(
                "#{} {}: {} / {}{flag}",
                g.gate, g.rule, b.lower, b.upper
            ))
        })
        .chain(gates.iter().filter(|g| g.is_on(c)).filter_map(|g| {
            let d = g.condensed.as_ref()?;
            Some(format!("#{} on condensed lists: {d}", g.gate))
        }))
        .collect();
    let decisions = match (decisions.is_empty(), &j.not_computed) {
        (false, _) => decisions.join("; "),
        (true, Some(why)) => why.split(':').next().unwrap_or(why).to_string(),
        (true, None) => "—".into(),
    };
    Some([
        c.name(),
        c.slice.clone(),
        format!(
            "{} / {}",
            share(j.baseline_judged),
            share(j.candidate_judged)
        ),
        format!(
            "{} / {}",
            count(j.baseline_unjudged),
            count(j.candidate_unjudged)
        ),
        match &j.condensed {
            None => signed(j.delta),
            Some(b) => format!(
                "{} (condensed lists {})",
                signed(j.delta),
                delta_and_interval(b.delta, b.ci)
            ),
        },
        bound(j.lower.as_ref()),
        bound(j.upper.as_ref()),
        decisions,
    ])
}

/// The judged table's column heads (see [`judged_row`]).
pub(crate) const JUDGED_HEADS: [&str; 8] = [
    "metric",
    "slice",
    "judged@k base / cand",
    "unjudged base / cand",
    "Δ (unjudged = non-relevant)",
    "lower bound Δ [interval]",
    "upper bound Δ [interval]",
    "decision at lower / upper",
];
