//! A slice's replicate runs, decomposed for the crossed interval (`stats::crossed`).

use crate::pair::Paired;
use crate::stats::crossed::{candidate_noisier, side_noise, RunPart, SideNoise};

/// Each side's decomposition of `metric` over the slice's members `idx`; None with one run per
/// side.
pub fn slice_noise(paired: &Paired, metric: &str, idx: &[usize]) -> Option<[SideNoise; 2]> {
    let r = paired.replicates.as_ref()?;
    let runs = &r.metrics[metric];
    Some([0, 1].map(|side| {
        let cols: Vec<Vec<f64>> = runs[side]
            .iter()
            .map(|run| idx.iter().map(|&i| run[i]).collect())
            .collect();
        side_noise(&cols.iter().map(Vec::as_slice).collect::<Vec<_>>())
    }))
}

/// The run part of `metric` on the slice: from the baseline's noise only, or from both sides'
/// when `both_trusted` (an A/A test); None without the replicates it needs.
pub fn slice_runs(
    paired: &Paired,
    metric: &str,
    idx: &[usize],
    both_trusted: bool,
) -> Option<RunPart> {
    let [b, c] = slice_noise(paired, metric, idx)?;
    if both_trusted {
        RunPart::symmetric(&b, &c)
    } else {
        RunPart::new(&b, &c)
    }
}

/// The run part of `metric` on `slice` from the A/A noise file's runs (`Settings::aa_pools`:
/// the slice's own record, else `all`'s), when the baseline has one run and so carries no
/// whole-run shift itself; None otherwise.
pub fn aa_runs(
    paired: &Paired,
    metric: &str,
    slice: &str,
    pools: &std::collections::BTreeMap<(String, String), SideNoise>,
) -> Option<RunPart> {
    let counts = paired.replicates.as_ref().map_or([1, 1], |r| r.counts);
    if counts[0] >= 2 {
        return None;
    }
    let key = |s: &str| (metric.to_string(), s.to_string());
    let pool = pools.get(&key(slice)).or_else(|| pools.get(&key("all")))?;
    RunPart::from_aa(pool, counts)
}

/// What the report says about the candidate's replicates, whose spread is never trusted
/// (`stats::crossed`): without baseline replicates they only average (`quantiles`: a median or
/// p95 gate stacks them, and the words say so); a candidate spread
/// significantly wider than the baseline's (on all queries) is flagged for each metric.
pub fn untrusted_noise_warnings(
    paired: &Paired,
    metrics: &[String],
    quantiles: bool,
) -> Vec<String> {
    let Some(r) = paired.replicates.as_ref() else {
        return Vec::new();
    };
    let [b_runs, c_runs] = r.counts;
    if b_runs < 2 && c_runs >= 2 {
        let stacked = match quantiles {
            true => " for the means (a median or p95 reads their values stacked)",
            false => "",
        };
        return vec![format!(
            "the candidate's {c_runs} replicate runs are averaged per query{stacked} but do not widen any interval: run-to-run noise comes from the baseline only (give baseline replicates to carry it)"
        )];
    }
    let all: Vec<usize> = (0..paired.ids.len()).collect();
    let mut out = Vec::new();
    for m in metrics.iter().filter(|m| r.metrics.contains_key(*m)) {
        let Some([b, c]) = slice_noise(paired, m, &all) else {
            continue;
        };
        if candidate_noisier(&b, &c) {
            out.push(format!(
                "{}: the candidate's replicate runs spread far more than the baseline's (run-mean SD {:.4} vs {:.4}, F test at 1%): the interval uses the baseline's noise, so the extra spread cannot widen it; a candidate this unstable needs a look",
                crate::safe_text::shown(m),
                c.mean_var.sqrt(),
                b.mean_var.sqrt()
            ));
        }
    }
    out
}
