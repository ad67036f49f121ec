//! Semantic checks of the `[[gate]]` tables: rules in range, at least one rule per gate,
//! well-formed slice names, and one direction per metric (statistics may differ).

use toml::{Spanned, Value};

use super::raw::RawGate;
use super::*;

pub(super) fn check_slice_name(src: &SourceText, s: &Spanned<String>) -> Result<()> {
    let name = s.get_ref();
    let ok = name == "all"
        || name
            .split_once('=')
            .is_some_and(|(t, v)| !t.trim().is_empty() && !v.trim().is_empty());
    if ok {
        Ok(())
    } else {
        Err(src.error(
            Some(s.span()),
            format!("slice {name:?}: expected `all` or `tag=value`, e.g. \"risk=compliance\""),
        ))
    }
}

/// One `[[gate]]` table, 1-based `index`: its rules in range, at least one rule, a known
/// direction, a cutoff within `[policy] max-k`, and the slices it applies to.
pub(super) fn gate(
    src: &SourceText,
    index: usize,
    g: &Spanned<RawGate>,
    max_k: Option<usize>,
) -> Result<Gate> {
    let span = g.span();
    let g = g.get_ref();
    let metric = crate::metric_names::canonical(g.metric.get_ref());
    check_rule_values(src, index, &metric, g)?;
    require_a_rule(src, index, &metric, g, span)?;
    let higher_is_better = orientation(src, index, &metric, g)?;
    if let Some(max) = max_k {
        within_max_k(src, index, &metric, &g.metric, max)?;
    }
    let slices = match &g.slices {
        None => GateSlices::All,
        Some(s) => gate_slices(src, index, s)?,
    };
    Ok(Gate {
        index,
        metric,
        metric_span: Some(g.metric.span()),
        min_mean: g.min_mean.as_ref().map(|v| *v.get_ref()),
        max_mean: g.max_mean.as_ref().map(|v| *v.get_ref()),
        max_drop: g.max_drop.as_ref().map(|v| *v.get_ref()),
        max_change: g.max_change.as_ref().map(|v| *v.get_ref()),
        fail_if_significant_drop: g.fail_if_significant_drop.as_ref().map(|v| *v.get_ref()),
        max_loss_rate: g.max_loss_rate.as_ref().map(|v| *v.get_ref()),
        max_drift: g.max_drift.as_ref().map(|v| *v.get_ref()),
        max_unit_loss: g.max_unit_loss.as_ref().map(|v| *v.get_ref()),
        statistic: g.statistic.unwrap_or_default(),
        higher_is_better,
        slices,
        slices_span: g.slices.as_ref().map(|s| s.span()),
    })
}

/// The rules' values: finite means, finite drops ≥ 0, a loss rate between 0 and 1.
fn check_rule_values(src: &SourceText, index: usize, metric: &str, g: &RawGate) -> Result<()> {
    let here = |s: &Spanned<f64>, msg: &str| {
        src.error(
            Some(s.span()),
            format!("[[gate]] #{index} ({metric}): {msg}"),
        )
    };
    for (rule, v) in [("min-mean", &g.min_mean), ("max-mean", &g.max_mean)] {
        if let Some(v) = v {
            if !v.get_ref().is_finite() {
                return Err(here(v, &format!("{rule} must be a finite number")));
            }
        }
    }
    if let Some(v) = &g.max_change {
        if !(v.get_ref().is_finite() && *v.get_ref() > 0.0) {
            return Err(here(
                v,
                "max-change must be a finite number > 0 (equivalence within ±0.01 is written 0.01)",
            ));
        }
    }
    for (rule, v) in [
        ("max-drop", &g.max_drop),
        ("fail-if-significant-drop", &g.fail_if_significant_drop),
        ("max-drift", &g.max_drift),
    ] {
        if let Some(v) = v {
            if !(v.get_ref().is_finite() && *v.get_ref() >= 0.0) {
                return Err(here(
                    v,
                    &format!("{rule} must be a finite number ≥ 0 (a drop of 0.01 is written 0.01)"),
                ));
            }
        }
    }
    if let Some(v) = &g.max_unit_loss {
        let bounded = crate::metric_names::is_bounded(metric);
        let x = *v.get_ref();
        if !(x.is_finite() && x > 0.0) || (bounded && x > 1.0) {
            return Err(here(
                v,
                &format!(
                    "max-unit-loss must be a finite number > 0{}: the worst loss one query can take on the metric",
                    if bounded { " and at most 1 for a metric in [0, 1]" } else { "" }
                ),
            ));
        }
    }
    if let Some(v) = &g.max_loss_rate {
        if !(0.0..=1.0).contains(v.get_ref()) {
            return Err(here(
                v,
                &format!(
                    "max-loss-rate must be a share of queries between 0 and 1, not {}{}",
                    v.get_ref(),
                    percent_hint(*v.get_ref())
                ),
            ));
        }
    }
    if crate::metric_names::is_bounded(metric) {
        bounded_rule_values(metric, g).map_err(|(v, msg)| here(v, &msg))?;
    }
    Ok(())
}

/// The largest margin a metric bounded in [0, 1] may have: a drop of 0.5 or more would let
/// almost any change pass, so such a margin is a percentage written as a number.
const MAX_BOUNDED_MARGIN: f64 = 0.5;

/// " (did you mean 0.25?)" for a share written as a percentage (25), else nothing.
fn percent_hint(v: f64) -> String {
    if v > 1.0 && v <= 100.0 {
        format!("; did you mean {}?", v / 100.0)
    } else {
        String::new()
    }
}

/// For a metric in [0, 1]: margins below 0.5 ("did you mean 0.01?" for `max-drop = 1`) and
/// absolute bars inside [0, 1]; the offending value and the words why.
fn bounded_rule_values<'a>(
    metric: &str,
    g: &'a RawGate,
) -> std::result::Result<(), (&'a Spanned<f64>, String)> {
    for (rule, v) in [
        ("max-drop", &g.max_drop),
        ("max-change", &g.max_change),
        ("fail-if-significant-drop", &g.fail_if_significant_drop),
        ("max-drift", &g.max_drift),
    ] {
        let Some(v) = v else { continue };
        let m = *v.get_ref();
        if m >= MAX_BOUNDED_MARGIN {
            return Err((
                v,
                format!(
                    "{rule} = {m} can never fail: {metric} lies in [0, 1], so a margin of {MAX_BOUNDED_MARGIN} or more lets almost any {} pass; did you mean {}? (a margin is a difference of the metric: 1% is 0.01)",
                    if rule == "max-change" { "change" } else { "drop" },
                    m / 100.0
                ),
            ));
        }
    }
    for (rule, v) in [("min-mean", &g.min_mean), ("max-mean", &g.max_mean)] {
        let Some(v) = v else { continue };
        let x = *v.get_ref();
        if !(0.0..=1.0).contains(&x) {
            let hint = if x > 1.0 && x <= 100.0 {
                format!("; did you mean {}?", x / 100.0)
            } else {
                String::new()
            };
            return Err((
                v,
                format!(
                    "{rule} = {x} is outside the range of {metric}, which lies in [0, 1]{hint}"
                ),
            ));
        }
    }
    Ok(())
}

/// A gate without any rule could never fail: an error at the gate's table.
fn require_a_rule(
    src: &SourceText,
    index: usize,
    metric: &str,
    g: &RawGate,
    span: std::ops::Range<usize>,
) -> Result<()> {
    if g.min_mean.is_none()
        && g.max_mean.is_none()
        && g.max_drop.is_none()
        && g.max_change.is_none()
        && g.fail_if_significant_drop.is_none()
        && g.max_loss_rate.is_none()
        && g.max_drift.is_none()
    {
        return Err(src.error(
            Some(span),
            format!("[[gate]] #{index} ({metric}) has no rule; add min-mean, max-mean, max-drop, max-change, fail-if-significant-drop, max-loss-rate or max-drift"),
        ));
    }
    Ok(())
}

/// `higher-is-better` as written, true for a metric whose direction is known, else an error:
/// "did you mean" for a near IR metric, or a request to say which way is better.
fn orientation(src: &SourceText, index: usize, metric: &str, g: &RawGate) -> Result<bool> {
    if let Some(h) = g.higher_is_better {
        return Ok(h);
    }
    if crate::metric_names::direction_known(metric) {
        return Ok(true);
    }
    let at_metric = |msg: String| src.error(Some(g.metric.span()), msg);
    // A typo of an IR metric (`ndgc@10`) is more likely than a new column.
    let (base, cut) = metric
        .split_once('@')
        .map_or((metric, None), |(b, k)| (b, Some(k)));
    const IR: [&str; 9] = [
        "ndcg",
        "recall",
        "p",
        "mrr",
        "map",
        "ap",
        "hit",
        "rprec",
        "ann-recall",
    ];
    if let Some(near) = crate::metric_names::did_you_mean(base, IR) {
        let near = cut.map_or(near.to_string(), |k| format!("{near}@{k}"));
        return Err(at_metric(format!(
            "[[gate]] #{index}: unknown metric {}; did you mean {near}? (a column rag-gate does not know needs higher-is-better = true | false)", crate::safe_text::quoted(metric)
        )));
    }
    let metric = crate::safe_text::shown(metric);
    Err(at_metric(format!(
        "[[gate]] #{index} ({metric}): is a higher {metric} better or worse? rag-gate knows the direction of IR metrics only; add higher-is-better = false (lower is better: latency, cost) or higher-is-better = true"
    )))
}

/// `[policy] max-k`: a retrieval metric must have a cutoff, and not above `max`.
fn within_max_k(
    src: &SourceText,
    index: usize,
    metric: &str,
    written: &Spanned<String>,
    max: usize,
) -> Result<()> {
    if !crate::metric_names::direction_known(metric) {
        return Ok(());
    }
    let at_metric = |msg: String| src.error(Some(written.span()), msg);
    match crate::metric_names::cutoff(metric) {
        Some(k) if k > max => Err(at_metric(format!(
            "[[gate]] #{index} ({metric}): cutoff {k} is above [policy] max-k = {max}: the model sees at most {max} documents, so documents past rank {max} cannot help it; gate a cutoff ≤ {max}"
        ))),
        None => Err(at_metric(format!(
            "[[gate]] #{index} ({metric}): no cutoff, so it scores the whole ranking, beyond [policy] max-k = {max}; gate a cutoff ≤ {max} (e.g. {})",
            with_cutoff(metric, max)
        ))),
        Some(_) => Ok(()),
    }
}

/// The metric of `metric` with cutoff `k`, as the evaluator names it: `map` is `ap@k` (there is
/// no `map@k`), `rprec` has no cut-off form (`p@k` is the nearest), the rest take `@k`.
fn with_cutoff(metric: &str, k: usize) -> String {
    match metric {
        "map" => format!("ap@{k}"),
        "rprec" => format!("p@{k}"),
        m => format!("{m}@{k}"),
    }
}

/// A gate's `slices`: "all", "critical", or a non-empty list of slice names.
fn gate_slices(src: &SourceText, index: usize, s: &Spanned<Value>) -> Result<GateSlices> {
    match s.get_ref() {
        Value::String(x) if x == "all" => Ok(GateSlices::All),
        Value::String(x) if x == "critical" => Ok(GateSlices::Critical),
        Value::Array(items) => {
            let mut names = Vec::new();
            for item in items {
                let Some(name) = item.as_str() else {
                    return Err(src.error(Some(s.span()), format!("[[gate]] #{index}: slices must be strings")));
                };
                check_slice_name(src, &Spanned::new(s.span(), name.to_string()))?;
                names.push(name.to_string());
            }
            if names.is_empty() {
                return Err(src.error(Some(s.span()), format!("[[gate]] #{index}: slices is empty")));
            }
            Ok(GateSlices::List(names))
        }
        _ => Err(src.error(
            Some(s.span()),
            format!("[[gate]] #{index}: slices must be \"all\", \"critical\" or a list like [\"all\", \"risk=compliance\"]"),
        )),
    }
}

/// Every gate on one metric must agree on its direction: a metric is better higher or lower,
/// whatever statistic reads it. Gates on one metric may read different statistics (mean and p95
/// of latency): each (metric, statistic) is its own comparison.
pub(super) fn same_direction_per_metric(
    src: &SourceText,
    raw: &[Spanned<RawGate>],
    gates: &[Gate],
) -> Result<()> {
    for (i, g) in gates.iter().enumerate() {
        if let Some(first) = gates[..i].iter().find(|f| f.metric == g.metric) {
            if first.higher_is_better != g.higher_is_better {
                return Err(src.error(
                    Some(raw[i].span()),
                    format!(
                        "[[gate]] #{} ({}): higher-is-better must match gate #{} on the same metric (higher-is-better = {}): a metric is better one way, whatever its statistic",
                        g.index, g.metric, first.index, first.higher_is_better
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Under `guarantee = "distribution-free"`, each gate with a delta rule (`max-drop`,
/// `max-change`, `fail-if-significant-drop`) must say the worst loss one unit can take: 1 for a
/// metric bounded to [0, 1], else `max-unit-loss` (never the observed range, which says nothing
/// of an unseen query); and the bound is for means, so such a gate reads the mean.
pub(super) fn distribution_free_gate(
    src: &SourceText,
    g: &Spanned<RawGate>,
    gate: &Gate,
) -> Result<()> {
    let delta_rule = gate.max_drop.is_some()
        || gate.max_change.is_some()
        || gate.fail_if_significant_drop.is_some()
        || gate.max_drift.is_some();
    if !delta_rule {
        return Ok(());
    }
    let (index, metric) = (gate.index, &gate.metric);
    if gate.statistic != Statistic::Mean {
        return Err(src.error(
            Some(g.span()),
            format!(
                "[[gate]] #{index} ({metric}): guarantee = \"distribution-free\" bounds means, and this gate reads the {}; gate the mean, or set [verdict] guarantee = \"regular\"",
                gate.statistic.as_str()
            ),
        ));
    }
    if gate.max_unit_loss.is_none() && !crate::metric_names::is_bounded(metric) {
        return Err(src.error(
            Some(g.get_ref().metric.span()),
            format!(
                "[[gate]] #{index} ({metric}): guarantee = \"distribution-free\" needs max-unit-loss on a metric not bounded to [0, 1]: the worst loss one query can take (e.g. max-unit-loss = 5000 for a latency in ms capped at 5 s); the observed range is not used"
            ),
        ));
    }
    Ok(())
}
