//! Simulated data sets for the calibration of `rag-gate plan` (`cargo run --release --example
//! calibration_plan`): a cell draws many pilots of one size from its model, plans the units
//! from each as `plan` does (`stats::expected_power`, on the pilot's spread, its interval on the
//! variance and its skewness; and, to compare, the plug-in paired-t size of
//! `stats::sample_size` that `plan` used before), draws one set of the planned size per pilot
//! and sends it through the report's own estimate (`resample::estimate::estimate`, bootstrap-t
//! with its Student t floor, the default). The share of sets where the rule does its job is the
//! power averaged over pilots, which should be the promised 80%.
//!
//! Models (per query delta, candidate − baseline):
//! - `query`: a graded metric where half the queries do not move and the rest move by
//!   ±(0.02 + 0.2·Exp(1)) with a random sign: zero-inflated and heavy-tailed, mean `shift`.
//! - `group`: conversations of 2–6 turns; delta = shift + u_g + e, u_g ~ N(0, 0.06²) shared by
//!   the turns, e ~ N(0, 0.10²) per turn (ICC ≈ 0.26), rounded to 0.01 so some ties occur.
//! - `binary`: a 0/1 metric (hit@k), baseline hit rate 0.6; a pair is 1 → 0 with chance
//!   0.12 − shift/2 and 0 → 1 with 0.12 + shift/2 (shift < 0 is a drop): discordance 0.24.
//! - `carried`: 30% of the queries move; a move is +Exp(mean 0.0426) with chance 0.75, else a
//!   loss −min(0.08·e^Z, 0.8), so the mean is 0 and a few large losses balance many small gains
//!   (left-skewed); a drop `shift` is carried by the moved queries (each moves by shift/0.3).
//!
//! A `max-drop` pilot is drawn under a true change of 0; a `fail-if-significant-drop` pilot
//! under the drop it is planned to catch (`plan` reads the gate file's own pair, which holds the
//! change; under `carried` the drop adds spread a no-change pilot would not show).
//!
//! Rules: `max-drop = m` passes when the interval's low bound ≥ −m (the share passing under a
//! true change of 0 is the plan's power); `fail-if-significant-drop = f` fires when the high
//! bound < −f and the sign-flip p-value < α (one comparison), the share under a true drop D
//! is its power.

use rag_gate::plan::width;
use rag_gate::resample::estimate::{estimate, Input};
use rag_gate::stats::expected_power;
use rag_gate::stats::interval::IntervalMethod;
use rag_gate::stats::sample_size;
use rag_gate::stats::statistic::Statistic;
use rag_gate::stats::streams::stream_key;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub const CONFIDENCE: f64 = 0.95;
pub const POWER: f64 = 0.8;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Model {
    Query,
    Group,
    Binary,
    Carried,
}

/// E[min(0.08·e^Z, 0.8)] = 0.08·e^½·Φ(ln 10 − 1) + 0.8·(1 − Φ(ln 10)): the mean loss of `carried`.
const CARRIED_LOSS: f64 = 0.127_708;
/// The mean gain that balances it: 0.75·gain = 0.25·loss.
const CARRIED_GAIN: f64 = CARRIED_LOSS / 3.0;
/// The share of queries that move under `carried`.
const CARRIED_MOVED: f64 = 0.3;

impl Model {
    pub fn name(self) -> &'static str {
        match self {
            Model::Query => "query unit, zero-inflated graded deltas",
            Model::Group => "group unit, 2–6 turns per conversation, ICC ≈ 0.26",
            Model::Binary => "query unit, a 0/1 metric, discordance 0.24",
            Model::Carried => "query unit, 30% move, a few large losses balance many small gains",
        }
    }
}

fn uniform(rng: &mut ChaCha8Rng) -> f64 {
    (f64::from(rng.next_u32()) + 0.5) / 4_294_967_296.0
}

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let (u, v) = (uniform(rng), uniform(rng));
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// One data set: baseline, candidate, and (group model) the group of each query; `units`
/// queries, or groups for the group model.
pub struct Set {
    pub base: Vec<f64>,
    pub cand: Vec<f64>,
    pub group_of: Option<(Vec<u32>, usize)>,
}

pub fn draw(model: Model, units: usize, shift: f64, rng: &mut ChaCha8Rng) -> Set {
    let (mut base, mut cand, mut of) = (Vec::new(), Vec::new(), Vec::new());
    for k in 0..units {
        match model {
            Model::Query => {
                let b = 0.2 + 0.6 * uniform(rng);
                let d = if uniform(rng) < 0.5 {
                    0.0
                } else {
                    let size = 0.02 + 0.2 * -uniform(rng).ln();
                    if uniform(rng) < 0.5 {
                        size
                    } else {
                        -size
                    }
                };
                base.push(b);
                cand.push(b + d + shift);
            }
            Model::Group => {
                let u = 0.06 * normal(rng);
                let turns = 2 + (rng.next_u32() % 5) as usize;
                for _ in 0..turns {
                    let b = 0.2 + 0.6 * uniform(rng);
                    let d = ((shift + u + 0.10 * normal(rng)) * 100.0).round() / 100.0;
                    base.push(b);
                    cand.push(b + d);
                    of.push(k as u32);
                }
            }
            Model::Binary => {
                let b = f64::from(u8::from(uniform(rng) < 0.6));
                let flip = uniform(rng);
                // Joint chances 0.12 ∓ shift/2 of 1 → 0 and 0 → 1: the mean delta is `shift`.
                let c = if b == 1.0 && flip < (0.12 - shift / 2.0) / 0.6 {
                    0.0
                } else if b == 0.0 && flip < (0.12 + shift / 2.0) / 0.4 {
                    1.0
                } else {
                    b
                };
                base.push(b);
                cand.push(c);
            }
            Model::Carried => {
                let b = 0.2 + 0.6 * uniform(rng);
                let d = if uniform(rng) >= CARRIED_MOVED {
                    0.0
                } else if uniform(rng) < 0.75 {
                    CARRIED_GAIN * -uniform(rng).ln() + shift / CARRIED_MOVED
                } else {
                    -(0.08 * normal(rng).exp()).min(0.8) + shift / CARRIED_MOVED
                };
                base.push(b);
                cand.push(b + d);
            }
        }
    }
    let group_of = (model == Model::Group).then_some((of, units));
    Set {
        base,
        cand,
        group_of,
    }
}

/// How the units are planned from a pilot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Planner {
    /// The plug-in paired-t size on the pilot's spread (`stats::sample_size`).
    PlugIn,
    /// The size whose power holds on average over pilots (`stats::expected_power`), as `plan`.
    Expected,
}

/// The level of the kurtosis's upper limit the planner reads: `plan`'s
/// (`sample_size::KURTOSIS_UPPER`) unless `set_kurtosis_level` chose another (0.5: Bonett's
/// point kurtosis, the plan before the limit).
static KURTOSIS_LEVEL: std::sync::OnceLock<f64> = std::sync::OnceLock::new();

/// Sets the level `kurtosis_level` reads (once, before any cell).
pub fn set_kurtosis_level(level: f64) {
    let _ = KURTOSIS_LEVEL.set(level);
}

fn kurtosis_level() -> f64 {
    *KURTOSIS_LEVEL.get_or_init(|| sample_size::KURTOSIS_UPPER)
}

/// What a pilot gives the planner: the unit spread, the interval on the variance (as factors)
/// and the skewness of the unit deltas, as `plan::measure` reads them.
fn pilot_figures(model: Model, set: &Set) -> (f64, Option<[f64; 2]>, f64) {
    let deltas: Vec<f64> = set.cand.iter().zip(&set.base).map(|(c, b)| c - b).collect();
    let n = deltas.len();
    match (&set.group_of, model) {
        (Some((of, g)), _) => {
            let (sums, sizes) = rag_gate::stats::bootstrap::group_sums(&deltas, of, *g);
            let se = rag_gate::stats::power::se_mean(rag_gate::stats::bootstrap::Units::Groups {
                sums: &sums,
                sizes: &sizes,
            });
            let total: f64 = sizes.iter().sum();
            let mean = sums.iter().sum::<f64>() / total;
            let r: Vec<f64> = sums.iter().zip(&sizes).map(|(s, k)| s - mean * k).collect();
            (
                se * (*g as f64).sqrt(),
                sample_size::variance_factors_upper(&r, CONFIDENCE, kurtosis_level()),
                expected_power::skewness(&r),
            )
        }
        (None, Model::Binary) => {
            let k = deltas.iter().filter(|d| **d != 0.0).count();
            let p = k as f64 / n as f64;
            let f = sample_size::rate_interval(k, n, CONFIDENCE).map(|[l, h]| [l / p, h / p]);
            (p.sqrt(), f, expected_power::skewness(&deltas))
        }
        _ => (
            rag_gate::stats::describe::sd(&deltas),
            sample_size::variance_factors_upper(&deltas, CONFIDENCE, kurtosis_level()),
            expected_power::skewness(&deltas),
        ),
    }
}

/// The units the plan asks for on pilot number `pilot_seed` of `pilot` units of `model`, for
/// `rule` at `margin` (and for fail-if-significant-drop the drop to catch, under which the
/// pilot is drawn).
pub fn planned(
    model: Model,
    pilot: usize,
    rule: (&str, f64, f64),
    pilot_seed: u64,
    planner: Planner,
    resamples: usize,
) -> usize {
    let (name, margin, drop) = rule;
    let mut rng = ChaCha8Rng::from_seed(stream_key(
        pilot_seed,
        &["plan-pilot", model.name(), name, &pilot.to_string()],
    ));
    let shift = if name == "max-drop" { 0.0 } else { -drop };
    let set = draw(model, pilot, shift, &mut rng);
    let (sd, factors, skew) = pilot_figures(model, &set);
    let n = match planner {
        Planner::PlugIn => match name {
            "max-drop" => sample_size::units_for(sd, margin, CONFIDENCE, POWER),
            _ => sample_size::units_to_catch(sd, drop, margin, CONFIDENCE, POWER, 1),
        },
        Planner::Expected => {
            use expected_power::{units, Aim, Pilot};
            let mut p = Pilot {
                sd,
                log_var_sd: expected_power::log_var_sd(factors, CONFIDENCE),
                skew,
                widths: None,
                pivot: None,
            };
            let size = |p: Pilot<'_>| match name {
                "max-drop" => units(Aim::Pass { margin }, p, CONFIDENCE, POWER),
                _ => {
                    let bound = units(Aim::Catch { drop, margin }, p, CONFIDENCE, POWER);
                    let alpha = 1.0 - CONFIDENCE;
                    let test = units(Aim::Test { drop, alpha }, p, CONFIDENCE, POWER);
                    bound.zip(test).map(|(a, b)| a.max(b))
                }
            };
            // As `plan::measure::needed`: the size, the interval's width and the studentized
            // mean's draws there on sets drawn from the pilot, the size again.
            let first = size(p).expect("a plannable rule");
            let pilot_units = width::PilotUnits {
                base: &set.base,
                cand: &set.cand,
                groups: set.group_of.as_ref().map(|(o, g)| (o.as_slice(), *g)),
            };
            let procedure = width::Procedure {
                method: IntervalMethod::BootstrapT,
                confidence: CONFIDENCE,
                resamples,
                seed: pilot_seed,
                metric: "calibration",
                tie_epsilon: rag_gate::config::DEFAULT_TIE_EPSILON,
                few_groups_below: rag_gate::config::DEFAULT_MIN_GROUPS as f64,
            };
            p.widths = width::half_widths(&pilot_units, first, procedure);
            let draws = width::pivots(&pilot_units, first, sd, p.widths, procedure);
            p.pivot = Some(&draws);
            size(p)
        }
    };
    n.expect("a plannable rule")
}

/// Whether one set of `units` units of `model` with true change `shift` does the rule's job:
/// `max-drop = margin` passes, or `fail-if-significant-drop = margin` fires.
pub fn hit(
    model: Model,
    units: usize,
    shift: f64,
    rule: (&str, f64),
    resamples: usize,
    key: (u64, u64),
) -> bool {
    let mut rng = ChaCha8Rng::from_seed(stream_key(
        key.0,
        &["plan", model.name(), rule.0, &key.1.to_string()],
    ));
    let s = draw(model, units, shift, &mut rng);
    let deltas: Vec<f64> = s.cand.iter().zip(&s.base).map(|(c, b)| c - b).collect();
    let e = estimate(
        &Input {
            base: &s.base,
            cand: &s.cand,
            deltas: &deltas,
            groups: s.group_of.as_ref().map(|(of, g)| (of.as_slice(), *g)),
            statistic: Statistic::Mean,
            method: IntervalMethod::BootstrapT,
            confidence: CONFIDENCE,
            resamples,
            seed: key.1,
            names: ["calibration", "all"],
            tie_epsilon: rag_gate::config::DEFAULT_TIE_EPSILON,
            cand_runs: &[],
            few_groups_below: 0.0,
        },
        &[],
        None,
    );
    let [lo, hi] = e.interval.bounds;
    match rule.0 {
        "max-drop" => lo >= -rule.1,
        _ => hi < -rule.1 && e.p_value < 1.0 - CONFIDENCE,
    }
}

/// The power averaged over `pilots` pilots of `pilot` units: per pilot, the planned units and
/// one set of that size under the rule's truth. Returns (share, median planned units).
pub fn average_power(
    model: Model,
    pilot: usize,
    rule: (&str, f64, f64),
    planner: Planner,
    pilots: usize,
    resamples: usize,
    seed: u64,
) -> (f64, usize) {
    let (name, margin, drop) = rule;
    let shift = if name == "max-drop" { 0.0 } else { -drop };
    let mut hits = 0usize;
    let mut ns = Vec::with_capacity(pilots);
    for p in 0..pilots {
        let pilot_seed = seed + 1_000_000 * (p as u64 + 1);
        let n = planned(model, pilot, rule, pilot_seed, planner, resamples);
        ns.push(n);
        hits += usize::from(hit(
            model,
            n,
            shift,
            (name, margin),
            resamples,
            (seed, p as u64),
        ));
    }
    ns.sort_unstable();
    (hits as f64 / pilots as f64, ns[ns.len() / 2])
}
