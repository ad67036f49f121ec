//! The gate's own interval at a planned size, measured on the pilot: `K` sets of n units drawn
//! with replacement from the pilot's units (queries, or whole groups), each sent through the
//! estimate `check` computes (`resample::estimate`, the gate file's interval method), and the
//! mean half-width of each side in standard errors, (θ̂ − low)/ŝe and (high − θ̂)/ŝe. The plan
//! reads these in place of Student t's quantile (`stats::expected_power`): the default interval
//! is per side the widest of the bootstrap-t, the Student t bound and the tilted score bound,
//! so on long-tailed deltas it is wider than t at the same n, and a t-based size falls short
//! (the smoothed bootstrap of the design: Efron & Tibshirani 1993, §6.5 on the bootstrap of a
//! procedure; the same idea as simulation-based power, Arnold et al. 2011, BMC Med. Res.
//! Methodol. 11:94, averaged into a width rather than counted as passes). With them,
//! `PIVOTS` cheaper draws of the studentized mean alone, T = (x̄* − x̄)/ŝe*, and its standard
//! error, from which the plan reads the chance a bound lands beyond the margin (the
//! bootstrap-t's estimate of T's distribution at n, skew and all).

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::resample::estimate::{estimate, Input};
use crate::stats::interval::IntervalMethod;
use crate::stats::statistic::Statistic;
use crate::stats::streams::stream_key;

/// Sets drawn per measured size.
pub const SETS: usize = 16;
/// Resamples per set, at most (the gate file's when fewer).
pub const RESAMPLES: usize = 1_000;
/// Draws of the studentized mean per measured size.
pub const PIVOTS: usize = 2_000;
/// Units per set, at most: beyond this the measured width is read at this size (the skew
/// and the floors' effect shrink as n grows, so the width there is an upper bound).
pub const MOST_UNITS: usize = 20_000;

/// The pilot's units: per query its baseline and candidate (already oriented: higher is
/// better) and its group (dense index), or none under the query unit.
pub struct PilotUnits<'a> {
    pub base: &'a [f64],
    pub cand: &'a [f64],
    pub groups: Option<(&'a [u32], usize)>,
}

/// How the interval is computed.
#[derive(Clone, Copy)]
pub struct Procedure<'a> {
    pub method: IntervalMethod,
    pub confidence: f64,
    pub resamples: usize,
    pub seed: u64,
    pub metric: &'a str,
    pub tie_epsilon: f64,
    /// Below this many effective groups the interval is the small-sample cluster interval, as
    /// `check` computes it (`config::Slices::few_groups_below`).
    pub few_groups_below: f64,
}

/// The mean half-widths [low, high] in standard errors of the procedure's interval on sets of
/// `units` units drawn from the pilot; None when no set had a spread to measure.
pub fn half_widths(pilot: &PilotUnits<'_>, units: usize, p: Procedure<'_>) -> Option<[f64; 2]> {
    let units = units.clamp(2, MOST_UNITS);
    let members = members(pilot);
    let mut sums = [0.0; 2];
    let mut used = 0usize;
    for set in 0..SETS {
        let mut rng = ChaCha8Rng::from_seed(stream_key(
            p.seed,
            &["plan", "width", &units.to_string(), &set.to_string()],
        ));
        let (base, cand, of) = draw(pilot, &members, units, &mut rng);
        let deltas: Vec<f64> = cand.iter().zip(&base).map(|(c, b)| c - b).collect();
        let e = estimate(
            &Input {
                base: &base,
                cand: &cand,
                deltas: &deltas,
                groups: of.as_ref().map(|(o, g)| (o.as_slice(), *g)),
                statistic: Statistic::Mean,
                method: p.method,
                confidence: p.confidence,
                resamples: p.resamples.min(RESAMPLES),
                seed: p.seed.wrapping_add(set as u64),
                names: [p.metric, "plan"],
                tie_epsilon: p.tie_epsilon,
                cand_runs: &[],
                few_groups_below: p.few_groups_below,
            },
            &[],
            None,
        );
        let [lo, hi] = e.interval.bounds;
        let ok = e.se > 0.0 && e.se.is_finite() && lo.is_finite() && hi.is_finite();
        if ok {
            sums[0] += (e.estimate - lo) / e.se;
            sums[1] += (hi - e.estimate) / e.se;
            used += 1;
        }
    }
    (used > 0).then(|| sums.map(|s| s / used as f64))
}

/// `PIVOTS` draws of [T, u, low, high] at `units` units from the pilot (see
/// `stats::expected_power`): T = (x̄* − x̄)/ŝe*, u = ŝe*·√units / `sd` (`sd` the pilot's unit
/// spread), and the draw's own half-widths in standard errors: the one-term Edgeworth
/// quantile on the draw's skewness or Student t's, whichever is wider (what the bootstrap-t
/// estimates on that sample, Hall 1992 §3.5), moved so their mean is the measured `widths`
/// when given. A sample that draws the rare large losses both sits low and gets a wider low
/// side; a mean width alone would miss that. [0, 0, 0, 0] for a draw with no spread.
pub fn pivots(
    pilot: &PilotUnits<'_>,
    units: usize,
    sd: f64,
    widths: Option<[f64; 2]>,
    p: Procedure<'_>,
) -> Vec<[f64; 4]> {
    use crate::stats::bootstrap::{group_sums, Units};
    let units = units.clamp(2, MOST_UNITS);
    let all: Vec<f64> = pilot
        .cand
        .iter()
        .zip(pilot.base)
        .map(|(c, b)| c - b)
        .collect();
    let centre = all.iter().sum::<f64>() / all.len().max(1) as f64;
    let mut rng = ChaCha8Rng::from_seed(stream_key(p.seed, &["plan", "pivot", &units.to_string()]));
    let members = members(pilot);
    let mut draws: Vec<[f64; 4]> = (0..PIVOTS)
        .map(|_| {
            let (base, cand, of) = draw(pilot, &members, units, &mut rng);
            let d: Vec<f64> = cand.iter().zip(&base).map(|(c, b)| c - b).collect();
            let mean = d.iter().sum::<f64>() / d.len().max(1) as f64;
            let (se, skew) = match &of {
                None => (
                    crate::stats::power::se_mean(Units::Queries(&d)),
                    crate::stats::expected_power::skewness(&d),
                ),
                Some((o, g)) => {
                    let (sums, sizes) = group_sums(&d, o, *g);
                    let total: f64 = sizes.iter().sum();
                    let m = sums.iter().sum::<f64>() / total;
                    let r: Vec<f64> = sums.iter().zip(&sizes).map(|(s, k)| s - m * k).collect();
                    let se = crate::stats::power::se_mean(Units::Groups {
                        sums: &sums,
                        sizes: &sizes,
                    });
                    (se, crate::stats::expected_power::skewness(&r))
                }
            };
            if se > 0.0 && se.is_finite() && sd > 0.0 {
                let [low, high] =
                    crate::stats::expected_power::half_widths(units, skew, p.confidence);
                [
                    (mean - centre) / se,
                    se * (units as f64).sqrt() / sd,
                    low,
                    high,
                ]
            } else {
                [0.0; 4]
            }
        })
        .collect();
    if let Some(w) = widths {
        let spread: Vec<&mut [f64; 4]> = draws.iter_mut().filter(|d| d[1] > 0.0).collect();
        let k = spread.len().max(1) as f64;
        let shift = [2, 3].map(|j| w[j - 2] - spread.iter().map(|d| d[j]).sum::<f64>() / k);
        for d in spread {
            d[2] += shift[0];
            d[3] += shift[1];
        }
    }
    draws
}

/// Each group's queries (dense group indices); empty under the query unit.
fn members(pilot: &PilotUnits<'_>) -> Vec<Vec<usize>> {
    let Some((of, g)) = pilot.groups else {
        return Vec::new();
    };
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); g];
    for (i, &k) in of.iter().enumerate() {
        members[k as usize].push(i);
    }
    members
}

/// One set of `units` units drawn with replacement: queries, or whole groups (`members`, each
/// group's queries) with their queries (dense group indices).
#[allow(clippy::type_complexity)]
fn draw(
    pilot: &PilotUnits<'_>,
    members: &[Vec<usize>],
    units: usize,
    rng: &mut ChaCha8Rng,
) -> (Vec<f64>, Vec<f64>, Option<(Vec<u32>, usize)>) {
    let pick = |rng: &mut ChaCha8Rng, n: usize| (rng.next_u64() % n as u64) as usize;
    match pilot.groups {
        None => {
            let n = pilot.base.len();
            let idx: Vec<usize> = (0..units).map(|_| pick(rng, n)).collect();
            let base = idx.iter().map(|&i| pilot.base[i]).collect();
            let cand = idx.iter().map(|&i| pilot.cand[i]).collect();
            (base, cand, None)
        }
        Some((_, g)) => {
            let (mut base, mut cand, mut out) = (Vec::new(), Vec::new(), Vec::new());
            for k in 0..units {
                for &i in &members[pick(rng, g)] {
                    base.push(pilot.base[i]);
                    cand.push(pilot.cand[i]);
                    out.push(k as u32);
                }
            }
            (base, cand, Some((out, units)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At 5 groups, below `few_groups_below`, the width is `check`'s small-sample cluster
    /// interval: the Student t and the tilted bound without the bootstrap-t, so never wider on
    /// either side than the interval with the bootstrap-t among its partners, narrower on some
    /// side, and never narrower than the t quantile on the groups' df (equal sizes: 5 − 1).
    #[test]
    fn below_the_few_groups_floor_the_width_is_the_small_sample_interval() {
        let groups = 12;
        let of: Vec<u32> = (0..groups * 3).map(|i| (i / 3) as u32).collect();
        let base: Vec<f64> = (0..of.len()).map(|i| 0.3 + 0.01 * (i % 7) as f64).collect();
        let cand: Vec<f64> = (0..of.len())
            .map(|i| base[i] + 0.05 * ((i * 37 % 11) as f64 - 5.0) / 5.0)
            .collect();
        let pilot = PilotUnits {
            base: &base,
            cand: &cand,
            groups: Some((&of, groups)),
        };
        let at = |few: f64| {
            let p = Procedure {
                method: IntervalMethod::BootstrapT,
                confidence: 0.95,
                resamples: 400,
                seed: 11,
                metric: "ndcg@10",
                tie_epsilon: 1e-9,
                few_groups_below: few,
            };
            half_widths(&pilot, 5, p).expect("sets with a spread")
        };
        let (small, boot) = (at(8.0), at(0.0));
        let t4 = 2.776_445_105_197_799;
        for side in 0..2 {
            assert!(small[side] <= boot[side] + 1e-12, "{small:?} vs {boot:?}");
            assert!(small[side] >= t4 - 1e-9, "{small:?}");
        }
        assert!(
            small[0] < boot[0] || small[1] < boot[1],
            "{small:?} vs {boot:?}"
        );
    }
}
