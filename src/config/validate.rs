//! Semantic checks of a parsed gate file: ranges, one rule at least per gate, well-formed slice
//! names. Each error points at the key in the file.

use std::path::Path;

use toml::{Spanned, Value};

use super::gate::{check_slice_name, gate, same_reading_per_metric};
use super::raw::RawConfig;
use super::*;

pub fn validate(raw: RawConfig, src: SourceText, base: &Path, stem: &str) -> Result<Config> {
    let err = |span: std::ops::Range<usize>, msg: String| src.error(Some(span), msg);
    let id = match &raw.id {
        Some(id) if !valid_id(id.get_ref()) => {
            return Err(err(
                id.span(),
                "id must be letters, digits, '-', '_' or '.' (it names the PR comment)".into(),
            ))
        }
        Some(id) => id.get_ref().clone(),
        None => stem
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                    c
                } else {
                    '-'
                }
            })
            .collect(),
    };

    let fmt_default = raw.inputs.format;
    let id_column = raw
        .inputs
        .id_column
        .clone()
        .unwrap_or_else(|| "query_id".into());
    let mut baseline_more = replicates(
        &src,
        base,
        &raw.inputs.baseline,
        "baseline",
        fmt_default,
        &id_column,
    )?;
    let mut candidate_more = replicates(
        &src,
        base,
        &raw.inputs.candidate,
        "candidate",
        fmt_default,
        &id_column,
    )?;
    let baseline = baseline_more.remove(0);
    let candidate = candidate_more.remove(0);
    let path_input = |s: &Option<Spanned<String>>| {
        s.as_ref().map(|p| InputSpec {
            path: resolve(base, p.get_ref()),
            written: p.get_ref().clone(),
            kind: InputKind::Metrics {
                format: None,
                id_column: id_column.clone(),
            },
            span: Some(p.span()),
        })
    };
    let queries = path_input(&raw.inputs.queries);
    let qrels = path_input(&raw.inputs.qrels);
    let noise = NoiseSettings {
        file: path_input(&raw.noise.file),
        quarantine: path_input(&raw.noise.quarantine),
        today: None,
    };
    let uses_runs = std::iter::once(&baseline)
        .chain([&candidate])
        .chain(&baseline_more)
        .chain(&candidate_more)
        .any(|i| matches!(i.kind, InputKind::Run));
    if uses_runs && qrels.is_none() {
        return Err(err(
            raw.inputs.baseline.span(),
            "a `run` input needs `qrels = \"...\"` in [inputs]".into(),
        ));
    }

    let b = &raw.bootstrap;
    let resamples = match &b.resamples {
        Some(r) if *r.get_ref() < 1 || *r.get_ref() as u64 > MAX_RESAMPLES => {
            return Err(err(
                r.span(),
                format!(
                    "[bootstrap] resamples = {}: expected 1 to {MAX_RESAMPLES}",
                    r.get_ref()
                ),
            ))
        }
        Some(r) => *r.get_ref() as u64,
        None => DEFAULT_RESAMPLES,
    };
    let seed = match &b.seed {
        Some(s) if *s.get_ref() < 0 => {
            return Err(err(s.span(), "[bootstrap] seed must be ≥ 0".into()))
        }
        Some(s) => *s.get_ref() as u64,
        None => DEFAULT_SEED,
    };
    let confidence = match &b.confidence {
        Some(c) if !(*c.get_ref() > 0.0 && *c.get_ref() < 1.0) => {
            return Err(err(
                c.span(),
                format!(
                    "[bootstrap] confidence = {}: expected a number strictly between 0 and 1",
                    c.get_ref()
                ),
            ))
        }
        Some(c) => *c.get_ref(),
        None => DEFAULT_CONFIDENCE,
    };
    let bootstrap = Bootstrap {
        resamples,
        seed,
        confidence,
        unit: b.unit.as_ref().map_or(Unit::Query, |u| *u.get_ref()),
        unit_span: b.unit.as_ref().map(|u| u.span()),
        method: b.method.unwrap_or(DEFAULT_METHOD),
    };

    let s = &raw.slices;
    for tag in &s.by {
        if tag.get_ref().trim().is_empty() || tag.get_ref().contains('=') {
            return Err(err(
                tag.span(),
                format!(
                    "[slices] by: {:?} is not a tag name (write `language`, not `language=ko`)",
                    tag.get_ref()
                ),
            ));
        }
    }
    let mut critical = Vec::new();
    for c in &s.critical {
        check_slice_name(&src, c)?;
        if c.get_ref() == "all" {
            return Err(err(
                c.span(),
                "[slices] critical: `all` is always reported; list `tag=value` slices".into(),
            ));
        }
        critical.push((c.get_ref().clone(), Some(c.span())));
    }
    let min_queries = match &s.min_queries {
        Some(m) if *m.get_ref() < 1 => {
            return Err(err(m.span(), "[slices] min-queries must be ≥ 1".into()))
        }
        Some(m) => *m.get_ref() as usize,
        None => DEFAULT_MIN_QUERIES,
    };
    let min_groups = match &s.min_groups {
        Some(m) if *m.get_ref() < 1 => {
            return Err(err(m.span(), "[slices] min-groups must be ≥ 1".into()))
        }
        Some(m) => *m.get_ref() as usize,
        None => DEFAULT_MIN_GROUPS,
    };
    let slices = Slices {
        by: s
            .by
            .iter()
            .map(|t| (t.get_ref().clone(), Some(t.span())))
            .collect(),
        critical,
        min_queries,
        min_groups,
        on_small_slice: s.on_small_slice.unwrap_or(OnSmallSlice::Warn),
    };

    let r = &raw.report;
    let worst = match &r.worst {
        Some(w) if *w.get_ref() < 0 || *w.get_ref() > 1000 => {
            return Err(err(w.span(), "[report] worst: expected 0 to 1000".into()))
        }
        Some(w) => *w.get_ref() as usize,
        None => DEFAULT_WORST,
    };
    let tie_epsilon = match &r.tie_epsilon {
        Some(t) if !(t.get_ref().is_finite() && *t.get_ref() >= 0.0) => {
            return Err(err(
                t.span(),
                "[report] tie-epsilon: expected a finite number ≥ 0".into(),
            ))
        }
        Some(t) => *t.get_ref(),
        None => DEFAULT_TIE_EPSILON,
    };
    let practical_tie = match &r.practical_tie {
        Some(t) if !(t.get_ref().is_finite() && *t.get_ref() >= 0.0) => {
            return Err(err(
                t.span(),
                "[report] practical-tie: expected a finite number ≥ 0".into(),
            ))
        }
        Some(t) => *t.get_ref(),
        None => DEFAULT_PRACTICAL_TIE,
    };
    let policy = Policy {
        max_k: match &raw.policy.max_k {
            Some(k) if *k.get_ref() < 1 => {
                return Err(err(
                    k.span(),
                    "[policy] max-k must be ≥ 1 (documents in the LLM context)".into(),
                ))
            }
            Some(k) => Some(*k.get_ref() as usize),
            None => None,
        },
    };
    let metrics = r.metrics.as_ref().map(|m| {
        m.iter()
            .map(|x| (crate::metric_names::canonical(x.get_ref()), Some(x.span())))
            .collect()
    });
    let report = ReportSettings {
        worst,
        tie_epsilon,
        practical_tie,
        metrics,
        lower_is_better: Vec::new(),
    };

    let mut gates = Vec::new();
    for (i, g) in raw.gates.iter().enumerate() {
        gates.push(gate(&src, i + 1, g, policy.max_k)?);
    }
    if gates.is_empty() {
        return Err(src.error(
            None,
            "no [[gate]] table: nothing would be judged, so nothing could fail; add one, e.g. \
             [[gate]] metric = \"ndcg@10\" max-drop = 0.01 (for a report without gates, use `rag-gate compare`)",
        ));
    }
    same_reading_per_metric(&src, &raw.gates, &gates)?;
    let judged = judged_settings(&src, &raw.judged)?;
    let warnings = no_effect_warnings(&src, &raw, &baseline, &candidate);
    let eval = raw.eval.map(|t| {
        let span = Some(t.span());
        (t.into_inner(), span)
    });
    Ok(Config {
        id,
        inputs: Inputs {
            baseline,
            candidate,
            baseline_more,
            candidate_more,
            queries,
            qrels,
            missing: raw.inputs.missing.unwrap_or(Missing::Error),
        },
        bootstrap,
        slices,
        report,
        eval,
        protocol: ProtocolSettings {
            require: raw.protocol.require.unwrap_or(false),
        },
        judged,
        gates,
        noise,
        policy,
        warnings,
        source: src,
    })
}

fn judged_settings(src: &SourceText, j: &super::raw::RawJudged) -> Result<JudgedSettings> {
    let min_judged = match &j.min_judged {
        Some(m) if !(0.0..=1.0).contains(m.get_ref()) => {
            return Err(src.error(
                Some(m.span()),
                format!(
                    "[judged] min-judged = {}: expected a share between 0 and 1, e.g. 0.9",
                    m.get_ref()
                ),
            ))
        }
        m => m.as_ref().map(|m| *m.get_ref()),
    };
    Ok(JudgedSettings {
        on_unreliable: j.on_unreliable.unwrap_or(OnUnreliable::Fail),
        min_judged,
    })
}

/// Keys that do nothing for these inputs: `[eval]` and `qrels` when no input is a run,
/// `format` and `id-column` when both are runs. A warning, not silence.
fn no_effect_warnings(
    src: &SourceText,
    raw: &RawConfig,
    baseline: &InputSpec,
    candidate: &InputSpec,
) -> Vec<String> {
    let runs = [baseline, candidate]
        .iter()
        .filter(|i| matches!(i.kind, InputKind::Run))
        .count();
    let mut w = Vec::new();
    if runs == 0 {
        if let Some(e) = &raw.eval {
            w.push(src.warning(
                Some(e.span()),
                "[eval] has no effect: no input is a run (baseline and candidate are metric files)",
            ));
        }
        if let Some(q) = &raw.inputs.qrels {
            w.push(src.warning(
                Some(q.span()),
                "[inputs] qrels has no effect: no input is a run (baseline and candidate are metric files)",
            ));
        }
    }
    if runs == 2 && (raw.inputs.format.is_some() || raw.inputs.id_column.is_some()) {
        w.push(src.warning(
            Some(raw.inputs.baseline.span()),
            "[inputs] format and id-column have no effect: both inputs are runs",
        ));
    }
    w
}

fn valid_id(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 100
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}

/// One side's input: a path or table (one run), an array of them, or `{ runs = [...] }`
/// (replicate runs of one commit). Never empty.
fn replicates(
    src: &SourceText,
    base: &Path,
    v: &Spanned<Value>,
    key: &str,
    fmt: Option<Format>,
    id_column: &str,
) -> Result<Vec<InputSpec>> {
    let span = v.span();
    let bad = |msg: &str| src.error(Some(span.clone()), format!("[inputs] {key}: {msg}"));
    let items: Vec<Value> = match v.get_ref() {
        Value::Array(a) => a.clone(),
        Value::Table(t) if t.contains_key("runs") => {
            if t.len() > 1 {
                return Err(bad(
                    "`runs = [...]` takes no other key; give a run's options per run as { run = \"...\" }",
                ));
            }
            let Some(Value::Array(runs)) = t.get("runs") else {
                return Err(bad("`runs` must be an array of paths"));
            };
            let mut out = Vec::new();
            for r in runs {
                let Value::String(p) = r else {
                    return Err(bad("`runs` must be an array of paths"));
                };
                let mut one = toml::Table::new();
                one.insert("run".into(), Value::String(p.clone()));
                out.push(Value::Table(one));
            }
            out
        }
        _ => return Ok(vec![input(src, base, v, key, fmt, id_column)?]),
    };
    if items.is_empty() {
        return Err(bad(
            "an empty list; give one path, or several replicate runs",
        ));
    }
    let specs = items
        .into_iter()
        .map(|item| {
            if matches!(item, Value::Array(_)) {
                return Err(bad("a replicate must be a path or a table, not a list"));
            }
            input(
                src,
                base,
                &Spanned::new(span.clone(), item),
                key,
                fmt,
                id_column,
            )
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(specs)
}

fn input(
    src: &SourceText,
    base: &Path,
    v: &Spanned<Value>,
    key: &str,
    fmt: Option<Format>,
    id_column: &str,
) -> Result<InputSpec> {
    let span = Some(v.span());
    let bad = |msg: String| src.error(span.clone(), format!("[inputs] {key}: {msg}"));
    match v.get_ref() {
        Value::String(p) => Ok(InputSpec {
            path: resolve(base, p),
            written: p.clone(),
            kind: InputKind::Metrics {
                format: fmt,
                id_column: id_column.to_string(),
            },
            span,
        }),
        Value::Table(t) => {
            let mut path = None;
            let mut run = None;
            let mut format = fmt;
            let mut id_col = id_column.to_string();
            for (k, val) in t {
                let text = || {
                    val.as_str()
                        .map(str::to_string)
                        .ok_or_else(|| bad(format!("`{k}` must be a string")))
                };
                match k.as_str() {
                    "path" => path = Some(text()?),
                    "run" => run = Some(text()?),
                    "id-column" => id_col = text()?,
                    "format" => {
                        let f = text()?;
                        format = Some(Format::deserialize(toml::Value::String(f.clone())).map_err(|_| {
                            bad(format!("format {f:?}: expected \"jsonl\", \"csv\", \"tsv\", \"trec-eval\" or \"ir-measures\""))
                        })?);
                    }
                    other => {
                        return Err(bad(format!(
                        "unknown key `{other}`; expected `path`, `run`, `format` or `id-column`"
                    )))
                    }
                }
            }
            match (path, run) {
                (Some(p), None) => Ok(InputSpec {
                    path: resolve(base, &p),
                    written: p,
                    kind: InputKind::Metrics {
                        format,
                        id_column: id_col,
                    },
                    span,
                }),
                (None, Some(r)) => Ok(InputSpec {
                    path: resolve(base, &r),
                    written: r,
                    kind: InputKind::Run,
                    span,
                }),
                _ => Err(bad(
                    "give exactly one of `path = \"...\"` (per-query metrics) or `run = \"...\"`"
                        .into(),
                )),
            }
        }
        _ => Err(bad(
            "expected a path string or a table like { path = \"...\" } or { run = \"...\" }, or a list of replicate runs".into(),
        )),
    }
}
