//! Semantic checks of a parsed gate file: ranges, one rule at least per gate, well-formed slice
//! names. Each error points at the key in the file.

use std::path::Path;

use toml::{Spanned, Value};

use super::gate::{check_slice_name, gate, same_direction_per_metric};
use super::raw::{RawBootstrap, RawConfig, RawInputs, RawNoise, RawPolicy, RawReport, RawSlices};
use super::*;

/// Checks every section of the gate file in the order they are reported on: the id, [inputs],
/// [bootstrap], [slices], [report], [policy], the gates, [judged]; then the no-effect warnings.
pub fn validate(mut raw: RawConfig, src: SourceText, base: &Path, stem: &str) -> Result<Config> {
    let id = config_id(&src, &raw.id, stem)?;
    let id_column = raw
        .inputs
        .id_column
        .clone()
        .unwrap_or_else(|| "query_id".into());
    let inputs = inputs_settings(&src, base, &raw.inputs, &id_column)?;
    let noise = noise_settings(base, &raw.noise, &id_column);
    let bootstrap = bootstrap_settings(&src, &raw.bootstrap)?;
    let slices = slices_settings(&src, &raw.slices)?;
    let report = report_settings(&src, &raw.report)?;
    let policy = policy_settings(&src, &raw.policy)?;
    let (efficiency, positions) = super::run_gate::efficiency(&src, base, &mut raw)?;
    let run_level = !efficiency.gates.is_empty();
    let gates = checked_gates(&src, &raw, policy.max_k, &positions, run_level)?;
    let judged = judged_settings(&src, &raw.judged)?;
    let judge = judge_settings(&src, base, &raw, &id_column)?;
    let baseline =
        super::baseline::baseline_settings(&src, &raw.baseline, &raw.inputs.baseline_commit)?;
    let anchor =
        super::anchor::anchor_settings(&src, base, raw.anchor.as_ref(), &gates, &id_column)?;
    let probe = super::probe::probe_settings(&src, base, raw.probe.as_ref())?;
    let verdict = verdict_settings(&raw.verdict);
    if verdict.guarantee == Guarantee::DistributionFree {
        for (g, gate) in raw.gates.iter().zip(&gates) {
            super::gate::distribution_free_gate(&src, g, gate)?;
        }
    }
    let mut warnings = no_effect_warnings(&src, &raw, &inputs.baseline, &inputs.candidate);
    if raw.slices.min_moved.is_some() {
        warnings.push(
            "[slices] min-moved no longer decides a check: a pass rests on the interval (and, with guarantee = \"distribution-free\", on the worst loss of an unseen query), however few queries moved; the key is accepted and ignored".into(),
        );
    }
    let eval = raw.eval.map(|t| {
        let span = Some(t.span());
        (t.into_inner(), span)
    });
    let cfg = Config {
        id,
        inputs,
        bootstrap,
        slices,
        report,
        eval,
        protocol: ProtocolSettings {
            require: raw.protocol.require.unwrap_or(false),
        },
        judged,
        judge,
        gates,
        noise,
        policy,
        baseline,
        efficiency,
        anchor,
        probe,
        verdict,
        warnings,
        source: src,
    };
    super::keyed::refuse_unmergeable(&cfg)?;
    Ok(cfg)
}

/// `[verdict]`: every default filled in.
fn verdict_settings(v: &super::raw::RawVerdict) -> VerdictSettings {
    VerdictSettings {
        guarantee: v.guarantee.unwrap_or_default(),
        accept_blind_spot: v.accept_blind_spot.unwrap_or(false),
        on_inconclusive: v.on_inconclusive.unwrap_or_default(),
        bound_every_mean: false,
    }
}

/// `id`: as written when valid, else the gate file's stem with other characters made `-`.
fn config_id(src: &SourceText, id: &Option<Spanned<String>>, stem: &str) -> Result<String> {
    match id {
        Some(id) if !valid_id(id.get_ref()) => Err(src.error(
            Some(id.span()),
            "id must be 1 to 100 letters, digits, '-', '_' or '.' (it names the PR comment)",
        )),
        Some(id) => Ok(id.get_ref().clone()),
        None => Ok(default_id(stem)),
    }
}

/// The id of a gate file without `id`: its stem, other characters than ASCII letters, digits
/// and `-_.` made `-`.
pub fn default_id(stem: &str) -> String {
    stem.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// `[inputs]`: each side's replicates (the first is the side's input), the optional queries and
/// qrels files, and a run refused without qrels.
fn inputs_settings(
    src: &SourceText,
    base: &Path,
    raw: &RawInputs,
    id_column: &str,
) -> Result<Inputs> {
    let fmt = raw.format;
    let mut baseline_more = replicates(src, base, &raw.baseline, "baseline", fmt, id_column)?;
    let mut candidate_more = replicates(src, base, &raw.candidate, "candidate", fmt, id_column)?;
    let baseline = baseline_more.remove(0);
    let candidate = candidate_more.remove(0);
    let qrels = path_input(base, &raw.qrels, id_column);
    let uses_runs = std::iter::once(&baseline)
        .chain([&candidate])
        .chain(&baseline_more)
        .chain(&candidate_more)
        .any(|i| matches!(i.kind, InputKind::Run));
    if uses_runs && qrels.is_none() {
        return Err(src.error(
            Some(raw.baseline.span()),
            "a `run` input needs `qrels = \"...\"` in [inputs]",
        ));
    }
    Ok(Inputs {
        baseline,
        candidate,
        baseline_more,
        candidate_more,
        queries: path_input(base, &raw.queries, id_column),
        qrels,
        missing: raw.missing.unwrap_or(Missing::Error),
        group_from_id: group_from_id(src, &raw.group_from_id)?,
    })
}

/// `group-from-id = "<regex with one capture>"`, compiled; errors at the key.
fn group_from_id(src: &SourceText, raw: &Option<Spanned<String>>) -> Result<Option<regex::Regex>> {
    let Some(pattern) = raw else { return Ok(None) };
    let bad = |msg: String| {
        src.error(
            Some(pattern.span()),
            format!("[inputs] group-from-id = {:?}: {msg}", pattern.get_ref()),
        )
    };
    let re = regex::Regex::new(pattern.get_ref()).map_err(|e| {
        let first = e
            .to_string()
            .lines()
            .last()
            .unwrap_or_default()
            .trim()
            .to_string();
        bad(format!("not a valid regex ({first})"))
    })?;
    if re.captures_len() != 2 {
        return Err(bad(format!(
            "expected exactly one capture group, the group, e.g. \"^(.*)<::>\"; found {}",
            re.captures_len() - 1
        )));
    }
    Ok(Some(re))
}

/// A plain path key (queries, qrels, the noise files), read as a metric file of unknown format.
fn path_input(base: &Path, s: &Option<Spanned<String>>, id_column: &str) -> Option<InputSpec> {
    s.as_ref().map(|p| InputSpec {
        path: resolve(base, p.get_ref()),
        written: p.get_ref().clone(),
        kind: InputKind::Metrics {
            format: None,
            id_column: id_column.to_string(),
            columns: Default::default(),
        },
        span: Some(p.span()),
    })
}

/// `[noise]`: the noise file and the quarantine list; `today` is the command's to set.
fn noise_settings(base: &Path, raw: &RawNoise, id_column: &str) -> NoiseSettings {
    NoiseSettings {
        file: path_input(base, &raw.file, id_column),
        quarantine: path_input(base, &raw.quarantine, id_column),
        today: None,
    }
}

/// `[bootstrap]`: resamples in 1..=MAX_RESAMPLES, a seed ≥ 0, a confidence in (0, 1).
fn bootstrap_settings(src: &SourceText, b: &RawBootstrap) -> Result<Bootstrap> {
    let resamples = match &b.resamples {
        Some(r) if *r.get_ref() < 1 || *r.get_ref() as u64 > MAX_RESAMPLES => {
            return Err(src.error(
                Some(r.span()),
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
            return Err(src.error(Some(s.span()), "[bootstrap] seed must be ≥ 0"))
        }
        Some(s) => *s.get_ref() as u64,
        None => DEFAULT_SEED,
    };
    let confidence = match &b.confidence {
        Some(c) if !(*c.get_ref() > 0.0 && *c.get_ref() < 1.0) => {
            return Err(src.error(
                Some(c.span()),
                format!(
                    "[bootstrap] confidence = {}: expected a number strictly between 0 and 1",
                    c.get_ref()
                ),
            ))
        }
        Some(c) => *c.get_ref(),
        None => DEFAULT_CONFIDENCE,
    };
    Ok(Bootstrap {
        resamples,
        seed,
        confidence,
        unit: b.unit.as_ref().map_or(Unit::Query, |u| *u.get_ref()),
        unit_span: b.unit.as_ref().map(|u| u.span()),
        method: b.method.unwrap_or(DEFAULT_METHOD),
        weights: b
            .weights
            .as_ref()
            .map_or_else(Default::default, |w| *w.get_ref()),
        weights_span: b.weights.as_ref().map(|w| w.span()),
        failed_attempts: 0,
    })
}

/// `[slices]`: tag names in `by`, `tag=value` critical slices, the minimum sizes.
fn slices_settings(src: &SourceText, s: &RawSlices) -> Result<Slices> {
    for tag in &s.by {
        if tag.get_ref().trim().is_empty() || tag.get_ref().contains('=') {
            return Err(src.error(
                Some(tag.span()),
                format!(
                    "[slices] by: {:?} is not a tag name (write `language`, not `language=ko`)",
                    tag.get_ref()
                ),
            ));
        }
    }
    let critical = critical_slices(src, &s.critical)?;
    Ok(Slices {
        by: s
            .by
            .iter()
            .map(|t| (t.get_ref().clone(), Some(t.span())))
            .collect(),
        critical,
        min_queries: at_least_one(src, &s.min_queries, "[slices] min-queries must be ≥ 1")?
            .unwrap_or(DEFAULT_MIN_QUERIES),
        min_groups: at_least_one(src, &s.min_groups, "[slices] min-groups must be ≥ 1")?
            .unwrap_or(DEFAULT_MIN_GROUPS),
        min_moved: at_least_one(src, &s.min_moved, "[slices] min-moved must be ≥ 1")?
            .unwrap_or(DEFAULT_MIN_MOVED),
        on_small_slice: s.on_small_slice.unwrap_or(OnSmallSlice::Judge),
    })
}

/// `[slices] critical`: well-formed `tag=value` names, never `all`.
fn critical_slices(
    src: &SourceText,
    critical: &[Spanned<String>],
) -> Result<Vec<(String, Option<std::ops::Range<usize>>)>> {
    let mut out = Vec::new();
    for c in critical {
        check_slice_name(src, c)?;
        if c.get_ref() == "all" {
            return Err(src.error(
                Some(c.span()),
                "[slices] critical: `all` is always reported; list `tag=value` slices",
            ));
        }
        out.push((c.get_ref().clone(), Some(c.span())));
    }
    Ok(out)
}

/// A count key that must be ≥ 1 when given; `msg` is the error otherwise.
fn at_least_one(src: &SourceText, v: &Option<Spanned<i64>>, msg: &str) -> Result<Option<usize>> {
    match v {
        Some(m) if *m.get_ref() < 1 => Err(src.error(Some(m.span()), msg)),
        Some(m) => Ok(Some(*m.get_ref() as usize)),
        None => Ok(None),
    }
}

/// `[report]`: worst in 0..=1000, finite non-negative tie-epsilon and practical-tie, the metrics.
fn report_settings(src: &SourceText, r: &RawReport) -> Result<ReportSettings> {
    let worst = match &r.worst {
        Some(w) if *w.get_ref() < 0 || *w.get_ref() > 1000 => {
            return Err(src.error(Some(w.span()), "[report] worst: expected 0 to 1000"))
        }
        Some(w) => *w.get_ref() as usize,
        None => DEFAULT_WORST,
    };
    let tie_epsilon = non_negative(src, &r.tie_epsilon, "[report] tie-epsilon")?;
    let practical_tie = non_negative(src, &r.practical_tie, "[report] practical-tie")?;
    let metrics = r.metrics.as_ref().map(|m| {
        m.iter()
            .map(|x| (crate::metric_names::canonical(x.get_ref()), Some(x.span())))
            .collect()
    });
    Ok(ReportSettings {
        worst,
        tie_epsilon: tie_epsilon.unwrap_or(DEFAULT_TIE_EPSILON),
        practical_tie: practical_tie.unwrap_or(DEFAULT_PRACTICAL_TIE),
        metrics,
        lower_is_better: Vec::new(),
        details: r.details.unwrap_or(false),
    })
}

/// A margin key that must be a finite number ≥ 0 when given; `key` names it in the error.
fn non_negative(src: &SourceText, v: &Option<Spanned<f64>>, key: &str) -> Result<Option<f64>> {
    match v {
        Some(t) if !(t.get_ref().is_finite() && *t.get_ref() >= 0.0) => Err(src.error(
            Some(t.span()),
            format!("{key}: expected a finite number ≥ 0"),
        )),
        Some(t) => Ok(Some(*t.get_ref())),
        None => Ok(None),
    }
}

/// `[policy]`: max-k ≥ 1 when given.
fn policy_settings(src: &SourceText, p: &RawPolicy) -> Result<Policy> {
    Ok(Policy {
        max_k: at_least_one(
            src,
            &p.max_k,
            "[policy] max-k must be ≥ 1 (documents in the LLM context)",
        )?,
    })
}

/// The per-query `[[gate]]` tables, in file order (`positions`: each one's place in the file):
/// at least one unless there are run-level gates, and one reading of each metric.
fn checked_gates(
    src: &SourceText,
    raw: &RawConfig,
    max_k: Option<usize>,
    positions: &[usize],
    run_level: bool,
) -> Result<Vec<Gate>> {
    let mut gates = Vec::new();
    for (g, &index) in raw.gates.iter().zip(positions) {
        gates.push(gate(src, index, g, max_k)?);
    }
    if gates.is_empty() && !run_level {
        return Err(src.error(
            None,
            "no [[gate]] table: nothing would be judged, so nothing could fail; add one, e.g. \
             [[gate]] metric = \"ndcg@10\" max-drop = 0.01 (for a report without gates, use `rag-gate compare`)",
        ));
    }
    same_direction_per_metric(src, &raw.gates, &gates)?;
    Ok(gates)
}

/// `[judge]`: both inputs must be runs (the judge's qrels are evaluated here); the sidecar
/// defaults to the qrels path + `.judge.json`.
fn judge_settings(
    src: &SourceText,
    base: &Path,
    raw: &RawConfig,
    id_column: &str,
) -> Result<Option<super::JudgeSettings>> {
    let Some(j) = &raw.judge else { return Ok(None) };
    let span = Some(j.span());
    let j = j.get_ref();
    let runs = [&raw.inputs.baseline, &raw.inputs.candidate]
        .iter()
        .all(|v| v.get_ref().get("run").is_some());
    if !runs {
        return Err(src.error(
            span,
            "[judge] needs both inputs to be runs ({ run = \"…\" }): the judge's qrels are evaluated against them",
        ));
    }
    let qrels = path_input(base, &Some(j.qrels.clone()), id_column).expect("given");
    let sidecar_written = j.sidecar.clone().unwrap_or_else(|| {
        toml::Spanned::new(j.qrels.span(), format!("{}.judge.json", j.qrels.get_ref()))
    });
    let sidecar = path_input(base, &Some(sidecar_written), id_column).expect("given");
    let gate_on_corrected = match &j.gate_on {
        None => true,
        Some(g) => match g.get_ref().as_str() {
            "human" => false,
            "corrected" => true,
            other => {
                return Err(src.error(
                    Some(g.span()),
                    format!("[judge] gate-on = {other:?}: expected \"human\" or \"corrected\""),
                ))
            }
        },
    };
    let min_labelled = match &j.min_labelled {
        None => super::DEFAULT_JUDGE_MIN_LABELLED,
        Some(m) if *m.get_ref() >= 2 => *m.get_ref() as usize,
        Some(m) => {
            return Err(src.error(
                Some(m.span()),
                format!(
                    "[judge] min-labelled = {}: expected an integer ≥ 2",
                    m.get_ref()
                ),
            ))
        }
    };
    let min_kappa = match &j.min_kappa {
        None => None,
        Some(k) if (-1.0..=1.0).contains(k.get_ref()) => Some(*k.get_ref()),
        Some(k) => {
            return Err(src.error(
                Some(k.span()),
                format!(
                    "[judge] min-kappa = {}: expected a κ between -1 and 1, e.g. 0.4",
                    k.get_ref()
                ),
            ))
        }
    };
    let sample = path_input(base, &j.sample, id_column);
    if let (Some(s), false) = (&j.sample, gate_on_corrected) {
        return Err(src.error(
            Some(s.span()),
            "[judge] sample is read by the corrected analysis only: with gate-on = \"human\" the rules read the labelled queries unweighted, which an unequal-probability sample biases; use gate-on = \"corrected\" or remove sample",
        ));
    }
    Ok(Some(super::JudgeSettings {
        qrels,
        sidecar,
        gate_on_corrected,
        min_labelled,
        min_kappa,
        sample,
        plant_key: path_input(base, &j.plant_key, id_column),
        span,
    }))
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
        on_unreliable: j.on_unreliable.unwrap_or(OnUnreliable::Warn),
        min_judged,
        min_judged_span: j.min_judged.as_ref().map(|m| m.span()),
        condensed: j.condensed.unwrap_or(false),
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
    if runs < 2 {
        let judged = &raw.judged;
        for (key, set) in [
            ("on-unreliable", judged.on_unreliable.is_some()),
            ("condensed", judged.condensed == Some(true)),
        ] {
            if set {
                w.push(src.warning(
                    None,
                    format!("[judged] {key} has no effect: judged bounds and condensed lists need both inputs to be runs ({{ run = \"…\" }})"),
                ));
            }
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
                columns: Default::default(),
            },
            span,
        }),
        Value::Table(t) => input_table(t, base, fmt, id_column, span.clone(), &bad),
        _ => Err(bad(
            "expected a path string or a table like { path = \"...\" } or { run = \"...\" }, or a list of replicate runs".into(),
        )),
    }
}

/// The long form `{ path = "...", format, id-column, id, group, slices = {...}, metrics = {...} }`
/// or `{ run = "..." }`.
fn input_table(
    t: &toml::Table,
    base: &Path,
    fmt: Option<Format>,
    id_column: &str,
    span: Option<Range<usize>>,
    bad: &dyn Fn(String) -> crate::Error,
) -> Result<InputSpec> {
    let mut path = None;
    let mut run = None;
    let mut format = fmt;
    let mut id_col = id_column.to_string();
    let mut columns = crate::load::ColumnMap::default();
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
            "id" => columns.id = Some(text()?),
            "group" => columns.group = Some(text()?),
            "slices" => columns.slices = string_table(val, k, bad)?,
            "metrics" => columns.metrics = string_table(val, k, bad)?,
            "format" => {
                let f = text()?;
                format = Some(Format::deserialize(toml::Value::String(f.clone())).map_err(|_| {
                    bad(format!("format {f:?}: expected \"jsonl\", \"csv\", \"tsv\", \"trec-eval\" or \"ir-measures\""))
                })?);
            }
            other => {
                return Err(bad(format!(
                    "unknown key `{other}`; expected `path`, `run`, `format`, `id-column`, or a column mapping: `id`, `group`, `slices`, `metrics`"
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
                columns,
            },
            span,
        }),
        (None, Some(_)) if !columns.is_empty() => Err(bad(
            "a column mapping (id, group, slices, metrics) applies to `path` tables, not to runs"
                .into(),
        )),
        (None, Some(r)) => Ok(InputSpec {
            path: resolve(base, &r),
            written: r,
            kind: InputKind::Run,
            span,
        }),
        _ => Err(bad(
            "give exactly one of `path = \"...\"` (per-query metrics) or `run = \"...\"`".into(),
        )),
    }
}

/// `slices = { lang = "language" }` / `metrics = { "recall@5" = "context_recall" }`: names to
/// column names, every value a string; metric names canonical (`P@5` is `p@5`).
fn string_table(
    val: &Value,
    key: &str,
    bad: &dyn Fn(String) -> crate::Error,
) -> Result<std::collections::BTreeMap<String, String>> {
    let Value::Table(t) = val else {
        return Err(bad(format!(
            "`{key}` must be a table of name = \"column\", e.g. {key} = {{ {} = \"...\" }}",
            if key == "slices" {
                "lang"
            } else {
                "\"recall@5\""
            }
        )));
    };
    let mut out = std::collections::BTreeMap::new();
    for (name, column) in t {
        let Value::String(c) = column else {
            return Err(bad(format!("`{key}.{name}` must be a column name string")));
        };
        let name = if key == "metrics" {
            crate::metric_names::canonical(name)
        } else {
            name.clone()
        };
        out.insert(name, c.clone());
    }
    Ok(out)
}
