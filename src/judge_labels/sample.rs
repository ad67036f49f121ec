//! `[judge] sample`: the human-labelled units were drawn with recorded inclusion probabilities
//! (an active sample, `label-plan --active`). The sample must account for every labelled query
//! and every drawn query must be labelled (an unlabelled draw would bias the weighted estimate);
//! the corrected delta and the human-only one then weight each labelled unit by 1/π
//! (`stats::active_ppi`).

use std::collections::{BTreeMap, BTreeSet};

use crate::config::InputSpec;
use crate::error::{Error, Result};
use crate::model::CorrectedDelta;
use crate::pair::Paired;
use crate::stats::{active_ppi, ppi::Lambda};

use super::corrected::Split;

/// Each drawn query's inclusion probability, checked against the judge's queries and the
/// human-labelled ones (module header).
pub fn probabilities(
    spec: &InputSpec,
    judged: &Paired,
    human: &Paired,
    grouped: bool,
) -> Result<BTreeMap<String, f64>> {
    let shown = spec.shown();
    let sample = crate::load::sample::read(&spec.path, &shown)?;
    let scored: BTreeSet<&str> = judged.ids.iter().collect();
    let labelled: BTreeSet<&str> = human.ids.iter().collect();
    let mut by_group: BTreeMap<usize, (f64, usize)> = BTreeMap::new();
    for (id, d) in &sample {
        let at = |msg: String| Error::input(&shown, d.line, msg);
        if !scored.contains(id.as_str()) {
            return Err(at(format!(
                "query {id} is not among the {} queries the judge scored: a sample names the gate's queries",
                scored.len()
            )));
        }
        if !labelled.contains(id.as_str()) {
            return Err(at(format!(
                "query {id} was drawn but has no human labels (the human qrels hold no relevant document for it): label it, or draw the sample again; a drawn query left unlabelled biases the weighted estimate"
            )));
        }
        let i = judged.ids.iter().position(|q| q == id).expect("scored");
        if let Some(g) = judged.group_of[i] {
            let first = by_group
                .entry(g as usize)
                .or_insert((d.probability, d.line));
            if first.0 != d.probability {
                return Err(at(format!(
                    "key inclusion_probability of query {id}: {} differs from {} on line {} for the same conversation {}: a conversation is drawn whole, with one probability",
                    d.probability, first.0, first.1, judged.group_names[g as usize]
                )));
            }
        }
    }
    // With the group unit only wholly labelled conversations are labelled units (a partly
    // labelled one's human values are not read, so it needs no probability).
    let mut complete: BTreeMap<Option<u32>, bool> = BTreeMap::new();
    for (q, g) in judged.ids.iter().zip(&judged.group_of) {
        *complete.entry(*g).or_insert(true) &= labelled.contains(q);
    }
    let used = |i: usize| match (grouped, judged.group_of[i]) {
        (true, Some(g)) => complete[&Some(g)],
        _ => labelled.contains(&judged.ids[i]),
    };
    if let Some(missing) = (0..judged.ids.len())
        .filter(|&i| used(i))
        .map(|i| &judged.ids[i])
        .find(|q| !sample.contains_key(*q))
    {
        return Err(Error::input(
            &shown,
            0,
            format!("query {missing} is human-labelled but not in the sample: every labelled query needs its inclusion_probability (label-plan --active -o lists them all)"),
        ));
    }
    Ok(sample
        .into_iter()
        .map(|(id, d)| (id, d.probability))
        .collect())
}

/// The split's deltas and groups: human and judge on the labelled queries, their groups, the
/// judge's on the others and theirs.
type Store = (Vec<f64>, Vec<f64>, Vec<usize>, Vec<f64>, Vec<usize>);

fn units<'a>(
    split: &Split,
    grouped: bool,
    store: &'a mut Store,
    probability: &'a [f64],
) -> active_ppi::ActiveUnits<'a> {
    let (y, yh, gl) = split.labelled_deltas();
    let (u, gu) = split.unlabelled_deltas();
    *store = (y, yh, gl, u, gu);
    let (y, yh, gl, u, gu) = store;
    active_ppi::ActiveUnits {
        human: y,
        judge_labelled: yh,
        probability,
        judge_unlabelled: u,
        groups: grouped.then_some((gl.as_slice(), gu.as_slice())),
    }
}

/// The weighted human-only delta at λ = 0: (delta, low, high, labelled units).
pub fn weighted_human(split: &Split, grouped: bool, conf: f64) -> Option<(f64, f64, f64, usize)> {
    let p = split.probability.as_ref()?;
    let mut store = Default::default();
    let u = units(split, grouped, &mut store, p);
    let e = active_ppi::mean_interval(&u, Lambda::Fixed(0.0), conf)?;
    Some((e.estimate, e.low, e.high, e.labelled))
}

/// The actively sampled corrected delta (PPI++-tuned λ).
pub fn active_corrected(split: &Split, grouped: bool, conf: f64) -> Option<CorrectedDelta> {
    let p = split.probability.as_ref()?;
    let mut store = Default::default();
    let u = units(split, grouped, &mut store, p);
    let e = active_ppi::mean_interval(&u, Lambda::Tuned, conf)?;
    Some(super::corrected_delta(
        &e,
        active_ppi::effective_labelled(&u, &e),
    ))
}
