//! Simulated judged data sets for `label-plan` (`stats::ppi::labels_needed`): the judge model of
//! calibration/ppi.rs (deltas compressed ×0.7, noise 0.08, +0.03 towards the candidate; 40% of
//! queries move by N(0, 0.25²); conversations of 3 share an N(0, 0.1²) effect) with a true
//! human delta of 0 (a change that changes nothing). A pilot set with 5% or 33% of units labelled
//! gives the plan's size for a margin; fresh sets with that many units labelled at random then
//! say how often the corrected max-drop gate passes, pilot after pilot; in two steps
//! (`Follow::Replan`), each fresh set's labelled units plan again and the set is topped up
//! before it is judged. Used by `examples/calibration_label_plan.rs`.

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
    Drawn::new(queries, group_size, rng).labelled(labelled, rng)
}

/// One drawn set and a random order of its units, shuffled as far as it has been labelled (a
/// partial Fisher–Yates shuffle): labelling the first k of the order is a uniform random sample
/// of k units, and labelling more later keeps the first ones labelled (a top-up).
struct Drawn {
    h: Vec<f64>,
    j: Vec<f64>,
    g: Vec<usize>,
    order: Vec<usize>,
    shuffled: usize,
}

impl Drawn {
    fn new(queries: usize, group_size: usize, rng: &mut ChaCha8Rng) -> Drawn {
        let (h, j, g) = draw(queries, group_size, rng);
        let order: Vec<usize> = (0..queries / group_size).collect();
        Drawn {
            h,
            j,
            g,
            order,
            shuffled: 0,
        }
    }

    /// The split with the first `labelled` units of the order labelled.
    fn labelled(&mut self, labelled: usize, rng: &mut ChaCha8Rng) -> SplitSet {
        let units = self.order.len();
        for i in self.shuffled..labelled {
            let k = rng.random_range(i..units);
            self.order.swap(i, k);
        }
        self.shuffled = self.shuffled.max(labelled);
        let mut is = vec![false; self.order.len()];
        for &u in &self.order[..labelled] {
            is[u] = true;
        }
        let mut s = SplitSet {
            y: vec![],
            yh: vec![],
            gl: vec![],
            u: vec![],
            gu: vec![],
        };
        for i in 0..self.h.len() {
            if is[self.g[i]] {
                s.y.push(self.h[i]);
                s.yh.push(self.j[i]);
                s.gl.push(self.g[i]);
            } else {
                s.u.push(self.j[i]);
                s.gu.push(self.g[i]);
            }
        }
        s
    }
}

fn units<'a>(s: &'a SplitSet, grouped: bool) -> Units<'a> {
    Units {
        human: &s.y,
        judge_labelled: &s.yh,
        judge_unlabelled: &s.u,
        groups: grouped.then_some((s.gl.as_slice(), s.gu.as_slice())),
    }
}

/// How a team follows the plan.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Follow {
    /// Label the size the pilot's plan names, then judge.
    Once,
    /// Label that size, run `label-plan` again on everything labelled, and top up to the size it
    /// names then (never fewer; all but two units when it says "not reachable"), then judge.
    Replan,
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
    /// With `Follow::Replan`: the fresh sets by what the second plan said.
    pub replanned: Replanned,
}

/// The fresh sets of one pilot under `Follow::Replan`, split by the second plan's answer: it
/// reached the margin (its stated power is the asked one), or it said "not reachable" (its
/// stated power is the one with all but two labelled).
#[derive(Debug, Default, Clone, Copy)]
pub struct Replanned {
    pub reached: usize,
    pub reached_passed: usize,
    pub short: usize,
    pub short_passed: usize,
    pub short_stated: f64,
    /// Units labelled in the end, summed over the sets.
    pub labelled: usize,
}

/// Plans from one pilot (`pilot_share` of units labelled, seed `seed`) for power 0.8 at
/// `assurance` (`Parts::with_assurance`, as `label-plan` does), then runs `sets` fresh sets at
/// the planned size (all but two units when the plan says it is not reachable), re-planned on
/// each set's labelled units with `Follow::Replan`.
pub fn run(
    (queries, group_size): (usize, usize),
    (pilot_share, margin, assurance): (f64, f64, f64),
    follow: Follow,
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
    let replan = (follow == Follow::Replan).then_some(assurance);
    let (passed, replanned) = passes((queries, group_size), (n, margin, replan), sets, &mut rng);
    Outcome {
        planned,
        passed,
        sets,
        stated,
        replanned,
    }
}

/// How many of `sets` fresh sets with `n` random units labelled pass the corrected max-drop
/// gate; with `replan = Some(assurance)`, each set's `n` labelled units plan again and the set
/// is topped up to that size before it is judged.
fn passes(
    (queries, group_size): (usize, usize),
    (n, margin, replan): (usize, f64, Option<f64>),
    sets: usize,
    rng: &mut ChaCha8Rng,
) -> (usize, Replanned) {
    let grouped = group_size > 1;
    let most = queries / group_size - 2;
    let (mut passed, mut r) = (0, Replanned::default());
    for _ in 0..sets {
        let mut d = Drawn::new(queries, group_size, rng);
        let mut s = d.labelled(n, rng);
        let mut again = None;
        if let Some(assurance) = replan {
            let p = parts(&units(&s, grouped))
                .expect("two labelled units or more")
                .with_assurance(n, assurance);
            let total = queries / group_size;
            again = Some(
                labels_needed(&p, total, NoOpRule::Drop, margin, (0.95, 0.8))
                    .ok_or_else(|| power_at(&p, most, total, NoOpRule::Drop, margin, 0.95)),
            );
            let k = again
                .expect("just set")
                .map_or(most, |k| k.min(most))
                .max(n);
            if k > n {
                s = d.labelled(k, rng);
            }
            r.labelled += k;
        }
        let e = mean_interval_small_sample(&units(&s, grouped), Lambda::Tuned, 0.95)
            .expect("two labelled and unlabelled units");
        let pass = usize::from(e.low >= -margin);
        passed += pass;
        match again {
            Some(Ok(_)) => {
                r.reached += 1;
                r.reached_passed += pass;
            }
            Some(Err(stated)) => {
                r.short += 1;
                r.short_passed += pass;
                r.short_stated += stated;
            }
            None => {}
        }
    }
    (passed, r)
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
    let passed = need.map_or(0, |n| passes(shape, (n, margin, None), sets, &mut rng).0);
    (need, passed)
}
