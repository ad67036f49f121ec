//! What "moved" means with an A/A noise file (`[noise] file`): a query moved when its delta lies
//! beyond its run-to-run band, the largest difference two replicates of one commit showed on it
//! (the noise file's `query_bands`), or for a query they never moved the run band, the largest
//! they showed on any query; all scaled to this check's replicate counts like the noise floor
//! (√((1/Rᵦ + 1/R꜀)/2): a mean of R runs jitters less than one run). A comparison of a mean on
//! which no query moved beyond its band, on which no more queries moved beyond tie-epsilon than
//! the replicates moved on that slice (the entry's `flaky`, F), and whose mean delta lies within
//! the run-level noise floor (the A/A prediction bound for two fresh runs of one commit,
//! t · √2 · run sd, `stats::crossed::noise_floor`), is unchanged beyond run-to-run noise
//! ([`WithinNoise`]). The floor is needed too: moves each within its band but all in one
//! direction add up to a shift two runs of one commit do not show. What such moves can carry on
//! the slice's n queries is at most the F largest bands summed, over n; the judge reads the
//! comparison untouched where that is within the rule's margin (`verdict`).
//!
//! Only the mean is read this way: a median or p95 keeps tie-epsilon. A slice the noise file did
//! not measure, or a version 1 file (no bands), keeps tie-epsilon too.

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

/// What `c` on `slice` rests on when its moves are within the noise (see [`reading`]) and the
/// mean delta within the floor; None otherwise (or when the file has no bands for the metric).
fn within(
    bands: &Bands<'_>,
    paired: &Paired,
    slice: &Slice,
    c: &Comparison,
) -> Option<WithinNoise> {
    let pair = paired.metrics.get(&c.metric)?;
    let entry = bands.file.entry(&c.metric, &c.slice)?;
    let floor = entry.noise_floor * bands.scale;
    if c.delta.abs() > floor {
        return None;
    }
    let measured = bands.file.query_bands.get(&c.metric)?;
    let run_band = measured.values().copied().fold(0.0, f64::max) * bands.scale;
    let (moves, own): (Vec<f64>, Vec<Option<f64>>) = slice
        .members
        .iter()
        .map(|&m| {
            let i = m as usize;
            let own = measured.get(&paired.ids[i]).map(|b| b * bands.scale);
            ((pair.candidate[i] - pair.baseline[i]).abs(), own)
        })
        .unzip();
    let r = reading(&moves, &own, run_band, entry.flaky, bands.tie_epsilon)?;
    Some(WithinNoise {
        file: bands.written.to_string(),
        jittered: r.jittered,
        largest_move: r.largest,
        run_band,
        jitter_cap: entry.flaky,
        can_carry: r.carry,
        floor,
    })
}

/// A reading of moves within the noise: how many moved beyond tie-epsilon, the largest, and
/// the largest mean change moves within the noise can carry.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Reading {
    jittered: usize,
    largest: f64,
    carry: f64,
}

/// Whether the per-query `moves` (|delta|) lie within the noise: each within its band (`own`,
/// the query's measured band, else `run_band`, the largest any query showed; at least `eps`),
/// and no more queries moved beyond `eps` than the A/A runs moved (`cap`). What such moves can
/// carry is the sum of the `cap` largest bands over the n queries, divided by n. None when some
/// move lies beyond, or nothing moved.
fn reading(
    moves: &[f64],
    own: &[Option<f64>],
    run_band: f64,
    cap: usize,
    eps: f64,
) -> Option<Reading> {
    let band = |o: &Option<f64>| o.unwrap_or(run_band).max(eps);
    let mut jittered = 0usize;
    let mut largest = 0.0f64;
    for (m, o) in moves.iter().zip(own) {
        if *m > band(o) {
            return None;
        }
        if *m > eps {
            jittered += 1;
            largest = largest.max(*m);
        }
    }
    if jittered == 0 || jittered > cap {
        return None;
    }
    let mut all: Vec<f64> = own.iter().map(band).collect();
    all.sort_by(|a, b| b.total_cmp(a));
    let carry = all.iter().take(cap).sum::<f64>() / moves.len() as f64;
    Some(Reading {
        jittered,
        largest,
        carry,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_within_their_bands_and_the_count_read_as_noise() {
        let eps = 1e-9;
        // Ten queries: q0 measured at 0.2, the rest unmeasured (the run band 0.3); the A/A runs
        // moved 2 queries.
        let own: Vec<Option<f64>> = std::iter::once(Some(0.2))
            .chain(std::iter::repeat_n(None, 9))
            .collect();
        let mut moves = vec![0.0; 10];
        moves[0] = 0.2;
        moves[5] = 0.25;
        let r = reading(&moves, &own, 0.3, 2, eps).unwrap();
        assert_eq!((r.jittered, r.largest), (2, 0.25));
        // The two largest bands, 0.3 + 0.3, over 10 queries.
        assert!((r.carry - 0.06).abs() < 1e-15, "{r:?}");
        // Past its own band (0.2), past the run band, or one query more than the A/A moved.
        moves[0] = 0.21;
        assert_eq!(reading(&moves, &own, 0.3, 2, eps), None);
        moves[0] = 0.2;
        moves[5] = 0.31;
        assert_eq!(reading(&moves, &own, 0.3, 2, eps), None);
        moves[5] = 0.25;
        moves[7] = 0.01;
        assert_eq!(reading(&moves, &own, 0.3, 2, eps), None);
        // Nothing moved: not this reading (plain untouched).
        assert_eq!(reading(&[0.0; 10], &own, 0.3, 2, eps), None);
    }

    #[test]
    fn the_replicate_scale_is_one_for_single_runs_and_shrinks_with_more() {
        assert_eq!(scale(None), 1.0);
        assert_eq!(scale(Some([1, 1])), 1.0);
        // Three runs a side: √(1/3).
        assert!((scale(Some([3, 3])) - (1.0f64 / 3.0).sqrt()).abs() < 1e-15);
    }
}
