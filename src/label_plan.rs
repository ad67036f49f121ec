//! The `label-plan` command: for a gate file with `[judge]`, how many human-labelled queries
//! (conversations with the group unit) each gated mean needs for its corrected gate to pass an
//! unchanged system at the margin with the asked power, and the next batch to label: a seeded
//! uniform random sample of the units the humans have not labelled (what the corrected
//! interval assumes), written as JSON lines with each unit's inclusion probability.
//!
//! The size reads the corrected variance se(G)² = λ² v_u / (units − G) + v_r / G at the data's
//! own λ and unbiased spreads, the labelled ones at their upper `--assurance` limit, for the
//! gate's rule (`stats::ppi::labels_needed`); with fewer than two labelled units the judge's
//! spread of deltas stands in for the humans' at λ = 0 (a judge worth nothing), which the plan
//! says. A gate the units cannot reach gets no size: the plan says so, with the power all but
//! two units labelled would give and the smallest margin the power reaches.
//!
//! A size read from the units labelled so far rests on their spreads: when a gate asks for more,
//! the plan says to run it again once the batch is labelled (`plan_again`), and the second plan,
//! read from every labelled unit, names any top-up. The two steps deliver the stated power in
//! simulation (calibration/label_plan_results.txt).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::cli::{LabelPlanArgs, LabelPlanFormat};
use crate::config::{Config, Unit};
use crate::error::{Error, Result};
use crate::model::JudgeReport;
use crate::stats::power::NoOpRule;
use crate::stats::ppi;
use crate::Outcome;

mod active;
mod plant;

/// One gated mean's need.
#[derive(Debug, Clone, Serialize)]
pub struct GateNeed {
    pub gate: usize,
    pub metric: String,
    pub slice: String,
    /// The rule's margin (max-drop or max-change).
    pub margin: f64,
    /// The λ the corrected gate is expected to take at the planned size.
    pub lambda: Option<f64>,
    pub labelled: usize,
    pub units: usize,
    /// "max-drop" (one-sided) or "max-change" (two-sided: a no-op must stay inside ±margin).
    pub rule: String,
    /// Labelled units needed (None: not reachable short of labelling every unit).
    pub needed: Option<usize>,
    /// Labelled units still to add (0 when enough).
    pub more: Option<usize>,
    /// When not reachable: the power with all but two units labelled (the most the corrected
    /// gate can have, at the spreads the plan read), and the smallest margin the asked power
    /// reaches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub power_at_most: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reachable_margin: Option<f64>,
    /// No human labels yet: the judge's spread stood in for the humans' (λ = 0).
    pub without_labels: bool,
}

/// One unit of the next batch.
#[derive(Debug, Clone, Serialize)]
pub struct BatchRow {
    pub query_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// The chance this unit was drawn (batch / pool, uniform sampling without replacement; with
    /// `--active`, its chance to be in the whole sample).
    pub inclusion_probability: f64,
    /// With `--active`: true for a unit the humans already labelled, false for one to label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labelled: Option<bool>,
}

#[derive(Debug, Clone, Serialize)]
pub struct LabelPlan {
    pub unit: String,
    pub power: f64,
    /// The share of pilots for which the planned sizes give at least `power` (`--assurance`).
    pub assurance: f64,
    pub confidence: f64,
    pub gates: Vec<GateNeed>,
    /// Units drawn for the next batch, of the pool of unlabelled units.
    pub batch: usize,
    pub pool: usize,
    pub seed: u64,
    /// "uniform" or "active" (`--active`).
    pub design: String,
    /// With `--active`: the units expected in the batch (the batch drawn is random around it),
    /// and the range of the unlabelled units' inclusion probabilities.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_batch: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub probability_range: Option<[f64; 2]>,
    /// With `--plant`: the planted pairs written for the judge.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub planted: Option<plant::PlantSummary>,
    /// A gate asks for more labels: its size rests on the spreads of the units labelled so far,
    /// so once the batch is labelled the plan is to be run again on every labelled unit, which
    /// names any top-up. Labelling in these two steps is what delivers the stated power.
    pub plan_again: bool,
}

/// The flags' own errors (exit 2), before anything is read.
fn check_flags(args: &LabelPlanArgs) -> Result<()> {
    if args.batch == Some(0) {
        return Err(Error::Usage(
            "--batch 0: expected at least 1 unit to draw (leave --batch out for what the gates \
             still need)"
                .into(),
        ));
    }
    if !(args.assurance >= 0.5 && args.assurance < 1.0) {
        return Err(Error::Usage(format!(
            "--assurance {}: expected a share from 0.5 up to (not including) 1, e.g. 0.8",
            args.assurance
        )));
    }
    if let Some(n) = args.plant {
        let missing: Vec<&str> = [
            ("--queries-text", args.queries_text.is_none()),
            ("--corpus", args.corpus.is_none()),
            ("--plant-out", args.plant_out.is_none()),
            ("--plant-key", args.plant_key.is_none()),
        ]
        .iter()
        .filter(|(_, m)| *m)
        .map(|(f, _)| *f)
        .collect();
        if n == 0 || !missing.is_empty() {
            return Err(Error::Usage(format!(
                "--plant {n}: expected at least 1 pair of each kind, with --queries-text, --corpus, --plant-out and --plant-key{}",
                match missing.is_empty() {
                    true => String::new(),
                    false => format!(" (missing: {})", missing.join(", ")),
                }
            )));
        }
    }
    if !(args.power > 0.5 && args.power < 1.0) {
        return Err(Error::Usage(format!(
            "--power {}: expected a chance strictly between 0.5 and 1, e.g. 0.8",
            args.power
        )));
    }
    Ok(())
}

/// The rows of the batch file, one JSON object a line.
fn write_rows(out: &std::path::Path, rows: &[BatchRow]) -> Result<()> {
    crate::atomic::write_atomic(out, plant::jsonl(rows).as_bytes())
}

pub fn run(args: &LabelPlanArgs) -> Result<Outcome> {
    check_flags(args)?;
    let cfg = crate::config::load(&args.gate_file)?;
    if cfg.judge.is_none() {
        return Err(Error::Usage(format!(
            "{}: label-plan needs a [judge] table (the judge's qrels beside the human ones)",
            args.gate_file.display()
        )));
    }
    let report = crate::check::analyze(&cfg)?;
    let judge = report.judge.as_ref().ok_or_else(|| {
        Error::Usage(
            "label-plan: the judge section was not computed (both inputs must be runs)".into(),
        )
    })?;
    let gates = needs(&cfg, judge, args.power, args.assurance);
    let grouped = cfg.bootstrap.unit == Unit::Group;
    let pool = pool_units(judge, grouped);
    let want = args
        .batch
        .unwrap_or_else(|| default_batch(&gates, pool.len()));
    let seed = args.seed.unwrap_or(cfg.bootstrap.seed);
    let mut plan = LabelPlan {
        unit: if grouped { "group" } else { "query" }.into(),
        power: args.power,
        assurance: args.assurance,
        confidence: cfg.bootstrap.confidence,
        gates,
        batch: want.min(pool.len()),
        pool: pool.len(),
        seed,
        design: "uniform".into(),
        expected_batch: None,
        probability_range: None,
        planted: None,
        plan_again: false,
    };
    plan.plan_again = plan.gates.iter().any(|g| g.more.is_some_and(|m| m > 0));
    let planted = match args.plant {
        Some(n) => Some(plant_pairs(args, &cfg, judge, n, seed)?),
        None => None,
    };
    let rows = match args.active && !pool.is_empty() {
        false => draw(judge, &pool, want.min(pool.len()), seed, grouped),
        true => {
            let a = active::draw(judge, &pool, want.min(pool.len()), seed, grouped)?;
            plan.design = "active".into();
            plan.batch = a.drawn;
            plan.expected_batch = Some(a.expected);
            plan.probability_range = Some([a.range.0, a.range.1]);
            a.rows
        }
    };
    if let Some(out) = &args.output {
        write_rows(out, &rows)?;
    }
    if let Some(p) = planted {
        plan.planted = Some(write_planted(args, p)?);
    }
    let stdout = match args.format {
        LabelPlanFormat::Json => {
            serde_json::to_string_pretty(&plan).expect("plain data serializes") + "\n"
        }
        LabelPlanFormat::Text => render(&plan, args.output.as_deref()),
    };
    let stderr = batch_warning(args.batch, pool.len(), grouped);
    Ok(Outcome {
        stdout,
        stderr,
        ..Outcome::default()
    })
}

type PlantedPairs = (
    Vec<plant::PlantedRow>,
    Vec<crate::load::plant_key::Planted>,
    plant::PlantSummary,
);

/// Writes the planted pairs to `--plant-out` and their key to `--plant-key`.
fn write_planted(
    args: &LabelPlanArgs,
    (pairs, key, summary): PlantedPairs,
) -> Result<plant::PlantSummary> {
    let (out, key_file) = (args.plant_out.as_ref(), args.plant_key.as_ref());
    crate::atomic::write_atomic(out.expect("checked"), plant::jsonl(&pairs).as_bytes())?;
    crate::atomic::write_atomic(key_file.expect("checked"), plant::jsonl(&key).as_bytes())?;
    Ok(summary)
}

/// The planted pairs of `--plant`, on the queries the judge scored that have text.
fn plant_pairs(
    args: &LabelPlanArgs,
    cfg: &Config,
    judge: &JudgeReport,
    per_kind: usize,
    seed: u64,
) -> Result<(
    Vec<plant::PlantedRow>,
    Vec<crate::load::plant_key::Planted>,
    plant::PlantSummary,
)> {
    let (qt, corpus_file) = (args.queries_text.as_ref(), args.corpus.as_ref());
    let mut queries =
        plant::read_texts(qt.expect("checked"), &["query_id", "_id", "id"], "queries")?;
    let scored: std::collections::BTreeSet<&String> =
        judge.uncertainty.iter().map(|(q, _, _)| q).collect();
    queries.retain(|q, _| scored.contains(q));
    if queries.is_empty() {
        return Err(Error::Usage(format!(
            "--queries-text {}: none of its query ids is among the {} queries the judge scored",
            qt.expect("checked").display(),
            scored.len()
        )));
    }
    let corpus = plant::read_texts(
        corpus_file.expect("checked"),
        &["doc_id", "_id", "id"],
        "passages",
    )?;
    let human = cfg
        .inputs
        .qrels
        .as_ref()
        .expect("validated: runs come with qrels");
    let j = cfg.judge.as_ref().expect("checked");
    let mut relevant = crate::judge_labels::grades(&human.path, &human.shown(), cfg)?;
    for (q, docs) in crate::judge_labels::grades(&j.qrels.path, &j.qrels.shown(), cfg)? {
        relevant
            .entry(q)
            .or_default()
            .extend(docs.into_iter().filter(|(_, g)| *g > 0));
    }
    let (pairs, key) = plant::plant(per_kind, &queries, &corpus, &relevant, seed)?;
    let summary = plant::PlantSummary {
        per_kind,
        queries: key
            .iter()
            .map(|k| &k.query_id)
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        pairs_file: args
            .plant_out
            .as_ref()
            .expect("checked")
            .display()
            .to_string(),
        key_file: args
            .plant_key
            .as_ref()
            .expect("checked")
            .display()
            .to_string(),
    };
    Ok((pairs, key, summary))
}

/// A --batch above the pool draws the whole pool: said, not silently cut.
fn batch_warning(batch: Option<usize>, pool: usize, grouped: bool) -> Vec<crate::safe_text::Line> {
    match batch {
        Some(b) if b > pool => vec![format!(
            "warning: --batch {b}: only {} unlabelled {} left; the batch is all of them",
            pool,
            if grouped {
                "conversations are"
            } else {
                "queries are"
            }
        )
        .into()],
        _ => Vec::new(),
    }
}

/// What the gates still need: the largest shortfall, or every unlabelled unit when a gate cannot
/// reach its power short of labelling everything.
fn default_batch(gates: &[GateNeed], pool: usize) -> usize {
    match gates.iter().any(|g| g.more.is_none()) {
        true => pool,
        false => gates.iter().filter_map(|g| g.more).max().unwrap_or(0),
    }
}

/// Each gated mean with a delta rule (max-drop, max-change), on each slice the judge section has.
fn needs(cfg: &Config, judge: &JudgeReport, power: f64, assurance: f64) -> Vec<GateNeed> {
    let mut out = Vec::new();
    for g in &cfg.gates {
        let (rule, margin) = match (g.max_drop, g.max_change) {
            (Some(m), _) => (NoOpRule::Drop, m),
            (None, Some(m)) => (NoOpRule::Change, m),
            (None, None) => continue,
        };
        for d in judge.deltas.iter().filter(|d| d.metric == g.metric) {
            let Some(p) = d.plan else { continue };
            let parts = ppi::Parts {
                human: p.human,
                cov: p.cov,
                judge_labelled: p.judge_labelled,
                judge_unlabelled: p.judge_unlabelled,
                query_cov: p.query_cov,
                query_judge: p.query_judge,
            };
            // No human labels: the judge's spread stands in, and has no pilot's uncertainty.
            let parts = match p.without_labels {
                true => parts,
                false => parts.with_assurance(p.labelled, assurance),
            };
            let levels = (cfg.bootstrap.confidence, power);
            let needed = ppi::labels_needed(&parts, p.total, rule, margin, levels);
            let lambda = needed.map(|n| parts.variance_at(n.max(p.labelled).max(3), p.total).1);
            // The corrected interval needs two unlabelled units.
            let most = p.total.saturating_sub(2);
            let short = needed.is_none() && most >= 3;
            out.push(GateNeed {
                gate: g.index,
                metric: d.metric.clone(),
                slice: d.slice.clone(),
                margin,
                lambda,
                labelled: p.labelled,
                units: p.total,
                rule: match rule {
                    NoOpRule::Drop => "max-drop",
                    NoOpRule::Change => "max-change",
                }
                .into(),
                needed,
                power_at_most: short
                    .then(|| ppi::power_at(&parts, most, p.total, rule, margin, levels.0)),
                reachable_margin: short
                    .then(|| ppi::reachable_margin(&parts, p.total, rule, levels)),
                more: needed.map(|n| n.saturating_sub(p.labelled)),
                without_labels: p.without_labels,
            });
        }
    }
    out
}

/// The units the batch is drawn from: unlabelled queries, or with the group unit the groups
/// holding one (a partly labelled conversation is labelled whole).
fn pool_units(judge: &JudgeReport, grouped: bool) -> Vec<String> {
    let mut units: Vec<String> = judge
        .unlabelled
        .iter()
        .map(|(q, g)| match (grouped, g) {
            (true, Some(g)) => g.clone(),
            _ => q.clone(),
        })
        .collect();
    units.sort();
    units.dedup();
    units
}

/// A uniform random sample of `k` units of `pool` (seeded), expanded to their queries.
fn draw(judge: &JudgeReport, pool: &[String], k: usize, seed: u64, grouped: bool) -> Vec<BatchRow> {
    // A partial Fisher–Yates shuffle: the first k of a uniform random permutation.
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut order: Vec<&String> = pool.iter().collect();
    for i in 0..k {
        let j = rng.random_range(i..order.len());
        order.swap(i, j);
    }
    let chosen: std::collections::BTreeSet<&String> = order[..k].iter().copied().collect();
    let p = if pool.is_empty() {
        0.0
    } else {
        k as f64 / pool.len() as f64
    };
    judge
        .unlabelled
        .iter()
        .filter(|(q, g)| match (grouped, g) {
            (true, Some(g)) => chosen.contains(g),
            _ => chosen.contains(q),
        })
        .map(|(q, g)| BatchRow {
            query_id: q.clone(),
            group: g.clone(),
            inclusion_probability: p,
            labelled: None,
        })
        .collect()
}

fn render(plan: &LabelPlan, out: Option<&std::path::Path>) -> String {
    let mut s = render_plan(plan, out);
    if let Some(p) = &plan.planted {
        s.push_str(&format!(
            "Planted {} pairs of each kind (keyword stuffing, an instruction to the assessor) on {} queries, for the judge to label beside the real ones: written to {} (merge them into the judge's input); which are planted, to {}: keep it from the judge, and set [judge] plant-key = \"{}\" once the judge's labels are in\n",
            p.per_kind, p.queries, p.pairs_file, p.key_file, p.key_file
        ));
    }
    s
}

fn render_plan(plan: &LabelPlan, out: Option<&std::path::Path>) -> String {
    let units = if plan.unit == "group" {
        "conversations"
    } else {
        "queries"
    };
    let mut s = format!(
        "Human labels each corrected gate needs to pass an unchanged system with power {} at {}% confidence ({units}), for {}% of samples like the labelled one (--assurance):\n",
        plan.power,
        100.0 * plan.confidence,
        100.0 * plan.assurance
    );
    for g in &plan.gates {
        s.push_str(&gate_line(plan, g, units));
    }
    if plan.plan_again {
        s.push_str(&format!(
            "These sizes rest on the spreads of the {units} labelled so far: once the batch is labelled, run label-plan again on all the labelled {units}; it names any top-up (the two steps together deliver the stated power)\n"
        ));
    }
    s.push_str(&batch_line(plan, out, units));
    s
}

/// One gate's need: the size, what is still to label, or why it cannot be reached.
fn gate_line(plan: &LabelPlan, g: &GateNeed, units: &str) -> String {
    let need = match (g.needed, g.more) {
        (Some(n), Some(0)) => format!("needs {n}, has {}: enough", g.labelled),
        (Some(n), Some(m)) => format!("needs {n}, has {}: label {m} more", g.labelled),
        _ => match (g.power_at_most, g.reachable_margin) {
            (Some(p), Some(m)) => format!(
                "not reachable: with all but two of the {} labelled it passes with power \
                 about {p:.2} (has {}); power {} needs a margin of {m:.4} or more, or more \
                 {units}",
                g.units, g.labelled, plan.power
            ),
            _ => format!("not reachable (has {} of {})", g.labelled, g.units),
        },
    };
    let assumed = if g.without_labels {
        " (no human labels yet: assumes the judge is worth nothing, λ = 0)"
    } else {
        ""
    };
    format!(
        "  gate #{} {} on {} ({} {}, {} {units} in all): {need}{lambda}{assumed}\n",
        g.gate,
        g.metric,
        g.slice,
        g.rule,
        g.margin,
        g.units,
        lambda = g
            .lambda
            .map_or(String::new(), |l| format!(" (λ about {l:.2} there)"))
    )
}

/// The next batch: what was drawn and where it was written, or why there is nothing to label.
fn batch_line(plan: &LabelPlan, out: Option<&std::path::Path>, units: &str) -> String {
    if plan.pool == 0 {
        return format!(
            "Every {} is human-labelled: the human-only comparison decides, nothing to label next\n",
            if plan.unit == "group" { "conversation" } else { "query" }
        );
    }
    if let (Some(e), Some([lo, hi])) = (plan.expected_batch, plan.probability_range) {
        return format!(
            "Next batch: {} of {} unlabelled {units} (expected {e:.1}), an active sample (seed {}): each drawn with probability {lo:.3}–{hi:.3}, more where the judge's delta is large{}\n",
            plan.batch,
            plan.pool,
            plan.seed,
            out.map_or(String::new(), |p| format!(
                "; written to {} with the labelled {units}, each with its inclusion probability: once the new ones are labelled, set [judge] sample = \"{}\" so the corrected delta weights each by 1/probability",
                p.display(),
                p.display()
            ))
        );
    }
    if plan.batch == 0 {
        let why = match plan.gates.is_empty() {
            true => "no gate has a max-drop or max-change margin to plan for".to_string(),
            false => format!("every gate has the {units} it needs"),
        };
        return format!(
            "Nothing to label next: {why}{}\n",
            out.map_or(String::new(), |p| format!(
                " ({} is written empty)",
                p.display()
            ))
        );
    }
    format!(
        "Next batch: {} of {} unlabelled {units}, a uniform random sample (seed {}){}\n",
        plan.batch,
        plan.pool,
        plan.seed,
        out.map_or(String::new(), |p| format!(", written to {}", p.display()))
    )
}
