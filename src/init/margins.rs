//! The margin `init` writes for a metric, what that margin needs from the set, and the set's
//! resolution.
//!
//! The margin is a decision, not a measurement: on a metric bounded to [0, 1] it is what teams
//! write, 0.01 when the set already detects a drop of 0.01 with 80% power on every gated slice,
//! else 0.02; on another metric 5% of the baseline's mean on `all`. Beside it `init` says how
//! many units the margin needs for 80% power (the paired-t sample size of `stats::sample_size`
//! from the spread measured between the two files) and the resolution: a change touching fewer
//! than p* = 1 − (α/2)^(1/units) of the units can leave none of them moved on a sample, at a
//! worst cost of p* × the most one unit can lose (1 on a [0, 1] metric).

use crate::config::{DEFAULT_CONFIDENCE, DEFAULT_MIN_GROUPS, DEFAULT_MIN_QUERIES};
use crate::model::Comparison;

/// The power the needed units are planned for.
pub const POWER: f64 = 0.8;

/// The margins a team writes on a [0, 1] metric, finest first.
const BOUNDED: [f64; 2] = [0.01, 0.02];

/// Whether `metric`'s values lie in [0, 1] by definition.
pub fn bounded(metric: &str) -> bool {
    crate::metric_names::is_bounded(&crate::metric_names::canonical(metric))
}

/// `x` rounded up to two significant digits, as written: 0.03771 → "0.038".
pub(crate) fn round_up(x: f64) -> String {
    let digits = (1 - x.log10().floor() as i32).max(0);
    let scale = 10f64.powi(digits);
    format!("{:.*}", digits as usize, (x * scale - 1e-9).ceil() / scale)
}

/// The units of a comparison: its groups under the group unit, else its queries.
pub fn units(c: &Comparison) -> usize {
    match c.effective_groups {
        Some(_) => c.groups.unwrap_or(c.n),
        None => c.n,
    }
}

/// The margin for `metric` over its gated comparisons (`all` first).
pub fn margin(gated: &[&Comparison]) -> f64 {
    let Some(all) = gated.first() else {
        return BOUNDED[1];
    };
    if !bounded(&all.metric) {
        let scale = all.baseline_mean.abs();
        return if scale > 0.0 && scale.is_finite() {
            round_up(0.05 * scale).parse().unwrap_or(0.05 * scale)
        } else {
            BOUNDED[1]
        };
    }
    let detects = |m: f64| {
        gated
            .iter()
            .all(|c| c.mde.is_finite() && c.mde > 0.0 && c.mde <= m)
    };
    if detects(BOUNDED[0]) {
        BOUNDED[0]
    } else {
        BOUNDED[1]
    }
}

/// The units `margin` needs on `c` for 80% power with `max-drop` (at least the gate file's
/// size floor), or None when no spread was measured (nothing moved).
pub fn needed(c: &Comparison, margin: f64) -> Option<usize> {
    let u = units(c);
    if !(c.se.is_finite() && c.se > 0.0) {
        return None;
    }
    let sd_unit = c.se * (u as f64).sqrt();
    let floor = match c.effective_groups {
        Some(_) => DEFAULT_MIN_GROUPS,
        None => DEFAULT_MIN_QUERIES,
    };
    crate::stats::sample_size::units_for(sd_unit, margin, DEFAULT_CONFIDENCE, POWER)
        .map(|n| n.max(floor))
}

/// The resolution of `units` units: 1 − (α/2)^(1/units) at the default confidence.
pub fn resolution(units: usize) -> f64 {
    crate::stats::ties::unseen_share(units, DEFAULT_CONFIDENCE)
}

/// The coarsest resolution over the gated comparisons: (p*, its comparison).
pub fn coarsest<'a>(gated: &[&'a Comparison]) -> Option<(f64, &'a Comparison)> {
    gated
        .iter()
        .map(|c| (resolution(units(c)), *c))
        .max_by(|a, b| a.0.total_cmp(&b.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_resolution_is_the_share_whose_absence_a_sample_shows_at_the_interval_level() {
        // 43 queries: 1 − 0.025^(1/43) = 8.22%; then (1 − p*)^43 = 0.025.
        let p = resolution(43);
        assert!((p - 0.08224).abs() < 1e-4, "{p}");
        assert!(((1.0 - p).powi(43) - 0.025).abs() < 1e-12);
        assert!(resolution(5_000) < 0.001);
    }
}
