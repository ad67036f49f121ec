//! A comparison on which no unit moved (every delta within `tie-epsilon`): whether its pass of
//! `max-drop` / `max-change` proves a no-op.
//!
//! Zero moved among n units bounds the share of units a change could have moved unseen, at the
//! one-sided level α/2 of the interval's low bound, to 1 − (α/2)^(1/n): the exact Clopper–Pearson
//! bound for 0 successes in n (Clopper & Pearson 1934, Biometrika 26:404), ≈ −ln(α/2)/n ≈ 3.7/n
//! at α = 0.05 (the "rule of three" of Hanley & Lippman-Hand 1983, JAMA 249:1743, at one-sided
//! 2.5%). A drop carried by that share moves the mean by at most the share × the metric's range
//! (1 for a metric bounded to [0, 1], else the values' observed range), so a no-op is proven
//! only when that product is within the margin. Why: a hit@1 drop carried by 8% of 30 queries
//! leaves no query moved in 8.6% of samples, and every one of them passed `max-drop` with the
//! interval [0, 0].
//!
//! Also the chance a PR that changes nothing passes a gate file's `max-drop` / `max-change`
//! checks, read from each comparison's standard error before any resampling
//! (`stats::power::no_op_pass`): with many gated comparisons at tight margins it is near 0
//! (3 metrics × 20 critical slices at 2.5–4 standard errors fail a no-op 99–100% of the time),
//! and the judge warns with the margin or the queries per slice that would let one pass.
//!
//! With an A/A noise file, "moved" means beyond the run-to-run noise (`noise::band`): a mean
//! on which no query moved beyond its band, no more queries moved than the A/A runs moved, and
//! the mean delta lies within the run-level floor, reads untouched when what such moves can
//! carry is within the rule's margin; else the interval judges it as usual.

use std::collections::BTreeMap;

use crate::config::Gate;
use crate::model::{Comparison, GateResult, WithinNoise};
use crate::stats::power::{no_op_margin, no_op_pass, NoOpRule};

/// What zero moved units bound: the unseen moved share, the drop it could carry, and the fewest
/// units that would prove a no-op within the margin (None for a zero margin: none would).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Unseen {
    pub share: f64,
    pub drop: f64,
    pub needed: Option<usize>,
}

/// The bound of zero moves among `units` on a metric of range `range`, against `margin`, at
/// two-sided level `alpha` (1 − confidence).
pub fn unseen(units: usize, range: f64, margin: f64, alpha: f64) -> Unseen {
    let side = alpha / 2.0;
    let share = crate::stats::ties::unseen_share(units, 1.0 - alpha);
    let needed = if margin >= range {
        Some(1)
    } else if margin > 0.0 {
        // (1 − side^(1/n))·range ≤ margin ⇔ n ≥ ln(side) / ln(1 − margin/range).
        Some((side.ln() / (1.0 - margin / range).ln()).ceil().max(1.0) as usize)
    } else {
        None
    };
    Unseen {
        share,
        drop: share * range,
        needed,
    }
}

/// Whether the bound proves the no-op: the drop an unseen moved share could carry is within
/// the margin.
pub fn proven(u: &Unseen, margin: f64) -> bool {
    u.drop <= margin
}

/// Below this chance of a no-op passing every gated check, the judge warns.
pub const UNLIKELY: f64 = 0.5;

/// The chance of a no-op passing that the warning's suggestions aim for.
pub const AIM: f64 = 0.8;

/// The warning that a PR changing nothing is unlikely to pass the `max-drop` / `max-change`
/// checks of `targets` (each gate × slice with the index of its comparison), with what would
/// let it pass `AIM` of the time: per gate the margin, and the units per slice at today's
/// margins. None when the chance is at least `UNLIKELY`.
pub fn unlikely_pass(
    targets: &[(&Gate, String, usize)],
    comparisons: &[Comparison],
    confidence: f64,
) -> Option<String> {
    let checks: Vec<(&Gate, NoOpRule, f64, &Comparison)> = targets
        .iter()
        .flat_map(|(gate, _, i)| {
            [
                (NoOpRule::Drop, gate.max_drop),
                (NoOpRule::Change, gate.max_change),
            ]
            .into_iter()
            .filter_map(move |(rule, m)| Some((*gate, rule, m?, &comparisons[*i])))
        })
        .collect();
    let chance: f64 = checks
        .iter()
        .map(|&(_, rule, m, c)| no_op_pass(rule, m, c.se, c.df, confidence))
        .product();
    if checks.is_empty() || chance >= UNLIKELY {
        return None;
    }
    let each = AIM.powf(1.0 / checks.len() as f64);
    // Per gate and rule: the widest margin its comparisons need; over all: the most units.
    let mut margins: BTreeMap<(usize, &str), (String, f64, f64)> = BTreeMap::new();
    let (mut units, mut fewest) = (0usize, usize::MAX);
    for &(gate, rule, m, c) in &checks {
        let need = no_op_margin(rule, each, c.se, c.df, confidence);
        let name = match rule {
            NoOpRule::Drop => "max-drop",
            NoOpRule::Change => "max-change",
        };
        let e = margins
            .entry((gate.index, name))
            .or_insert((c.name_with_statistic(), m, 0.0));
        e.2 = e.2.max(need);
        let n = super::moving_units(c);
        fewest = fewest.min(n);
        if m > 0.0 && need > m {
            units = units.max((n as f64 * (need / m).powi(2)).ceil() as usize);
        }
    }
    let widen: Vec<String> = margins
        .iter()
        .filter(|(_, (_, now, need))| need > now)
        .map(|((g, rule), (name, now, need))| {
            format!(
                "gate #{g} {} {rule} {} or more (now {})",
                crate::safe_text::shown(name),
                crate::numbers::plain(*need),
                crate::numbers::plain(*now)
            )
        })
        .collect();
    let chance_words = if chance < 0.001 {
        "under 0.1%".to_string()
    } else {
        crate::numbers::percent(chance)
    };
    Some(format!(
        "a PR that moves queries with no effect on the mean is unlikely to pass (an identical one passes as untouched): {} max-drop / max-change checks must all pass, and from each comparison's standard error (before resampling, the comparisons taken as independent) such a change passes all of them about {chance_words} of the time; to pass one {} of the time: {}, or about {units} units (queries, or groups) per slice at today's margins (the smallest gated slice has {fewest})",
        checks.len(),
        crate::numbers::percent(AIM),
        widen.join("; ")
    ))
}

/// Whether `rule` on `c` reads untouched because no query moved beyond its run-to-run band:
/// `c` is within the noise, a delta rule's margin holds what such moves can carry, and `proven` (the
/// guarantee's own condition for untouched: under `distribution-free` the rule's bound passed).
pub fn within_noise(rule: &str, r: &GateResult, c: &Comparison, proven: bool) -> bool {
    let Some(w) = &c.within_noise else {
        return false;
    };
    let delta_rule = matches!(rule, "max-drop" | "max-change" | "fail-if-significant-drop");
    proven && (!delta_rule || w.can_carry <= r.threshold.abs())
}

/// "2 queries moved beyond tie-epsilon (the A/A runs moved 3), by at most 0.2500, each within
/// its run-to-run band from noise.json (0.2500 on a query they never moved); such moves carry a
/// mean change of at most 0.0125; the mean delta within the run-level noise floor 0.0134".
pub fn band_words(w: &WithinNoise) -> String {
    format!(
        "{} beyond tie-epsilon (the A/A runs moved {}), by at most {}, each within its run-to-run band from {} ({} on a query they never moved); such moves carry a mean change of at most {}; the mean delta within the run-level noise floor {}",
        crate::numbers::count(w.jittered, "query moved", "queries moved"),
        w.jitter_cap,
        crate::numbers::plain(w.largest_move),
        crate::safe_text::shown(&w.file),
        crate::numbers::plain(w.run_band),
        crate::numbers::plain(w.can_carry),
        crate::numbers::plain(w.floor),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_moved_bounds_the_share_by_the_exact_binomial_bound() {
        // 0 of 30: 1 − 0.025^(1/30) = 0.115703, scipy.stats.beta.ppf(0.975, 1, 30) (the
        // Clopper–Pearson upper bound for 0 of n is the Beta(1, n) quantile).
        let u = unseen(30, 1.0, 0.01, 0.05);
        assert!((u.share - 0.115_703).abs() < 1e-5, "{u:?}");
        assert!((u.drop - u.share).abs() < 1e-15);
        // About 3.7/n for large n.
        let u = unseen(10_000, 1.0, 0.01, 0.05);
        assert!((u.share * 10_000.0 - 3.689).abs() < 0.01, "{u:?}");
        // ln(0.025)/ln(0.99) = 367.04: 368 queries prove a no-op within 0.01 on [0, 1].
        assert_eq!(unseen(30, 1.0, 0.01, 0.05).needed, Some(368));
        let at = |n| unseen(n, 1.0, 0.01, 0.05);
        assert!(!proven(&at(367), 0.01) && proven(&at(368), 0.01));
        // A margin as wide as the range needs one unit; a zero margin is never proven.
        assert_eq!(unseen(5, 1.0, 1.0, 0.05).needed, Some(1));
        assert_eq!(unseen(5, 1.0, 0.0, 0.05).needed, None);
        // The range scales the drop: a latency spread of 40 ms over 1000 queries.
        let u = unseen(1000, 40.0, 0.2, 0.05);
        assert!(
            (u.drop - 40.0 * u.share).abs() < 1e-12 && proven(&u, 0.2),
            "{u:?}"
        );
    }
}
