//! Simulated judged data sets for `label-plan` (`stats::ppi::labels_needed`): the judge model of
//! calibration/ppi.rs (deltas compressed ×0.7, noise 0.08, +0.03 towards the candidate; 40% of
//! queries move by N(0, 0.25²); conversations of 3 share an N(0, 0.1²) effect) with a true
//! human delta of 0 (a change that changes nothing). A pilot set with 5% or 33% of units labelled
//! gives the plan's size for a margin; fresh sets with that many units labelled at random then
//! say how often the corrected max-drop gate passes, pilot after pilot. Used by `examples/calibration_label_plan.rs`.

use rag_gate::stats::power::NoOpRule;
use rag_gate::stats::ppi::{
    labels_needed, mean_interval_small_sample, parts, power_at, Lambda, Parts, Units,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// Human and judge deltas per query and each query's group, true mean delta 0.
fn draw(
    queries: usize,
    group_size: usize,
    rng: &mut ChaCha8Rng,
) -> (Vec<f64>, Vec<f64>, Vec<usize>) {
    let (mut h, mut j, mut g) = (vec![], vec![], vec![]);
    let mut effect = 0.0;
    for i in 0..queries {
        if i % group_size == 0 {
            effect = if group_size > 1 {
                0.1 * normal(rng)
            } else {
                0.0
            };
        }
        let moved = rng.random::<f64>() < 0.4;
        let d = effect + if moved { 0.25 * normal(rng) } else { 0.0 };
        h.push(d);
        j.push(0.7 * d + 0.03 + 0.08 * normal(rng));
        g.push(i / group_size);
    }
    (h, j, g)
}

/// The labelled / unlabelled split of one set with `labelled` random units labelled.
struct SplitSet {
    y: Vec<f64>,
    yh: Vec<f64>,
    gl: Vec<usize>,
    u: Vec<f64>,
    gu: Vec<usize>,
}

fn split(queries: usize, group_size: usize, labelled: usize, rng: &mut ChaCha8Rng) -> SplitSet {
    let (h, j, g) = draw(queries, group_size, rng);
    let units = queries / group_size;
    let mut order: Vec<usize> = (0..units).collect();
    for i in 0..labelled {
        let k = rng.random_range(i..units);
        order.swap(i, k);
    }
    let mut is = vec![false; units];
    for &u in &order[..labelled] {
        is[u] = true;
    }
    let mut s = SplitSet {
        y: vec![],
        yh: vec![],
        gl: vec![],
        u: vec![],
        gu: vec![],
    };
    for i in 0..queries {
        if is[g[i]] {
            s.y.push(h[i]);
            s.yh.push(j[i]);
            s.gl.push(g[i]);
        } else {
            s.u.push(j[i]);
            s.gu.push(g[i]);
        }
    }
    s
}

fn units<'a>(s: &'a SplitSet, grouped: bool) -> Units<'a> {
    Units {
        human: &s.y,
        judge_labelled: &s.yh,
        judge_unlabelled: &s.u,
        groups: grouped.then_some((s.gl.as_slice(), s.gu.as_slice())),
    }
}

/// One pilot's plan and how often fresh sets at the planned size pass.
pub struct Outcome {
    /// None: the pilot's plan says the margin is not reachable (the corrected gate allows up to
    /// all but two units labelled).
    pub planned: Option<usize>,
    /// Fresh sets passed at the planned size, or when not reachable at all but two labelled
    /// (the most the plan says labelling can give).
    pub passed: usize,
    pub sets: usize,
    /// When not reachable: the power the plan states for all but two labelled.
    pub stated: Option<f64>,
}

/// Plans from one pilot (`pilot_share` of units labelled, seed `seed`) for power 0.8 at
/// `assurance` (`Parts::with_assurance`, as `label-plan` does), then runs `sets` fresh sets at
/// the planned size (all but two units when the plan says it is not reachable).
pub fn run(
    (queries, group_size): (usize, usize),
    pilot_share: f64,
    margin: f64,
    assurance: f64,
    sets: usize,
    seed: u64,
) -> Outcome {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let grouped = group_size > 1;
    let total = queries / group_size;
    let labelled = (total as f64 * pilot_share) as usize;
    let pilot = split(queries, group_size, labelled, &mut rng);
    let p = parts(&units(&pilot, grouped))
        .expect("a pilot of two units or more")
        .with_assurance(labelled, assurance);
    let planned = labels_needed(&p, total, NoOpRule::Drop, margin, (0.95, 0.8));
    let stated = planned
        .is_none()
        .then(|| power_at(&p, total - 2, total, NoOpRule::Drop, margin, 0.95));
    let n = planned.unwrap_or(total - 2);
    let passed = passes((queries, group_size), n, margin, sets, &mut rng);
    Outcome {
        planned,
        passed,
        sets,
        stated,
    }
}

/// How many of `sets` fresh sets with `n` random units labelled pass the corrected max-drop gate.
fn passes(
    (queries, group_size): (usize, usize),
    n: usize,
    margin: f64,
    sets: usize,
    rng: &mut ChaCha8Rng,
) -> usize {
    let grouped = group_size > 1;
    let mut passed = 0;
    for _ in 0..sets {
        let s = split(queries, group_size, n, rng);
        let e = mean_interval_small_sample(&units(&s, grouped), Lambda::Tuned, 0.95)
            .expect("two labelled and unlabelled units");
        passed += usize::from(e.low >= -margin);
    }
    passed
}

/// The generator's own spreads, read from one large set (400 times the size, half labelled):
/// what a pilot estimates.
pub fn true_parts((queries, group_size): (usize, usize)) -> Parts {
    let mut rng = ChaCha8Rng::seed_from_u64(u64::MAX);
    let big = 400 * queries;
    let s = split(big, group_size, big / group_size / 2, &mut rng);
    parts(&units(&s, group_size > 1)).expect("a large set")
}

/// The size the plan would give knowing the generator's spreads, and how often fresh sets at
/// that size pass: (need, passed).
pub fn oracle(
    shape: (usize, usize),
    margin: f64,
    sets: usize,
    seed: u64,
) -> (Option<usize>, usize) {
    let need = labels_needed(
        &true_parts(shape),
        shape.0 / shape.1,
        NoOpRule::Drop,
        margin,
        (0.95, 0.8),
    );
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let passed = need.map_or(0, |n| passes(shape, n, margin, sets, &mut rng));
    (need, passed)
}
