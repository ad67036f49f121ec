//! What "moved" means with an A/A noise file (`[noise] file`): a query moved when its delta lies
//! beyond its run-to-run band, the largest difference two replicates of one commit showed on it
//! (the noise file's `query_bands`; tie-epsilon for a query they never moved), scaled to this
//! check's replicate counts like the noise floor (√((1/Rᵦ + 1/R꜀)/2): a mean of R runs jitters
//! less than one run). A comparison of a mean on which no query moved beyond its band, and whose
//! mean delta lies within the run-level noise floor (the A/A prediction bound for two fresh runs
//! of one commit, t · √2 · run sd, `stats::crossed::noise_floor`), is unchanged beyond
//! run-to-run noise ([`WithinNoise`]). Both conditions are needed: moves each within its band
//! but all in one direction add up to a shift two runs of one commit do not show. The judge
//! reads such a comparison untouched where the bands' mean, the largest mean change moves
//! within them can carry, is within the rule's margin (`judge`).
//!
//! Only the mean is read this way: a median or p95 keeps tie-epsilon. A slice the noise file did
//! not measure has no floor here and keeps tie-epsilon too.

use std::collections::BTreeMap;

use crate::model::{Comparison, WithinNoise};
use crate::pair::Paired;
use crate::slices::Slice;

use super::NoiseFile;

/// The noise file and what it is read against: its name as written in the gate file, this
/// check's tie-epsilon and the replicate scale √((1/Rᵦ + 1/R꜀)/2).
pub struct Bands<'a> {
    pub file: &'a NoiseFile,
    pub written: &'a str,
    pub tie_epsilon: f64,
    pub scale: f64,
}

/// The replicate scale of a check with `replicates` runs per side (one each when None).
pub fn scale(replicates: Option<[usize; 2]>) -> f64 {
    let [rb, rc] = replicates.unwrap_or([1, 1]);
    ((1.0 / rb as f64 + 1.0 / rc as f64) / 2.0).sqrt()
}

/// Marks every comparison of a mean that moved, but not beyond the run-to-run noise, with what
/// it rests on (`Comparison::within_noise`).
pub fn mark(bands: &Bands<'_>, paired: &Paired, slices: &[Slice], comparisons: &mut [Comparison]) {
    let by_name: BTreeMap<&str, &Slice> = slices.iter().map(|s| (s.name.as_str(), s)).collect();
    for c in comparisons.iter_mut() {
        if c.untouched || c.statistic != "mean" {
            continue;
        }
        let Some(slice) = by_name.get(c.slice.as_str()) else {
            continue;
        };
        c.within_noise = within(bands, paired, slice, c);
    }
}

/// What `c` on `slice` rests on when every delta lies within its band and the mean delta within
/// the floor; None otherwise.
fn within(
    bands: &Bands<'_>,
    paired: &Paired,
    slice: &Slice,
    c: &Comparison,
) -> Option<WithinNoise> {
    let pair = paired.metrics.get(&c.metric)?;
    let floor = bands.file.entry(&c.metric, &c.slice)?.noise_floor * bands.scale;
    if c.delta.abs() > floor {
        return None;
    }
    let measured = bands.file.query_bands.get(&c.metric);
    let (mut jittered, mut largest, mut sum) = (0usize, 0.0f64, 0.0f64);
    for &m in &slice.members {
        let i = m as usize;
        let measured_band = measured
            .and_then(|q| q.get(&paired.ids[i]))
            .map_or(0.0, |b| b * bands.scale);
        let band = measured_band.max(bands.tie_epsilon);
        let moved = (pair.candidate[i] - pair.baseline[i]).abs();
        if moved > band {
            return None;
        }
        if moved > bands.tie_epsilon {
            jittered += 1;
            largest = largest.max(moved);
        }
        sum += band;
    }
    (jittered > 0 && !slice.members.is_empty()).then(|| WithinNoise {
        file: bands.written.to_string(),
        jittered,
        largest_move: largest,
        band_mean: sum / slice.members.len() as f64,
        floor,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_replicate_scale_is_one_for_single_runs_and_shrinks_with_more() {
        assert_eq!(scale(None), 1.0);
        assert_eq!(scale(Some([1, 1])), 1.0);
        // Three runs a side: √(1/3).
        assert!((scale(Some([3, 3])) - (1.0f64 / 3.0).sqrt()).abs() < 1e-15);
    }
}
