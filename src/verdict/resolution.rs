//! The gate's resolution, stated in every report's header: on a gated slice of G units, a
//! change touching fewer than p* = 1 − (α/2)^(1/G) of them can leave none of this sample's
//! units moved (one-sided at the interval's level: the Clopper–Pearson bound of 0 of G), at a
//! worst cost of p* × the most one unit can lose (1 for a metric bounded to [0, 1], else the
//! gate's `max-unit-loss`). Under `guarantee = "regular"` such a change can pass; where that
//! cost exceeds a gate's margin, `check` warns, naming the units that would close it, unless
//! the gate file accepts the blind spot (`[verdict] accept-blind-spot = true`). Under
//! `distribution-free` the bound itself reaches that far, so the resolution is information.

use crate::config::{worst_unit_loss, Config, Guarantee};
use crate::model::{Comparison, GateResult, Resolution};
use crate::safe_text::shown;
use crate::stats::ties::unseen_share;

/// The units of `c` the resolution counts: its groups with the group unit, else its queries.
fn units_of(c: &Comparison) -> usize {
    super::moving_units(c)
}

/// The fewest units whose share p* × `loss` is at most `margin`: ⌈ln(α/2) / ln(1 − m/L)⌉
/// (None for a zero margin; 1 when the margin covers the whole loss).
pub fn units_closing(margin: f64, loss: f64, confidence: f64) -> Option<usize> {
    if margin <= 0.0 || !(loss.is_finite() && loss > 0.0) {
        return None;
    }
    if margin >= loss {
        return Some(1);
    }
    let side = (1.0 - confidence) / 2.0;
    Some((side.ln() / (1.0 - margin / loss).ln()).ceil() as usize)
}

/// The margin a delta rule of `r` sets (max-drop, max-change), if any.
fn margin_of(r: &GateResult) -> Option<f64> {
    matches!(r.rule.as_str(), "max-drop" | "max-change").then(|| r.threshold.abs())
}

/// One entry per gated slice (in the results' order of first use): its units, p*, and the
/// tightest delta rule on it (the largest worst cost over its margin); and the warnings where
/// that worst cost exceeds the margin under `regular` without `accept-blind-spot`.
pub fn resolution(
    cfg: &Config,
    comparisons: &[Comparison],
    results: &[GateResult],
) -> (Vec<Resolution>, Vec<String>) {
    let conf = cfg.bootstrap.confidence;
    let mut out: Vec<Resolution> = Vec::new();
    let mut warnings = Vec::new();
    for r in results {
        let Some(c) = comparisons.iter().find(|c| r.is_on(c)) else {
            continue;
        };
        let units = units_of(c);
        let share = unseen_share(units, conf);
        let margin = margin_of(r);
        let loss = worst_unit_loss(&cfg.gates, &r.metric);
        let worst_cost = loss.map(|l| share * l);
        let tighter = |e: &Resolution| match (margin, worst_cost, e.worst_cost) {
            (Some(m), Some(w), Some(ew)) => w / m > ew / e.margin.max(1e-300),
            (Some(_), Some(_), None) => true,
            _ => false,
        };
        match out.iter_mut().find(|e| e.slice == r.slice) {
            Some(e) if tighter(e) => {
                e.metric = r.name();
                e.margin = margin.unwrap_or(0.0);
                e.worst_cost = worst_cost;
            }
            Some(_) => {}
            None => out.push(Resolution {
                slice: r.slice.clone(),
                units,
                share,
                metric: r.name(),
                margin: margin.unwrap_or(0.0),
                worst_cost: margin.and(worst_cost),
            }),
        }
        let over = matches!((margin, worst_cost), (Some(m), Some(w)) if w > m);
        if over && cfg.verdict.guarantee == Guarantee::Regular && !cfg.verdict.accept_blind_spot {
            warnings.push(blind_spot_words(r, c, share, loss.unwrap_or(1.0), conf));
        }
        if over && cfg.verdict.guarantee == Guarantee::DistributionFree {
            warnings.push(too_small_words(r, c, share, loss.unwrap_or(1.0), conf));
        }
    }
    warnings.dedup();
    (out, warnings)
}

/// `compare`'s resolution: one entry per slice (in the comparisons' order), with no margin,
/// since compare labels every comparison and gates none; the header shows `all`'s.
pub fn of_comparisons(cfg: &Config, comparisons: &[Comparison]) -> Vec<Resolution> {
    let mut out: Vec<Resolution> = Vec::new();
    for c in comparisons {
        if out.iter().any(|e| e.slice == c.slice) {
            continue;
        }
        let units = units_of(c);
        out.push(Resolution {
            slice: c.slice.clone(),
            units,
            share: unseen_share(units, cfg.bootstrap.confidence),
            metric: c.name(),
            margin: 0.0,
            worst_cost: None,
        });
    }
    out
}

/// How many units a comparison resamples, and their name in the singular and plural.
fn unit_words(c: &Comparison) -> (usize, &'static str, &'static str) {
    let units = units_of(c);
    if units == c.n {
        (units, "query", "queries")
    } else {
        (units, "group", "groups")
    }
}

/// "gate #1 ndcg@10 on all, max-drop 0.05: a change touching fewer than 8.2% of the 43 queries
/// can hide, at a worst cost of 0.082 (8.2% × the worst loss of one query, 1) — over the
/// margin; 72 queries would close it. …"
fn blind_spot_words(r: &GateResult, c: &Comparison, share: f64, loss: f64, conf: f64) -> String {
    let (units, one, many) = unit_words(c);
    let margin = r.threshold.abs();
    let closing = units_closing(margin, loss, conf).map_or(String::new(), |k| {
        format!("; {} would close it", crate::numbers::count(k, one, many))
    });
    format!(
        "gate #{} {} on {}, {} {}: a change touching fewer than {} of the {} can hide in this sample, at a worst cost of {} ({} × the worst loss of one {one}, {}), over the margin{closing}; to accept this blind spot once, set [verdict] accept-blind-spot = true",
        r.gate,
        shown(&r.name()),
        shown(&r.slice),
        r.rule,
        crate::numbers::plain(margin),
        crate::numbers::percent(share),
        crate::numbers::count(units, one, many),
        crate::numbers::plain(share * loss),
        crate::numbers::percent(share),
        crate::numbers::plain(loss),
    )
}

/// Under `distribution-free`, a setup the margin cannot hold: "gate #1 ndcg@10 on all, max-drop
/// 0.02: guarantee = "distribution-free" needs more queries than this set has for the margin:
/// … 183 queries would let an unchanged pull request pass …". Said on every check of this
/// setup (it is the gate file's, not the pull request's): the bound at zero moved is p* × the
/// worst loss, so an unchanged pull request fails until the set or the margin changes.
pub fn too_small_words(r: &GateResult, c: &Comparison, share: f64, loss: f64, conf: f64) -> String {
    let (units, one, many) = unit_words(c);
    let margin = r.threshold.abs();
    let needs = units_closing(margin, loss, conf).map_or(String::new(), |k| {
        format!(
            "; {} would let an unchanged pull request pass (one that moves queries needs more)",
            crate::numbers::count(k, one, many)
        )
    });
    format!(
        "gate #{} {} on {}, {} {}: this set is too small for guarantee = \"distribution-free\" at this margin: with {} its bound stays {} below the observed mean even when nothing moved ({} × the worst loss of one {one}, {}), so a pull request that changes nothing fails this gate, as does any that does not clearly improve it{needs}. On a set this size use guarantee = \"regular\" (a change touching fewer than the share above could then hide), or a margin of at least {}",
        r.gate,
        shown(&r.name()),
        shown(&r.slice),
        r.rule,
        crate::numbers::plain(margin),
        crate::numbers::count(units, one, many),
        crate::numbers::plain(share * loss),
        crate::numbers::percent(share),
        crate::numbers::plain(loss),
        crate::numbers::plain(share * loss),
    )
}

/// The header line: "resolution: a change touching fewer than 8.2% of the 43 queries can hide,
/// at a worst cost of 0.082 (ndcg@10)", per entry; slices after `all` only where the worst
/// cost exceeds the margin. Under `distribution-free` (`bounded`) no such change hides, and the
/// line says what the share costs there instead: "resolution on all: no blind spot: a change
/// touching fewer than 8.2% of the 43 queries is bounded too; where none moved, the bound sits
/// 0.082 below the mean on ndcg@10 (margin 0.05)".
pub fn header_lines(entries: &[Resolution], unit: &str, bounded: bool) -> Vec<String> {
    let (one, many) = if unit == "group" {
        ("group", "groups")
    } else {
        ("query", "queries")
    };
    entries
        .iter()
        .filter(|e| {
            e.slice == "all" || e.worst_cost.is_some_and(|w| e.margin > 0.0 && w > e.margin)
        })
        .map(|e| {
            let share = crate::numbers::percent(e.share);
            let units = crate::numbers::count(e.units, one, many);
            if bounded {
                let cost = e.worst_cost.map_or(String::new(), |w| {
                    format!(
                        "; where none moved, the bound sits {} below the mean on {} (margin {})",
                        crate::numbers::plain(w),
                        shown(&e.metric),
                        crate::numbers::plain(e.margin)
                    )
                });
                return format!(
                    "resolution on {}: no blind spot: a change touching fewer than {share} of the {units} is bounded too{cost}",
                    shown(&e.slice),
                );
            }
            let cost = match e.worst_cost {
                Some(w) => format!(
                    ", at a worst cost of {} on {} (margin {})",
                    crate::numbers::plain(w),
                    shown(&e.metric),
                    crate::numbers::plain(e.margin)
                ),
                None => String::new(),
            };
            format!(
                "resolution on {}: a change touching fewer than {share} of the {units} can hide{cost}",
                shown(&e.slice),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_units_that_close_a_margin() {
        // 1 − 0.025^(1/72) = 0.0499 ≤ 0.05 < 1 − 0.025^(1/71).
        assert_eq!(units_closing(0.05, 1.0, 0.95), Some(72));
        assert!(unseen_share(72, 0.95) <= 0.05 && unseen_share(71, 0.95) > 0.05);
        assert_eq!(units_closing(0.01, 1.0, 0.95), Some(368));
        assert_eq!(units_closing(0.0, 1.0, 0.95), None);
        assert_eq!(units_closing(2.0, 1.0, 0.95), Some(1));
    }
}
