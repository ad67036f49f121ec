//! Simulated paired data sets for the calibration run (`cargo run --release --example
//! calibration`) and its fast version in the test suite (`tests/it/stats_calibration.rs`).
//! Every set goes through `resample::estimate::estimate`, the code path of the report.
//!
//! Scenarios:
//! - null: n queries, baseline and candidate exchangeable (same query difficulty, independent
//!   noise, clipped to [0, 1] and rounded to 0.01, so ties abound): no true delta.
//! - shift: n independent deltas μ + 0.1·(Exp(1) − 1) (right-skewed), μ = 0.02.
//! - clustered: G groups of 2–10 queries, delta = μ + u_g + e, u_g ~ N(0, 0.08²),
//!   e ~ N(0, 0.05²): strong group effects, as turns of one conversation.
//! - few groups: G equal groups of 4 queries, the same group model (the regime of a critical
//!   slice of 5–30 conversations).
//! - unequal groups: 20 groups, each of a size drawn from {1, 2, 3, 10, 30}, the same model.
//! - zero-inflated: n query deltas, 85% exactly 0, the rest 0.05·(1 + Exp(1)) (right-skewed;
//!   true mean 0.015): most queries untouched, a few improve, now and then a lot. (This
//!   reproduces the percentile, BCa and bootstrap-t figures the issue quotes from an outside
//!   study within Monte-Carlo error.)
//! - tie-heavy: n query deltas from {−0.2, −0.1, 0, 0.1, 0.2} with chances
//!   (0.1, 0.15, 0.5, 0.15, 0.1): symmetric, true mean 0.
//!
//! Besides the report's own intervals, `wild` is the wild cluster bootstrap-t (unrestricted,
//! Webb's six-point weights ±√(1/2), ±1, ±√(3/2); Cameron, Gelbach & Miller 2008; Webb 2023,
//! Canadian J. Econ. 56:1005): a reference measured here only, not an engine method.

use rag_gate::model::ledger::DriftStatus;
use rag_gate::resample::estimate::{estimate, Input};
use rag_gate::stats::interval::IntervalMethod;
use rag_gate::stats::statistic::Statistic;
use rag_gate::stats::streams::stream_key;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub const MU: f64 = 0.02;

#[derive(Debug, Clone, Copy, Default)]
pub struct Tally {
    pub sets: usize,
    /// Null: the interval excludes 0. Shift / clustered: the interval misses the true delta.
    pub ci_misses: usize,
    /// The low bound above the true delta: the miss that hides a drop.
    pub low_misses: usize,
    /// The high bound below the true delta: the miss that hides a gain.
    pub high_misses: usize,
    /// Null only: p < 0.05.
    pub p_rejects: usize,
    /// Sets the `min-groups` (or `min-moved`) default would not judge; they are not in `sets`.
    pub not_judged: usize,
    /// Sets where no query moved (every delta exactly 0) and that were judged.
    pub no_move: usize,
    /// The sum of the intervals' widths (hi − lo) over `sets`.
    pub widths: f64,
}

impl Tally {
    /// Counts one interval against the true delta `mu`.
    pub fn add(&mut self, [lo, hi]: [f64; 2], mu: f64) {
        self.sets += 1;
        self.ci_misses += usize::from(lo > mu || hi < mu);
        self.low_misses += usize::from(lo > mu);
        self.high_misses += usize::from(hi < mu);
        self.widths += hi - lo;
    }
    /// The mean width of the intervals counted by `add`.
    pub fn mean_width(&self) -> f64 {
        self.widths / self.sets.max(1) as f64
    }
    pub fn low_miss_rate(&self) -> f64 {
        self.low_misses as f64 / self.sets as f64
    }
    pub fn high_miss_rate(&self) -> f64 {
        self.high_misses as f64 / self.sets as f64
    }
    pub fn not_judged_rate(&self) -> f64 {
        self.not_judged as f64 / self.sets as f64
    }
    /// Binomial Monte-Carlo standard error of a rate over the sets.
    pub fn mc_se(&self, rate: f64) -> f64 {
        (rate * (1.0 - rate) / self.sets as f64).sqrt()
    }
    pub fn miss_rate(&self) -> f64 {
        self.ci_misses as f64 / self.sets as f64
    }
    pub fn reject_rate(&self) -> f64 {
        self.p_rejects as f64 / self.sets as f64
    }
    pub fn coverage(&self) -> f64 {
        1.0 - self.miss_rate()
    }
}

fn uniform(rng: &mut ChaCha8Rng) -> f64 {
    (f64::from(rng.next_u32()) + 0.5) / 4_294_967_296.0
}

/// Standard normal by Box–Muller.
fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let (u, v) = (uniform(rng), uniform(rng));
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// The data seed of the calibration run (the examples and the fast test use the default).
pub const DATA_SEED: u64 = 2026;

fn rng_for(seed: u64, scenario: &str, set: usize) -> ChaCha8Rng {
    ChaCha8Rng::from_seed(stream_key(
        seed,
        &["calibration", scenario, &set.to_string()],
    ))
}

/// How an interval is made: one of the report's methods, or the wild cluster bootstrap.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Route {
    Report(IntervalMethod),
    Wild,
    /// The bootstrap-t alone: the report's studentised draws and interval without the tie
    /// guard and without the Student t floor (`stats::ties`), for the before/after comparison.
    PlainBootstrapT,
    /// The Student t interval on the same CR2 standard error and Bell–McCaffrey df.
    StudentT,
}

impl Route {
    pub fn name(self) -> &'static str {
        match self {
            Route::Report(IntervalMethod::Percentile) => "percentile",
            Route::Report(IntervalMethod::Bca) => "bca",
            Route::Report(IntervalMethod::BootstrapT) => "bootstrap-t",
            Route::Report(IntervalMethod::ExpandedPercentile) => "expanded-percentile",
            Route::Wild => "wild (Webb)",
            Route::PlainBootstrapT => "bootstrap-t alone (no tie guard, no t floor)",
            Route::StudentT => "student-t (CR2, BM df)",
        }
    }
}

fn run_route(
    deltas: &[f64],
    groups: Option<(&[u32], usize)>,
    route: Route,
    resamples: usize,
    set: usize,
) -> [f64; 2] {
    match route {
        Route::Report(method) => {
            let base = vec![0.0; deltas.len()];
            run(&base, deltas, groups, method, resamples, set).0
        }
        Route::Wild => wild(deltas, groups, resamples, set),
        Route::PlainBootstrapT | Route::StudentT => t_routes(deltas, groups, route, resamples, set),
    }
}

/// The plain bootstrap-t (the report's draws under the report's stream) or the Student t
/// interval, both on the CR2 standard error.
fn t_routes(
    deltas: &[f64],
    groups: Option<(&[u32], usize)>,
    route: Route,
    resamples: usize,
    set: usize,
) -> [f64; 2] {
    use rag_gate::stats::small_sample::{bm_df, se_cr0_cr2, t_quantile, t_stretch};
    use rag_gate::stats::studentized;
    let (sums, sizes) = match groups {
        Some((of, g)) => rag_gate::stats::bootstrap::group_sums(deltas, of, g),
        None => (deltas.to_vec(), vec![1.0; deltas.len()]),
    };
    let point = sums.iter().sum::<f64>() / sizes.iter().sum::<f64>();
    let se = se_cr0_cr2(&sums, &sizes).1;
    if route == Route::StudentT {
        let df = bm_df(&sizes);
        if se <= 0.0 || df <= 0.0 {
            return [point; 2];
        }
        let h = t_quantile(0.975, df) * se;
        return [point - h, point + h];
    }
    let z = groups.map(|_| sizes.as_slice());
    let key = stream_key(set as u64, &["bootstrap", "all"]);
    let d = studentized::bootstrap_studentized_many(&[&sums], z, resamples, key)
        .pop()
        .expect("one metric");
    let range = studentized::unit_range(&sums, z);
    studentized::interval(&d, point, se, t_stretch(&sizes, 0.95), range, 0.95).bounds
}

/// The unrestricted wild cluster bootstrap-t interval of the mean with Webb weights, CR1
/// standard errors, percentile-t, B resamples from a stream of its own.
pub fn wild(
    deltas: &[f64],
    groups: Option<(&[u32], usize)>,
    resamples: usize,
    set: usize,
) -> [f64; 2] {
    let (sums, sizes) = match groups {
        Some((of, g)) => rag_gate::stats::bootstrap::group_sums(deltas, of, g),
        None => (deltas.to_vec(), vec![1.0; deltas.len()]),
    };
    let g = sums.len() as f64;
    let n: f64 = sizes.iter().sum();
    let mean = sums.iter().sum::<f64>() / n;
    let resid: Vec<f64> = sums.iter().zip(&sizes).map(|(s, k)| s - mean * k).collect();
    let cr1 = |r: &[f64]| (g / (g - 1.0) * r.iter().map(|x| x * x).sum::<f64>()).sqrt() / n;
    let se = cr1(&resid);
    if se == 0.0 {
        return [mean; 2];
    }
    let webb = [
        -(1.5f64.sqrt()),
        -1.0,
        -(0.5f64.sqrt()),
        0.5f64.sqrt(),
        1.0,
        1.5f64.sqrt(),
    ];
    let mut rng = rng_for(set as u64, "wild", set);
    let mut t = Vec::with_capacity(resamples);
    let mut r = vec![0.0; sums.len()];
    for _ in 0..resamples {
        let v: Vec<f64> = resid
            .iter()
            .map(|_| webb[(rng.next_u32() % 6) as usize])
            .collect();
        let shift = v.iter().zip(&resid).map(|(v, e)| v * e).sum::<f64>() / n;
        for (i, ri) in r.iter_mut().enumerate() {
            *ri = v[i] * resid[i] - shift * sizes[i];
        }
        let s = cr1(&r);
        t.push(if s > 0.0 { shift / s } else { 0.0 });
    }
    t.sort_by(f64::total_cmp);
    let q = |p: f64| rag_gate::stats::quantile::quantile_sorted(&t, p);
    [mean - q(0.975) * se, mean - q(0.025) * se]
}

fn run(
    base: &[f64],
    cand: &[f64],
    groups: Option<(&[u32], usize)>,
    method: IntervalMethod,
    resamples: usize,
    set: usize,
) -> ([f64; 2], f64) {
    let deltas: Vec<f64> = cand.iter().zip(base).map(|(c, b)| c - b).collect();
    let e = estimate(
        &Input {
            base,
            cand,
            deltas: &deltas,
            groups,
            statistic: Statistic::Mean,
            method,
            confidence: 0.95,
            resamples,
            seed: set as u64,
            // A metric bounded to [0, 1], as the cells model: one moved unit reaches at most 1.
            names: ["ndcg@10", "all"],
            tie_epsilon: rag_gate::config::DEFAULT_TIE_EPSILON,
            cand_runs: &[],
            // The default gate file's: min-groups 8 under on-small-slice = "judge".
            few_groups_below: rag_gate::config::DEFAULT_MIN_GROUPS as f64,
        },
        &[],
        None,
    );
    (e.interval.bounds, e.p_value)
}

/// (a) No true delta, n queries, query unit.
pub fn null(seed: u64, sets: usize, n: usize, resamples: usize, method: IntervalMethod) -> Tally {
    let mut t = Tally::default();
    for set in 0..sets {
        let mut rng = rng_for(seed, "null", set);
        let (mut base, mut cand) = (Vec::new(), Vec::new());
        for _ in 0..n {
            let q = 0.2 + 0.7 * uniform(&mut rng);
            let side = |r: &mut ChaCha8Rng| {
                ((q + 0.15 * normal(r)).clamp(0.0, 1.0) * 100.0).round() / 100.0
            };
            base.push(side(&mut rng));
            cand.push(side(&mut rng));
        }
        let ([lo, hi], p) = run(&base, &cand, None, method, resamples, set);
        t.sets += 1;
        t.ci_misses += usize::from(lo > 0.0 || hi < 0.0);
        t.p_rejects += usize::from(p < 0.05);
    }
    t
}

/// (b) True delta μ with right-skewed noise, n independent queries, query unit.
pub fn shift(seed: u64, sets: usize, n: usize, resamples: usize, method: IntervalMethod) -> Tally {
    let mut t = Tally::default();
    for set in 0..sets {
        let mut rng = rng_for(seed, "shift", set);
        let base: Vec<f64> = (0..n).map(|_| uniform(&mut rng)).collect();
        let cand: Vec<f64> = base
            .iter()
            .map(|b| b + MU + 0.1 * (-uniform(&mut rng).ln() - 1.0))
            .collect();
        let ([lo, hi], _) = run(&base, &cand, None, method, resamples, set);
        t.sets += 1;
        t.ci_misses += usize::from(lo > MU || hi < MU);
    }
    t
}

/// (c) Clustered deltas in `groups` groups: coverage of μ by the query-unit and the group-unit
/// interval, on the same data sets.
pub fn clustered(
    seed: u64,
    sets: usize,
    groups: usize,
    resamples: usize,
    method: IntervalMethod,
) -> (Tally, Tally) {
    let (mut q, mut g) = (Tally::default(), Tally::default());
    for set in 0..sets {
        let mut rng = rng_for(seed, "clustered", set);
        let (mut base, mut cand, mut group_of) = (Vec::new(), Vec::new(), Vec::new());
        for k in 0..groups {
            let size = 2 + (rng.next_u32() % 9) as usize;
            let u = 0.08 * normal(&mut rng);
            for _ in 0..size {
                let b = uniform(&mut rng);
                base.push(b);
                cand.push(b + MU + u + 0.05 * normal(&mut rng));
                group_of.push(k as u32);
            }
        }
        for (tally, unit) in [
            (&mut q, None),
            (&mut g, Some((group_of.as_slice(), groups))),
        ] {
            let ([lo, hi], _) = run(&base, &cand, unit, method, resamples, set);
            tally.sets += 1;
            tally.ci_misses += usize::from(lo > MU || hi < MU);
        }
    }
    (q, g)
}

/// The delta of one query of a group with effect `u`: μ + u + N(0, 0.05²).
fn grouped_delta(rng: &mut ChaCha8Rng, u: f64) -> f64 {
    MU + u + 0.05 * normal(rng)
}

/// Deltas and dense group ids for groups of the given sizes, group effects N(0, 0.08²).
fn grouped(rng: &mut ChaCha8Rng, sizes: &[usize]) -> (Vec<f64>, Vec<u32>) {
    let (mut d, mut of) = (Vec::new(), Vec::new());
    for (k, &size) in sizes.iter().enumerate() {
        let u = 0.08 * normal(rng);
        for _ in 0..size {
            d.push(grouped_delta(rng, u));
            of.push(k as u32);
        }
    }
    (d, of)
}

/// The default `min-moved` (`config::DEFAULT_MIN_MOVED`), which the sparse cells apply.
pub const MIN_MOVED: usize = rag_gate::config::DEFAULT_MIN_MOVED;

/// The default `min-groups`, which the guard compares with the effective number of groups.
pub const MIN_GROUPS: f64 = 8.0;

/// (d) `groups` equal groups of 4 queries, group unit: coverage of μ.
pub fn few_groups(seed: u64, sets: usize, groups: usize, resamples: usize, route: Route) -> Tally {
    let mut t = Tally::default();
    for set in 0..sets {
        let mut rng = rng_for(seed, &format!("few-{groups}"), set);
        let (d, of) = grouped(&mut rng, &vec![4; groups]);
        t.add(
            run_route(&d, Some((&of, groups)), route, resamples, set),
            MU,
        );
        t.not_judged += usize::from((groups as f64) < MIN_GROUPS);
    }
    t
}

/// (e) 20 groups, sizes drawn from {1, 2, 3, 10, 30}, group unit: coverage of μ, and the share
/// of sets whose effective number of groups is below `MIN_GROUPS`.
pub fn unequal_groups(seed: u64, sets: usize, resamples: usize, route: Route) -> Tally {
    const SIZES: [usize; 5] = [1, 2, 3, 10, 30];
    let mut t = Tally::default();
    for set in 0..sets {
        let mut rng = rng_for(seed, "unequal", set);
        let sizes: Vec<usize> = (0..20)
            .map(|_| SIZES[(rng.next_u32() % 5) as usize])
            .collect();
        let (d, of) = grouped(&mut rng, &sizes);
        t.add(run_route(&d, Some((&of, 20)), route, resamples, set), MU);
        let z: Vec<f64> = sizes.iter().map(|&k| k as f64).collect();
        use rag_gate::stats::small_sample::{correlated_groups, variance_components};
        let (e, u) = variance_components(&d, &of, &z).unwrap_or((1.0, 0.0));
        t.not_judged += usize::from(correlated_groups(&z, e, u) < MIN_GROUPS);
    }
    t
}

/// A few groups (2–7), group unit: coverage of μ under three group designs — equal groups of 4
/// (`few_groups`), sizes uniform on 2–10 (the clustered design (c)), sizes from {1, 2, 3, 10,
/// 30} (design (e)) — and the effective groups `min-groups` reads, averaged over the sets.
pub fn fewer_groups(
    seed: u64,
    sets: usize,
    groups: usize,
    design: FewDesign,
    resamples: usize,
    route: Route,
) -> (Tally, f64) {
    const WIDE: [usize; 5] = [1, 2, 3, 10, 30];
    let mut t = Tally::default();
    let mut counted = 0.0;
    for set in 0..sets {
        let mut rng = rng_for(seed, &format!("fewer-{groups}-{design:?}"), set);
        let sizes: Vec<usize> = (0..groups)
            .map(|_| match design {
                FewDesign::Equal => 4,
                FewDesign::TwoToTen => 2 + (rng.next_u32() % 9) as usize,
                FewDesign::OneToThirty => WIDE[(rng.next_u32() % 5) as usize],
            })
            .collect();
        let (d, of) = grouped(&mut rng, &sizes);
        t.add(
            run_route(&d, Some((&of, groups)), route, resamples, set),
            MU,
        );
        let z: Vec<f64> = sizes.iter().map(|&k| k as f64).collect();
        use rag_gate::stats::small_sample::{correlated_groups, variance_components};
        let (e, u) = variance_components(&d, &of, &z).unwrap_or((1.0, 0.0));
        counted += correlated_groups(&z, e, u);
    }
    (t, counted / sets.max(1) as f64)
}

/// The group sizes of a `fewer_groups` cell.
#[derive(Clone, Copy, Debug)]
pub enum FewDesign {
    Equal,
    TwoToTen,
    OneToThirty,
}

/// The true mean of the zero-inflated deltas: 15% of 0.05 · (1 + 1).
pub const MU_ZERO_INFLATED: f64 = 0.15 * 0.1;

/// (f) n zero-inflated, right-skewed query deltas, query unit.
pub fn zero_inflated(seed: u64, sets: usize, n: usize, resamples: usize, route: Route) -> Tally {
    let mut t = Tally::default();
    for set in 0..sets {
        let mut rng = rng_for(seed, "zero-inflated", set);
        let d: Vec<f64> = (0..n)
            .map(|_| {
                if uniform(&mut rng) < 0.85 {
                    0.0
                } else {
                    0.05 * (1.0 - uniform(&mut rng).ln())
                }
            })
            .collect();
        t.add(run_route(&d, None, route, resamples, set), MU_ZERO_INFLATED);
    }
    t
}

/// (g) n symmetric tie-heavy query deltas, query unit: coverage of 0.
pub fn tie_heavy(seed: u64, sets: usize, n: usize, resamples: usize, route: Route) -> Tally {
    let mut t = Tally::default();
    for set in 0..sets {
        let mut rng = rng_for(seed, "tie-heavy", set);
        let d: Vec<f64> = (0..n)
            .map(|_| match uniform(&mut rng) {
                u if u < 0.1 => -0.2,
                u if u < 0.25 => -0.1,
                u if u < 0.75 => 0.0,
                u if u < 0.9 => 0.1,
                _ => 0.2,
            })
            .collect();
        t.add(run_route(&d, None, route, resamples, set), 0.0);
    }
    t
}

/// The `max-drop` margin of the false-pass cells (the shipped gate's, `gates/prod.toml`).
pub const MARGIN: f64 = 0.01;

/// How the few changed queries of a sparse cell move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Moved {
    /// ±U(0, 0.5): up or down alike (a reranker that reorders a few queries).
    Symmetric,
    /// 0.05·(1 + Exp(1)): up only, now and then a lot (the zero-inflated skewed cell).
    Skewed,
    /// U(−0.2, 0.3): both ways, more up than down (a change that helps a little on average).
    Shifted,
    /// 0.05·(1 + Exp(1)) up with probability 0.8, the same amount down otherwise: mostly up,
    /// skewed both ways.
    Mixed,
    /// −0.05·(1 + Exp(1)): down only, now and then a lot (the mirror of `Skewed`: a drop carried
    /// by the few queries that moved, on the side that hides it).
    Losses,
    /// +Exp(mean 0.03) with probability 0.75, else −min(0.08·e^Z, 0.8): many small gains, a
    /// few losses with a long (log-normal) tail, capped at 0.8 (an outside audit's design).
    LongLoss,
    /// Every unit moves (use with `changed` = 1): N(0, 0.02²) with probability 0.9, else a loss
    /// of Exp(mean 0.15): no ties, a drop carried by a tenth of the units (an outside audit's
    /// design).
    NormalLoss,
    /// −Exp(mean 0.05): losses whose density is highest at the tie (the law that shows a lone
    /// moved query nearest the tie for its mean: what the one-unit rule of `stats::tilt` is
    /// bounded on).
    ExpLoss,
}

impl Moved {
    fn draw(self, rng: &mut ChaCha8Rng) -> f64 {
        match self {
            Moved::Symmetric => uniform(rng) - 0.5,
            Moved::Skewed => 0.05 * (1.0 - uniform(rng).ln()),
            Moved::Losses => -0.05 * (1.0 - uniform(rng).ln()),
            Moved::ExpLoss => 0.05 * uniform(rng).ln(),
            Moved::Shifted => 0.5 * uniform(rng) - 0.2,
            Moved::LongLoss => {
                if uniform(rng) < 0.75 {
                    -0.03 * uniform(rng).ln()
                } else {
                    -(0.08 * normal(rng).exp()).min(0.8)
                }
            }
            Moved::NormalLoss => {
                if uniform(rng) < 0.9 {
                    0.02 * normal(rng)
                } else {
                    0.15 * uniform(rng).ln()
                }
            }
            Moved::Mixed => {
                let up = uniform(rng) < 0.8;
                let size = 0.05 * (1.0 - uniform(rng).ln());
                if up {
                    size
                } else {
                    -size
                }
            }
        }
    }
    /// The mean of one changed query's delta.
    fn mean(self) -> f64 {
        match self {
            Moved::Symmetric => 0.0,
            Moved::Skewed => 0.1,
            Moved::Losses => -0.1,
            Moved::Shifted => 0.05,
            Moved::Mixed => 0.06,
            // 0.75·0.03 − 0.25·E min(0.08·e^Z, 0.8), the expectation by quadrature
            // (scipy.integrate.quad: E min(·) = 0.12770915273181643).
            Moved::LongLoss => 0.75 * 0.03 - 0.25 * 0.127_709_152_731_816_43,
            Moved::NormalLoss => -0.1 * 0.15,
            Moved::ExpLoss => -0.05,
        }
    }
}

/// A sparse cell: n queries of which a share `changed` moved (the rest exactly 0), moving as
/// `moved`. The tally at the cell's own mean gives coverage and both misses. Two false-pass
/// tallies put the true delta on the `max-drop` margin (−MARGIN) and count the sets that
/// `max-drop = MARGIN` passes (the low bound at or above −MARGIN): `shifted`, every delta
/// lowered by the same amount (the untouched queries tie at a value below 0, the audit's
/// location model), and `carried`, only the moved queries lowered, by MARGIN / changed (the
/// drop carried by the few queries that moved; mixed-sign and skewed for few changed queries).
pub struct Sparse {
    pub n: usize,
    pub changed: f64,
    pub moved: Moved,
}

/// One sparse cell's three tallies.
pub struct SparseTallies {
    pub at_mean: Tally,
    pub shifted: Tally,
    pub carried: Tally,
}

/// One simulated set: how many of its deltas are non-zero (the moved queries `min-moved`
/// counts), its interval and the truth it should cover.
#[derive(Debug, Clone, Copy)]
pub struct SetOutcome {
    pub n: usize,
    pub moved: usize,
    pub ci: [f64; 2],
    pub truth: f64,
}

/// Whether `check` with `min-moved = min_moved` leaves a passing `max-drop` on this set not
/// judged: 1 to `min_moved − 1` moved, or (with `min_moved` above 1: check's rules) none moved
/// where zero moves among n queries of a [0, 1] metric do not bound an unseen drop within the
/// margin (`verdict::no_op`).
pub fn not_judged_pass(o: &SetOutcome, min_moved: usize) -> bool {
    use rag_gate::verdict::no_op::{proven, unseen};
    let few = o.moved > 0 && o.moved < min_moved;
    let unproven_no_op =
        min_moved > 1 && o.moved == 0 && !proven(&unseen(o.n, 1.0, MARGIN, 0.05), MARGIN);
    few || unproven_no_op
}

/// The false passes of `max-drop` at the margin (the truth of the false-pass cells) under
/// `min-moved = min_moved`: a set `check` would not judge (`not_judged_pass`) whose `max-drop`
/// would pass (low bound above the truth) is not a pass (`not_judged`, kept in `sets`), nor is
/// one with no moved query it would not judge; a judged set with no moved query that passes
/// counts in `no_move` (with `min_moved` 1, every such pass).
/// `low_misses` counts the false passes.
pub fn tally_passes(outcomes: &[SetOutcome], min_moved: usize) -> Tally {
    let mut t = Tally::default();
    for o in outcomes {
        let passes = o.ci[0] > o.truth;
        // A set with no moved query is not judged whether its interval passes or not (its
        // interval is the unseen share's, `stats::ties::none_moved`); one with a few moved only
        // where it would pass.
        if not_judged_pass(o, min_moved) && (passes || o.moved == 0) {
            t.sets += 1;
            t.not_judged += 1;
            continue;
        }
        t.add(o.ci, o.truth);
        t.no_move += usize::from(o.moved == 0 && passes);
    }
    t
}

/// Coverage over the sets the gate can pass (`not_judged_pass` is false); the others are
/// counted in `not_judged` and left out of `sets`.
pub fn tally_covered(outcomes: &[SetOutcome], min_moved: usize) -> Tally {
    let mut t = Tally::default();
    for o in outcomes {
        if not_judged_pass(o, min_moved) {
            t.not_judged += 1;
            continue;
        }
        t.add(o.ci, o.truth);
        t.no_move += usize::from(o.moved == 0);
    }
    t
}

impl Sparse {
    /// `sets` data sets, the moved queries shifted by `moved_shift` and then every delta by
    /// `all_shift`, through `route`.
    pub fn outcomes(
        &self,
        seed: u64,
        sets: usize,
        shifts: [f64; 2],
        resamples: usize,
        route: Route,
    ) -> Vec<SetOutcome> {
        let truth = self.truth(shifts);
        self.deltas(seed, sets, shifts)
            .into_iter()
            .enumerate()
            .map(|(set, d)| SetOutcome {
                n: self.n,
                moved: d.iter().filter(|&&v| v != 0.0).count(),
                ci: run_route(&d, None, route, resamples, set),
                truth,
            })
            .collect()
    }

    /// The true mean delta of the sets drawn with `shifts` ([moved, all]).
    pub fn truth(&self, [moved_shift, all_shift]: [f64; 2]) -> f64 {
        self.changed * (self.moved.mean() + moved_shift) + all_shift
    }

    /// The per-query deltas of [`Sparse::outcomes`]'s sets, in set order.
    pub fn deltas(&self, seed: u64, sets: usize, shifts: [f64; 2]) -> Vec<Vec<f64>> {
        let [moved_shift, all_shift] = shifts;
        let label = format!("sparse-{:?}-{}-{}", self.moved, self.n, self.changed);
        (0..sets)
            .map(|set| {
                let mut rng = rng_for(seed, &label, set);
                (0..self.n)
                    .map(|_| {
                        let moved = if uniform(&mut rng) < self.changed {
                            self.moved.draw(&mut rng) + moved_shift
                        } else {
                            0.0
                        };
                        moved + all_shift
                    })
                    .collect()
            })
            .collect()
    }

    /// The cell's outcomes (each tally on data sets of its own): at the cell's mean, every
    /// delta shifted onto the margin, the drop carried by the moved queries.
    pub fn cell_outcomes(
        &self,
        seed: u64,
        sets: usize,
        resamples: usize,
        route: Route,
    ) -> [Vec<SetOutcome>; 3] {
        let mean = self.changed * self.moved.mean();
        [
            self.outcomes(seed, sets, [0.0, 0.0], resamples, route),
            self.outcomes(seed ^ 1, sets, [0.0, -MARGIN - mean], resamples, route),
            self.outcomes(
                seed ^ 2,
                sets,
                [-(MARGIN + mean) / self.changed, 0.0],
                resamples,
                route,
            ),
        ]
    }

    /// The cell's tallies under `min-moved = min_moved` (1: every set judged).
    pub fn cell(
        &self,
        seed: u64,
        sets: usize,
        resamples: usize,
        route: Route,
        min_moved: usize,
    ) -> SparseTallies {
        let [a, s, c] = self.cell_outcomes(seed, sets, resamples, route);
        SparseTallies {
            at_mean: tally_covered(&a, min_moved),
            shifted: tally_passes(&s, min_moved),
            carried: tally_passes(&c, min_moved),
        }
    }
}

/// The margin of the equivalence scenario.
pub const EQUIVALENCE_MARGIN: f64 = 0.02;

/// (h) A true change of exactly `sign` · m (m = [`EQUIVALENCE_MARGIN`]), n query deltas with
/// right-skewed noise 0.1·(Exp(1) − 1), query unit: each set counts as a pass of `max-change = m`
/// when its interval lies inside (−m, +m) (`ci_misses` counts the passes: a false pass, since
/// the change is m). TOST at (1 − 0.95) / 2 per side should pass at most 2.5% of the sets.
pub fn equivalence_edge(
    seed: u64,
    sets: usize,
    n: usize,
    resamples: usize,
    sign: f64,
    route: Route,
) -> Tally {
    let m = EQUIVALENCE_MARGIN;
    let mut t = Tally::default();
    for set in 0..sets {
        let mut rng = rng_for(seed, &format!("equivalence-{sign}"), set);
        let d: Vec<f64> = (0..n)
            .map(|_| sign * m + 0.1 * (-uniform(&mut rng).ln() - 1.0))
            .collect();
        let ci = run_route(&d, None, route, resamples, set);
        t.sets += 1;
        t.ci_misses += usize::from(rag_gate::verdict::equivalent(ci, m));
    }
    t
}

/// The `median` / `p95` cells' margin, in the latency-like units of their values.
pub const QUANTILE_MARGIN: f64 = 5.0;

/// (q) A quantile gate: n queries of a latency-like value, query i's difficulty
/// qᵢ = 100·exp(0.5·N(0, 1)) shared by both sides, each side adding its own N(0, 10²) noise, the
/// candidate shifted by `delta`; so the candidate's distribution is the baseline's moved by
/// `delta`, and the true difference of any quantile is `delta`. The interval is the report's
/// under `method` (under the default the jackknife t interval of the Harrell–Davis difference;
/// under `Percentile` the bootstrap, with Poisson weights from 10,000 queries). Coverage of `delta`; with `delta` on
/// the margin (−`QUANTILE_MARGIN`, a drop) `low_misses` counts the sets `max-drop` passes.
pub fn quantile_gate(
    seed: u64,
    sets: usize,
    n: usize,
    statistic: Statistic,
    delta: f64,
    resamples: usize,
    method: IntervalMethod,
) -> Tally {
    let mut t = Tally::default();
    for set in 0..sets {
        let mut rng = rng_for(
            seed,
            &format!("quantile-{}-{n}-{delta}", statistic.as_str()),
            set,
        );
        let (mut base, mut cand) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for _ in 0..n {
            let q = 100.0 * (0.5 * normal(&mut rng)).exp();
            base.push(q + 10.0 * normal(&mut rng));
            cand.push(q + delta + 10.0 * normal(&mut rng));
        }
        let deltas: Vec<f64> = cand.iter().zip(&base).map(|(c, b)| c - b).collect();
        let e = estimate(
            &Input {
                base: &base,
                cand: &cand,
                deltas: &deltas,
                groups: None,
                statistic,
                method,
                confidence: 0.95,
                resamples,
                seed: set as u64,
                names: ["calibration", "all"],
                tie_epsilon: rag_gate::config::DEFAULT_TIE_EPSILON,
                cand_runs: &[],
                few_groups_below: 0.0,
            },
            &[],
            None,
        );
        t.add(e.interval.bounds, delta);
    }
    t
}

/// (p) Many units (the Poisson bootstrap, from `stats::poisson::POISSON_FROM` units): the
/// shift model of (b) at n queries (query unit), or the clustered model of (c) at `groups`
/// groups of 2–10 queries (group unit). Coverage of μ with both one-sided misses.
pub fn many_units(
    seed: u64,
    sets: usize,
    n: usize,
    groups: bool,
    resamples: usize,
    method: IntervalMethod,
) -> Tally {
    let mut t = Tally::default();
    for set in 0..sets {
        let mut rng = rng_for(seed, if groups { "many-groups" } else { "many" }, set);
        let (base, cand, group_of) = many_units_data(&mut rng, n, groups);
        let unit = groups.then_some((group_of.as_slice(), n));
        let (bounds, _) = run(&base, &cand, unit, method, resamples, set);
        t.add(bounds, MU);
    }
    t
}

/// One data set of `many_units`: baseline, candidate and (groups) each query's group.
pub fn many_units_data(
    rng: &mut ChaCha8Rng,
    n: usize,
    groups: bool,
) -> (Vec<f64>, Vec<f64>, Vec<u32>) {
    let (mut base, mut cand, mut group_of) = (Vec::new(), Vec::new(), Vec::new());
    if groups {
        for k in 0..n {
            let size = 2 + (rng.next_u32() % 9) as usize;
            let u = 0.08 * normal(rng);
            for _ in 0..size {
                let b = uniform(rng);
                base.push(b);
                cand.push(b + grouped_delta(rng, u));
                group_of.push(k as u32);
            }
        }
    } else {
        for _ in 0..n {
            let b = uniform(rng);
            base.push(b);
            cand.push(b + MU + 0.1 * (-uniform(rng).ln() - 1.0));
        }
    }
    (base, cand, group_of)
}

/// Student t with 3 degrees of freedom: N(0, 1) / √(χ²₃ / 3) (variance 3, kurtosis infinite).
fn t3(rng: &mut ChaCha8Rng) -> f64 {
    let chi2: f64 = (0..3).map(|_| normal(rng).powi(2)).sum();
    normal(rng) / (chi2 / 3.0).sqrt()
}

/// The scale of the heavy-tailed deltas: μ + `T3_SCALE`·t₃.
pub const T3_SCALE: f64 = 0.1;

/// (t) n heavy-tailed query deltas with no ties, μ + 0.1·t₃ (the per-query delta of a judge
/// score or a cost mean), query unit: coverage of μ with both one-sided misses. The intervals
/// are translation-equivariant here (no ties), so the low-side miss is also the share of sets
/// `max-drop` passes with the true delta on its margin.
pub fn heavy_tails(seed: u64, sets: usize, n: usize, resamples: usize, route: Route) -> Tally {
    let mut t = Tally::default();
    for set in 0..sets {
        let mut rng = rng_for(seed, &format!("t3-{n}"), set);
        let d: Vec<f64> = (0..n).map(|_| MU + T3_SCALE * t3(&mut rng)).collect();
        t.add(run_route(&d, None, route, resamples, set), MU);
    }
    t
}

/// The true rise of the latency cell, in ms.
pub const LATENCY_RISE: f64 = 2.0;

/// (l) A latency mean (lower is better): query i's baseline latency 50·exp(0.8·Z) ms, its
/// candidate latency the baseline + 2 ms + 0.2·baseline·Z′ (a change whose noise grows with the
/// query's latency: heavy-tailed deltas, no ties), query unit. Coverage of the true rise of
/// 2 ms; the high bound below it is the miss that hides a rise (`max-drop` on a lower-is-better
/// metric reads the high bound).
pub fn latency_mean(seed: u64, sets: usize, n: usize, resamples: usize, route: Route) -> Tally {
    let mut t = Tally::default();
    for set in 0..sets {
        let mut rng = rng_for(seed, &format!("latency-{n}"), set);
        let d: Vec<f64> = (0..n)
            .map(|_| {
                let base = 50.0 * (0.8 * normal(&mut rng)).exp();
                LATENCY_RISE + 0.2 * base * normal(&mut rng)
            })
            .collect();
        t.add(run_route(&d, None, route, resamples, set), LATENCY_RISE);
    }
    t
}

/// (h) A 0/1 metric (hit@1) whose drop on the `max-drop` margin is carried by 8% of n queries:
/// a moved query's delta is −1 with chance 0.5625 and +1 otherwise (0.08·(1 − 2·0.5625) =
/// −0.01), the rest exactly 0. The outcomes for `tally_passes` (through `check`'s rules).
pub fn hit_drop(
    seed: u64,
    sets: usize,
    n: usize,
    resamples: usize,
    route: Route,
) -> Vec<SetOutcome> {
    hit_drop_deltas(seed, sets, n)
        .into_iter()
        .enumerate()
        .map(|(set, d)| SetOutcome {
            n,
            moved: d.iter().filter(|&&v| v != 0.0).count(),
            ci: run_route(&d, None, route, resamples, set),
            truth: -MARGIN,
        })
        .collect()
}

/// The per-query deltas of [`hit_drop`]'s sets, in set order.
pub fn hit_drop_deltas(seed: u64, sets: usize, n: usize) -> Vec<Vec<f64>> {
    (0..sets)
        .map(|set| {
            let mut rng = rng_for(seed, &format!("hit-drop-{n}"), set);
            (0..n)
                .map(|_| match uniform(&mut rng) {
                    u if u < 0.08 * 0.5625 => -1.0,
                    u if u < 0.08 => 1.0,
                    _ => 0.0,
                })
                .collect()
        })
        .collect()
}

/// The `max-drift` budget of the drift cells.
pub const DRIFT_BUDGET: f64 = 0.02;

/// (i) The drift budget, n queries: main − anchor per query is `main_drift` plus right-skewed
/// noise 0.1·(Exp(1) − 1); this change per query is `change` plus 0.05·N(0, 1). The three
/// intervals of the report (candidate − anchor, main − anchor, candidate − main) decide as
/// `check` does (`verdict::drift::decide`); one decision per set.
pub fn drift_sets(
    seed: u64,
    sets: usize,
    n: usize,
    resamples: usize,
    main_drift: f64,
    change: f64,
    route: Route,
) -> Vec<DriftStatus> {
    let mut out = Vec::with_capacity(sets);
    for set in 0..sets {
        let mut rng = rng_for(seed, &format!("drift-{main_drift}-{change}"), set);
        let (mut d_main, mut d_change) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for _ in 0..n {
            d_main.push(main_drift + 0.1 * (-uniform(&mut rng).ln() - 1.0));
            d_change.push(change + 0.05 * normal(&mut rng));
        }
        let d_cand: Vec<f64> = d_main.iter().zip(&d_change).map(|(m, c)| m + c).collect();
        let ci = |d: &[f64]| run_route(d, None, route, resamples, set);
        let (drift, main, own) = (ci(&d_cand), ci(&d_main), ci(&d_change));
        out.push(rag_gate::verdict::drift::decide(
            drift[0] >= -DRIFT_BUDGET,
            main[0] < -DRIFT_BUDGET,
            own[0] >= 0.0,
        ));
    }
    out
}

/// This change's per-query deltas in the drift cells of [`drift_guarantees`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Change {
    /// `mean` + 0.05·N(0, 1) on every query.
    Noise(f64),
    /// A drop of 0.01 on a 0/1 metric (hit@1) carried by `share` of the queries: a moved query
    /// −1 with chance (1 + 0.01/share)/2, else +1; the rest exactly 0.
    Carried(f64),
    /// Identical results: every delta 0 (a no-op).
    Identical,
}

impl Change {
    fn delta(self, rng: &mut ChaCha8Rng) -> f64 {
        match self {
            Change::Noise(mean) => mean + 0.05 * normal(rng),
            Change::Carried(share) => {
                let u = uniform(rng);
                if u < share * (1.0 + 0.01 / share) / 2.0 {
                    -1.0
                } else if u < share {
                    1.0
                } else {
                    0.0
                }
            }
            Change::Identical => 0.0,
        }
    }
}

/// One set of [`drift_guarantees`]: the decision under each guarantee, [regular, distribution-
/// free], by the rule before (a change that moved nothing always inherits) and after
/// (`verdict::drift::not_adding`), and whether no query of the change moved.
#[derive(Debug, Clone, Copy)]
pub struct DriftOutcome {
    pub before: [DriftStatus; 2],
    pub after: [DriftStatus; 2],
    pub untouched: bool,
}

/// (i) The drift budget on a metric in [0, 1], n queries, under both guarantees: main − anchor
/// per query is `main_drift` + 0.1·(Exp(1) − 1), this change per query `change`. The three
/// intervals (candidate − anchor, main − anchor, candidate − baseline) are the report's route;
/// under distribution-free each bound is also at least as far out as the Dirichlet bound with an
/// unseen query at ∓1 (`check` applies it to every gated mean, the change's own comparison too
/// where nothing moved), keyed as `check` keys it (one key for the metric and slice, so the three
/// comparisons share their draws, as in `check`).
pub fn drift_guarantees(
    seed: u64,
    sets: usize,
    n: usize,
    resamples: usize,
    main_drift: f64,
    change: Change,
    route: Route,
) -> Vec<DriftOutcome> {
    use rag_gate::config::Guarantee;
    use rag_gate::verdict::drift::{decide, not_adding};
    let mut out = Vec::with_capacity(sets);
    for set in 0..sets {
        let mut rng = rng_for(seed, &format!("drift-g-{n}-{main_drift}-{change:?}"), set);
        let (mut d_main, mut d_change) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for _ in 0..n {
            d_main.push(main_drift + 0.1 * (-uniform(&mut rng).ln() - 1.0));
            d_change.push(change.delta(&mut rng));
        }
        let d_cand: Vec<f64> = d_main.iter().zip(&d_change).map(|(m, c)| m + c).collect();
        let untouched = d_change.iter().all(|&d| d == 0.0);
        let key = stream_key(set as u64, &["dirichlet", "hit@1", "all"]);
        let lows = |d: &[f64]| {
            let regular = run_route(d, None, route, resamples, set)[0];
            let free = rag_gate::stats::dirichlet_bound::bounds(d, None, 1.0, 0.95, resamples, key)
                .expect("units and a worst loss")[0];
            [regular, regular.min(free)]
        };
        let (drift, main, own) = (lows(&d_cand), lows(&d_main), lows(&d_change));
        let guarantees = [Guarantee::Regular, Guarantee::DistributionFree];
        let by =
            |g: usize, adds: bool| decide(drift[g] >= -DRIFT_BUDGET, main[g] < -DRIFT_BUDGET, adds);
        out.push(DriftOutcome {
            before: [0, 1].map(|g| by(g, own[g] >= 0.0 || untouched)),
            after: [0, 1].map(|g| by(g, not_adding(own[g], untouched, guarantees[g]))),
            untouched,
        });
    }
    out
}

/// A model of repeated per-query deltas (`repeated_values`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Repeated {
    /// A 0/1 metric (hit@k): delta +1 with probability 0.06, −1 with 0.05 (μ = 0.01).
    Hits,
    /// A coarse metric: delta (P − 5)/100 with P ~ Poisson(6) (μ = 0.01, skewed, ~20 values).
    Coarse,
    /// Hits by groups of 2–10 queries sharing u = ±0.02: +1 with 0.06 + u, −1 with 0.05 − u.
    GroupedHits,
    /// The null: +1 and −1 each with probability 0.055 (μ = 0), for the sign-flip p-value.
    NullHits,
}

impl Repeated {
    pub fn name(self) -> &'static str {
        match self {
            Repeated::Hits => "hits (0/1 deltas), queries",
            Repeated::Coarse => "coarse (1/100 steps, skewed), queries",
            Repeated::GroupedHits => "hits by groups of 2–10, groups",
            Repeated::NullHits => "null hits (mu = 0), queries",
        }
    }
    fn mu(self) -> f64 {
        match self {
            Repeated::NullHits => 0.0,
            _ => 0.01,
        }
    }
}

/// Poisson(λ) by Knuth's product method (small λ).
fn poisson_knuth(rng: &mut ChaCha8Rng, lambda: f64) -> u32 {
    let (limit, mut p, mut k) = ((-lambda).exp(), 1.0, 0);
    loop {
        p *= uniform(rng);
        if p <= limit {
            return k;
        }
        k += 1;
    }
}

/// One data set of `repeated_values`: the deltas and (grouped) each query's group and the
/// number of groups.
pub fn repeated_data(
    rng: &mut ChaCha8Rng,
    n: usize,
    model: Repeated,
) -> (Vec<f64>, Vec<u32>, usize) {
    let hit = |rng: &mut ChaCha8Rng, up: f64, down: f64| {
        let u = uniform(rng);
        if u < up {
            1.0
        } else if u < up + down {
            -1.0
        } else {
            0.0
        }
    };
    let (mut d, mut group_of) = (Vec::with_capacity(n), Vec::new());
    match model {
        Repeated::Hits => (0..n).for_each(|_| d.push(hit(rng, 0.06, 0.05))),
        Repeated::NullHits => (0..n).for_each(|_| d.push(hit(rng, 0.055, 0.055))),
        Repeated::Coarse => {
            (0..n).for_each(|_| d.push((f64::from(poisson_knuth(rng, 6.0)) - 5.0) / 100.0))
        }
        Repeated::GroupedHits => {
            for g in 0..n {
                let u = if rng.next_u32() & 1 == 1 { 0.02 } else { -0.02 };
                for _ in 0..2 + (rng.next_u32() % 9) {
                    d.push(hit(rng, 0.06 + u, 0.05 - u));
                    group_of.push(g as u32);
                }
            }
        }
    }
    (d, group_of, n)
}

/// (r) Repeated values at many units (from `stats::poisson::POISSON_FROM` units these resample
/// by distinct value, `stats::bins`): n queries (or n groups) of `model`; coverage of μ with
/// both one-sided misses, and the sign-flip p-value's rejections at 5% (`p_rejects`).
pub fn repeated_values(
    seed: u64,
    sets: usize,
    n: usize,
    model: Repeated,
    resamples: usize,
    method: IntervalMethod,
) -> Tally {
    let mut t = Tally::default();
    for set in 0..sets {
        let mut rng = rng_for(seed, &format!("repeated-{model:?}-{n}"), set);
        let (d, group_of, groups) = repeated_data(&mut rng, n, model);
        let unit = (model == Repeated::GroupedHits).then_some((group_of.as_slice(), groups));
        let base = vec![0.0; d.len()];
        let (bounds, p) = run(&base, &d, unit, method, resamples, set);
        t.add(bounds, model.mu());
        t.p_rejects += usize::from(p < 0.05);
    }
    t
}
