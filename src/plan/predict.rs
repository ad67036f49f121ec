//! What the gate file will do to the team's pull requests, predicted on its own pair by the
//! stages `check` runs (resample → the verdict stage), on pull requests made from the pair:
//!
//! - an **honest** pull request: the pair with the two sides swapped on each unit (query, or
//!   group under the group unit) with chance 1/2: the same queries move by the same amounts,
//!   up or down alike, so its true delta is 0 (the sign-flip null, Fisher 1935). Its exit 1
//!   share is the **friction**, its inconclusive share the **amber** rate;
//! - a **regression at the margin**: an honest pull request whose candidate on every gated
//!   metric is scaled down by m / its mean (`max-drop = m`; up for a lower-is-better metric),
//!   so its true delta is −m on `all` and values stay in the metric's range. Its exit 0 share,
//!   green or amber, is the **escape**.
//!
//! The resolution needs no simulation: a drop of m carried by the fewest units that can carry
//! it (a share m / R of them, each losing the most one unit can, R) leaves none of n units
//! moved with chance (1 − m / R)^n, and with none moved nothing can see it.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::config::{Config, Unit};
use crate::model::plan::PlanStream;
use crate::pair::Paired;
use crate::slices::Slice;
use crate::stats::streams::stream_key;

/// The resamples of each simulated check, at most (the gate file's when fewer), so the
/// prediction takes seconds; each bound's own Monte-Carlo error grows a little over the
/// default 10,000, the shares carry the error of their pull-request count.
pub const RESAMPLES: u64 = 2_000;

/// How the simulated pull requests ended: (green, amber, red) counts.
type Endings = [usize; 3];

/// The pull-request stream on `paired`: `sets` honest pull requests and `sets` regressions at
/// the margin, each judged on the gated `metrics` × `slices`.
pub fn stream(
    cfg: &Config,
    paired: &Paired,
    slices: &[Slice],
    metrics: &[String],
    sets: usize,
) -> PlanStream {
    let mut cfg = cfg.clone();
    cfg.bootstrap.resamples = cfg.bootstrap.resamples.min(RESAMPLES);
    let cfg = &cfg;
    let mut honest: Endings = [0; 3];
    let mut drops: Endings = [0; 3];
    for set in 0..sets {
        let swapped = swap(cfg, paired, set);
        honest[ending(cfg, &swapped, slices, metrics)] += 1;
        let dropped = drop_at_margin(cfg, swapped);
        drops[ending(cfg, &dropped, slices, metrics)] += 1;
    }
    let share = |k: usize| k as f64 / sets.max(1) as f64;
    PlanStream {
        sets,
        resamples: cfg.bootstrap.resamples,
        friction: share(honest[2]),
        amber: share(honest[1]),
        escape_green: share(drops[0]),
        escape_amber: share(drops[1]),
    }
}

/// 0 green, 1 amber, 2 red: the verdict of `check`'s stages on `paired` and its exit code.
fn ending(cfg: &Config, paired: &Paired, slices: &[Slice], metrics: &[String]) -> usize {
    let settings = crate::resample::Settings::from_config(cfg);
    let mut comparisons = crate::resample::compare_all(paired, slices, metrics, &settings);
    crate::verdict::label_comparisons(&mut comparisons);
    let Ok(judged) = crate::verdict::judge(cfg, &comparisons) else {
        return 2;
    };
    let v = crate::verdict::verdict(&judged.results);
    match (
        crate::check::exit_code(v, cfg.verdict.on_inconclusive.as_str()),
        v.as_str(),
    ) {
        (0, "pass" | "untouched") => 0,
        (0, _) => 1,
        _ => 2,
    }
}

/// The pair with both sides swapped on each unit with chance 1/2 (seeded from the gate
/// file's seed and the set).
fn swap(cfg: &Config, paired: &Paired, set: usize) -> Paired {
    let mut rng = ChaCha8Rng::from_seed(stream_key(
        cfg.bootstrap.seed,
        &["plan", "stream", &set.to_string()],
    ));
    let n = paired.ids.len();
    let groups = cfg.bootstrap.unit == Unit::Group;
    let units = match groups {
        true => paired.group_names.len() + 1,
        false => n,
    };
    let flip: Vec<bool> = (0..units).map(|_| rng.next_u32() & 1 == 1).collect();
    let mut out = paired.clone();
    for pair in out.metrics.values_mut() {
        for i in 0..n {
            let unit = match (groups, paired.group_of[i]) {
                (true, Some(g)) => g as usize,
                (true, None) => units - 1,
                (false, _) => i,
            };
            if flip[unit] {
                std::mem::swap(&mut pair.baseline[i], &mut pair.candidate[i]);
            }
        }
    }
    out
}

/// The candidate of every metric a `max-drop` gate reads scaled so its mean moves by the
/// gate's smallest margin the wrong way.
fn drop_at_margin(cfg: &Config, mut paired: Paired) -> Paired {
    for (metric, pair) in paired.metrics.iter_mut() {
        let gates = cfg.gates.iter().filter(|g| &g.metric == metric);
        let Some((m, higher)) = gates
            .filter_map(|g| Some((g.max_drop?, g.higher_is_better)))
            .min_by(|a, b| a.0.total_cmp(&b.0))
        else {
            continue;
        };
        let n = pair.candidate.len().max(1) as f64;
        let mean = pair.candidate.iter().sum::<f64>() / n;
        let sign = if higher { -1.0 } else { 1.0 };
        for v in &mut pair.candidate {
            *v += match mean > 0.0 {
                true => sign * m * *v / mean,
                false => sign * m,
            };
        }
    }
    paired
}

/// The chance a drop of `margin` carried by the fewest units that can carry it (a share
/// margin / `range`, each losing `range`) leaves none of `units` units moved.
pub fn unseen_at_margin(units: usize, margin: f64, range: f64) -> Option<f64> {
    (range > 0.0 && range.is_finite() && margin > 0.0)
        .then(|| (1.0 - (margin / range).min(1.0)).powi(units as i32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drop_carried_by_the_fewest_units_hides_with_the_chance_none_is_drawn() {
        // 43 queries, margin 0.02 on a [0, 1] metric: 0.98^43 = 0.4195.
        let p = unseen_at_margin(43, 0.02, 1.0).unwrap();
        assert!((p - 0.98f64.powi(43)).abs() < 1e-15 && (p - 0.4195).abs() < 1e-4);
        assert_eq!(unseen_at_margin(43, 0.02, f64::INFINITY), None);
    }
}
