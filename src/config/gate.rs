//! Semantic checks of the `[[gate]]` tables: rules in range, at least one rule per gate,
//! well-formed slice names, and one reading (statistic, orientation) per metric.

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

pub(super) fn gate(
    src: &SourceText,
    index: usize,
    g: &Spanned<RawGate>,
    max_k: Option<usize>,
) -> Result<Gate> {
    let span = g.span();
    let g = g.get_ref();
    let metric = crate::metric_names::canonical(g.metric.get_ref());
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
    for (rule, v) in [
        ("max-drop", &g.max_drop),
        ("fail-if-significant-drop", &g.fail_if_significant_drop),
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
    if let Some(v) = &g.max_loss_rate {
        if !(0.0..=1.0).contains(v.get_ref()) {
            return Err(here(
                v,
                "max-loss-rate must be a share of queries between 0 and 1",
            ));
        }
    }
    if g.min_mean.is_none()
        && g.max_mean.is_none()
        && g.max_drop.is_none()
        && g.fail_if_significant_drop.is_none()
        && g.max_loss_rate.is_none()
    {
        return Err(src.error(
            Some(span),
            format!("[[gate]] #{index} ({metric}) has no rule; add min-mean, max-mean, max-drop, fail-if-significant-drop or max-loss-rate"),
        ));
    }
    let at_metric = |msg: String| src.error(Some(g.metric.span()), msg);
    let higher_is_better = match g.higher_is_better {
        Some(h) => h,
        None if crate::metric_names::direction_known(&metric) => true,
        None => {
            // A typo of an IR metric (`ndgc@10`) is more likely than a new column.
            let (base, cut) = metric
                .split_once('@')
                .map_or((metric.as_str(), None), |(b, k)| (b, Some(k)));
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
                    "[[gate]] #{index}: unknown metric {metric:?}; did you mean {near}? (a column rag-gate does not know needs higher-is-better = true | false)"
                )));
            }
            return Err(at_metric(format!(
                "[[gate]] #{index} ({metric}): is a higher {metric} better or worse? rag-gate knows the direction of IR metrics only; add higher-is-better = false (lower is better: latency, cost) or higher-is-better = true"
            )));
        }
    };
    if let Some(max) = max_k {
        if crate::metric_names::direction_known(&metric) {
            match crate::metric_names::cutoff(&metric) {
                Some(k) if k > max => {
                    return Err(at_metric(format!(
                        "[[gate]] #{index} ({metric}): cutoff {k} is above [policy] max-k = {max}: the model sees at most {max} documents, so documents past rank {max} cannot help it; gate a cutoff ≤ {max}"
                    )))
                }
                None => {
                    return Err(at_metric(format!(
                        "[[gate]] #{index} ({metric}): no cutoff, so it scores the whole ranking, beyond [policy] max-k = {max}; gate a cutoff ≤ {max} (e.g. {metric}@{max})"
                    )))
                }
                Some(_) => {}
            }
        }
    }
    let slices = match &g.slices {
        None => GateSlices::All,
        Some(s) => match s.get_ref() {
            Value::String(x) if x == "all" => GateSlices::All,
            Value::String(x) if x == "critical" => GateSlices::Critical,
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
                GateSlices::List(names)
            }
            _ => {
                return Err(src.error(
                    Some(s.span()),
                    format!("[[gate]] #{index}: slices must be \"all\", \"critical\" or a list like [\"all\", \"risk=compliance\"]"),
                ))
            }
        },
    };
    Ok(Gate {
        index,
        metric,
        metric_span: Some(g.metric.span()),
        min_mean: g.min_mean.as_ref().map(|v| *v.get_ref()),
        max_mean: g.max_mean.as_ref().map(|v| *v.get_ref()),
        max_drop: g.max_drop.as_ref().map(|v| *v.get_ref()),
        fail_if_significant_drop: g.fail_if_significant_drop.as_ref().map(|v| *v.get_ref()),
        max_loss_rate: g.max_loss_rate.as_ref().map(|v| *v.get_ref()),
        statistic: g.statistic.unwrap_or_default(),
        higher_is_better,
        slices,
        slices_span: g.slices.as_ref().map(|s| s.span()),
    })
}

/// A metric is compared once per slice, so every gate on it must read it the same way.
pub(super) fn same_reading_per_metric(
    src: &SourceText,
    raw: &[Spanned<RawGate>],
    gates: &[Gate],
) -> Result<()> {
    for (i, g) in gates.iter().enumerate() {
        if let Some(first) = gates[..i].iter().find(|f| f.metric == g.metric) {
            if (first.statistic, first.higher_is_better) != (g.statistic, g.higher_is_better) {
                return Err(src.error(
                    Some(raw[i].span()),
                    format!(
                        "[[gate]] #{} ({}): statistic and higher-is-better must match gate #{} on the same metric ({}, higher-is-better = {})",
                        g.index, g.metric, first.index, first.statistic.as_str(), first.higher_is_better
                    ),
                ));
            }
        }
    }
    Ok(())
}
