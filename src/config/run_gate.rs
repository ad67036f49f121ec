//! `[efficiency]` and the run-level `[[gate]]` tables: a gate with `max-increase`,
//! `max-decrease`, `min`, `max` or `at` is judged on the run cards' run-level values, not on
//! per-query metrics (`verdict::efficiency`). Checked here: the amounts, one kind of rule per gate,
//! a known direction, a rule that fits it, `at` only on `qps`.

use toml::{Spanned, Value};

use super::raw::{RawConfig, RawEfficiency, RawGate};
use super::*;

/// `[efficiency]`: the two run cards, and the run-level gates.
#[derive(Debug, Clone, Default)]
pub struct Efficiency {
    /// Baseline and candidate run cards; None without `[efficiency]` (or `compare`'s flags).
    pub cards: Option<[InputSpec; 2]>,
    pub gates: Vec<RunGate>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunRuleKind {
    MaxIncrease,
    MaxDecrease,
    Min,
    Max,
}

impl RunRuleKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RunRuleKind::MaxIncrease => "max-increase",
            RunRuleKind::MaxDecrease => "max-decrease",
            RunRuleKind::Min => "min",
            RunRuleKind::Max => "max",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct RunRule {
    pub kind: RunRuleKind,
    /// A fraction of the baseline when `relative` (0.10 = 10%), else in the metric's unit.
    pub amount: f64,
    pub relative: bool,
}

#[derive(Debug, Clone)]
pub struct RunGate {
    /// 1-based position in the gate file.
    pub index: usize,
    pub metric: String,
    pub metric_span: Option<Range<usize>>,
    /// `at = { "ann-recall@10" = 0.95 }`: read QPS off the curves at this recall.
    pub at: Option<(String, f64)>,
    pub rules: Vec<RunRule>,
    pub higher_is_better: bool,
    /// Conditions that may differ between the run cards (`allow-condition-change`).
    pub allow_condition_change: Vec<String>,
    pub allow_span: Option<Range<usize>>,
}

/// Whether a `[[gate]]` table is run-level (has a run-level key).
fn is_run_level(g: &RawGate) -> bool {
    g.max_increase.is_some()
        || g.max_decrease.is_some()
        || g.min.is_some()
        || g.max.is_some()
        || g.at.is_some()
        || g.allow_condition_change.is_some()
}

/// Takes the run-level gates out of `raw.gates` and reads them with `[efficiency]`; returns the
/// efficiency settings and the 1-based file positions of the gates left (the per-query ones).
pub(super) fn efficiency(
    src: &SourceText,
    base: &Path,
    raw: &mut RawConfig,
) -> Result<(Efficiency, Vec<usize>)> {
    let cards = raw.efficiency.as_ref().map(|e| cards(base, e));
    let mut gates = Vec::new();
    let mut kept = Vec::new();
    let mut left = Vec::new();
    for (i, g) in std::mem::take(&mut raw.gates).into_iter().enumerate() {
        if is_run_level(g.get_ref()) {
            gates.push(run_gate(src, i + 1, &g)?);
        } else {
            kept.push(g);
            left.push(i + 1);
        }
    }
    raw.gates = kept;
    if let (Some(g), None) = (gates.first(), &cards) {
        return Err(src.error(
            g.metric_span.clone(),
            format!(
                "[[gate]] #{} ({}) is a run-level gate: it needs the run cards, [efficiency] baseline = \"main.card.json\" and candidate = \"pr.card.json\"",
                g.index, g.metric
            ),
        ));
    }
    Ok((Efficiency { cards, gates }, left))
}

fn cards(base: &Path, e: &RawEfficiency) -> [InputSpec; 2] {
    let spec = |s: &Spanned<String>| InputSpec {
        path: resolve(base, s.get_ref()),
        written: s.get_ref().clone(),
        kind: InputKind::Metrics {
            format: None,
            id_column: String::new(),
            columns: Default::default(),
        },
        span: Some(s.span()),
    };
    [spec(&e.baseline), spec(&e.candidate)]
}

/// One run-level `[[gate]]` table, 1-based `index`.
fn run_gate(src: &SourceText, index: usize, g: &Spanned<RawGate>) -> Result<RunGate> {
    let span = g.span();
    let g = g.get_ref();
    let metric = crate::metric_names::canonical(g.metric.get_ref());
    let here = |s: Range<usize>, msg: String| {
        src.error(Some(s), format!("[[gate]] #{index} ({metric}): {msg}"))
    };
    no_per_query_keys(g).map_err(|k| {
        here(span.clone(), format!("`{k}` is a per-query rule or key, and this gate is run-level (max-increase, max-decrease, min, max, at); put it in a [[gate]] of its own"))
    })?;
    let at = match &g.at {
        Some(t) => Some(curve_target(src, index, &metric, t)?),
        None => None,
    };
    let rules = rules(src, index, &metric, g)?;
    if rules.is_empty() {
        return Err(here(
            span,
            "no rule; add max-increase, max-decrease, min or max".into(),
        ));
    }
    let higher_is_better = direction(g, &metric, at.is_some()).ok_or_else(|| {
        here(g.metric.span(), format!("is a higher {metric} better or worse? rag-gate knows it for latency, time, bytes, memory, cost (lower) and qps, docs/s, tokens/s (higher); add higher-is-better = false or true"))
    })?;
    fitting_direction(&rules, higher_is_better).map_err(|msg| here(g.metric.span(), msg))?;
    let allow = g.allow_condition_change.as_ref();
    Ok(RunGate {
        index,
        metric,
        metric_span: Some(g.metric.span()),
        at,
        rules,
        higher_is_better,
        allow_condition_change: allow.map(|a| a.get_ref().clone()).unwrap_or_default(),
        allow_span: allow.map(|a| a.span()),
    })
}

/// The first per-query key a run-level gate has, if any.
fn no_per_query_keys(g: &RawGate) -> std::result::Result<(), &'static str> {
    let given = [
        ("min-mean", g.min_mean.is_some()),
        ("max-mean", g.max_mean.is_some()),
        ("max-drop", g.max_drop.is_some()),
        ("max-change", g.max_change.is_some()),
        ("max-change", g.max_change.is_some()),
        (
            "fail-if-significant-drop",
            g.fail_if_significant_drop.is_some(),
        ),
        ("max-loss-rate", g.max_loss_rate.is_some()),
        ("statistic", g.statistic.is_some()),
        ("slices", g.slices.is_some()),
    ];
    match given.iter().find(|(_, set)| *set) {
        Some((k, _)) => Err(k),
        None => Ok(()),
    }
}

/// `higher-is-better` as written, else known from the name (`qps` read at a recall: higher).
fn direction(g: &RawGate, metric: &str, at: bool) -> Option<bool> {
    g.higher_is_better
        .or(at.then_some(true))
        .or_else(|| crate::metric_names::run_level::higher_is_better(metric))
}

/// `max-increase` on a higher-is-better metric caps an improvement: almost surely the wrong rule.
fn fitting_direction(rules: &[RunRule], higher_is_better: bool) -> std::result::Result<(), String> {
    for r in rules {
        match (r.kind, higher_is_better) {
            (RunRuleKind::MaxIncrease, true) => return Err("max-increase on a metric where higher is better caps an improvement; a drop is what hurts: use max-decrease (or set higher-is-better = false)".into()),
            (RunRuleKind::MaxDecrease, false) => return Err("max-decrease on a metric where lower is better caps an improvement; a rise is what hurts: use max-increase (or set higher-is-better = true)".into()),
            _ => {}
        }
    }
    Ok(())
}

/// The rules as written: `max-increase` / `max-decrease` as a fraction ("10%" or 0.10) or
/// `{ absolute = x }`; `min` / `max` finite bars.
fn rules(src: &SourceText, index: usize, metric: &str, g: &RawGate) -> Result<Vec<RunRule>> {
    let mut out = Vec::new();
    for (kind, v) in [
        (RunRuleKind::MaxIncrease, &g.max_increase),
        (RunRuleKind::MaxDecrease, &g.max_decrease),
    ] {
        if let Some(v) = v {
            let (amount, relative) = change_amount(v, kind).map_err(|msg| {
                src.error(
                    Some(v.span()),
                    format!("[[gate]] #{index} ({metric}): {} {msg}", kind.as_str()),
                )
            })?;
            out.push(RunRule {
                kind,
                amount,
                relative,
            });
        }
    }
    for (kind, v) in [(RunRuleKind::Min, &g.min), (RunRuleKind::Max, &g.max)] {
        if let Some(v) = v {
            if !v.get_ref().is_finite() {
                return Err(src.error(
                    Some(v.span()),
                    format!(
                        "[[gate]] #{index} ({metric}): {} must be a finite number",
                        kind.as_str()
                    ),
                ));
            }
            out.push(RunRule {
                kind,
                amount: *v.get_ref(),
                relative: false,
            });
        }
    }
    Ok(out)
}

/// A change amount: "10%" or 0.10 (a fraction of the baseline), or `{ absolute = 5 }`.
fn change_amount(
    v: &Spanned<Value>,
    kind: RunRuleKind,
) -> std::result::Result<(f64, bool), String> {
    let how = "write \"10%\" or 0.10 (a fraction of the baseline) or { absolute = 5 } (in the metric's unit)";
    let (x, relative) = match v.get_ref() {
        Value::Float(_) | Value::Integer(_) => {
            let x = v
                .get_ref()
                .as_float()
                .or(v.get_ref().as_integer().map(|i| i as f64))
                .unwrap_or(f64::NAN);
            if x > 1.0 {
                let pct = x * 100.0;
                return Err(format!("= {x}: a plain number is a fraction of the baseline, so this is {pct}%; write \"{pct}%\" if that is meant, or {{ absolute = {x} }} for {x} in the metric's unit"));
            }
            (x, true)
        }
        Value::String(s) => match s
            .trim()
            .strip_suffix('%')
            .and_then(|p| p.trim().parse::<f64>().ok())
        {
            Some(p) => (p / 100.0, true),
            None => return Err(format!("= {s:?}: {how}")),
        },
        Value::Table(t) => match (t.len(), t.get("absolute")) {
            (1, Some(a)) => (
                a.as_float()
                    .or(a.as_integer().map(|i| i as f64))
                    .unwrap_or(f64::NAN),
                false,
            ),
            _ => return Err(format!("= {}: {how}", v.get_ref())),
        },
        other => return Err(format!("= {other}: {how}")),
    };
    if !(x.is_finite() && x >= 0.0) {
        return Err(format!("must be a finite amount ≥ 0; {how}"));
    }
    if relative && kind == RunRuleKind::MaxDecrease && x > 1.0 {
        return Err("above 100%: nothing can fall by more than all of it".into());
    }
    Ok((x, relative))
}

/// `at = { "ann-recall@10" = 0.95 }`: one recall metric and a target in (0, 1]; only on `qps`.
fn curve_target(
    src: &SourceText,
    index: usize,
    metric: &str,
    t: &Spanned<toml::Table>,
) -> Result<(String, f64)> {
    let bad = |msg: &str| {
        src.error(
            Some(t.span()),
            format!("[[gate]] #{index} ({metric}): at: {msg}"),
        )
    };
    if metric != "qps" {
        return Err(bad(
            "reads a QPS-at-recall curve, so the gate's metric must be \"qps\"",
        ));
    }
    let mut it = t.get_ref().iter();
    let (Some((name, v)), None) = (it.next(), it.next()) else {
        return Err(bad(
            "give exactly one recall target, e.g. at = { \"ann-recall@10\" = 0.95 }",
        ));
    };
    match v.as_float().or(v.as_integer().map(|i| i as f64)) {
        Some(x) if x > 0.0 && x <= 1.0 => Ok((crate::metric_names::canonical(name), x)),
        _ => Err(bad(&format!(
            "{name} = {v}: a recall target is a number in (0, 1], e.g. 0.95"
        ))),
    }
}

/// `--dump-config`: one run-level gate, every rule as it reads back (a fraction as 0.1).
pub(super) fn dump(g: &RunGate) -> Value {
    let mut t = toml::Table::new();
    t.insert("metric".into(), g.metric.clone().into());
    if let Some((m, x)) = &g.at {
        let mut at = toml::Table::new();
        at.insert(m.clone(), (*x).into());
        t.insert("at".into(), at.into());
    }
    for r in &g.rules {
        let v: Value = match (r.kind, r.relative) {
            (RunRuleKind::Min | RunRuleKind::Max, _) => r.amount.into(),
            // A plain number ≤ 1 is read as a fraction; above, only "N%" is.
            (_, true) if r.amount <= 1.0 => r.amount.into(),
            (_, true) => format!("{}%", r.amount * 100.0).into(),
            (_, false) => {
                let mut a = toml::Table::new();
                a.insert("absolute".into(), r.amount.into());
                a.into()
            }
        };
        t.insert(r.kind.as_str().into(), v);
    }
    t.insert("higher-is-better".into(), g.higher_is_better.into());
    let allow = g
        .allow_condition_change
        .iter()
        .map(|s| Value::String(s.clone()));
    t.insert(
        "allow-condition-change".into(),
        Value::Array(allow.collect()),
    );
    t.into()
}
