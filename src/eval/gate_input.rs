//! A gate file's `{ run = "..." }` input: evaluate the run against `[inputs] qrels` with the
//! policies of the `[eval]` table, giving the same `MetricTable` a metric file would.
//!
//! `[eval]` keys (all optional): `metrics` (computed besides the gated ones), `rel-level`,
//! `gain` ("linear" | "exponential"), `order` ("score" | "rank" | "given"), `empty-gold`
//! ("exclude" | "zero" | "error"), `qrels-format` and `run-format` ("trec" | "jsonl" | "json" | "beir" | "msmarco" | "llamaindex" | "parquet"),
//! `corpus` and `chunk-map` (paths relative to the gate file), `judged-only` (condensed lists,
//! trec_eval -J).

use crate::choice::Choice;
use serde::Deserialize;

use super::{EvalOptions, Format, Role};
use crate::config::{resolve, Config, InputKind, InputSpec};
use crate::error::Result;
use crate::load::MetricTable;
use crate::model::EvalSettings;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct EvalSection {
    metrics: Option<Vec<String>>,
    rel_level: Option<i64>,
    gain: Option<String>,
    order: Option<String>,
    empty_gold: Option<String>,
    qrels_format: Option<String>,
    run_format: Option<String>,
    corpus: Option<String>,
    chunk_map: Option<String>,
    judged_only: Option<bool>,
}

fn choice<T: Choice>(cfg: &Config, key: &str, v: &Option<String>) -> Result<Option<T>> {
    let span = cfg.eval.as_ref().and_then(|(_, s)| s.clone());
    match v {
        None => Ok(None),
        Some(s) => T::parse(s).map(Some).ok_or_else(|| {
            cfg.error_at(
                &span,
                format!(
                    "[eval] {key} = {s:?}: expected one of {}",
                    T::quoted_names()
                ),
            )
        }),
    }
}

/// The evaluation options and the extra metrics from `[eval]`.
pub fn eval_options(cfg: &Config) -> Result<(EvalOptions, Vec<String>)> {
    let (section, span) = match &cfg.eval {
        Some((t, span)) => {
            let s = EvalSection::deserialize(toml::Value::Table(t.clone()))
                .map_err(|e| cfg.error_at(span, format!("[eval]: {}", e.message())))?;
            (s, span.clone())
        }
        None => (EvalSection::default(), None),
    };
    // Paths in [eval] are relative to the gate file's folder, like every path in it.
    let base = std::path::Path::new(&cfg.source.shown)
        .parent()
        .unwrap_or(std::path::Path::new(""))
        .to_path_buf();
    let mut opts = EvalOptions::default();
    if let Some(l) = section.rel_level {
        if !(1..=i64::from(i32::MAX)).contains(&l) {
            return Err(cfg.error_at(
                &span,
                format!("[eval] rel-level = {l}: expected an integer ≥ 1"),
            ));
        }
        opts.rel_level = l as i32;
    }
    if let Some(g) = choice(cfg, "gain", &section.gain)? {
        opts.gain = g;
    }
    opts.order = choice(cfg, "order", &section.order)?;
    if let Some(e) = choice(cfg, "empty-gold", &section.empty_gold)? {
        opts.empty_gold = e;
    }
    opts.qrels_format = choice(cfg, "qrels-format", &section.qrels_format)?;
    opts.run_format = choice(cfg, "run-format", &section.run_format)?;
    opts.judged_only = section.judged_only.unwrap_or(false);
    opts.corpus = section.corpus.as_deref().map(|p| resolve(&base, p));
    opts.chunk_map = section.chunk_map.as_deref().map(|p| resolve(&base, p));
    let metrics = section
        .metrics
        .unwrap_or_default()
        .iter()
        .map(|m| crate::metric_names::canonical(m))
        .collect();
    Ok((opts, metrics))
}

/// The judged@k metric of each cutoff the gates use (judged coverage of the gated top k).
pub fn judged_metrics(cfg: &Config) -> Vec<String> {
    let mut out: Vec<String> = cfg
        .gates
        .iter()
        .filter_map(|g| super::Metric::parse(&g.metric).ok()?.k)
        .map(|k| format!("judged@{k}"))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Where one side's run ranked each query's relevant documents, by query id.
pub type Ranks = std::collections::BTreeMap<String, Vec<crate::model::RelevantRank>>;

/// The ranks of every query's relevant documents in an evaluation (to explain regressions).
pub fn ranks(ev: &super::Evaluation) -> Ranks {
    ev.rows
        .iter()
        .map(|r| (r.qid.clone(), r.relevant.clone()))
        .collect()
}

/// The effective `[eval]` settings, defaults filled in (for `--dump-config` and the report).
pub fn eval_settings(cfg: &Config) -> Result<EvalSettings> {
    let (opts, metrics) = eval_options(cfg)?;
    let runs: Vec<&InputSpec> = [&cfg.inputs.baseline, &cfg.inputs.candidate]
        .into_iter()
        .filter(|i| matches!(i.kind, InputKind::Run))
        .collect();
    let run_formats: Vec<Format> = runs
        .iter()
        .map(|r| {
            opts.run_format.unwrap_or_else(|| {
                let shown = r.path.display().to_string();
                Format::resolve(&r.path, &shown, Role::Run, None)
                    .unwrap_or_else(|_| Format::from_path(&r.path))
            })
        })
        .collect();
    let run_format = match (opts.run_format, run_formats.as_slice()) {
        (Some(f), _) => Some(f),
        (None, [a, b]) if a == b => Some(*a),
        (None, [a]) => Some(*a),
        _ => None,
    };
    let order = opts.order.or(run_format.map(Format::default_order));
    let qrels_format = opts.qrels_format.unwrap_or_else(|| {
        cfg.inputs.qrels.as_ref().map_or(Format::Trec, |q| {
            let shown = q.path.display().to_string();
            Format::resolve(&q.path, &shown, Role::Qrels, None)
                .unwrap_or_else(|_| Format::from_path(&q.path))
        })
    });
    let section = cfg.eval.as_ref().map(|(t, _)| t);
    let written = |key: &str| section.and_then(|t| t.get(key)?.as_str().map(str::to_string));
    Ok(EvalSettings {
        metrics,
        rel_level: opts.rel_level,
        gain: opts.gain.name().to_string(),
        order: order.map(|o| o.name().to_string()),
        empty_gold: opts.empty_gold.name().to_string(),
        qrels_format: Choice::name(qrels_format).to_string(),
        run_format: run_format.map(|f| Choice::name(f).to_string()),
        corpus: written("corpus"),
        chunk_map: written("chunk-map"),
        judged_only: opts.judged_only,
    })
}

/// The `[eval]` table as `--dump-config` prints it.
pub fn eval_table(s: &EvalSettings) -> toml::Table {
    let mut t = toml::Table::new();
    let strings = |v: &[String]| toml::Value::Array(v.iter().cloned().map(Into::into).collect());
    t.insert("metrics".into(), strings(&s.metrics));
    t.insert("rel-level".into(), i64::from(s.rel_level).into());
    t.insert("gain".into(), s.gain.clone().into());
    let optional = [
        ("order", &s.order),
        ("run-format", &s.run_format),
        ("corpus", &s.corpus),
        ("chunk-map", &s.chunk_map),
    ];
    t.insert("empty-gold".into(), s.empty_gold.clone().into());
    t.insert("qrels-format".into(), s.qrels_format.clone().into());
    t.insert("judged-only".into(), s.judged_only.into());
    for (k, v) in optional {
        if let Some(v) = v {
            t.insert(k.into(), v.clone().into());
        }
    }
    t
}

/// Evaluates one side's run; returns its per-query table, a line for the report's warnings, and
/// the evaluation itself (with each query's unjudged docs in the gated top k and the optimistic
/// values, for the judged bounds; judged@k columns the gates did not ask for stay out of the table).
pub fn evaluate_run(
    cfg: &Config,
    spec: &InputSpec,
    wanted: &[String],
) -> Result<(MetricTable, String, super::Evaluation)> {
    let qrels = cfg
        .inputs
        .qrels
        .as_ref()
        .expect("validated: run inputs come with qrels");
    evaluate_run_with(cfg, spec, wanted, (false, &Default::default()), qrels)
}

/// [`evaluate_run`] against other qrels (a judge's, `[judge] qrels`), with the same policies.
pub fn evaluate_run_against(
    cfg: &Config,
    spec: &InputSpec,
    wanted: &[String],
    qrels: &InputSpec,
    withheld: &super::qrels::Withheld,
) -> Result<(MetricTable, String, super::Evaluation)> {
    evaluate_run_with(cfg, spec, wanted, (false, withheld), qrels)
}

/// The run's table on condensed lists (unjudged docs removed first, trec_eval -J), for
/// `[judged] condensed = true`.
pub fn evaluate_condensed(
    cfg: &Config,
    spec: &InputSpec,
    wanted: &[String],
) -> Result<MetricTable> {
    let qrels = cfg
        .inputs
        .qrels
        .as_ref()
        .expect("validated: run inputs come with qrels");
    Ok(evaluate_run_with(cfg, spec, wanted, (true, &Default::default()), qrels)?.0)
}

fn evaluate_run_with(
    cfg: &Config,
    spec: &InputSpec,
    wanted: &[String],
    (condensed, withheld): (bool, &super::qrels::Withheld),
    qrels: &InputSpec,
) -> Result<(MetricTable, String, super::Evaluation)> {
    let (mut opts, extra) = eval_options(cfg)?;
    opts.withheld = withheld.clone();
    opts.keep_ranks = true;
    let mut metrics: Vec<String> = wanted.iter().chain(&extra).cloned().collect();
    metrics.sort();
    metrics.dedup();
    if metrics.is_empty() {
        return Err(cfg.error_at(&spec.span, "a run input needs metrics to compute: add gates, or [eval] metrics = [\"ndcg@10\", ...]"));
    }
    let shown_metrics = metrics.clone();
    let judged = judged_metrics(cfg);
    metrics.extend(judged.iter().cloned());
    metrics.sort();
    metrics.dedup();
    opts.optimistic = !cfg.gates.is_empty();
    opts.unjudged_depth = cfg
        .gates
        .iter()
        .filter_map(|g| super::Metric::parse(&g.metric).ok())
        .map(|m| m.k.unwrap_or(usize::MAX))
        .max()
        .unwrap_or(0);
    if condensed {
        opts.judged_only = true;
        opts.optimistic = false;
        opts.unjudged_depth = 0;
    }
    let to_cfg_error = |e| match e {
        crate::Error::Usage(m) => cfg.error_at(&spec.span, m),
        other => other,
    };
    let ms = super::Metric::parse_list(&metrics.join(","))
        .map_err(crate::Error::Usage)
        .map_err(to_cfg_error)?;
    let ev = super::evaluate(
        &qrels.path,
        &qrels.shown(),
        &spec.path,
        &spec.shown(),
        &ms,
        &opts,
    )
    .map_err(to_cfg_error)?;
    let mut table = ev.to_table(&spec.shown());
    table.metrics.retain(|m, _| shown_metrics.contains(m));
    let note = evaluation_note(spec, qrels, &ev);
    Ok((table, note, ev))
}

/// The note a run input's evaluation leaves in the report: what was evaluated against what,
/// the queries excluded, scored 0 or ignored, graded-only queries, score disagreements, and a
/// run read through a pipe (its run context unknown).
fn evaluation_note(spec: &InputSpec, qrels: &InputSpec, ev: &super::Evaluation) -> String {
    let summary = &ev.summary;
    let mut note = format!(
        "{}: evaluated {} against {} ({} without a relevant doc excluded, {} absent from the run scored 0, {} run-only ignored)",
        spec.written,
        crate::numbers::count(summary.evaluated, "query", "queries"),
        qrels.written,
        summary.excluded.len(),
        summary.missing_from_run.len(),
        summary.run_only_ignored
    );
    if !summary.graded_only.is_empty() {
        note.push_str(&format!(
            "; {} with no doc at rel-level {} but graded judgments kept for nDCG, their binary metrics 0: {}",
            crate::numbers::count(summary.graded_only.len(), "query", "queries"),
            summary.policies.rel_level,
            crate::error::few(&summary.graded_only, 5)
        ));
    }
    if let Some(n) = super::engine::shallow_note(&spec.written, summary) {
        note.push_str("; ");
        note.push_str(n.trim_start_matches("note: "));
    }
    if !summary.no_relevant.is_empty() {
        note.push_str(&format!(
            "; {} with no doc at rel-level {} kept (empty-gold = \"zero\"), their binary metrics 0: {}",
            crate::numbers::count(summary.no_relevant.len(), "query", "queries"),
            summary.policies.rel_level,
            crate::error::few(&summary.no_relevant, 5)
        ));
    }
    if let Some(w) = super::engine::disagree_warning(&spec.written, &summary.scores_disagree) {
        note.push_str("; ");
        note.push_str(w.trim_start_matches("warning: "));
    }
    if summary.policies.run_format == super::Format::Trec
        && !super::engine::is_regular_file(&spec.path)
    {
        note.push_str(
            "; it came through a pipe or device, which is read once: an ir_metadata header in it \
             (tag, method, model) is not read, so its run context is unknown (shown as —); give \
             the run as a file to keep it",
        );
    }
    note
}

/// The queries either run ranked that the qrels do not judge (unjudged: ignored and counted).
pub fn unjudged_ids(evs: [&super::Evaluation; 2]) -> std::collections::BTreeSet<&str> {
    evs.iter()
        .flat_map(|e| e.summary.run_only.iter().map(String::as_str))
        .collect()
}

/// The warning for judged queries a side's run has no ranking for (scored 0): the ids, so a
/// crashed or truncated retriever is named, not only counted.
pub fn unranked_warning(side: &str, run: &str, ev: &super::Evaluation) -> Option<String> {
    let lacking = &ev.summary.missing_from_run;
    (!lacking.is_empty()).then(|| {
        format!(
            "the {side} run {run} has no ranking for {} of the qrels (each scored 0): {}",
            crate::numbers::count(lacking.len(), "judged query", "judged queries"),
            crate::error::few(lacking, 5)
        )
    })
}
