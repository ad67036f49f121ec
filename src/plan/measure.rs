//! One gated metric × slice measured for planning (spread, standard error, design effect,
//! discordance, moved units), and what a rule at a margin needs from it.

use crate::config::{Config, Gate, Unit};
use crate::error::Result;
use crate::pair::Paired;
use crate::slices::Slice;
use crate::stats::bootstrap::Units;
use crate::stats::expected_power::{self as ep, Aim, Pilot};
use crate::stats::power::{mde, no_op_margin, NoOpRule};
use crate::stats::sample_size as ss;

/// Fewer moved units than this: the variance, and so the needed size, is rough; the plan says so.
pub const FEW_MOVED: usize = 20;

/// One comparison as `plan` reads it.
pub struct Measured {
    pub slice: String,
    pub queries: usize,
    /// Group unit: the groups of the slice.
    pub groups: Option<usize>,
    /// Queries (or groups holding one) whose delta lies beyond tie-epsilon.
    pub moved: usize,
    /// Standard deviation of the per-query deltas.
    pub sd_query: f64,
    /// Standard error of the mean delta at the unit, and its df (n − 1, or G − 1).
    pub se: f64,
    pub df: f64,
    /// The spread of one unit that the units formula scales: σ with se = σ/√units.
    pub sd_unit: f64,
    /// Factors [low, high] on the variance (so on the units), when they can be said.
    pub factors: Option<[f64; 2]>,
    /// The factors the plan averages the spread over: Bonett's with the kurtosis at its upper
    /// limit (`sample_size::variance_factors_upper`), or Wilson's on a 0/1 discordance rate.
    pub spread_factors: Option<[f64; 2]>,
    pub design_effect: Option<f64>,
    pub icc: Option<f64>,
    /// A 0/1 metric: pairs that went 1 → 0 or 0 → 1.
    pub discordant: Option<usize>,
    /// The skewness of the unit deltas (group unit: of the groups' residual sums).
    pub skew: f64,
    /// The pilot itself, higher-is-better: per query baseline and candidate, and under the
    /// group unit each query's dense group and the number of groups (`width` draws from it).
    pub metric: String,
    pub base: Vec<f64>,
    pub cand: Vec<f64>,
    pub group_of: Option<(Vec<u32>, usize)>,
}

/// Measures `gate`'s metric on `slice`.
pub fn measure(cfg: &Config, paired: &Paired, slice: &Slice, gate: &Gate) -> Result<Measured> {
    let pair = &paired.metrics[&gate.metric];
    let sign = if gate.higher_is_better { 1.0 } else { -1.0 };
    let at = |v: &[f64], i: &u32| v[*i as usize];
    let base: Vec<f64> = slice
        .members
        .iter()
        .map(|i| at(&pair.baseline, i))
        .collect();
    let cand: Vec<f64> = slice
        .members
        .iter()
        .map(|i| at(&pair.candidate, i))
        .collect();
    let deltas: Vec<f64> = cand
        .iter()
        .zip(&base)
        .map(|(c, b)| sign * (c - b))
        .collect();
    let eps = cfg.report.tie_epsilon;
    let moved_q: Vec<bool> = deltas.iter().map(|d| d.abs() > eps).collect();
    let n = deltas.len();
    let sd_query = crate::stats::describe::sd(&deltas);
    let binary = base.iter().chain(&cand).all(|&v| v == 0.0 || v == 1.0);
    let discordant = binary.then(|| moved_q.iter().filter(|&&m| m).count());
    let mut m = Measured {
        slice: slice.name.clone(),
        queries: n,
        groups: None,
        moved: moved_q.iter().filter(|&&m| m).count(),
        sd_query,
        se: crate::stats::power::se_mean(Units::Queries(&deltas)),
        df: n as f64 - 1.0,
        sd_unit: sd_query,
        factors: ss::variance_factors(&deltas, cfg.bootstrap.confidence),
        spread_factors: ss::variance_factors_upper(
            &deltas,
            cfg.bootstrap.confidence,
            ss::KURTOSIS_UPPER,
        ),
        design_effect: None,
        icc: None,
        discordant,
        skew: ep::skewness(&deltas),
        metric: gate.metric.clone(),
        base: base.iter().map(|v| sign * v).collect(),
        cand: cand.iter().map(|v| sign * v).collect(),
        group_of: None,
    };
    if let Some(k) = discordant.filter(|_| cfg.bootstrap.unit == Unit::Query) {
        // Under a true change of 0 a 0/1 delta is ±1 with the discordance rate: σ² = p_d.
        let p = k as f64 / n.max(1) as f64;
        m.sd_unit = p.sqrt();
        m.factors = ss::rate_interval(k, n, cfg.bootstrap.confidence)
            .filter(|_| k > 0)
            .map(|[lo, hi]| [lo / p, hi / p]);
        m.spread_factors = m.factors;
    }
    if cfg.bootstrap.unit == Unit::Group {
        by_group(
            &mut m,
            paired,
            slice,
            &deltas,
            &moved_q,
            cfg.bootstrap.confidence,
        );
    }
    Ok(m)
}

/// The group unit: groups, moved groups, the cluster standard error, the design effect and
/// the intra-class correlation.
fn by_group(
    m: &mut Measured,
    paired: &Paired,
    slice: &Slice,
    deltas: &[f64],
    moved_q: &[bool],
    confidence: f64,
) {
    let mut dense = std::collections::BTreeMap::new();
    let of: Vec<u32> = slice
        .members
        .iter()
        .map(|&i| {
            let g = paired.group_of[i as usize].unwrap_or(u32::MAX);
            let next = dense.len() as u32;
            *dense.entry(g).or_insert(next)
        })
        .collect();
    let g = dense.len();
    let (sums, sizes) = crate::stats::bootstrap::group_sums(deltas, &of, g);
    let mut moved = vec![false; g];
    for (k, &mv) in of.iter().zip(moved_q) {
        moved[*k as usize] |= mv;
    }
    m.groups = Some(g);
    m.moved = moved.iter().filter(|&&x| x).count();
    m.se = crate::stats::power::se_mean(Units::Groups {
        sums: &sums,
        sizes: &sizes,
    });
    m.df = g as f64 - 1.0;
    m.sd_unit = m.se * (g as f64).sqrt();
    m.design_effect = ss::design_effect(m.se, m.sd_query, m.queries);
    m.icc = crate::stats::small_sample::variance_components(deltas, &of, &sizes)
        .filter(|(e, u)| e + u > 0.0)
        .map(|(e, u)| u / (e + u));
    let n: f64 = sizes.iter().sum();
    let mean = sums.iter().sum::<f64>() / n;
    let residuals: Vec<f64> = sums.iter().zip(&sizes).map(|(s, k)| s - mean * k).collect();
    m.factors = ss::variance_factors(&residuals, confidence);
    m.spread_factors = ss::variance_factors_upper(&residuals, confidence, ss::KURTOSIS_UPPER);
    m.skew = ep::skewness(&residuals);
    m.group_of = Some((of, g));
}

/// What a rule at a margin needs.
pub struct Need {
    pub detectable: f64,
    pub units: Option<usize>,
    pub interval: Option<[usize; 2]>,
    pub moved_needed: Option<usize>,
    pub discordant_needed: Option<usize>,
    pub notes: Vec<String>,
}

/// The units `rule` at `margin` needs on `m` for `power` (for fail-if-significant-drop, to
/// catch `drop`) on average over the pilot's own uncertainty, with the interval's skew-aware
/// width at that size (`stats::expected_power`); the floors of the gate file on top, and the
/// interval from the variance's (each end as if the spread were known there).
pub fn needed(
    cfg: &Config,
    power: f64,
    (rule, margin, drop): (&str, f64, Option<f64>),
    m: &Measured,
    family: usize,
) -> Need {
    let conf = cfg.bootstrap.confidence;
    let alpha = 1.0 - conf;
    let uncertainty = ep::log_var_sd(m.spread_factors, conf);
    let units_at = |sd: f64, log_var_sd: f64, drawn: &Drawn| {
        let pilot = Pilot {
            sd,
            log_var_sd,
            skew: m.skew,
            widths: drawn.widths,
            pivot: drawn.pivot.as_deref(),
        };
        match rule {
            "max-drop" => ep::units(Aim::Pass { margin }, pilot, conf, power),
            "max-change" => ep::units(Aim::Change { margin }, pilot, conf, power),
            _ => {
                let drop = drop?;
                let bound = ep::units(Aim::Catch { drop, margin }, pilot, conf, power)?;
                let alpha = alpha / family.max(1) as f64;
                let test = ep::units(Aim::Test { drop, alpha }, pilot, conf, power)?;
                Some(bound.max(test))
            }
        }
    };
    // The interval's own width and the studentized mean's draws, at the size the quantiles'
    // answer gives; then the size again with them.
    let first = units_at(m.sd_unit, uncertainty, &Drawn::default());
    let drawn = first.map_or_else(Drawn::default, |n| drawn_at(cfg, m, n));
    let detectable = match rule {
        "max-drop" => mde(m.se, m.df, conf, power),
        "max-change" => no_op_margin(NoOpRule::Change, power, m.se, m.df, conf),
        _ => ss::drop_caught(m.se, m.df, margin, conf, power, family),
    };
    let mut notes = Vec::new();
    let mut units = units_at(m.sd_unit, uncertainty, &drawn);
    if units.is_none() {
        notes.push(why_none(rule, margin, drop));
    }
    let mut interval = m.factors.and_then(|[lo, hi]| {
        Some([
            units_at(m.sd_unit * lo.sqrt(), 0.0, &drawn)?,
            units_at(m.sd_unit * hi.sqrt(), 0.0, &drawn)?,
        ])
    });
    if m.moved == 0 {
        // No spread to plan from.
        units = None;
        interval = None;
        notes.push(nothing_moved(rule));
    }
    let moved_needed =
        (rule == "fail-if-significant-drop").then(|| ss::moved_for_sign_flip(alpha, family));
    units = floors(cfg, units, m, moved_needed, &mut notes);
    let discordant_needed = m
        .discordant
        .filter(|_| m.groups.is_none())
        .zip(units)
        .map(|(k, u)| (u as f64 * k as f64 / m.queries.max(1) as f64).ceil() as usize);
    Need {
        detectable,
        units,
        interval,
        moved_needed,
        discordant_needed,
        notes,
    }
}

/// What sets drawn from the pilot at a size say (`width`): the interval's mean half-widths
/// and the studentized mean's draws.
#[derive(Default)]
struct Drawn {
    widths: Option<[f64; 2]>,
    pivot: Option<Vec<[f64; 4]>>,
}

/// The sets drawn at `n` units from the pilot; nothing when no unit moved (no spread to draw).
fn drawn_at(cfg: &Config, m: &Measured, n: usize) -> Drawn {
    if m.moved == 0 {
        return Drawn::default();
    }
    let pilot = super::width::PilotUnits {
        base: &m.base,
        cand: &m.cand,
        groups: m.group_of.as_ref().map(|(o, g)| (o.as_slice(), *g)),
    };
    let procedure = super::width::Procedure {
        method: cfg.bootstrap.method.interval(),
        confidence: cfg.bootstrap.confidence,
        resamples: cfg.bootstrap.resamples as usize,
        seed: cfg.bootstrap.seed,
        metric: &m.metric,
        tie_epsilon: cfg.report.tie_epsilon,
        few_groups_below: cfg.slices.few_groups_below(),
    };
    let widths = super::width::half_widths(&pilot, n, procedure);
    Drawn {
        widths,
        pivot: Some(super::width::pivots(
            &pilot, n, m.sd_unit, widths, procedure,
        )),
    }
}

/// The note where no unit moved: there is no spread to plan from.
fn nothing_moved(rule: &str) -> String {
    if rule == "fail-if-significant-drop" {
        return "no unit moved: there is no spread to plan from (measure a pair that differs, or an A/A run)".into();
    }
    // An identical pull request passes as untouched at any size; a real change's spread is not
    // in these files.
    "no unit moved: there is no spread to plan from (an identical pull request passes as untouched at any size; measure a pair that differs, or an A/A run, for the size a real change needs)".into()
}

/// Why no size can be said for `rule`.
fn why_none(rule: &str, margin: f64, drop: Option<f64>) -> String {
    match (rule, drop) {
        ("fail-if-significant-drop", None) => "no drop to catch: give --drop (the margin is 0 and the gate has no max-drop)".into(),
        ("fail-if-significant-drop", Some(d)) if d <= margin => format!(
            "a true drop of {} never fires the rule reliably: it fires only when the whole interval lies below −{}; give --drop above the margin",
            crate::numbers::plain(d),
            crate::numbers::plain(margin)
        ),
        _ if margin <= 0.0 => "a zero margin: no size passes a no-op with the chosen power".into(),
        _ => "the spread could not be measured".into(),
    }
}

/// The gate file's size floors on top of the power answer: `min-queries` (`min-groups`) and,
/// at today's share of moved units, the sign-flip test's moved units
/// (fail-if-significant-drop).
fn floors(
    cfg: &Config,
    units: Option<usize>,
    m: &Measured,
    moved_needed: Option<usize>,
    notes: &mut Vec<String>,
) -> Option<usize> {
    let mut u = units?;
    let today = m.groups.unwrap_or(m.queries);
    let (min, what) = match m.groups {
        Some(_) => (cfg.slices.min_groups, "min-groups"),
        None => (cfg.slices.min_queries, "min-queries"),
    };
    if u < min {
        notes.push(format!(
            "{what} {min} sets the size (the power answer is {u})"
        ));
        u = min;
    }
    if let Some(g) = m.groups {
        // min-queries holds under the group unit too: the groups that bring that many queries.
        let per = m.queries as f64 / g.max(1) as f64;
        let at_min = (cfg.slices.min_queries as f64 / per).ceil() as usize;
        if at_min > u {
            notes.push(format!(
                "min-queries {} sets the size at today's {per:.1} queries per group (the power answer is {u})",
                cfg.slices.min_queries
            ));
            u = at_min;
        }
    }
    let share = m.moved as f64 / today.max(1) as f64;
    let moves = moved_needed.map(|k| (k, "moved units for the sign-flip test"));
    if let Some((k, what)) = moves.filter(|_| share > 0.0) {
        let at_share = (k as f64 / share).ceil() as usize;
        if at_share > u {
            notes.push(format!(
                "{k} {what} at today's share of moved units ({}) sets the size (the power answer is {u})",
                crate::numbers::percent(share)
            ));
            u = at_share;
        }
    }
    Some(u)
}
