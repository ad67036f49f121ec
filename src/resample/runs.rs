//! A slice's replicate runs, decomposed for the crossed interval (`stats::crossed`).

use crate::pair::Paired;
use crate::stats::crossed::{side_noise, RunPart, SideNoise};

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

/// The run part of `metric` on the slice; None with one run per side.
pub fn slice_runs(paired: &Paired, metric: &str, idx: &[usize]) -> Option<RunPart> {
    let [b, c] = slice_noise(paired, metric, idx)?;
    RunPart::new(&b, &c)
}
