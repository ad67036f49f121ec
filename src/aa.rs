//! `rag-gate aa FILE FILE [FILE...]`: per-query metrics of several runs of one commit. Per metric
//! × slice: the run-to-run spread of the mean, the per-query jitter, the flaky queries (a value
//! that differs between replicates), the noise floor, and the A/A test: the second half of the
//! files against the first with the replicate-aware interval of `check`. Identical arms that
//! differ significantly (Holm over the metric × slice family) mean the instrument is broken:
//! exit 1. `--output` writes the noise file (`noise::file`) that `[noise] file` reads.

mod text;

use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::cli::AaArgs;
use crate::config::*;
use crate::error::{Error, Result};
use crate::load::MetricTable;
use crate::model::Comparison;
use crate::noise::{NoiseEntry, NoiseFile, NOISE_VERSION};
use crate::outcome::Outcome;
use crate::stats::crossed::{noise_floor, sd_interval, side_noise};
use crate::{pair, resample, slices};

/// The whole A/A analysis: the noise file and whether the arms differ.
#[derive(Debug, Clone)]
pub struct AaReport {
    pub noise: NoiseFile,
    /// Files in arm A (the first ⌈k/2⌉) and arm B.
    pub arms: [usize; 2],
    pub broken: bool,
}

pub fn run(args: &AaArgs) -> Result<Outcome> {
    let cfg = config(args)?;
    let reads = reads(args);
    if let Some(path) = &args.output {
        crate::outputs::refuse_clobbering(&[("--output", path)], &reads)?;
    }
    let report = analyze(&cfg, args)?;
    let json = report.noise.to_json();
    if let Some(path) = &args.output {
        let out = crate::outputs::Output {
            flag: "--output",
            path,
            text: &json,
        };
        crate::outputs::write(&[out], &reads)?;
    }
    let stdout = match args.format {
        crate::cli::AaFormat::Json => json,
        crate::cli::AaFormat::Text => text::render(&report),
    };
    Ok(Outcome {
        stdout,
        stderr: Vec::new(),
        exit_code: if report.broken {
            crate::outcome::EXIT_GATE_FAILED
        } else {
            crate::outcome::EXIT_PASS
        },
    })
}

/// Every file `aa` reads: the replicates (each with its protocol sidecar) and the queries file.
fn reads(args: &AaArgs) -> crate::outputs::Reads {
    let mut r = crate::outputs::Reads::default();
    for f in &args.files {
        r.add_with_sidecar("replicate", f);
    }
    if let Some(q) = &args.queries {
        r.add("queries file", q);
    }
    r
}

/// The A/A arms as a comparison: the first ⌈k/2⌉ files against the rest.
fn config(args: &AaArgs) -> Result<Config> {
    check_sampling_flags(args.confidence, args.resamples, args.tie_epsilon)?;
    let here = std::path::Path::new("");
    let spec = |p: &std::path::PathBuf| InputSpec {
        path: resolve(here, &p.display().to_string()),
        written: p.display().to_string(),
        kind: InputKind::Metrics {
            format: None,
            id_column: args.id_column.clone(),
            columns: Default::default(),
        },
        span: None,
    };
    let half = args.files.len().div_ceil(2);
    let (a, b) = args.files.split_at(half);
    Ok(Config {
        id: "aa".into(),
        inputs: Inputs {
            baseline: spec(&a[0]),
            candidate: spec(&b[0]),
            baseline_more: a[1..].iter().map(spec).collect(),
            candidate_more: b[1..].iter().map(spec).collect(),
            queries: args.queries.as_ref().map(spec),
            qrels: None,
            missing: Missing::Error,
            group_from_id: None,
        },
        bootstrap: Bootstrap {
            resamples: args.resamples,
            seed: args.seed,
            confidence: args.confidence,
            unit: Unit::Query,
            unit_span: None,
            method: Method::Percentile,
            weights: Default::default(),
            weights_span: None,
            failed_attempts: 0,
        },
        slices: Slices::reported_by(&args.by),
        report: ReportSettings {
            worst: 0,
            tie_epsilon: args.tie_epsilon,
            practical_tie: DEFAULT_PRACTICAL_TIE,
            metrics: None,
            lower_is_better: Vec::new(),
            details: false,
        },
        eval: None,
        protocol: crate::config::ProtocolSettings::default(),
        judged: crate::config::JudgedSettings::default(),
        judge: None,
        policy: crate::config::Policy::default(),
        baseline: crate::config::BaselineSettings::default(),
        efficiency: crate::config::Efficiency::default(),
        anchor: None,
        probe: None,
        verdict: Default::default(),
        warnings: Vec::new(),
        gates: Vec::new(),
        noise: NoiseSettings::default(),
        source: SourceText {
            shown: "command line".into(),
            text: String::new(),
        },
    })
}

fn load(spec: &InputSpec) -> Result<MetricTable> {
    let InputKind::Metrics {
        format,
        id_column,
        columns,
    } = &spec.kind
    else {
        unreachable!("aa reads metric files")
    };
    let mut t = crate::load::load_metrics(&spec.path, &spec.shown(), *format, id_column, columns)?;
    t.source = spec.shown();
    Ok(t)
}

/// Reads the files, pairs the arms, compares them per metric × slice and gathers the noise
/// figures; the arms are broken when any Holm-adjusted p is below 1 − confidence.
fn analyze(cfg: &Config, args: &AaArgs) -> Result<AaReport> {
    let i = &cfg.inputs;
    let tables = load_all(i)?;
    let arms = [1 + i.baseline_more.len(), 1 + i.candidate_more.len()];
    let (a, b) = tables.split_at(arms[0]);
    let queries = match &i.queries {
        Some(q) => Some(crate::load::load_queries(&q.path, &q.shown())?),
        None => None,
    };
    let q_shown = i.queries.as_ref().map(InputSpec::shown).unwrap_or_default();
    let metrics = choose_metrics(args, &a[0], &b[0])?;
    let paired = pair_arms(
        a,
        b,
        queries.as_ref().map(|q| (q, q_shown.as_str())),
        &metrics,
    )?;
    let slices = slices::build(cfg, &paired)?;
    let settings = resample::Settings {
        both_sides_trusted: true,
        ..resample::Settings::from_config(cfg)
    };
    let mut comparisons = resample::compare_all(&paired, &slices, &metrics, &settings);
    resample::range::clamp_intervals(&mut comparisons);
    // The noise file has one entry per metric × slice: a metric the gate file reads under two
    // statistics keeps its first (the mean when gated).
    let mut seen = std::collections::BTreeSet::new();
    comparisons.retain(|c| seen.insert((c.metric.clone(), c.slice.clone())));
    let adjusted =
        crate::stats::holm::holm(&comparisons.iter().map(|c| c.p_value).collect::<Vec<_>>());
    let alpha = 1.0 - cfg.bootstrap.confidence;
    let entries: Vec<NoiseEntry> = comparisons
        .iter()
        .zip(&adjusted)
        .map(|(c, &p_adj)| {
            let slice = slices.iter().find(|s| s.name == c.slice).expect("compared");
            entry(cfg, &paired, slice, c, p_adj)
        })
        .collect();
    let broken = adjusted.iter().any(|&p| p < alpha);
    Ok(AaReport {
        noise: NoiseFile {
            noise_version: NOISE_VERSION,
            files: args.files.iter().map(|f| f.display().to_string()).collect(),
            replicates: args.files.len(),
            queries: paired.ids.len(),
            confidence: cfg.bootstrap.confidence,
            seed: cfg.bootstrap.seed,
            resamples: cfg.bootstrap.resamples,
            tie_epsilon: cfg.report.tie_epsilon,
            entries,
            flaky_queries: flaky_queries(cfg, &paired, &metrics),
            query_bands: query_bands(cfg, &paired, &metrics),
        },
        arms,
        broken,
    })
}

/// Every file of both arms, in the given order (arm A's, then arm B's). They are read in
/// parallel; the first failing file in the given order is the error.
fn load_all(i: &Inputs) -> Result<Vec<MetricTable>> {
    let specs: Vec<&InputSpec> = std::iter::once(&i.baseline)
        .chain(&i.baseline_more)
        .chain([&i.candidate])
        .chain(&i.candidate_more)
        .collect();
    specs
        .par_iter()
        .map(|s| load(s))
        .collect::<Vec<Result<MetricTable>>>()
        .into_iter()
        .collect::<Result<Vec<MetricTable>>>()
}

/// The metrics to compare: `--metric` (each must be in both first files), else all they share.
fn choose_metrics(args: &AaArgs, a: &MetricTable, b: &MetricTable) -> Result<Vec<String>> {
    let shared = pair::shared_metrics(a, b);
    if args.metrics.is_empty() {
        return Ok(shared);
    }
    let mut want: Vec<String> = args
        .metrics
        .iter()
        .map(|m| crate::metric_names::canonical(m))
        .collect();
    if let Some(m) = want.iter().find(|m| !shared.contains(m)) {
        return Err(Error::Usage(format!(
            "--metric {m}: not in both {} and {} (they share: {})",
            a.source,
            b.source,
            shared.join(", ")
        )));
    }
    want.sort();
    want.dedup();
    Ok(want)
}

/// Arm A's first file against arm B's, by query id, with the other files as replicates.
fn pair_arms(
    a: &[MetricTable],
    b: &[MetricTable],
    queries: Option<(&crate::load::Rows, &str)>,
    metrics: &[String],
) -> Result<pair::Paired> {
    let mut paired = pair::pair(&a[0], &b[0], queries, Missing::Error, metrics)?;
    pair::replicates::attach(
        &mut paired,
        [&a[1..], &b[1..]],
        [&a[0].source, &b[0].source],
        Missing::Error,
    )?;
    // With one file per arm nothing was attached; keep the two runs for the noise figures (one
    // run per side: the A/A interval is the plain paired bootstrap).
    if paired.replicates.is_none() {
        paired.replicates = Some(pair::replicates::Replicates {
            metrics: paired
                .metrics
                .iter()
                .map(|(m, p)| {
                    (
                        m.clone(),
                        [vec![p.baseline.clone()], vec![p.candidate.clone()]],
                    )
                })
                .collect(),
            counts: [1, 1],
            summarised: 0..0,
        });
    }
    Ok(paired)
}

/// Per metric, the ids of the queries whose value differs between some two replicates.
fn flaky_queries(
    cfg: &Config,
    paired: &pair::Paired,
    metrics: &[String],
) -> BTreeMap<String, Vec<String>> {
    metrics
        .iter()
        .map(|m| {
            let all: Vec<usize> = (0..paired.ids.len()).collect();
            let ids = flaky(paired, m, &all, cfg.report.tie_epsilon)
                .into_iter()
                .map(|i| paired.ids[i].to_string())
                .collect();
            (m.clone(), ids)
        })
        .collect()
}

/// Per metric, each flaky query's band: the largest difference between two of its replicates.
fn query_bands(
    cfg: &Config,
    paired: &pair::Paired,
    metrics: &[String],
) -> BTreeMap<String, BTreeMap<String, f64>> {
    let all: Vec<usize> = (0..paired.ids.len()).collect();
    metrics
        .iter()
        .map(|m| {
            let runs = all_runs(paired, m, &all);
            let bands = all
                .iter()
                .map(|&i| (i, spread(&runs, i)))
                .filter(|&(_, band)| band > cfg.report.tie_epsilon)
                .map(|(i, band)| (paired.ids[i].to_string(), band))
                .collect();
            (m.clone(), bands)
        })
        .collect()
}

/// The largest difference between two of `runs` at position `k`.
fn spread(runs: &[Vec<f64>], k: usize) -> f64 {
    let (lo, hi) = runs
        .iter()
        .map(|r| r[k])
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    hi - lo
}

/// Every run of `metric` in file order, restricted to the members `idx`.
fn all_runs(paired: &pair::Paired, metric: &str, idx: &[usize]) -> Vec<Vec<f64>> {
    let r = paired
        .replicates
        .as_ref()
        .expect("aa has at least two files");
    r.metrics[metric]
        .iter()
        .flatten()
        .map(|run| idx.iter().map(|&i| run[i]).collect())
        .collect()
}

/// Members (of `idx`) whose value differs between some two replicates by more than `eps`.
fn flaky(paired: &pair::Paired, metric: &str, idx: &[usize], eps: f64) -> Vec<usize> {
    let runs = all_runs(paired, metric, idx);
    idx.iter()
        .enumerate()
        .filter(|(k, _)| spread(&runs, *k) > eps)
        .map(|(_, &i)| i)
        .collect()
}

fn entry(
    cfg: &Config,
    paired: &pair::Paired,
    slice: &slices::Slice,
    c: &Comparison,
    p_adjusted: f64,
) -> NoiseEntry {
    let idx: Vec<usize> = slice.members.iter().map(|&i| i as usize).collect();
    let runs = all_runs(paired, &c.metric, &idx);
    let s = side_noise(&runs.iter().map(Vec::as_slice).collect::<Vec<_>>());
    let conf = cfg.bootstrap.confidence;
    let k = s.replicates as f64;
    let n = s.queries as f64;
    let run_sd = s.mean_var.sqrt();
    let jitter_sd = s.jitter_var.sqrt();
    let flaky = flaky(paired, &c.metric, &idx, cfg.report.tie_epsilon).len();
    let first_mean = crate::stats::describe::mean(&runs[0]);
    NoiseEntry {
        metric: c.metric.clone(),
        slice: c.slice.clone(),
        n: idx.len(),
        run_means: s
            .deviations
            .iter()
            .map(|d| first_mean + d - s.deviations[0])
            .collect(),
        run_sd,
        run_sd_ci: sd_interval(run_sd, k - 1.0, conf),
        shift_sd: s.shift_var.sqrt(),
        jitter_sd,
        jitter_sd_ci: if n > 1.0 {
            sd_interval(jitter_sd, (n - 1.0) * (k - 1.0), conf)
        } else {
            [jitter_sd, jitter_sd]
        },
        flaky,
        flaky_share: flaky as f64 / n,
        noise_floor: noise_floor(&s, conf).expect("at least two replicates"),
        aa_delta: c.delta,
        aa_ci: c.ci,
        aa_p: c.p_value,
        aa_p_adjusted: p_adjusted,
    }
}
