//! `label-plan --active`: the next batch as an active sample (Zrnic & Candès, "Active
//! statistical inference", ICML 2024): each unlabelled unit (query; conversation with the group
//! unit) is drawn independently with a probability that mixes the uniform design with one
//! proportional to the judge's uncertainty about it (`stats::active_ppi::probabilities`), so the
//! humans label more where the judge's delta is large. The labels already there are taken as a
//! uniform random sample of probability p₁ = labelled / units (what the corrected interval
//! assumes of them), so every unit's chance to be in the sample is 1 − (1 − p₁)(1 − π)
//! (`stats::active_ppi::combined`). The file lists every unit of the sample, labelled or newly
//! drawn, with that probability: once the new ones are labelled, `[judge] sample = FILE` makes
//! the corrected estimate weight them by its inverse.

use std::collections::BTreeMap;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::BatchRow;
use crate::error::{Error, Result};
use crate::model::JudgeReport;
use crate::stats::active_ppi;

/// The sample: its rows (every query of a labelled or drawn unit, in id order) and counts.
pub struct Drawn {
    pub rows: Vec<BatchRow>,
    /// Units newly drawn, and how many were expected.
    pub drawn: usize,
    pub expected: f64,
    /// The smallest and largest inclusion probability of an unlabelled unit.
    pub range: (f64, f64),
}

/// Each unit's key (its group with the group unit), in the order first seen.
fn unit_of(query: &str, group: &Option<String>, grouped: bool) -> String {
    match (grouped, group) {
        (true, Some(g)) => g.clone(),
        _ => query.to_string(),
    }
}

/// Draws the active sample: `batch` new units expected, seeded by `seed`.
pub fn draw(
    judge: &JudgeReport,
    pool: &[String],
    batch: usize,
    seed: u64,
    grouped: bool,
) -> Result<Drawn> {
    if judge.sample.is_some() {
        return Err(Error::Usage(
            "label-plan --active: the gate file's [judge] sample already weights the labels by an earlier design; an active draw on top of it is not supported: gate on that sample as it is (removing sample would read its weighted labels as a uniform sample, and bias the corrected delta)".into(),
        ));
    }
    let mut uncertainty: BTreeMap<String, f64> = BTreeMap::new();
    for (q, g, u) in &judge.uncertainty {
        *uncertainty.entry(unit_of(q, g, grouped)).or_insert(0.0) += u;
    }
    let units: Vec<&String> = uncertainty.keys().collect();
    let in_pool: Vec<bool> = units
        .iter()
        .map(|u| pool.binary_search(u).is_ok())
        .collect();
    let labelled = in_pool.iter().filter(|p| !**p).count();
    let p1 = labelled as f64 / units.len().max(1) as f64;
    let values: Vec<f64> = uncertainty.values().copied().collect();
    // Spread over every unit so that the expected new units, (1 − p₁) Σ π, are the batch.
    let p2 = match batch {
        0 => vec![0.0; units.len()],
        b => active_ppi::probabilities(&values, &vec![true; units.len()], b as f64 / (1.0 - p1))
            .ok_or_else(|| {
                Error::Usage(format!(
                    "label-plan --active: a batch of {b} exceeds the {} unlabelled units",
                    pool.len()
                ))
            })?,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut chosen: BTreeMap<&String, (f64, bool)> = BTreeMap::new();
    let mut drawn = 0;
    for ((u, &open), &p) in units.iter().zip(&in_pool).zip(&p2) {
        let take = !open || rng.random::<f64>() < p;
        drawn += usize::from(open && take);
        if take {
            chosen.insert(u, (active_ppi::combined(p1, p), !open));
        }
    }
    let open_p = in_pool
        .iter()
        .zip(&p2)
        .filter(|(o, _)| **o)
        .map(|(_, p)| active_ppi::combined(p1, *p));
    let range = open_p.fold((f64::INFINITY, 0.0_f64), |(lo, hi), p| {
        (lo.min(p), hi.max(p))
    });
    let rows = judge
        .uncertainty
        .iter()
        .filter_map(|(q, g, _)| {
            let &(p, was) = chosen.get(&unit_of(q, g, grouped))?;
            Some(BatchRow {
                query_id: q.clone(),
                group: g.clone(),
                inclusion_probability: p,
                labelled: Some(was),
            })
        })
        .collect();
    Ok(Drawn {
        rows,
        drawn,
        expected: in_pool
            .iter()
            .zip(&p2)
            .filter(|(o, _)| **o)
            .map(|(_, p)| p)
            .sum(),
        range,
    })
}
