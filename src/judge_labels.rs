//! `[judge]`: a model's relevance labels, kept honest by the human ones. Both runs are evaluated
//! against the judge's qrels with the same engine and policies; per gated mean metric × slice the
//! human-only delta (the labelled queries), the judge-only delta (every query) and the
//! prediction-powered delta (`stats::ppi`, PPI++) are computed; with `gate-on = "corrected"` the
//! gated comparisons carry the corrected delta and interval, and a comparison the judge cannot be
//! trusted on (too few labelled units, κ below `min-kappa`) is not judged, never a pass.
//!
//! Which queries are labelled: those the human evaluation scored (the human `qrels` hold a
//! relevant document for them). With the group unit a group is labelled when every one of its
//! queries is; the human values of a partly labelled group are left out (its queries count as
//! unlabelled), so labelled and unlabelled units stay apart. PPI assumes the labelled units are
//! a random sample of all: docs/judges.md says how to choose them.

use std::collections::{BTreeMap, BTreeSet};

use crate::config::{Config, JudgeSettings, Unit};
use crate::error::Result;
use crate::eval::agreement::{self, Grades};
use crate::eval::Evaluation;
use crate::load::judge::JudgeSidecar;
use crate::model::{
    Comparison, CorrectedDelta, DeltaInterval, GateResult, GateStatus, JudgeReport, JudgedDelta,
    NotJudged,
};
use crate::pair::Paired;
use crate::slices::Slice;
use crate::stats::ppi;

pub mod corrected;
mod planted;
mod sample;
use corrected::{values_by_id, Split};

/// The sidecar naming the judge (`<judge qrels>.judge.json` by default).
fn read_sidecar(j: &JudgeSettings) -> Result<JudgeSidecar> {
    crate::load::judge::read(&j.sidecar.path, &j.sidecar.shown())
}

/// Both runs as the judge's labels score them, and the grades of both qrels.
pub struct JudgeEvals {
    pub baseline: Evaluation,
    pub candidate: Evaluation,
    pub paired: Paired,
    pub slices: Vec<Slice>,
    /// `[judge] plant-key`'s pairs (withheld from the evaluations above).
    pub planted: Option<Vec<crate::load::plant_key::Planted>>,
}

/// What `[judge]` hands back: the report section, the gated comparisons to judge (the
/// corrected ones with `gate-on = "corrected"`), and why some were not judged.
pub struct Applied {
    pub report: JudgeReport,
    pub gated: Option<Vec<Comparison>>,
    pub untrusted: BTreeMap<(String, String), String>,
    pub warnings: Vec<String>,
}

/// Evaluates both runs against the judge's qrels and pairs them like the human tables.
pub fn evaluate(
    cfg: &Config,
    j: &JudgeSettings,
    wanted: &[String],
    metrics: &[String],
    queries: Option<(&crate::load::Rows, &str)>,
) -> Result<JudgeEvals> {
    let planted = match &j.plant_key {
        Some(k) => Some(crate::load::plant_key::read(&k.path, &k.shown())?),
        None => None,
    };
    let withheld = planted
        .as_deref()
        .map(planted::withheld)
        .unwrap_or_default();
    let eval = |spec| {
        crate::eval::gate_input::evaluate_run_against(cfg, spec, wanted, &j.qrels, &withheld)
    };
    let (mut tb, _, baseline) = eval(&cfg.inputs.baseline)?;
    let (tc, _, candidate) = eval(&cfg.inputs.candidate)?;
    if let Some(re) = &cfg.inputs.group_from_id {
        tb.groups_from_ids(re);
    }
    let paired = crate::pair::pair(&tb, &tc, queries, cfg.inputs.missing, metrics)?;
    let slices = crate::slices::build(cfg, &paired)?;
    Ok(JudgeEvals {
        baseline,
        candidate,
        paired,
        slices,
        planted,
    })
}

/// Every (query, document) grade of the qrels at `path`, read with the gate file's formats.
pub fn grades(path: &std::path::Path, shown: &str, cfg: &Config) -> Result<Grades> {
    let (opts, _) = crate::eval::gate_input::eval_options(cfg)?;
    let format =
        crate::eval::Format::resolve(path, shown, crate::eval::Role::Qrels, opts.qrels_format)?;
    let q = crate::eval::qrels::read_qrels(path, shown, format, None)?;
    Ok(q.queries
        .into_iter()
        .map(|(qid, qq)| {
            let docs = qq
                .judged
                .iter()
                .map(|(d, &r)| (String::from_utf8_lossy(d).into_owned(), r))
                .collect();
            (qid, docs)
        })
        .collect())
}

/// The (query, document) pairs of an evaluation's top k relevant under its qrels.
fn relevant_in_top(ev: &Evaluation, k: usize, queries: &BTreeSet<&str>) -> Vec<(String, String)> {
    ev.rows
        .iter()
        .filter(|r| queries.contains(r.qid.as_str()))
        .flat_map(|r| {
            r.relevant
                .iter()
                .filter(|x| x.rank.is_some_and(|rank| rank <= k))
                .map(|x| (r.qid.clone(), x.doc.clone()))
        })
        .collect()
}

/// The largest cutoff of the gated metrics (10 when none has one).
fn top_k(cfg: &Config) -> usize {
    cfg.gates
        .iter()
        .filter_map(|g| crate::eval::Metric::parse(&g.metric).ok()?.k)
        .max()
        .unwrap_or(10)
}

/// The judge's agreement with the humans: the confusion table and κ on the pairs both graded,
/// and each side's top-k errors on the queries both graded.
fn agreement_of(
    cfg: &Config,
    (hb, hc): (&Evaluation, &Evaluation),
    (judged, jg): (&JudgeEvals, &Grades),
    k: usize,
) -> Result<crate::model::Agreement> {
    let main_qrels = cfg
        .inputs
        .qrels
        .as_ref()
        .expect("validated: runs come with qrels");
    let hg = grades(&main_qrels.path, &main_qrels.shown(), cfg)?;
    let (opts, _) = crate::eval::gate_input::eval_options(cfg)?;
    let mut agree = agreement::agreement(&hg, jg, opts.rel_level);
    let both: BTreeSet<&str> = hg
        .keys()
        .filter(|q| jg.contains_key(*q))
        .map(String::as_str)
        .collect();
    for (name, h, jd) in [
        ("baseline", hb, &judged.baseline),
        ("candidate", hc, &judged.candidate),
    ] {
        let slots = k * h
            .rows
            .iter()
            .filter(|r| both.contains(r.qid.as_str()))
            .count();
        agree.sides.push(agreement::side(
            name,
            (&hg, jg),
            &relevant_in_top(jd, k, &both),
            &relevant_in_top(h, k, &both),
            opts.rel_level,
            slots,
        ));
    }
    Ok(agree)
}

/// The judge's report section and, with `gate-on = "corrected"`, the comparisons to gate on.
pub fn apply(
    cfg: &Config,
    j: &JudgeSettings,
    human: (&Evaluation, &Evaluation, &Paired, &[Slice]),
    judged: &JudgeEvals,
    comparisons: &[Comparison],
) -> Result<Applied> {
    let sidecar = read_sidecar(j)?;
    let (hb, hc, hpaired, hslices) = human;
    let k = top_k(cfg);
    let mut jg = grades(&j.qrels.path, &j.qrels.shown(), cfg)?;
    let (planted, mut warnings) = planted_report(cfg, j, judged, &mut jg)?;
    let agree = agreement_of(cfg, (hb, hc), (judged, &jg), k)?;
    warnings.extend(agreement::favour_warning(&agree.sides, k));
    let trust = trust(j, agree.kappa_binary, agree.relevance_level);
    let mut deltas = Vec::new();
    let mut untrusted = BTreeMap::new();
    let mut gated = comparisons.to_vec();
    let settings = crate::resample::Settings::from_config(cfg);
    let grouped = cfg.bootstrap.unit == Unit::Group;
    let drawn = match &j.sample {
        Some(s) => Some(sample::probabilities(s, &judged.paired, hpaired, grouped)?),
        None => None,
    };
    for (c, g) in comparisons.iter().zip(gated.iter_mut()) {
        if c.statistic != "mean" {
            continue;
        }
        let ctx = Ctx {
            distrust: trust.as_deref(),
            drawn: drawn.as_ref(),
        };
        let (d, split) = delta(cfg, j, (hpaired, hslices), judged, c, ctx);
        if let Some(corr) = &d.corrected {
            corrected::carry(g, corr, &split, &settings, grouped);
        }
        if !cfg.gates.iter().any(|gt| gt.metric == c.metric) {
            continue;
        }
        warnings.extend(favour_on_delta(&d, &c.metric, &c.slice));
        // Every unit human-labelled: the human-only comparison is the whole truth and decides.
        if let Some(why) = d
            .not_judged
            .as_ref()
            .filter(|_| !split.unlabelled.is_empty())
        {
            untrusted.insert((c.metric.clone(), c.slice.clone()), why.clone());
        }
        deltas.push(d);
    }
    if let Some(w) = &trust {
        warnings.push(format!("judge {}: {w}", sidecar.model));
    }
    let mut report = judge_report(j, sidecar, judged, hpaired, agree, deltas);
    report.uncertainty = uncertainty(cfg, &judged.paired);
    report.planted = planted;
    Ok(Applied {
        report,
        gated: j.gate_on_corrected.then_some(gated),
        untrusted,
        warnings,
    })
}

/// The planted pairs' report and warnings (None without `plant-key`), the pairs then withheld
/// from the judge's grades `jg` so that the agreement never reads them.
fn planted_report(
    cfg: &Config,
    j: &JudgeSettings,
    judged: &JudgeEvals,
    jg: &mut Grades,
) -> Result<(Option<crate::model::PlantedReport>, Vec<String>)> {
    let (Some(key), Some(spec)) = (&judged.planted, &j.plant_key) else {
        return Ok((None, Vec::new()));
    };
    let (opts, _) = crate::eval::gate_input::eval_options(cfg)?;
    let names = (spec.written.as_str(), j.qrels.written.as_str());
    let (report, warnings) =
        planted::report(key, names, jg, opts.rel_level, cfg.bootstrap.confidence)
            .map_err(|m| cfg.error_at(&spec.span, m))?;
    for (q, d) in planted::withheld(key) {
        if let Some(docs) = jg.get_mut(&q) {
            docs.remove(&d);
            if docs.is_empty() {
                jg.remove(&q);
            }
        }
    }
    Ok((Some(report), warnings))
}

/// The judge section of the report: the labels' provenance, the agreement and the deltas.
fn judge_report(
    j: &JudgeSettings,
    sidecar: JudgeSidecar,
    judged: &JudgeEvals,
    hpaired: &Paired,
    agree: crate::model::Agreement,
    deltas: Vec<JudgedDelta>,
) -> JudgeReport {
    let unlabelled = unlabelled_queries(&judged.paired, hpaired);
    let qrels_sha256 = judged
        .baseline
        .summary
        .protocol
        .as_ref()
        .map(|p| p.qrels_sha256.clone())
        .unwrap_or_default();
    JudgeReport {
        qrels: j.qrels.written.clone(),
        qrels_sha256,
        model: sidecar.model,
        prompt_hash: sidecar.prompt_hash,
        date: sidecar.date,
        settings: sidecar.settings,
        gate_on: if j.gate_on_corrected {
            "corrected"
        } else {
            "human"
        }
        .into(),
        queries: judged.paired.ids.len(),
        labelled_queries: judged.paired.ids.len() - unlabelled.len(),
        min_labelled: j.min_labelled,
        min_kappa: j.min_kappa,
        sample: j.sample.as_ref().map(|s| s.written.clone()),
        agreement: agree,
        deltas,
        unlabelled,
        uncertainty: Vec::new(),
        planted: None,
    }
}

/// Each query's |judge delta| averaged over the gated mean metrics, each in units of its
/// standard deviation over queries (a metric whose judge deltas do not vary is left out).
fn uncertainty(cfg: &Config, judged: &Paired) -> Vec<(String, Option<String>, f64)> {
    let mut sum = vec![0.0; judged.ids.len()];
    let mut metrics = 0.0;
    let gated: BTreeSet<&str> = cfg
        .gates
        .iter()
        .filter(|g| g.statistic == crate::stats::statistic::Statistic::Mean)
        .map(|g| g.metric.as_str())
        .collect();
    for m in gated.iter().filter_map(|m| judged.metrics.get(*m)) {
        let d: Vec<f64> = m
            .candidate
            .iter()
            .zip(&m.baseline)
            .map(|(c, b)| c - b)
            .collect();
        let mean = d.iter().sum::<f64>() / d.len().max(1) as f64;
        let sd = (d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / d.len().max(1) as f64).sqrt();
        if sd > 0.0 && sd.is_finite() {
            sum.iter_mut().zip(&d).for_each(|(s, x)| *s += x.abs() / sd);
            metrics += 1.0;
        }
    }
    judged
        .ids
        .iter()
        .zip(&judged.group_of)
        .zip(&sum)
        .map(|((id, g), s)| {
            let group = g.map(|g| judged.group_names[g as usize].clone());
            (
                id.to_string(),
                group,
                if metrics > 0.0 { s / metrics } else { 0.0 },
            )
        })
        .collect()
}

/// The judge's queries without human values, with their groups.
fn unlabelled_queries(judged: &Paired, human: &Paired) -> Vec<(String, Option<String>)> {
    let labelled: BTreeSet<&str> = human.ids.iter().collect();
    let mut out: Vec<(String, Option<String>)> = judged
        .ids
        .iter()
        .zip(&judged.group_of)
        .filter(|(id, _)| !labelled.contains(id))
        .map(|(id, g)| {
            (
                id.to_string(),
                g.map(|g| judged.group_names[g as usize].clone()),
            )
        })
        .collect();
    out.sort();
    out
}

/// A warning when, on the labelled units, the judge's delta differs from the humans' by an
/// interval that excludes 0: the judge favours one side on this metric.
fn favour_on_delta(d: &JudgedDelta, metric: &str, slice: &str) -> Option<String> {
    let g = d.judge_minus_human?;
    if g.ci[0] <= 0.0 && g.ci[1] >= 0.0 {
        return None;
    }
    let side = if g.delta > 0.0 {
        "candidate"
    } else {
        "baseline"
    };
    Some(format!(
        "the judge favours the {side} on {metric} ({slice}): on the {} human-labelled units its delta is {} [{}, {}] away from the humans'; the judge-only delta cannot be trusted, the corrected one accounts for it",
        g.units,
        crate::numbers::signed(g.delta),
        crate::numbers::signed(g.ci[0]),
        crate::numbers::signed(g.ci[1])
    ))
}

/// Why the judge cannot be trusted at all: with a `min-kappa` floor, its binary κ at the
/// relevance level below it, or no pair graded by both. Without a floor the corrected interval
/// decides whatever the judge's quality (a poor judge gets λ near 0: the human-only interval).
fn trust(j: &JudgeSettings, kappa: Option<f64>, level: i32) -> Option<String> {
    let floor = j.min_kappa?;
    match kappa {
        None => Some("no (query, document) pair graded by both humans and judge, so its agreement is unknown (min-kappa is set)".into()),
        Some(k) if k < floor => Some(format!(
            "binary Cohen's κ {k:.3} (relevant at grade ≥ {level}) with the humans is below min-kappa {floor}"
        )),
        Some(_) => None,
    }
}

fn interval(x: (f64, f64, f64, usize)) -> DeltaInterval {
    DeltaInterval {
        units: x.3,
        delta: x.0,
        ci: [x.1, x.2],
    }
}

/// Why a corrected delta is not judged: a judge not trusted at all, too few labelled units, or
/// none left unlabelled.
fn why_not(
    distrust: Option<&str>,
    labelled: usize,
    min_labelled: usize,
    nothing_unlabelled: bool,
    grouped: bool,
) -> Option<String> {
    let (units, one) = if grouped {
        ("groups", "group")
    } else {
        ("queries", "query")
    };
    if let Some(w) = distrust {
        Some(w.to_string())
    } else if labelled < min_labelled {
        Some(format!(
            "{labelled} human-labelled {units} < min-labelled {min_labelled}"
        ))
    } else if nothing_unlabelled {
        Some(format!(
            "every {one} is human-labelled: nothing for the judge to add"
        ))
    } else {
        None
    }
}

/// What every comparison's delta reads besides its values: why the judge is not trusted, and
/// each drawn query's inclusion probability with `[judge] sample`.
#[derive(Clone, Copy)]
struct Ctx<'a> {
    distrust: Option<&'a str>,
    drawn: Option<&'a BTreeMap<String, f64>>,
}

/// The three deltas of one mean comparison, and the split of its queries behind them.
fn delta(
    cfg: &Config,
    j: &JudgeSettings,
    (hpaired, hslices): (&Paired, &[Slice]),
    judged: &JudgeEvals,
    c: &Comparison,
    ctx: Ctx<'_>,
) -> (JudgedDelta, Split) {
    let conf = cfg.bootstrap.confidence;
    let grouped = cfg.bootstrap.unit == Unit::Group;
    let human = values_by_id(hpaired, hslices, &c.slice, &c.metric);
    let judge = values_by_id(&judged.paired, &judged.slices, &c.slice, &c.metric);
    let split = Split::new(&human, &judge, grouped, ctx.drawn);
    let (y, yh, gl) = split.labelled_deltas();
    let (u, gu) = split.unlabelled_deltas();
    let all: Vec<f64> = judge.values().map(|v| v.d()).collect();
    let all_groups: Vec<usize> = judge.values().map(|v| v.g).collect();
    let human_values: Vec<f64> = human.values().map(|v| v.d()).collect();
    let human_groups: Vec<usize> = human.values().map(|v| v.g).collect();
    let by = |v: &[usize]| -> Option<Vec<usize>> { grouped.then(|| v.to_vec()) };
    let human_interval = match &split.probability {
        Some(_) => sample::weighted_human(&split, grouped, conf).map(interval),
        None => ppi::classical(&human_values, by(&human_groups).as_deref(), conf).map(interval),
    };
    let judge_only = ppi::classical(&all, by(&all_groups).as_deref(), conf).map(interval);
    let units = ppi::Units {
        human: &y,
        judge_labelled: &yh,
        judge_unlabelled: &u,
        groups: grouped.then_some((gl.as_slice(), gu.as_slice())),
    };
    // Queries for the query unit, whatever groups the queries file names; groups for the group unit.
    let labelled_units = match grouped {
        true => gl.iter().collect::<BTreeSet<_>>().len(),
        false => y.len(),
    };
    let not_judged = why_not(
        ctx.distrust,
        labelled_units,
        j.min_labelled,
        u.is_empty(),
        grouped,
    );
    let corrected = match (&not_judged, &split.probability) {
        (Some(_), _) => None,
        (None, Some(_)) => sample::active_corrected(&split, grouped, conf),
        (None, None) => ppi::mean_interval_small_sample(&units, ppi::Lambda::Tuned, conf)
            .map(|e| corrected_delta(&e, ppi::effective_labelled(&units, &e))),
    };
    let plan = plan_input(&units, &all, by(&all_groups).as_deref(), labelled_units);
    let gap: Vec<f64> = yh.iter().zip(&y).map(|(j, h)| j - h).collect();
    let judge_minus_human = ppi::classical(&gap, by(&gl).as_deref(), conf).map(interval);
    let d = JudgedDelta {
        metric: c.metric.clone(),
        slice: c.slice.clone(),
        human: human_interval,
        judge_only,
        judge_minus_human,
        not_judged: if corrected.is_none() && not_judged.is_none() {
            Some("too few units for an interval".into())
        } else {
            not_judged
        },
        corrected,
        plan,
    };
    (d, split)
}

/// The report's corrected delta from a PPI estimate and the human labels it is worth.
fn corrected_delta(e: &ppi::PpiEstimate, worth_labelled: Option<f64>) -> CorrectedDelta {
    CorrectedDelta {
        delta: e.estimate,
        ci: [e.low, e.high],
        se: e.se,
        lambda: e.lambda,
        labelled: e.labelled,
        unlabelled: e.unlabelled,
        worth_labelled,
    }
}

/// The spreads behind the corrected variance, for `label-plan`: from the split with two
/// labelled units or more, else the judge's own spread of deltas standing in for the humans'
/// (no covariance: a judge worth nothing until humans say otherwise).
fn plan_input(
    units: &ppi::Units<'_>,
    all: &[f64],
    all_groups: Option<&[usize]>,
    labelled: usize,
) -> Option<crate::model::LabelPlanInput> {
    let total = all_groups.map_or(all.len(), |g| g.iter().collect::<BTreeSet<_>>().len());
    if labelled + 1 >= total {
        return None;
    }
    let (p, without_labels) = match ppi::parts(units) {
        Some(p) => (p, false),
        None if total >= 2 => {
            // Unbiased, as `ppi::parts` reads the spreads.
            let spread = ppi::unit_variance(all, all_groups) * total as f64 / (total - 1) as f64;
            let p = ppi::Parts {
                human: spread,
                cov: 0.0,
                judge_labelled: spread,
                judge_unlabelled: spread,
                query_cov: 0.0,
                query_judge: 0.0,
            };
            (p, true)
        }
        None => return None,
    };
    Some(crate::model::LabelPlanInput {
        human: p.human,
        cov: p.cov,
        judge_labelled: p.judge_labelled,
        judge_unlabelled: p.judge_unlabelled,
        query_cov: p.query_cov,
        query_judge: p.query_judge,
        labelled,
        total,
        without_labels,
    })
}

/// `gate-on = "corrected"`: a gate on a comparison the judge could not be trusted on is not
/// judged (it fails the build: a judge that cannot be checked never passes a change; its floors,
/// the human-labelled units and the agreement with the humans, are the setup's, not the pull
/// request's); an untouched check stays untouched; the others say that they read the corrected
/// delta.
pub fn mark_gates(
    gates: &mut [GateResult],
    untrusted: &BTreeMap<(String, String), String>,
) -> Vec<String> {
    let mut warnings = Vec::new();
    for r in gates.iter_mut() {
        match untrusted.get(&(r.metric.clone(), r.slice.clone())) {
            Some(why) if r.statistic == "mean" && r.status != GateStatus::Untouched => {
                r.status = GateStatus::TooSmall;
                r.passed = false;
                r.fails_build = true;
                r.not_judged = Some(NotJudged::UntrustedJudge);
                r.decided_by = NotJudged::UntrustedJudge.decided_by().into();
                r.detail = format!("the judge-corrected delta is not judged: {why}");
                warnings.push(format!(
                    "gate #{} {} on {}: {}",
                    r.gate,
                    r.name(),
                    r.slice,
                    r.detail
                ));
            }
            _ if r.statistic == "mean" => {
                r.detail = format!("judge-corrected (prediction-powered) delta: {}", r.detail);
            }
            _ => {}
        }
    }
    warnings
}
