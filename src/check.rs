//! The `check` and `compare` commands: load → pair → resample → verdict → report (→ publish).
//! Plain functions from one stage to the next; nothing here prints.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::config::{Config, InputKind, InputSpec, Unit};
use crate::error::{few, Error, Result};
use crate::eval::gate_input::{ranks, Ranks};
use crate::eval::holes::Hole;
use crate::eval::Evaluation;
use crate::eval::Metric;
use crate::load::{self, MetricTable, Rows};
use crate::model::looks::{AttemptExtra, AttemptValues, Earlier, PooledRule};
use crate::model::{
    Comparison, GateResult, InputsInfo, NoiseReport, PairingInfo, Report, Verdict, SCHEMA_VERSION,
};
use crate::pair::Paired;
use crate::protocol::verify::{verify, ProtocolReport, Side};
use crate::protocol::Protocol;
use crate::report;
use crate::slices::Slice;
use crate::{pair, resample, slices, verdict};

pub mod anchor;
pub mod attempts;
pub mod keyed;
pub mod probe;

/// One side as loaded: its table, a note for the warnings, its protocol fingerprint (a metric
/// file's sidecar, or the evaluation's own) and, for a run, the evaluation.
struct Loaded {
    table: MetricTable,
    note: Option<String>,
    protocol: Option<Protocol>,
    eval: Option<Evaluation>,
    /// A run's table on condensed lists (`[judged] condensed = true`).
    condensed: Option<MetricTable>,
}

/// Loads one side: a per-query metric file, or a run evaluated against the qrels (with a note
/// for the report's warnings saying what the evaluation left out).
fn load_side(cfg: &Config, spec: &InputSpec, metrics_wanted: &[String]) -> Result<Loaded> {
    let mut side = match &spec.kind {
        InputKind::Metrics {
            format,
            id_column,
            columns,
        } => {
            let table = load::load_metrics(&spec.path, &spec.shown(), *format, id_column, columns)?;
            let protocol = load::protocol::read_sidecar(&spec.path, &spec.shown())?;
            if let Some(p) = &protocol {
                load::protocol::check_query_set(p, &table, &spec.shown())?;
            }
            Loaded {
                note: table.rounded_to.map(|d| rounded_note(&spec.shown(), d)),
                table,
                protocol,
                eval: None,
                condensed: None,
            }
        }
        InputKind::Run => {
            let (t, note, ev) = crate::eval::gate_input::evaluate_run(cfg, spec, metrics_wanted)?;
            let condensed = match cfg.judged.condensed {
                true => Some(crate::eval::gate_input::evaluate_condensed(
                    cfg,
                    spec,
                    metrics_wanted,
                )?),
                false => None,
            };
            Loaded {
                table: t,
                note: Some(note),
                protocol: ev.summary.protocol.clone(),
                eval: Some(ev),
                condensed,
            }
        }
    };
    side.table.source = spec.shown();
    Ok(side)
}

/// The note for a metric file whose values were rounded to `places` decimals (trec_eval `-q`
/// prints 4): what the rounding means for ties and for small deltas.
fn rounded_note(shown: &str, places: u32) -> String {
    let zeros = "0".repeat(places.saturating_sub(1) as usize);
    let (step, half) = (format!("0.{zeros}1"), format!("0.{zeros}05"));
    format!(
        "{shown}: every value carries {places} decimals (trec_eval -q prints 4): each per-query \
         value is rounded, off by up to ±{half}, so queries that differ by less than {step} read as \
         ties and a delta or threshold finer than {step} is below what the file can show; for \
         full precision evaluate the run with rag-gate eval (or give it as a {{ run = \"...\" }} \
         input with qrels) or export more decimals"
    )
}

/// The two sides' fingerprints checked against each other for the compared metrics.
fn check_protocol<'a>(
    cfg: &'a Config,
    base: &'a Loaded,
    cand: &'a Loaded,
    metrics: &[String],
) -> Result<ProtocolReport> {
    let side = |name, spec: &'a InputSpec, l: &'a Loaded| Side {
        name,
        written: &spec.written,
        protocol: l.protocol.as_ref(),
        evaluated_here: l.eval.is_some(),
    };
    verify(
        cfg.protocol.require,
        &side("baseline", &cfg.inputs.baseline, base),
        &side("candidate", &cfg.inputs.candidate, cand),
        metrics,
    )
}

/// The further replicates of each side (read in parallel; the first failing file in gate-file
/// order is the error, so the message does not depend on timing) and their evaluation notes.
fn load_replicates(
    cfg: &Config,
    wanted: &[String],
) -> Result<([Vec<MetricTable>; 2], Vec<String>)> {
    use rayon::prelude::*;
    let specs: Vec<(usize, &InputSpec)> = cfg
        .inputs
        .baseline_more
        .iter()
        .map(|s| (0, s))
        .chain(cfg.inputs.candidate_more.iter().map(|s| (1, s)))
        .collect();
    let loaded: Vec<Result<Loaded>> = specs
        .par_iter()
        .map(|(_, spec)| load_side(cfg, spec, wanted))
        .collect();
    let mut sides: [Vec<MetricTable>; 2] = [Vec::new(), Vec::new()];
    let mut notes = Vec::new();
    for ((side, _), one) in specs.iter().zip(loaded) {
        let one = one?;
        sides[*side].push(one.table);
        notes.extend(one.note);
    }
    Ok((sides, notes))
}

/// The crossed interval is for means; a median or p95 gate with replicate runs in the gate
/// file (or on the command line) is refused. A re-run's earlier attempts are not refused: a
/// median or p95 stacks their runs (`stats::harrell_davis::pooled_difference`).
fn refuse_quantiles_with_replicates(cfg: &Config) -> Result<()> {
    let i = &cfg.inputs;
    if i.baseline_more.is_empty() && i.candidate_more.is_empty() {
        return Ok(());
    }
    match cfg
        .gates
        .iter()
        .find(|g| g.statistic != crate::stats::statistic::Statistic::Mean)
    {
        Some(g) => Err(cfg.error_at(
            &g.metric_span,
            format!(
                "[[gate]] #{} ({}): statistic = \"{}\" with replicate runs: the replicate-aware interval is for means; gate the mean, or give one run per side",
                g.index,
                g.metric,
                g.statistic.as_str()
            ),
        )),
        None => Ok(()),
    }
}

/// A median or p95 gate resamples every slice's queries for every resample (and a close call
/// again with `RERUN_FACTOR` times more): its cost is bounded by
/// `resample::MAX_QUANTILE_DRAWS`, counted at the worst case before any resampling, so no input
/// size makes a quantile gate run for hours. Over it: exit 2 with the resamples that fit. On
/// pooled attempts each query counts once per stacked run.
fn refuse_quantiles_over_budget(cfg: &Config, slices: &[Slice], paired: &Paired) -> Result<()> {
    use crate::stats::statistic::Statistic;
    let runs = paired.replicates.as_ref().map_or(1, |r| {
        r.metrics
            .keys()
            .map(|m| r.stackable(m).len())
            .max()
            .unwrap_or(1)
    }) as u64;
    let units: u64 = slices
        .iter()
        .map(|s| s.members.len() as u64)
        .sum::<u64>()
        .saturating_mul(runs.max(1));
    let per_resample = units.saturating_mul(1 + resample::estimate::RERUN_FACTOR as u64);
    let mut metrics: Vec<&str> = Vec::new();
    for g in cfg.gates.iter().filter(|g| g.statistic != Statistic::Mean) {
        if !metrics.contains(&g.metric.as_str()) {
            metrics.push(&g.metric);
        }
    }
    let draws = per_resample
        .saturating_mul(metrics.len() as u64)
        .saturating_mul(cfg.bootstrap.resamples);
    let budget = resample::MAX_QUANTILE_DRAWS;
    let Some(g) = cfg
        .gates
        .iter()
        .find(|g| g.statistic != Statistic::Mean)
        .filter(|_| draws > budget)
    else {
        return Ok(());
    };
    let fits = budget / per_resample.saturating_mul(metrics.len() as u64).max(1);
    Err(cfg.error_at(
        &g.metric_span,
        format!(
            "[[gate]] #{} ({}): statistic = \"{}\" on {} metric(s) × {units} query-slice memberships × {} resamples (× {} with the close-call re-run) is {draws} draws, over the budget of {budget} (about 3 minutes on 2 cores); set [bootstrap] resamples to at most {fits}, gate fewer slices, or gate the mean",
            g.index,
            crate::safe_text::shown(&g.metric),
            g.statistic.as_str(),
            metrics.len(),
            cfg.bootstrap.resamples,
            1 + resample::estimate::RERUN_FACTOR,
        ),
    ))
}

/// When both inputs are runs, each worst regression says how its relevant documents moved
/// (within the metric's cutoff; the top 1000, trec_eval's usual depth, for metrics without one).
fn explain_regressions(comparisons: &mut [Comparison], base: &Ranks, cand: &Ranks) {
    for c in comparisons {
        let cutoff = Metric::parse_list(&c.metric)
            .ok()
            .and_then(|m| m.first().and_then(|m| m.k))
            .unwrap_or(1000);
        for q in &mut c.worst {
            if let (Some(b), Some(k)) = (base.get(&q.query_id), cand.get(&q.query_id)) {
                q.moves = crate::eval::moves::rank_moves(b, k, cutoff);
            }
        }
    }
}

/// A file that cannot be opened names the gate-file key and line that named it
/// (`gate.toml:3:13: [inputs] candidate: c.jsonl: opening: No such file …`).
fn at_key(cfg: &Config, e: crate::Error) -> crate::Error {
    let crate::Error::Io { path, .. } = &e else {
        return e;
    };
    let i = &cfg.inputs;
    let named = [
        ("baseline", Some(&i.baseline)),
        ("candidate", Some(&i.candidate)),
        ("queries", i.queries.as_ref()),
        ("qrels", i.qrels.as_ref()),
    ]
    .into_iter()
    .find_map(|(key, spec)| {
        spec.filter(|s| s.span.is_some() && &s.shown() == path)
            .map(|s| (key, s))
    });
    match named {
        Some((key, spec)) => cfg.error_at(&spec.span, format!("[inputs] {key}: {e}")),
        None => e,
    }
}

/// Metric names the gate file needs: every gated metric and `[report] metrics`.
fn wanted_metrics(cfg: &Config) -> Vec<String> {
    let mut m: Vec<String> = cfg.gates.iter().map(|g| g.metric.clone()).collect();
    if let Some(r) = &cfg.report.metrics {
        m.extend(r.iter().map(|(n, _)| n.clone()));
    }
    m.sort();
    m.dedup();
    m
}

/// Runs the whole analysis and judges the gates. The report is complete; nothing is written.
pub fn analyze(cfg: &Config) -> Result<Report> {
    Ok(analyze_full(cfg)?.report)
}

/// The report, and the unjudged documents of the gated cutoffs (for `--holes`; empty unless
/// `check` evaluated both runs).
pub struct Analysis {
    pub report: Report,
    pub holes: Vec<crate::eval::holes::Hole>,
    /// The probe's next labelling batch (`--probe-batch`; empty without `[probe]`).
    pub probe_batch: Vec<crate::eval::holes::Hole>,
    /// This attempt's own candidate results (kept in the sticky comment's state).
    pub own: AttemptValues,
    /// What the rules beyond them read of this attempt (kept there too).
    pub extra: AttemptExtra,
}

/// [`analyze`], keeping the holes.
pub fn analyze_full(cfg: &Config) -> Result<Analysis> {
    analyze_with(cfg, &Earlier::default())
}

/// [`analyze_full`] with the earlier attempts of the judged commit pooled into the candidate.
pub fn analyze_with(cfg: &Config, earlier: &Earlier) -> Result<Analysis> {
    if cfg.bootstrap.weights == crate::config::Weights::Keyed {
        return keyed::analyze(cfg);
    }
    analyze_pooling(cfg, earlier, (&[], 0))
}

/// [`analyze`] with `pooled` (earlier attempts' runs, rows keyed by query id; the first
/// `summarised` stand for summarised attempts) added to the candidate's replicates: the anchor
/// analysis of a pooled candidate reads what its verdict against the baseline read.
pub fn analyze_pooled_runs(
    cfg: &Config,
    (pooled, summarised): (&[MetricTable], usize),
) -> Result<Report> {
    Ok(analyze_pooling(cfg, &Earlier::default(), (pooled, summarised))?.report)
}

/// Earlier attempts' runs, the first `.1` standing for summarised attempts.
type PooledRuns<'a> = (&'a [MetricTable], usize);

fn analyze_pooling(cfg: &Config, earlier: &Earlier, extra: PooledRuns<'_>) -> Result<Analysis> {
    refuse_unsupported_confidence(cfg)?;
    let mut inputs = load_pooled(cfg, extra)?;
    let context = inputs.base.protocol.as_ref().map(|p| &p.run_context);
    let baseline = crate::provenance::assess::assess(cfg, context)?;
    let (efficiency, mut pooling) = efficiency_section(cfg, earlier)?;
    let (base, cand) = (&inputs.base.table, &inputs.cand.table);
    let shared = pair::shared_metrics(base, cand);
    let metrics = choose_metrics(cfg, base, cand, &shared)?;
    let protocol = check_protocol(cfg, &inputs.base, &inputs.cand, &metrics)?;
    let (mut paired, own, pooled) = pair_inputs(cfg, &inputs, &metrics, earlier)?;
    let spent = spent_config(cfg, pooled.failed);
    let cfg = spent.as_ref().unwrap_or(cfg);
    paired
        .warnings
        .splice(0..0, earlier.warnings.iter().cloned());
    let probe_sides = probe::load(cfg, &paired.ids)?;
    let mut slices = slices::build(cfg, &paired)?;
    before_resampling(cfg, &mut inputs, (&paired, &slices), &metrics)?;
    let (quarantined, quarantine_warnings) =
        crate::noise::apply::quarantine(cfg, &paired, &mut slices)?;
    let noise_file = crate::noise::apply::read_file(cfg)?;
    let bands = noise_file
        .as_ref()
        .map(|(spec, file)| crate::noise::band::Bands {
            file,
            written: &spec.written,
            tie_epsilon: cfg.report.tie_epsilon,
            scale: crate::noise::band::scale(paired.replicates.as_ref().map(|r| r.counts)),
        });
    let (mut judged, holes) = compare_and_judge(
        cfg,
        &inputs,
        (&paired, &slices, bands.as_ref()),
        (&metrics, earlier),
    )?;
    pooling.join(std::mem::take(&mut judged.pooling));
    let (noise, noise_warnings) = crate::noise::apply::report(
        cfg,
        &paired,
        &judged.comparisons,
        quarantined,
        noise_file.as_ref().map(|(spec, f)| (*spec, f)),
    )?;
    let found = Findings {
        warnings: gather_warnings(
            cfg,
            &protocol,
            &paired,
            [
                baseline.warnings,
                judged.warnings,
                quarantine_warnings,
                noise_warnings,
                nondeterministic_without_noise(cfg, &paired, efficiency.as_ref()),
            ],
        ),
        notes: gather_notes(
            cfg,
            &inputs,
            &metrics,
            &shared,
            (&paired.notes, judged.notes),
        ),
        ..judged
    };
    let mut report = build_report(cfg, paired.info.clone(), found, protocol, noise)?;
    report.baseline = Some(baseline.info);
    let probe_batch = probe_part(cfg, &mut report, probe_sides)?;
    anchor::judge_anchor(cfg, &mut report, (&pooled.tables, pooled.summarised))?;
    efficiency_part(&mut report, efficiency);
    attempts_section(&mut report, pooled, (earlier, &pooling));
    Ok(Analysis {
        report,
        holes,
        probe_batch,
        own,
        extra: pooling.extra(),
    })
}

/// The run cards' section and its say in the verdict.
fn efficiency_part(report: &mut Report, efficiency: Option<crate::model::EfficiencyReport>) {
    if let Some(e) = efficiency {
        verdict::efficiency::add_to_verdict(report, &e);
        report.efficiency = Some(e);
    }
}

/// A re-run after `failed` failing attempts of its candidate is judged at the spent level
/// (`verdict::spent`); None: the configuration as it is.
fn spent_config(cfg: &Config, failed: u32) -> Option<Config> {
    (failed > 0).then(|| {
        let mut c = cfg.clone();
        c.bootstrap.failed_attempts = failed;
        c
    })
}

/// `[probe]`: its statistics, its say in the verdict (the verdict and headline judged again
/// from the gates) and its part of the report; returns the next labelling batch.
fn probe_part(cfg: &Config, report: &mut Report, sides: Option<probe::Sides>) -> Result<Vec<Hole>> {
    let (Some(settings), Some(sides)) = (&cfg.probe, sides) else {
        return Ok(Vec::new());
    };
    let mut found = probe::analyze(cfg, settings, sides)?;
    verdict::probe::apply(report, &mut found.report);
    report.verdict = verdict::verdict(&report.gates);
    report.headline = verdict::headline_at(
        &report.gates,
        &report.comparisons,
        1.0 - cfg.bootstrap.confidence,
    );
    found.report.moved.truncate(crate::model::probe::LISTED);
    report.probe = Some(found.report);
    Ok(found.batch)
}

/// [`load_inputs`] with `extra` (earlier attempts' runs, the first `summarised` standing for
/// summarised attempts) among the candidate's replicates.
fn load_pooled(cfg: &Config, (extra, summarised): (&[MetricTable], usize)) -> Result<Inputs> {
    let mut inputs = load_inputs(cfg, &wanted_metrics(cfg))?;
    let at = 1 + inputs.more[1].len();
    inputs.summarised = at..at + summarised;
    inputs.more[1].extend(extra.iter().cloned());
    Ok(inputs)
}

/// Before the resampling: the quantile gates' budget, the `-v` sizes, and what pairing leaves
/// unread let go ([`release_tables`]).
fn before_resampling(
    cfg: &Config,
    inputs: &mut Inputs,
    (paired, slices): (&Paired, &[Slice]),
    metrics: &[String],
) -> Result<()> {
    refuse_quantiles_over_budget(cfg, slices, paired)?;
    say_sizes(cfg, inputs, (paired, slices), metrics);
    release_tables(cfg, inputs);
    Ok(())
}

/// What pairing leaves unread of two metric files: the replicates' tables (copied into the
/// pairing), the queries file and each side's rows and values, unless the side has a gated
/// `judged@k` column (read again for the judged figures); the metric names stay (for the
/// notes). Runs keep everything (their evaluations are read again). At 10M queries the two
/// tables are GBs the resampling no longer holds.
fn release_tables(cfg: &Config, inputs: &mut Inputs) {
    if inputs.base.eval.is_some() || inputs.cand.eval.is_some() {
        return;
    }
    let judged: Vec<String> = cfg
        .gates
        .iter()
        .filter_map(|g| Metric::parse(&g.metric).ok()?.k)
        .map(|k| format!("judged@{k}"))
        .collect();
    for side in [&mut inputs.base, &mut inputs.cand] {
        let t = &mut side.table;
        if judged.iter().any(|c| t.metrics.contains_key(c)) {
            continue;
        }
        t.rows = Rows::default();
        t.metrics.values_mut().for_each(|v| *v = Default::default());
    }
    inputs.more = Default::default();
    inputs.queries = None;
}

/// The `-v` lines: the rows each side gave, the pairing, the bootstrap's size.
fn say_sizes(
    cfg: &Config,
    inputs: &Inputs,
    (paired, slices): (&Paired, &[Slice]),
    metrics: &[String],
) {
    for (side, t) in [
        ("baseline", &inputs.base.table),
        ("candidate", &inputs.cand.table),
    ] {
        crate::status::verbose(&format!(
            "{side} {}: {} rows, {} metrics",
            t.source,
            t.rows.len(),
            t.metrics.len()
        ));
    }
    let b = &cfg.bootstrap;
    crate::status::verbose(&format!(
        "paired {} queries; bootstrap: {} metrics × {} slices, {} resamples, seed {}",
        paired.ids.len(),
        metrics.len(),
        slices.len(),
        b.resamples,
        b.seed
    ));
}

/// The paired data a gate file's inputs give, before any resampling (what `plan` reads).
pub struct Prepared {
    pub paired: Paired,
    pub slices: Vec<Slice>,
    pub metrics: Vec<String>,
}

/// load → pair → slices, as [`analyze`] does them; stops before resampling.
pub fn prepare(cfg: &Config) -> Result<Prepared> {
    let wanted = wanted_metrics(cfg);
    let inputs = load_inputs(cfg, &wanted)?;
    let (base, cand) = (&inputs.base.table, &inputs.cand.table);
    let shared = pair::shared_metrics(base, cand);
    let metrics = choose_metrics(cfg, base, cand, &shared)?;
    let (paired, _, _) = pair_inputs(cfg, &inputs, &metrics, &Earlier::default())?;
    let slices = slices::build(cfg, &paired)?;
    Ok(Prepared {
        paired,
        slices,
        metrics,
    })
}

/// `[efficiency]`: both run cards read and the run-level gates judged on them and on the
/// earlier attempts' cards (`verdict::efficiency::worst_of`; None without cards). A card that
/// cannot be opened names its gate-file key.
fn efficiency_section(
    cfg: &Config,
    earlier: &Earlier,
) -> Result<(Option<crate::model::EfficiencyReport>, Pooling)> {
    let Some([b, c]) = &cfg.efficiency.cards else {
        return Ok((None, Pooling::default()));
    };
    let read = |key: &str, s: &InputSpec| {
        load::run_card::load(&s.path, &s.shown()).map_err(|e| match (&e, &s.span) {
            (Error::Io { .. }, Some(_)) => {
                cfg.error_at(&s.span, format!("[efficiency] {key}: {e}"))
            }
            _ => e,
        })
    };
    let cards = [read("baseline", b)?, read("candidate", c)?];
    let written = [b.written.as_str(), c.written.as_str()];
    let mut e = verdict::efficiency::section(cfg, written, [&cards[0], &cards[1]])?;
    let folded = earlier
        .summary
        .as_ref()
        .map(|s| ((s.first, s.last), s.alone_failed.as_slice()));
    let (warnings, reads) =
        verdict::efficiency::worst_of(cfg, (written, &cards[0]), &mut e, &earlier.cards(), folded);
    e.warnings.extend(warnings);
    let pooled = Pooling {
        reads: reads
            .into_iter()
            .map(|(g, n)| (format!("card {g}"), n))
            .collect(),
        card: Some(gated_card(cfg, &cards[1])),
        ..Default::default()
    };
    Ok((Some(e), pooled))
}

/// The warning for a retriever its run card declares nondeterministic
/// (`conditions.deterministic = false`) when the intervals carry no run-to-run noise: one
/// baseline run and no `[noise] file`.
fn nondeterministic_without_noise(
    cfg: &Config,
    paired: &Paired,
    efficiency: Option<&crate::model::EfficiencyReport>,
) -> Vec<String> {
    nondeterministic_warning(cfg, paired, efficiency)
        .into_iter()
        .collect()
}

/// [`nondeterministic_without_noise`]'s warning, when it applies.
fn nondeterministic_warning(
    cfg: &Config,
    paired: &Paired,
    efficiency: Option<&crate::model::EfficiencyReport>,
) -> Option<String> {
    let e = efficiency?;
    let field = e
        .conditions
        .iter()
        .find(|c| c.key == load::run_card::DETERMINISTIC)?;
    let says = [
        (&field.baseline, &e.baseline_card),
        (&field.candidate, &e.candidate_card),
    ];
    let cards: Vec<&str> = says
        .iter()
        .filter(|(v, _)| v.as_deref() == Some("false"))
        .map(|(_, card)| card.as_str())
        .collect();
    let baseline_runs = paired.replicates.as_ref().map_or(1, |r| r.counts[0]);
    if cards.is_empty() || baseline_runs > 1 || cfg.noise.file.is_some() {
        return None;
    }
    Some(format!(
        "{} {} the retriever is nondeterministic (conditions.deterministic = false), but the intervals carry no run-to-run noise: with {ONE_RUN_NO_NOISE}, a whole-run shift (a run a little worse or better on every query) is in neither side's per-query spread, so a drop can pass and an unchanged pull request can fail; {RUN_NOISE_ADVICE}",
        cards.join(" and "),
        if cards.len() == 1 { "says" } else { "say" }
    ))
}

/// The setup the nondeterministic-retriever warning names (`compare` says it in its flags).
pub const ONE_RUN_NO_NOISE: &str = "one baseline run and no [noise] file";
/// The nondeterministic-retriever warning's advice (`compare` says it in its flags).
pub const RUN_NOISE_ADVICE: &str = "record main's run-to-run noise with `rag-gate aa` and point [noise] file at it, or give replicate baseline runs ([inputs] baseline = [\"main-1.jsonl\", \"main-2.jsonl\", \"main-3.jsonl\"])";

/// A run card as a later attempt needs it: its conditions, the gated metrics and the curve.
fn gated_card(cfg: &Config, c: &crate::model::RunCard) -> crate::model::RunCard {
    let gated = |m: &String| cfg.efficiency.gates.iter().any(|g| &g.metric == m);
    let curve = cfg.efficiency.gates.iter().any(|g| g.at.is_some());
    crate::model::RunCard {
        source: c.source.clone(),
        model: Default::default(),
        conditions: c.conditions.clone(),
        metrics: c
            .metrics
            .iter()
            .filter(|(m, _)| gated(m))
            .map(|(m, v)| (m.clone(), v.clone()))
            .collect(),
        qps_at_recall: if curve {
            c.qps_at_recall.clone()
        } else {
            Vec::new()
        },
    }
}

/// What the rules beyond the per-query results read of this attempt (kept for later attempts)
/// and how many attempts each read ("bounds ndcg@10", "judge ndcg@10", "card 2" → attempts).
#[derive(Default)]
pub struct Pooling {
    pub series: BTreeMap<String, crate::model::looks::Series>,
    pub card: Option<crate::model::RunCard>,
    pub reads: BTreeMap<String, usize>,
}

impl Pooling {
    fn join(&mut self, other: Pooling) {
        self.series.extend(other.series);
        self.card = self.card.take().or(other.card);
        self.reads.extend(other.reads);
    }

    /// This attempt's evidence as the comment's state keeps it.
    fn extra(&self) -> crate::model::looks::AttemptExtra {
        crate::model::looks::AttemptExtra {
            series: self.series.clone(),
            card: self.card.clone(),
        }
    }
}

/// The report's attempts section: shown unless every attempt read the very same evidence, with
/// the rules beyond the per-query results as pooled or judged alone.
fn attempts_section(
    report: &mut Report,
    pooled: attempts::Pooled,
    (earlier, pooling): (&Earlier, &Pooling),
) {
    report.attempts = pooled
        .report
        .filter(|_| !pooled.identical || extras_differ(earlier, pooling));
    let rules = pooled_rules(report, &pooling.reads);
    if let Some(a) = report.attempts.as_mut() {
        a.pooled = rules;
    }
    let alone = report.judged_alone();
    if let Some(a) = report.attempts.as_mut() {
        a.judged_alone = alone;
    }
}

/// Whether an earlier attempt's bounds, judge labels or run card differ from this attempt's
/// (so its pooling changed what a rule read, even with identical per-query results).
fn extras_differ(earlier: &Earlier, pooling: &Pooling) -> bool {
    earlier.attempts.iter().any(|a| {
        let card = match (&a.extra.card, &pooling.card) {
            (Some(x), Some(y)) => x.metrics != y.metrics || x.qps_at_recall != y.qps_at_recall,
            _ => false,
        };
        card || a.extra.series.iter().any(|(name, s)| {
            pooling
                .series
                .get(name)
                .is_some_and(|own| own.ids == s.ids && own.values != s.values)
        })
    }) || earlier.summary.as_ref().is_some_and(|s| {
        s.series_sums.iter().any(|(name, (means, _))| {
            pooling
                .series
                .get(name)
                .is_some_and(|own| own.ids == means.ids && own.values != means.values)
        })
    })
}

/// The attempts section's pooled rules: those beyond the per-query results that read more than
/// this attempt (the others stay "judged on the newest attempt alone").
fn pooled_rules(report: &Report, reads: &BTreeMap<String, usize>) -> Vec<PooledRule> {
    report
        .rules_beyond_results()
        .into_iter()
        .filter_map(|r| {
            let n = *reads.get(&r.reads).filter(|&&n| n > 1)?;
            let how = match r.reads.split_once(' ').map_or("", |(k, _)| k) {
                "bounds" => {
                    "each query's values at both judged bounds and the candidate's \
                             judged@k averaged over the attempts"
                }
                "judge" => {
                    "the candidate's values under the judge's labels averaged per query \
                            over the attempts"
                }
                _ => "each attempt's run card judged against the baseline's; the worst decides",
            };
            Some(PooledRule {
                rule: r.rule,
                attempts: n,
                how: how.into(),
                failed: r.failed,
            })
        })
        .collect()
}

/// An interval needs at least two resamples beyond each bound; refuse settings that leave fewer.
fn refuse_unsupported_confidence(cfg: &Config) -> Result<()> {
    let (c, b) = (cfg.bootstrap.confidence, cfg.bootstrap.resamples as usize);
    if !crate::stats::interval::confidence_supported(c, b) {
        return Err(Error::Usage(format!("confidence {c} with {b} resamples: fewer than 2 resamples would lie beyond the bounds; expected (1 − confidence) × resamples ≥ 2 (more resamples or a lower confidence)")));
    }
    Ok(())
}

/// Everything `check` reads: both sides, their further replicates and the queries file.
struct Inputs {
    base: Loaded,
    cand: Loaded,
    more: [Vec<MetricTable>; 2],
    more_notes: Vec<String>,
    queries: Option<Rows>,
    /// The queries file as the messages name it (empty without one).
    queries_shown: String,
    /// The candidate runs (indices, the paired file 0) that stand for summarised attempts
    /// (`pair::replicates::Replicates::summarised`).
    summarised: std::ops::Range<usize>,
}

impl Inputs {
    /// The queries and the name they are shown by, for pairing and bounds.
    fn queries(&self) -> Option<(&Rows, &str)> {
        self.queries
            .as_ref()
            .map(|q| (q, self.queries_shown.as_str()))
    }
}

/// Reads both sides, the replicates and the queries file; an unopenable file names its key.
fn load_inputs(cfg: &Config, wanted: &[String]) -> Result<Inputs> {
    // The two sides and the queries file are read in parallel; their errors are taken in a
    // fixed order (baseline, candidate, replicates, queries file), as when they were read one
    // after the other, so the message does not depend on timing.
    let ((base, cand), queries) = rayon::join(
        || {
            rayon::join(
                || load_side(cfg, &cfg.inputs.baseline, wanted).map_err(|e| at_key(cfg, e)),
                || load_side(cfg, &cfg.inputs.candidate, wanted).map_err(|e| at_key(cfg, e)),
            )
        },
        || {
            cfg.inputs
                .queries
                .as_ref()
                .map(|q| load::load_queries(&q.path, &q.shown()).map_err(|e| at_key(cfg, e)))
        },
    );
    let (mut base, cand) = (base?, cand?);
    if let Some(re) = &cfg.inputs.group_from_id {
        // The trusted side carries the groups; the candidate's rows pair onto them.
        base.table.groups_from_ids(re);
    }
    let (more, more_notes) = load_replicates(cfg, wanted)?;
    let queries = queries.transpose()?;
    let queries_shown = cfg
        .inputs
        .queries
        .as_ref()
        .map(InputSpec::shown)
        .unwrap_or_default();
    Ok(Inputs {
        base,
        cand,
        more,
        more_notes,
        queries,
        queries_shown,
        summarised: 0..0,
    })
}

/// Pairs the two sides by query id, attaches the replicates (the gate file's, then the earlier
/// attempts' of the judged commit: [`attempts`]), and refuses what the chosen unit and
/// statistics cannot handle. Also returns this attempt's own results and how the attempts were
/// pooled.
fn pair_inputs(
    cfg: &Config,
    inputs: &Inputs,
    metrics: &[String],
    earlier: &Earlier,
) -> Result<(Paired, AttemptValues, attempts::Pooled)> {
    let (base, cand) = (&inputs.base.table, &inputs.cand.table);
    let evals = [&inputs.base.eval, &inputs.cand.eval];
    let unjudged = match evals {
        [Some(b), Some(c)] => crate::eval::gate_input::unjudged_ids([b, c]),
        _ => Default::default(),
    };
    let queries = inputs.queries();
    let mut paired = pair::pair_with(base, cand, queries, cfg.inputs.missing, metrics, &unjudged)?;
    // A run's evaluation has the judged@k columns its table leaves out.
    let full = |l: &Loaded| l.eval.as_ref().map(|ev| ev.to_table(&l.table.source));
    let (full_b, full_c) = (full(&inputs.base), full(&inputs.cand));
    let sides = [
        ("baseline", full_b.as_ref().unwrap_or(base)),
        ("candidate", full_c.as_ref().unwrap_or(cand)),
    ];
    let meeting = crate::bounds::meeting::for_gates(cfg, sides, &paired.ids)?;
    paired.warnings.extend(meeting);
    unranked(cfg, inputs, &mut paired);
    let any_earlier = !earlier.attempts.is_empty() || earlier.summary.is_some();
    let unattached = any_earlier.then(|| paired.clone());
    pair::replicates::attach(
        &mut paired,
        [&inputs.more[0], &inputs.more[1]],
        [&base.source, &cand.source],
        cfg.inputs.missing,
    )?;
    if let Some(r) = paired.replicates.as_mut() {
        r.summarised = inputs.summarised.clone();
    }
    let own = attempts::own_values(&paired);
    let pooled = attempts::pool(cfg, earlier, &paired, &own);
    if let (Some(mut again), false) = (unattached, pooled.tables.is_empty()) {
        let more: Vec<MetricTable> = inputs.more[1]
            .iter()
            .chain(&pooled.tables)
            .cloned()
            .collect();
        pair::replicates::attach(
            &mut again,
            [&inputs.more[0], &more],
            [&base.source, &cand.source],
            cfg.inputs.missing,
        )?;
        let at = 1 + inputs.more[1].len();
        if let Some(r) = again.replicates.as_mut() {
            r.summarised = at..at + pooled.summarised;
        }
        paired = again;
    }
    paired.warnings.extend(pooled.warnings.iter().cloned());
    refuse_quantiles_with_replicates(cfg)?;
    if paired.replicates.is_some() {
        let quantiles = cfg
            .gates
            .iter()
            .any(|g| g.statistic != crate::stats::statistic::Statistic::Mean);
        let flagged = resample::runs::untrusted_noise_warnings(&paired, metrics, quantiles);
        paired.warnings.extend(flagged);
    }
    if cfg.bootstrap.unit == Unit::Group {
        refuse_queries_without_group(cfg, &paired)?;
    }
    Ok((paired, own, pooled))
}

/// Judged queries a side's run has no ranking for: named in a warning and counted in the header.
fn unranked(cfg: &Config, inputs: &Inputs, paired: &mut Paired) {
    let sides = [
        ("baseline", &cfg.inputs.baseline, &inputs.base.eval),
        ("candidate", &cfg.inputs.candidate, &inputs.cand.eval),
    ];
    for (side, spec, ev) in sides {
        let Some(ev) = ev else { continue };
        let lacking = ev.summary.missing_from_run.len();
        match side {
            "baseline" => paired.info.baseline_unranked = lacking,
            _ => paired.info.candidate_unranked = lacking,
        }
        let w = crate::eval::gate_input::unranked_warning(side, &spec.written, ev);
        paired.warnings.extend(w);
    }
}

/// With `unit = "group"`, every paired query must have a group.
fn refuse_queries_without_group(cfg: &Config, paired: &Paired) -> Result<()> {
    let lacking: Vec<&str> = paired
        .ids
        .iter()
        .zip(&paired.group_of)
        .filter(|(_, g)| g.is_none())
        .map(|(id, _)| id)
        .collect();
    if lacking.is_empty() {
        return Ok(());
    }
    Err(cfg.error_at(
        &cfg.bootstrap.unit_span,
        format!(
            "[bootstrap] unit = \"group\", but {} no group: {}; give \"group\" in the metric files or a queries file, or use unit = \"query\"",
            crate::numbers::count(lacking.len(), "query has", "queries have"),
            few(&lacking, 5)
        ),
    ))
}

/// What the comparisons and the gates found, with the warnings and notes that go with them.
struct Findings {
    comparisons: Vec<Comparison>,
    gates: Vec<GateResult>,
    warnings: Vec<String>,
    notes: Vec<String>,
    /// Tie sensitivity of the gated metrics (runs evaluated here only).
    ties: Option<crate::model::TieReport>,
    /// `[judge]`: the judge's section of the report.
    judge: Option<crate::model::JudgeReport>,
    /// What the bounds and the judge's labels read, pooled with the earlier attempts.
    pooling: Pooling,
}

impl Findings {
    /// The verdict stage's gates, warnings and notes (the clamped-interval note `cut` after
    /// them); comparisons, ties and the judge's section are the caller's to fill.
    fn judged(judged: verdict::Judged, cut: Option<String>, pooling: Pooling) -> Findings {
        Findings {
            gates: judged.results,
            warnings: judged.warnings,
            notes: judged.notes.into_iter().chain(cut).collect(),
            comparisons: Vec::new(),
            ties: None,
            judge: None,
            pooling,
        }
    }
}

/// Resamples every metric on every slice, labels the deltas, judges the gates and, when both
/// sides are runs, bounds the gated deltas by the unjudged documents (returning their holes).
/// The judge's labels and the bounds read the earlier attempts too (`earlier`).
fn compare_and_judge(
    cfg: &Config,
    inputs: &Inputs,
    (paired, slices, bands): (&Paired, &[Slice], Option<&crate::noise::band::Bands<'_>>),
    (metrics, earlier): (&[String], &Earlier),
) -> Result<(Findings, Vec<Hole>)> {
    let mut settings = resample::Settings::from_config(cfg);
    if let Some(b) = bands {
        settings.aa_pools = crate::noise::apply::shift_pools(b.file);
    }
    let mut comparisons = resample::compare_all(paired, slices, metrics, &settings);
    let cut = resample::range::clamped_note(&resample::range::clamp_intervals(&mut comparisons));
    if let Some(b) = bands {
        crate::noise::band::mark(b, paired, slices, &mut comparisons);
    }
    let mut pooling = Pooling::default();
    let labels = judge_labels(
        cfg,
        inputs,
        (paired, slices),
        (metrics, earlier, &mut pooling),
        &mut comparisons,
    )?;
    verdict::label_comparisons(&mut comparisons);
    if let (Some(b), Some(c)) = (&inputs.base.eval, &inputs.cand.eval) {
        explain_regressions(&mut comparisons, &ranks(b), &ranks(c));
    }
    let mut found = Findings::judged(verdict::judge(cfg, &comparisons)?, cut, pooling);
    found.judge =
        labels.map(|a| judge_findings(a, &mut found.gates, &mut found.warnings, &mut found.notes));
    let holes = bounds_part(
        cfg,
        inputs,
        (paired, slices),
        &mut comparisons,
        (&mut found, earlier),
    )?;
    found
        .warnings
        .extend(shrunk_slices(cfg, paired, &mut found.gates));
    found
        .warnings
        .extend(verdict::resolution::resolution(cfg, &comparisons, &found.gates).1);
    found.comparisons = comparisons;
    Ok((found, holes))
}

/// The judged bounds (and tie sensitivity) of runs `check` evaluates, else those metric files
/// allow; returns the holes of the gated cutoffs.
fn bounds_part(
    cfg: &Config,
    inputs: &Inputs,
    (paired, slices): (&Paired, &[Slice]),
    comparisons: &mut [Comparison],
    (found, earlier): (&mut Findings, &Earlier),
) -> Result<Vec<Hole>> {
    let corrected = cfg.judge.as_ref().is_some_and(|j| j.gate_on_corrected);
    let runs = match (&inputs.base.eval, &inputs.cand.eval) {
        (Some(b), Some(c)) => Some(crate::bounds::Runs {
            baseline: b,
            candidate: c,
            queries: inputs.queries(),
        }),
        _ => None,
    };
    let runs = match runs {
        Some(r) if !corrected => r,
        _ => {
            let f = file_bounds(
                cfg,
                inputs,
                (paired, slices),
                comparisons,
                (&mut found.gates, earlier, &mut found.pooling),
            )?;
            found.warnings.extend(f.warnings);
            found.notes.extend(f.notes);
            return Ok(runs.map_or(Vec::new(), |r| crate::bounds::holes(cfg, &r)));
        }
    };
    match crate::bounds::ties::apply(cfg, &runs, &found.gates)? {
        Ok((t, w)) => {
            found.ties = Some(t);
            found.warnings.extend(w);
        }
        Err(note) => found.notes.push(note.to_string()),
    }
    let f = crate::bounds::apply(cfg, &runs, (comparisons, &mut found.gates), earlier)?;
    found.warnings.extend(f.warnings);
    found.notes.extend(f.notes);
    found.pooling.series.extend(f.series);
    found.pooling.reads.extend(f.reads);
    if let (Some(bc), Some(cc)) = (&inputs.base.condensed, &inputs.cand.condensed) {
        crate::bounds::condensed(cfg, &runs, (bc, cc), comparisons, &mut found.gates)?;
    }
    Ok(crate::bounds::holes(cfg, &runs))
}

/// The judged bounds read from metric files (their judged@k columns and protocol sidecars);
/// the candidate's judged@k columns pooled with the earlier attempts' (the mean per query).
fn file_bounds(
    cfg: &Config,
    inputs: &Inputs,
    (paired, slices): (&Paired, &[Slice]),
    comparisons: &mut [Comparison],
    (gates, earlier, pooling): (&mut [GateResult], &Earlier, &mut Pooling),
) -> Result<crate::bounds::Found> {
    let pooled = pool_file_coverage(cfg, &inputs.cand.table, earlier, pooling);
    let files = crate::bounds::files::Files {
        baseline: &inputs.base.table,
        candidate: pooled.as_ref().unwrap_or(&inputs.cand.table),
        sidecars: [inputs.base.protocol.as_ref(), inputs.cand.protocol.as_ref()],
    };
    crate::bounds::files::apply(cfg, &files, (paired, slices), comparisons, gates)
}

/// A candidate metric file's judged@k column of each gated cutoff, pooled with the earlier
/// attempts' (kept when every row has a value): a copy of the table when it has such a column,
/// None (nothing copied) when it has none.
fn pool_file_coverage(
    cfg: &Config,
    table: &MetricTable,
    earlier: &Earlier,
    pooling: &mut Pooling,
) -> Option<MetricTable> {
    let judged = |g: &crate::config::Gate| {
        let k = Metric::parse(&g.metric).ok().and_then(|m| m.k)?;
        table
            .metrics
            .contains_key(&format!("judged@{k}"))
            .then_some(())
    };
    cfg.gates.iter().find_map(judged)?;
    let mut cand = table.clone();
    let ids = attempts::ids_hash(cand.rows.ids());
    for g in &cfg.gates {
        let Some(k) = Metric::parse(&g.metric).ok().and_then(|m| m.k) else {
            continue;
        };
        let col = format!("judged@{k}");
        let Some(values) = cand.metrics.get_mut(&col) else {
            continue;
        };
        let Some(own) = values.iter().collect::<Option<Vec<f64>>>() else {
            continue;
        };
        let own = crate::model::looks::Series {
            metric: col.clone(),
            ids: ids.clone(),
            values: own,
        };
        let (pooled, n) = earlier.pooled(&col, &own);
        *values = pooled.into_iter().map(Some).collect();
        let reads = pooling
            .reads
            .entry(format!("bounds {}", g.metric))
            .or_insert(1);
        *reads = (*reads).max(n);
        pooling.series.insert(col, own);
    }
    Some(cand)
}

/// Slices the trusted side makes large enough but the pairing left too small to judge: their
/// gates fail, whatever `on-small-slice` says (`verdict::shrunk_slices`); the warnings.
fn shrunk_slices(cfg: &Config, paired: &Paired, gates: &mut [GateResult]) -> Vec<String> {
    let paired_n: BTreeMap<String, usize> = paired
        .tags
        .iter()
        .flat_map(|(t, vs)| vs.iter().map(move |(v, m)| (format!("{t}={v}"), m.len())))
        .collect();
    verdict::shrunk_slices(cfg, gates, &paired.trusted_sizes, &paired_n)
}

/// The judge's warnings and, with `gate-on = "corrected"`, the gates it could not be trusted on
/// marked not judged; returns the report section.
fn judge_findings(
    applied: crate::judge_labels::Applied,
    gates: &mut [GateResult],
    warnings: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> crate::model::JudgeReport {
    warnings.extend(applied.warnings);
    if applied.gated.is_some() {
        warnings.extend(crate::judge_labels::mark_gates(gates, &applied.untrusted));
        notes.push("the mean comparisons are the judge-corrected (prediction-powered) analysis ([judge] gate-on = \"corrected\"): n counts every query the judge scored, each side's mean and the delta are prediction-powered, p is the normal-theory p-value of the corrected delta, and win/tie/loss and the worst regressions read each query under its human labels where it has them, the judge's elsewhere; the human-only and judge-only deltas are beside them in the judge section; the judged bounds are not computed".into());
    }
    applied.report
}

/// `[judge]`: both runs evaluated against the judge's qrels, the agreement and the three deltas;
/// with `gate-on = "corrected"` the gated comparisons take the corrected delta (None without a
/// judge).
fn judge_labels(
    cfg: &Config,
    inputs: &Inputs,
    (paired, slices): (&Paired, &[Slice]),
    (metrics, earlier, pooling): (&[String], &Earlier, &mut Pooling),
    comparisons: &mut Vec<Comparison>,
) -> Result<Option<crate::judge_labels::Applied>> {
    let (Some(j), Some(b), Some(c)) = (&cfg.judge, &inputs.base.eval, &inputs.cand.eval) else {
        return Ok(None);
    };
    let wanted = wanted_metrics(cfg);
    let mut evals = crate::judge_labels::evaluate(cfg, j, &wanted, metrics, inputs.queries())
        .map_err(|e| at_key(cfg, e))?;
    if j.gate_on_corrected {
        pool_judge_labels(cfg, &mut evals.paired, earlier, pooling);
    }
    let mut applied =
        crate::judge_labels::apply(cfg, j, (b, c, paired, slices), &evals, comparisons)?;
    if let Some(gated) = applied.gated.take() {
        *comparisons = gated;
        applied.gated = Some(Vec::new());
    }
    Ok(Some(applied))
}

/// The candidate's values under the judge's labels, per gated metric, pooled with the earlier
/// attempts' (the mean per query, as the human-labelled values average the pooled runs), so
/// the corrected delta reads every attempt on both its parts; records this attempt's values.
fn pool_judge_labels(cfg: &Config, judged: &mut Paired, earlier: &Earlier, pooling: &mut Pooling) {
    let ids = attempts::ids_hash(&judged.ids);
    for g in &cfg.gates {
        let Some(p) = judged.metrics.get_mut(&g.metric) else {
            continue;
        };
        let name = format!("judge {}", g.metric);
        let own = crate::model::looks::Series {
            metric: g.metric.clone(),
            ids: ids.clone(),
            values: p.candidate.clone(),
        };
        let (pooled, n) = earlier.pooled(&name, &own);
        p.candidate = pooled;
        pooling.reads.insert(name.clone(), n);
        pooling.series.insert(name, own);
    }
}

/// The report's warnings, in order: the gate file's, the protocol's, the pairing's, then
/// `later` (the gates', the quarantine's, the noise floor's and a nondeterministic
/// retriever's).
fn gather_warnings(
    cfg: &Config,
    protocol: &ProtocolReport,
    paired: &Paired,
    later: [Vec<String>; 5],
) -> Vec<String> {
    let mut warnings = setup_warnings(cfg, protocol);
    warnings.extend(paired.warnings.iter().cloned());
    warnings.extend(later.into_iter().flatten());
    warnings
}

/// The warnings every report opens with: the gate file's, then the protocol's note and each
/// run-context change.
fn setup_warnings(cfg: &Config, protocol: &ProtocolReport) -> Vec<String> {
    let mut warnings: Vec<String> = cfg.warnings.clone();
    warnings.extend(protocol.note.iter().cloned());
    warnings.extend(
        protocol
            .context_changes
            .iter()
            .map(|c| format!("run context changed: {c}")),
    );
    warnings
}

/// The report's notes, in order: the evaluations', the unknown directions, the gates'
/// (`judged`), and the metrics only one input has (when `[report] metrics` is not given).
fn gather_notes(
    cfg: &Config,
    inputs: &Inputs,
    metrics: &[String],
    shared: &[String],
    (paired_notes, judged): (&[String], Vec<String>),
) -> Vec<String> {
    let (base, cand) = (&inputs.base, &inputs.cand);
    let mut notes: Vec<String> = base
        .note
        .clone()
        .into_iter()
        .chain(cand.note.clone())
        .collect();
    notes.extend(inputs.more_notes.iter().cloned());
    notes.extend(paired_notes.iter().cloned());
    notes.extend(direction_notes(cfg, metrics));
    notes.extend(judged);
    let only_one: Vec<&String> = base
        .table
        .metrics
        .keys()
        .chain(cand.table.metrics.keys())
        .filter(|m| !shared.contains(m))
        .collect();
    if !only_one.is_empty() && cfg.report.metrics.is_none() {
        notes.push(format!(
            "not compared, in one input only: {}",
            few(&only_one, 8)
        ));
    }
    notes
}

/// The report: the settings from the gate file, the inputs as written, and what was found.
fn build_report(
    cfg: &Config,
    pairing: PairingInfo,
    found: Findings,
    protocol: ProtocolReport,
    noise: Option<NoiseReport>,
) -> Result<Report> {
    Ok(Report {
        schema_version: SCHEMA_VERSION,
        rag_gate_version: env!("CARGO_PKG_VERSION").to_string(),
        gate_id: cfg.id.clone(),
        verdict: verdict::verdict(&found.gates),
        headline: verdict::headline_at(
            &found.gates,
            &found.comparisons,
            1.0 - cfg.bootstrap.confidence,
        ),
        guarantee: cfg.verdict.guarantee.as_str().into(),
        on_inconclusive: cfg.verdict.on_inconclusive.as_str().into(),
        resolution: verdict::resolution::resolution(cfg, &found.comparisons, &found.gates).0,
        seed: cfg.bootstrap.seed,
        resamples: cfg.bootstrap.resamples,
        confidence: cfg.bootstrap.confidence,
        unit: cfg.bootstrap.unit.as_str().into(),
        method: cfg.bootstrap.method.as_str().into(),
        tie_epsilon: cfg.report.tie_epsilon,
        inputs: inputs_info(cfg)?,
        baseline: None,
        pairing,
        comparisons: found.comparisons,
        gates: found.gates,
        warnings: found.warnings,
        protocol: Some(protocol),
        noise,
        notes: found.notes,
        efficiency: None,
        ties: found.ties,
        anchor: None,
        attempts: None,
        looks: None,
        judge: found.judge,
        probe: None,
        view: crate::model::TextView {
            details: cfg.report.details,
            min_queries: cfg.slices.min_queries,
            judged_from: crate::verdict::fewest_judged(cfg),
            min_groups: cfg.slices.min_groups,
            few_groups_judged: crate::verdict::few_groups_setup(cfg),
        },
    })
}

/// The inputs as the gate file wrote them, with the evaluation settings when a side is a run.
fn inputs_info(cfg: &Config) -> Result<InputsInfo> {
    let evaluated = [&cfg.inputs.baseline, &cfg.inputs.candidate]
        .iter()
        .any(|i| matches!(i.kind, InputKind::Run));
    Ok(InputsInfo {
        baseline: cfg.inputs.baseline.written.clone(),
        candidate: cfg.inputs.candidate.written.clone(),
        queries: cfg.inputs.queries.as_ref().map(|q| q.written.clone()),
        qrels: evaluated
            .then(|| cfg.inputs.qrels.as_ref().map(|q| q.written.clone()))
            .flatten(),
        eval: if evaluated {
            Some(crate::eval::gate_input::eval_settings(cfg)?)
        } else {
            None
        },
    })
}

/// Ungated metrics whose direction rag-gate does not know are read as higher-is-better; say so.
/// (A gated one must say `higher-is-better`; config validation refuses it otherwise.)
fn direction_notes(cfg: &Config, metrics: &[String]) -> Vec<String> {
    let how = |m: &str| {
        if cfg.gates.is_empty() {
            format!("pass --lower-is-better {m} if lower is better")
        } else {
            "a gate on it must say higher-is-better".to_string()
        }
    };
    metrics
        .iter()
        .filter(|m| !crate::metric_names::direction_known(m))
        .filter(|m| !cfg.gates.iter().any(|g| &g.metric == *m))
        .filter(|m| !cfg.report.lower_is_better.contains(m))
        .map(|m| {
            format!(
                "{m}: direction unknown, its label reads a rise as better ({})",
                how(m)
            )
        })
        .collect()
}

/// The metrics to compare: `[report] metrics` if given, else every metric both inputs have.
/// Every gated metric must be among them.
fn choose_metrics(
    cfg: &Config,
    base: &MetricTable,
    cand: &MetricTable,
    shared: &[String],
) -> Result<Vec<String>> {
    let explain = |m: &str| {
        let side = match (base.metrics.contains_key(m), cand.metrics.contains_key(m)) {
            (true, false) => format!("only {} has it", crate::safe_text::shown(&base.source)),
            (false, true) => format!("only {} has it", crate::safe_text::shown(&cand.source)),
            _ => "neither input has it".into(),
        };
        format!(
            "{side}; metrics in both: {}",
            if shared.is_empty() {
                "none".into()
            } else {
                let names: Vec<String> =
                    shared.iter().map(|m| crate::safe_text::shown(m)).collect();
                names.join(", ")
            }
        )
    };
    let chosen: Vec<String> = match &cfg.report.metrics {
        Some(list) => {
            for (m, span) in list {
                if !shared.contains(m) {
                    return Err(cfg.error_at(
                        span,
                        format!(
                            "[report] metrics: {}: {}",
                            crate::error::quoted(m),
                            explain(m)
                        ),
                    ));
                }
            }
            let mut v: Vec<String> = list.iter().map(|(m, _)| m.clone()).collect();
            v.sort();
            v.dedup();
            v
        }
        None => shared.to_vec(),
    };
    for g in &cfg.gates {
        if !shared.contains(&g.metric) {
            return Err(cfg.error_at(
                &g.metric_span,
                format!(
                    "[[gate]] #{}: unknown metric {}: {}",
                    g.index,
                    crate::error::quoted(&g.metric),
                    explain(&g.metric)
                ),
            ));
        }
        if !chosen.contains(&g.metric) {
            return Err(cfg.error_at(
                &g.metric_span,
                format!(
                    "[[gate]] #{}: metric {} is not in [report] metrics",
                    g.index,
                    crate::error::quoted(&g.metric)
                ),
            ));
        }
    }
    if chosen.is_empty() {
        return Err(Error::input(
            &cand.source,
            0,
            format!("no metric in common with {}", base.source),
        ));
    }
    Ok(chosen)
}

/// Where the rendered report goes.
#[derive(Debug, Clone)]
pub struct Outputs {
    pub format: report::Format,
    pub output: Option<PathBuf>,
    pub export_json: Option<PathBuf>,
    pub export_markdown: Option<PathBuf>,
    /// Further files written in the same atomic batch, with their flag (`check --holes`).
    pub extra: Vec<(&'static str, PathBuf, String)>,
    pub export_html: Option<PathBuf>,
    pub export_junit: Option<PathBuf>,
}

/// Renders the report, writes the requested files atomically, and returns what goes to stdout
/// (the report, or nothing when it went to a file: then the verdict and the path are status
/// lines).
/// All files are written to temporaries first and renamed only when every one is written, so a
/// failing export (e.g. a missing folder) leaves the previous report files as they were. An
/// output named `-` goes to stdout (at most one may).
pub fn write_outputs(r: &Report, o: &Outputs, reads: &crate::outputs::Reads) -> Result<String> {
    let renders = Renders {
        format: &|f| report::render(r, f),
        html: &|| report::html::render(r),
        written: format!("rag-gate {}: {}", r.gate_id, r.headline),
    };
    write_rendered(&renders, o, reads)
}

/// [`write_outputs`] for several gate files' combined report.
pub fn write_combined_outputs(
    c: &crate::model::CombinedReport,
    o: &Outputs,
    reads: &crate::outputs::Reads,
) -> Result<String> {
    let renders = Renders {
        format: &|f| report::combined::render(c, f),
        html: &|| report::combined::html(c),
        written: format!("rag-gate: {}", c.headline),
    };
    write_rendered(&renders, o, reads)
}

/// How a report (one file's, or a combined one) is rendered in each format.
struct Renders<'a> {
    format: &'a dyn Fn(report::Format) -> String,
    html: &'a dyn Fn() -> String,
    /// The status line when the report went to a file: "rag-gate prod: FAIL: …".
    written: String,
}

fn write_rendered(r: &Renders, o: &Outputs, reads: &crate::outputs::Reads) -> Result<String> {
    use crate::atomic::is_stdout;
    let main = (r.format)(o.format);
    let json = o
        .export_json
        .as_ref()
        .map(|_| (r.format)(report::Format::Json));
    let markdown = o
        .export_markdown
        .as_ref()
        .map(|_| (r.format)(report::Format::Markdown));
    let html = o.export_html.as_ref().map(|_| (r.html)());
    let junit = o
        .export_junit
        .as_ref()
        .map(|_| (r.format)(report::Format::Junit));
    // Without --output the report goes to stdout, as with `--output -`.
    let stdout_path = PathBuf::from("-");
    let wanted = [
        ("--export-json", o.export_json.as_ref(), json.as_deref()),
        ("--export-html", o.export_html.as_ref(), html.as_deref()),
        ("--export-junit", o.export_junit.as_ref(), junit.as_deref()),
        (
            "--export-markdown",
            o.export_markdown.as_ref(),
            markdown.as_deref(),
        ),
        (
            "--output",
            Some(o.output.as_ref().unwrap_or(&stdout_path)),
            Some(main.as_str()),
        ),
    ];
    let mut files: Vec<crate::outputs::Output> = Vec::new();
    let mut to_stdout: Vec<(&str, &str)> = Vec::new();
    for (flag, path, text) in wanted {
        let (Some(path), Some(text)) = (path, text) else {
            continue;
        };
        if is_stdout(path) {
            to_stdout.push((flag, text));
        } else {
            files.push(crate::outputs::Output { flag, path, text });
        }
    }
    if to_stdout.len() > 1 {
        let flags: Vec<&str> = to_stdout.iter().map(|(f, _)| *f).collect();
        return Err(Error::Usage(format!(
            "{}: only one output can go to standard output (`-`; the report goes there without --output)",
            flags.join(" and ")
        )));
    }
    for (flag, path, text) in &o.extra {
        files.push(crate::outputs::Output { flag, path, text });
    }
    crate::outputs::write(&files, reads)?;
    if let Some((flag, text)) = to_stdout.first() {
        if *flag != "--output" {
            return Ok(text.to_string());
        }
    }
    match o.output.as_ref().filter(|p| !is_stdout(p)) {
        Some(path) => {
            // Standard output carries reports only: the verdict and where the report went are
            // status lines (stderr, silenced by -q).
            crate::status::info(&r.written);
            crate::status::info(&format!("report written to {}", path.display()));
            Ok(String::new())
        }
        None => Ok(main),
    }
}

/// The exit code of a verdict: fail 1; pass and untouched 0; inconclusive 0, or 1 under
/// `[verdict] on-inconclusive = "fail"` (`on_inconclusive`, as the report says it).
pub fn exit_code(v: Verdict, on_inconclusive: &str) -> i32 {
    match v {
        Verdict::Pass | Verdict::Untouched => crate::outcome::EXIT_PASS,
        Verdict::Inconclusive if on_inconclusive != "fail" => crate::outcome::EXIT_PASS,
        Verdict::Inconclusive | Verdict::Fail => crate::outcome::EXIT_GATE_FAILED,
    }
}
