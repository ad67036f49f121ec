//! Simulated data sets for the calibration of `rag-gate plan` (`cargo run --release --example
//! calibration_plan`): a cell plans the units from a large pilot of its model with
//! `stats::sample_size` (what `plan` computes), draws sets of that size, and sends each through
//! the report's own estimate (`resample::estimate::estimate`, bootstrap-t, the default). The
//! share of sets where the rule does what the plan promised should be the power (80%).
//!
//! Models (per query delta, candidate − baseline):
//! - `query`: a graded metric where half the queries do not move and the rest move by
//!   ±(0.02 + 0.2·Exp(1)) with a random sign: zero-inflated and heavy-tailed, mean `shift`.
//! - `group`: conversations of 2–6 turns; delta = shift + u_g + e, u_g ~ N(0, 0.06²) shared by
//!   the turns, e ~ N(0, 0.10²) per turn (ICC ≈ 0.26), rounded to 0.01 so some ties occur.
//! - `binary`: a 0/1 metric (hit@k), baseline hit rate 0.6; a pair is 1 → 0 with chance
//!   0.12 − shift/2 and 0 → 1 with 0.12 + shift/2 (shift < 0 is a drop): discordance 0.24.
//!
//! Rules: `max-drop = m` passes when the interval's low bound ≥ −m (the share passing under a
//! true change of 0 is the plan's power); `fail-if-significant-drop = f` fires when the high
//! bound < −f and the sign-flip p-value < α (one comparison), the share under a true drop D
//! is its power. `min-moved` (8) is met at these sizes in every set.

use rag_gate::resample::estimate::{estimate, Input};
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
}

impl Model {
    pub fn name(self) -> &'static str {
        match self {
            Model::Query => "query unit, zero-inflated graded deltas",
            Model::Group => "group unit, 2–6 turns per conversation, ICC ≈ 0.26",
            Model::Binary => "query unit, a 0/1 metric, discordance 0.24",
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
        }
    }
    let group_of = (model == Model::Group).then_some((of, units));
    Set {
        base,
        cand,
        group_of,
    }
}

/// The units the plan asks for on a pilot of `pilot` units of `model` (true change 0), for
/// `rule` at `margin` (and for fail-if-significant-drop the drop to catch): what `rag-gate
/// plan` computes from a gate file's deltas. Also the pilot's interval on the units.
pub fn planned(
    model: Model,
    pilot: usize,
    rule: (&str, f64, f64),
    seed: u64,
) -> (usize, Option<[usize; 2]>) {
    let mut rng = ChaCha8Rng::from_seed(stream_key(seed, &["plan-pilot", model.name()]));
    let set = draw(model, pilot, 0.0, &mut rng);
    let deltas: Vec<f64> = set.cand.iter().zip(&set.base).map(|(c, b)| c - b).collect();
    let (sd, factors) = match (&set.group_of, model) {
        (Some((of, g)), _) => {
            let (sums, sizes) = rag_gate::stats::bootstrap::group_sums(&deltas, of, *g);
            let se = rag_gate::stats::power::se_mean(rag_gate::stats::bootstrap::Units::Groups {
                sums: &sums,
                sizes: &sizes,
            });
            let n: f64 = sizes.iter().sum();
            let mean = sums.iter().sum::<f64>() / n;
            let r: Vec<f64> = sums.iter().zip(&sizes).map(|(s, k)| s - mean * k).collect();
            (
                se * (*g as f64).sqrt(),
                sample_size::variance_factors(&r, CONFIDENCE),
            )
        }
        (None, Model::Binary) => {
            let k = deltas.iter().filter(|d| **d != 0.0).count();
            let p = k as f64 / pilot as f64;
            let f = sample_size::rate_interval(k, pilot, CONFIDENCE).map(|[l, h]| [l / p, h / p]);
            (p.sqrt(), f)
        }
        _ => (
            rag_gate::stats::describe::sd(&deltas),
            sample_size::variance_factors(&deltas, CONFIDENCE),
        ),
    };
    let (name, margin, drop) = rule;
    let units = |sd: f64| match name {
        "max-drop" => sample_size::units_for(sd, margin, CONFIDENCE, POWER),
        _ => sample_size::units_to_catch(sd, drop, margin, CONFIDENCE, POWER, 1),
    };
    let n = units(sd).expect("a plannable rule");
    let interval = factors.and_then(|[l, h]| Some([units(sd * l.sqrt())?, units(sd * h.sqrt())?]));
    (n, interval)
}

/// The share of `sets` sets of `units` units of `model` with true change `shift` where the
/// rule does its job: `max-drop = margin` passes, or `fail-if-significant-drop = margin` fires.
pub fn share(
    model: Model,
    units: usize,
    shift: f64,
    rule: (&str, f64),
    sets: usize,
    resamples: usize,
    seed: u64,
) -> f64 {
    let mut hits = 0usize;
    for set in 0..sets {
        let key = stream_key(seed, &["plan", model.name(), rule.0, &set.to_string()]);
        let mut rng = ChaCha8Rng::from_seed(key);
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
                seed: set as u64,
                names: ["calibration", "all"],
                tie_epsilon: rag_gate::config::DEFAULT_TIE_EPSILON,
            },
            &[],
            None,
        );
        let [lo, hi] = e.interval.bounds;
        hits += usize::from(match rule.0 {
            "max-drop" => lo >= -rule.1,
            _ => hi < -rule.1 && e.p_value < 1.0 - CONFIDENCE,
        });
    }
    hits as f64 / sets as f64
}

/// The share of small pilots (`pilot` units) whose interval on the units holds `truth`, the
/// units planned from the large pilot, and their median planned units.
pub fn pilot_interval(
    model: Model,
    pilot: usize,
    rule: (&str, f64, f64),
    truth: usize,
    pilots: usize,
) -> (f64, usize) {
    let mut held = 0usize;
    let mut ns = Vec::with_capacity(pilots);
    for p in 0..pilots {
        let (n, iv) = planned(model, pilot, rule, 1_000_000 + p as u64);
        ns.push(n);
        held += usize::from(iv.is_some_and(|[lo, hi]| lo <= truth && truth <= hi));
    }
    ns.sort_unstable();
    (held as f64 / pilots as f64, ns[ns.len() / 2])
}
