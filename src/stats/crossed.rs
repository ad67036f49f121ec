//! The crossed design queries × runs: each side may be several replicate runs of one commit
//! (index builds that differ run to run), and the interval of the mean delta must carry both parts
//! of that noise, per-query jitter and whole-run shifts.
//!
//! Method: the pigeonhole bootstrap for crossed random effects (Owen 2007, "The pigeonhole
//! bootstrap", Ann. Appl. Stat. 1:386): rows (queries, or groups) and columns (runs, within each
//! side) are resampled independently with replacement. For the mean the resampled statistic is
//! additive, T* = T*_rows + T*_runs (Owen 2007 §3; McCullagh 2000, "Resampling and exchangeable
//! arrays", Bernoulli 6:285, shows no bootstrap is exactly unbiased here), so:
//! - the rows part is the ordinary paired bootstrap of the per-query deltas of replicate means,
//!   c̄ᵢ − b̄ᵢ, with the shared draws of `bootstrap` (its cost does not grow with the replicates);
//! - the runs part draws each side's Rₛ runs with replacement and adds the mean of their
//!   deviations from the side's grand mean (candidate minus baseline), the row × run interaction
//!   held at its sample value.
//!
//! Two corrections, because a bootstrap over 3 or 5 runs is too narrow:
//! - Variance components. The replicate means' sample variance s²ₘ (divisor R − 1) also holds
//!   the jitter averaged over the n queries, already in the rows part. The whole-run shift
//!   variance is the two-way ANOVA estimate without replication, σ̂²ᵣ = max(0, s²ₘ − MSₑ/n), MSₑ
//!   the row × run residual mean square on (n − 1)(R − 1) degrees of freedom (Searle, Casella &
//!   McCulloch 1992, *Variance Components*, §4.2). The run draws are rescaled (Rao & Wu 1988,
//!   "Resampling inference with complex survey data", JASA 83:231: factor √(P/(P − 1)) for P
//!   resampled units) and shrunk to σ̂²ᵣ, so their variance is σ̂²ᵣ/Rₛ.
//! - Degrees of freedom. The total variance V = V_rows + Σ σ̂²ᵣ/Rₛ is a linear combination of
//!   mean squares, V = V_rows + Σₚ kₚ(s²ₘ,ₚ − MSₑ,ₚ/n) (kₚ = Σ 1/Rₛ over the sides drawing from
//!   pool p), and gets Satterthwaite's ν for such a combination (Satterthwaite 1946, Biometrics
//!   Bull. 2:110, eq. 1: ν = V² / Σ (aⱼ·MSⱼ)²/dfⱼ over the mean squares, each at its own df):
//!   ν = V² / (V_rows²/df_rows + Σₚ [(kₚ s²ₘ,ₚ)²/(Rₚ − 1) + (kₚ MSₑ,ₚ/n)²/((n − 1)(Rₚ − 1))]).
//!   The run-mean mean square s²ₘ enters at its own R − 1 degrees of freedom whether or not
//!   σ̂²ᵣ truncated to 0: a truncated σ̂²ᵣ is still a guess from s²ₘ on R − 1 df, so ν does not
//!   jump to the rows' n − 1 when s²ₘ happens to fall below MSₑ/n (with 3 runs that was 17.6% of
//!   the calibration's sets and made its false alarms 10–11%; docs/statistics.md). ν is clamped
//!   to at least 1 (t on less than 1 df is unbounded in practice). The interval's distances from
//!   the estimate are stretched by t_{ν,1−α/2} / z_{1−α/2}; the p-value is the matching t test,
//!   2(1 − F_ν(|θ̂|/√V)).
//!
//! Trusted noise only (docs/hostile.md). The candidate's runs are written by the pull request, so
//! its own spread must not widen the interval (runs shifted apart on purpose would turn a drop
//! into "unclear"): both sides' run parts are drawn from the *baseline's* deviations and rest on
//! the baseline's σ̂²ᵣ and degrees of freedom (the same system one commit apart, as when a side
//! has one run). Without baseline replicates there is no run part and callers use the plain
//! paired bootstrap of the per-query replicate means; `candidate_noisier` flags a candidate
//! whose replicate means spread more than the baseline's (one-sided F test at 1%).
//!
//! Run draws: ChaCha8 with the caller's key, stream 0; per resample the baseline's Rᵦ indices then
//! the candidate's R꜀, each by `bootstrap::bounded` (Lemire). Cost O(B·(Rᵦ + R꜀)) for the draws
//! and O(n·R) for the decomposition. Pure: numbers in, numbers out.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

use super::bootstrap::bounded;
use super::small_sample::t_quantile;

/// One side's replicates on a slice, decomposed.
#[derive(Debug, Clone, PartialEq)]
pub struct SideNoise {
    pub replicates: usize,
    pub queries: usize,
    /// Each replicate's mean minus the mean of the replicate means, in replicate order.
    pub deviations: Vec<f64>,
    /// Sample variance of the replicate means (divisor R − 1); 0 with one replicate.
    pub mean_var: f64,
    /// Row × run residual mean square MSₑ: the per-query jitter variance.
    pub jitter_var: f64,
    /// Whole-run shift variance σ̂²ᵣ = max(0, `mean_var` − `jitter_var`/n).
    pub shift_var: f64,
}

/// Decomposes `runs[r][i]` (query i's value in replicate r; every run the same length ≥ 1).
///
/// Panics if there are no runs or they differ in length.
pub fn side_noise(runs: &[&[f64]]) -> SideNoise {
    assert!(!runs.is_empty(), "a side needs at least one run");
    let n = runs[0].len();
    assert!(
        n > 0 && runs.iter().all(|r| r.len() == n),
        "runs differ in length"
    );
    let r = runs.len();
    // Differences from the first run: the decomposition does not change (it is invariant to a
    // per-query constant), and identical runs give exact zeros.
    let diff = |x: &[f64], i: usize| x[i] - runs[0][i];
    let run_means: Vec<f64> = runs
        .iter()
        .map(|x| (0..n).map(|i| diff(x, i)).sum::<f64>() / n as f64)
        .collect();
    let grand = super::describe::mean(&run_means);
    let deviations: Vec<f64> = run_means.iter().map(|m| m - grand).collect();
    if r < 2 {
        return SideNoise {
            replicates: r,
            queries: n,
            deviations,
            mean_var: 0.0,
            jitter_var: 0.0,
            shift_var: 0.0,
        };
    }
    let mut ss_err = 0.0;
    for i in 0..n {
        let row_mean = runs.iter().map(|x| diff(x, i)).sum::<f64>() / r as f64;
        for (x, d) in runs.iter().zip(&deviations) {
            let e = diff(x, i) - row_mean - d;
            ss_err += e * e;
        }
    }
    let rf = r as f64;
    let nf = n as f64;
    let mean_var = deviations.iter().map(|d| d * d).sum::<f64>() / (rf - 1.0);
    let jitter_var = if n > 1 {
        ss_err / ((nf - 1.0) * (rf - 1.0))
    } else {
        0.0
    };
    let shift_var = (mean_var - jitter_var / nf).max(0.0);
    SideNoise {
        replicates: r,
        queries: n,
        deviations,
        mean_var,
        jitter_var,
        shift_var,
    }
}

impl SideNoise {
    /// The decomposition an A/A noise file recorded (`rag-gate aa`): `run_means.len()` runs of
    /// one commit on `queries` queries, each run's mean, and the row × run residual mean square
    /// MSₑ; s²ₘ and σ̂²ᵣ as [`side_noise`] computes them.
    pub fn recorded(queries: usize, run_means: &[f64], jitter_var: f64) -> SideNoise {
        let r = run_means.len();
        let grand = super::describe::mean(run_means);
        let deviations: Vec<f64> = run_means.iter().map(|m| m - grand).collect();
        let mean_var = if r >= 2 {
            deviations.iter().map(|d| d * d).sum::<f64>() / (r as f64 - 1.0)
        } else {
            0.0
        };
        let shift_var = if r >= 2 && queries > 0 {
            (mean_var - jitter_var / queries as f64).max(0.0)
        } else {
            0.0
        };
        SideNoise {
            replicates: r,
            queries,
            deviations,
            mean_var,
            jitter_var,
            shift_var,
        }
    }

    /// This side's terms of Satterthwaite's denominator when σ̂²ᵣ enters the variance with
    /// coefficient `k`: (k·s²ₘ)²/(R − 1) + (k·MSₑ/n)²/((n − 1)(R − 1)), each mean square at its
    /// own degrees of freedom (0 with one replicate).
    fn satterthwaite_terms(&self, k: f64) -> f64 {
        if self.replicates < 2 {
            return 0.0;
        }
        let df_m = (self.replicates - 1) as f64;
        let mut den = (k * self.mean_var).powi(2) / df_m;
        if self.queries > 1 {
            let df_e = (self.queries - 1) as f64 * df_m;
            den += (k * self.jitter_var / self.queries as f64).powi(2) / df_e;
        }
        den
    }
}

/// How one side's run part is drawn: `draws` indices into `pool`, their mean times `scale`.
#[derive(Debug, Clone, PartialEq)]
struct SideDraw {
    draws: usize,
    pool: Vec<f64>,
    scale: f64,
}

/// The run part of a crossed comparison (baseline, candidate), and what its variance rests on.
#[derive(Debug, Clone, PartialEq)]
pub struct RunPart {
    sides: [SideDraw; 2],
    /// Variance of the run part, Σ σ̂²ᵣ/Rₛ over the sides.
    pub var: f64,
    /// Its terms of Satterthwaite's denominator, Σₚ [(kₚ s²ₘ,ₚ)²/(Rₚ − 1) + (kₚ MSₑ,ₚ/n)²/dfₑ,ₚ]
    /// over the pools (positive whenever a pool's run means spread, even if `var` is 0).
    pub satterthwaite_den: f64,
    /// Replicates of each side (baseline, candidate).
    pub replicates: [usize; 2],
    /// The A/A runs the shift was read from, when it came from a noise file (`from_aa`).
    pub aa_runs: Option<usize>,
}

impl RunPart {
    /// The run part for the two sides' decompositions, from the baseline's (trusted) noise only;
    /// None when the baseline has fewer than two runs.
    pub fn new(base: &SideNoise, cand: &SideNoise) -> Option<RunPart> {
        if base.replicates < 2 {
            return None;
        }
        // Both sides draw from the baseline's pool: the candidate's spread is never used.
        Some(Self::from_pools(base, cand, |_| 0))
    }

    /// The run part when both sides are trusted (an A/A test of main's own runs, `rag-gate aa`):
    /// each side draws from its own replicates, or the other side's when it has one run; None
    /// when neither side has two runs.
    pub fn symmetric(base: &SideNoise, cand: &SideNoise) -> Option<RunPart> {
        if base.replicates < 2 && cand.replicates < 2 {
            return None;
        }
        let counts = [base.replicates, cand.replicates];
        Some(Self::from_pools(base, cand, |side| {
            if counts[side] >= 2 {
                side
            } else {
                1 - side
            }
        }))
    }

    /// The run part when the whole-run shift is known from an A/A noise file (`pool`: main's
    /// own replicate runs, trusted) and the sides have `runs` = [baseline, candidate] runs
    /// each: both sides draw from the A/A runs' deviations, and σ̂²ᵣ enters with coefficient
    /// 1/Rᵦ + 1/R꜀ on the A/A runs' degrees of freedom. None when the A/A file has fewer than
    /// two runs.
    pub fn from_aa(pool: &SideNoise, runs: [usize; 2]) -> Option<RunPart> {
        if pool.replicates < 2 || runs.contains(&0) {
            return None;
        }
        let sides = runs.map(|draws| SideDraw {
            draws,
            pool: pool.deviations.clone(),
            scale: shrink_scale(pool),
        });
        let k = runs.iter().map(|&r| 1.0 / r as f64).sum::<f64>();
        Some(RunPart {
            sides,
            var: k * pool.shift_var,
            satterthwaite_den: pool.satterthwaite_terms(k),
            replicates: runs,
            aa_runs: Some(pool.replicates),
        })
    }

    /// The run part where side s draws from the deviations of side `pool_of(s)`.
    fn from_pools(base: &SideNoise, cand: &SideNoise, pool_of: impl Fn(usize) -> usize) -> RunPart {
        let noise = [base, cand];
        let sides = [0, 1].map(|side| {
            let p = noise[pool_of(side)];
            SideDraw {
                draws: noise[side].replicates,
                pool: p.deviations.clone(),
                scale: shrink_scale(p),
            }
        });
        // Coefficient kₚ = Σ 1/Rₛ of each pool's σ̂²ᵣ (a borrowed pool adds to its owner's).
        let mut k = [0.0; 2];
        for side in [0, 1] {
            k[pool_of(side)] += 1.0 / noise[side].replicates as f64;
        }
        let var: f64 = (0..2).map(|p| k[p] * noise[p].shift_var).sum();
        let satterthwaite_den: f64 = (0..2)
            .filter(|&p| k[p] > 0.0)
            .map(|p| noise[p].satterthwaite_terms(k[p]))
            .sum();
        RunPart {
            sides,
            var,
            satterthwaite_den,
            replicates: [base.replicates, cand.replicates],
            aa_runs: None,
        }
    }

    /// Satterthwaite degrees of freedom of the run part alone, var² / `satterthwaite_den`
    /// (infinite when nothing spreads). Only the tests read it: the interval's ν is the total's
    /// (`correction`).
    #[cfg(test)]
    pub fn df(&self) -> f64 {
        if self.satterthwaite_den > 0.0 {
            self.var * self.var / self.satterthwaite_den
        } else {
            f64::INFINITY
        }
    }

    /// Adds each resample's run part (candidate minus baseline) to `stats`, in resample order.
    pub fn add_draws(&self, stats: &mut [f64], key: [u8; 32]) {
        let mut rng = ChaCha8Rng::from_seed(key);
        for t in stats.iter_mut() {
            for (sign, side) in [-1.0, 1.0].into_iter().zip(&self.sides) {
                let p = side.pool.len() as u32;
                let mut sum = 0.0;
                for _ in 0..side.draws {
                    sum += side.pool[bounded(&mut rng, p) as usize];
                }
                *t += sign * side.scale * sum / side.draws as f64;
            }
        }
    }
}

/// The factor that rescales draws of `p`'s deviations (Rao & Wu's √(P/(P − 1))) and shrinks
/// them to σ̂²ᵣ, so that one draw's variance is σ̂²ᵣ; 0 when the run means do not spread.
fn shrink_scale(p: &SideNoise) -> f64 {
    let pn = p.replicates as f64;
    if p.mean_var > 0.0 {
        (pn / (pn - 1.0) * p.shift_var / p.mean_var).sqrt()
    } else {
        0.0
    }
}

/// True when the candidate's replicate means spread significantly more than the baseline's:
/// s²ₘ(candidate) / s²ₘ(baseline) above the 99th percentile of F(R꜀ − 1, Rᵦ − 1) (a baseline
/// without spread: any candidate spread). Needs two runs on each side.
pub fn candidate_noisier(base: &SideNoise, cand: &SideNoise) -> bool {
    if base.replicates < 2 || cand.replicates < 2 || cand.mean_var <= 0.0 {
        return false;
    }
    if base.mean_var <= 0.0 {
        return true;
    }
    let f = statrs::distribution::FisherSnedecor::new(
        (cand.replicates - 1) as f64,
        (base.replicates - 1) as f64,
    )
    .expect("df >= 1");
    cand.mean_var / base.mean_var > f.inverse_cdf(0.99)
}

/// The small-sample correction of a crossed interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Correction {
    /// Satterthwaite degrees of freedom of the total variance, over its mean squares (≥ 1).
    pub df: f64,
    /// t_{ν,1−α/2} / z_{1−α/2}: how much the interval's distances from the estimate grow.
    pub stretch: f64,
    /// √(V_rows + V_runs).
    pub se: f64,
}

/// The correction for rows variance `rows_var` on `rows_df` degrees of freedom (units − 1) and
/// the run part, at `confidence`.
pub fn correction(rows_var: f64, rows_df: f64, runs: &RunPart, confidence: f64) -> Correction {
    let var = rows_var + runs.var;
    let mut den = runs.satterthwaite_den;
    if rows_var > 0.0 && rows_df > 0.0 {
        den += rows_var * rows_var / rows_df;
    }
    let df = if var > 0.0 && den > 0.0 {
        (var * var / den).max(1.0)
    } else {
        f64::INFINITY
    };
    let p = 1.0 - (1.0 - confidence) / 2.0;
    Correction {
        df,
        stretch: t_quantile(p, df) / t_quantile(p, f64::INFINITY),
        se: var.sqrt(),
    }
}

impl Correction {
    /// Two-sided t-test p-value of `estimate` (1 for a zero estimate with zero variance).
    pub fn p_value(&self, estimate: f64) -> f64 {
        Self::t_p_value(estimate, self.se, self.df)
    }

    /// Two-sided p-value of `estimate` over its standard error `se` on `df` degrees of freedom
    /// (Student t; the normal past 1e7 df); 1 for a zero estimate with zero variance.
    pub fn t_p_value(estimate: f64, se: f64, df: f64) -> f64 {
        if se == 0.0 {
            return if estimate == 0.0 { 1.0 } else { 0.0 };
        }
        let t = (estimate / se).abs();
        let tail = if df.is_finite() && df < 1e7 {
            1.0 - StudentsT::new(0.0, 1.0, df).expect("df > 0").cdf(t)
        } else {
            1.0 - Normal::new(0.0, 1.0).expect("normal").cdf(t)
        };
        (2.0 * tail).min(1.0)
    }

    /// `bound` moved away from `estimate` by the stretch.
    pub fn stretch_bound(&self, estimate: f64, bound: f64) -> f64 {
        estimate + self.stretch * (bound - estimate)
    }
}

/// The two-sided prediction bound for the difference of two fresh single runs of one commit:
/// t_{R−1,(1+c)/2} · √(2 s²ₘ) (a new difference of two runs has variance 2σ²ₘ; s²ₘ on R − 1
/// degrees of freedom). None with fewer than two replicates.
pub fn noise_floor(side: &SideNoise, confidence: f64) -> Option<f64> {
    if side.replicates < 2 {
        return None;
    }
    let df = (side.replicates - 1) as f64;
    Some(t_quantile(1.0 - (1.0 - confidence) / 2.0, df) * (2.0 * side.mean_var).sqrt())
}

/// The `confidence` interval of a standard deviation s on `df` degrees of freedom from the
/// chi-square distribution: [s·√(df/χ²_{1−α/2}), s·√(df/χ²_{α/2})] (normal theory).
pub fn sd_interval(sd: f64, df: f64, confidence: f64) -> [f64; 2] {
    use statrs::distribution::ChiSquared;
    if sd == 0.0 {
        return [0.0, 0.0];
    }
    let chi = ChiSquared::new(df).expect("df > 0");
    // statrs' inverse is NaN in the far lower tail of 1 df; bisect its (accurate) cdf instead.
    let quantile = |p: f64| {
        let (mut lo, mut hi) = (0.0, df + 50.0 * (2.0 * df).sqrt() + 50.0);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if chi.cdf(mid) < p {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        0.5 * (lo + hi)
    };
    let a = 1.0 - confidence;
    [
        sd * (df / quantile(1.0 - a / 2.0)).sqrt(),
        sd * (df / quantile(a / 2.0)).sqrt(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anova_by_hand() {
        // 3 queries × 2 runs: x = [[1,2,3],[2,3,7]]. Run means 2, 4 → deviations −1, +1,
        // s²ₘ = 2. Row means 1.5, 2.5, 5; residuals e = x − row − dev:
        // run 0: 1−1.5+1 = 0.5, 2−2.5+1 = 0.5, 3−5+1 = −1; run 1: −0.5, −0.5, 1.
        // SS = 0.25·4 + 2 = 3, MSₑ = 3 / (2·1) = 1.5; σ̂²ᵣ = 2 − 1.5/3 = 1.5.
        let s = side_noise(&[&[1.0, 2.0, 3.0], &[2.0, 3.0, 7.0]]);
        assert_eq!(s.deviations, vec![-1.0, 1.0]);
        assert!((s.mean_var - 2.0).abs() < 1e-12);
        assert!((s.jitter_var - 1.5).abs() < 1e-12);
        assert!((s.shift_var - 1.5).abs() < 1e-12);
        // Satterthwaite's terms with coefficient k = 1/2 + 1/2 = 1: (1·2)²/1 + (1·1.5/3)²/(2·1)
        // = 4.125; the run part alone is on 1.5²/4.125 ≈ 0.545 df.
        let part = RunPart::new(&s, &s).expect("two runs");
        assert!((part.satterthwaite_den - 4.125).abs() < 1e-12);
        assert!((part.df() - 2.25 / 4.125).abs() < 1e-12);
        // With rows variance 0.5 on 2 df: ν = 2² / (4.125 + 0.125) < 1, clamped to 1.
        assert_eq!(correction(0.5, 2.0, &part, 0.95).df, 1.0);
    }

    #[test]
    fn identical_runs_have_no_noise_and_no_run_part_variance() {
        let x = [0.1, 0.5, 0.9, 0.3];
        let s = side_noise(&[&x, &x, &x]);
        assert_eq!((s.mean_var, s.jitter_var, s.shift_var), (0.0, 0.0, 0.0));
        let part = RunPart::new(&s, &s).expect("three runs");
        assert_eq!(part.var, 0.0);
        let mut stats = vec![0.25; 100];
        part.add_draws(&mut stats, [7; 32]);
        assert!(stats.iter().all(|&t| t == 0.25));
        assert_eq!(noise_floor(&s, 0.95), Some(0.0));
    }

    #[test]
    fn one_run_per_side_has_no_run_part() {
        let s = side_noise(&[&[1.0, 2.0]]);
        assert!(RunPart::new(&s, &s).is_none());
        assert_eq!(noise_floor(&s, 0.95), None);
    }

    /// Pure whole-run shifts (no jitter): the run draws' variance is σ̂²ᵣ(1/Rᵦ + 1/R꜀).
    #[test]
    fn run_draws_have_the_component_variance() {
        let base: Vec<Vec<f64>> = [0.0, 0.3, -0.1, 0.2]
            .iter()
            .map(|s| vec![0.5 + s; 10])
            .collect();
        let cand: Vec<Vec<f64>> = [0.1, -0.2, 0.4].iter().map(|s| vec![0.5 + s; 10]).collect();
        let b = side_noise(&base.iter().map(Vec::as_slice).collect::<Vec<_>>());
        let c = side_noise(&cand.iter().map(Vec::as_slice).collect::<Vec<_>>());
        assert!(b.jitter_var.abs() < 1e-20 && (b.shift_var - b.mean_var).abs() < 1e-15);
        let part = RunPart::new(&b, &c).expect("replicated");
        // Trusted noise only: the baseline's σ̂²ᵣ for both sides, on the baseline's 3 df.
        let want = b.shift_var / 4.0 + b.shift_var / 3.0;
        assert!((part.var - want).abs() < 1e-15);
        let mut stats = vec![0.0; 200_000];
        part.add_draws(&mut stats, [3; 32]);
        let sd = crate::stats::describe::sd(&stats);
        assert!((sd * sd / want - 1.0).abs() < 0.02, "{} vs {want}", sd * sd);
        assert!((part.df() - 3.0).abs() < 1e-9, "{}", part.df());
        // Both sides trusted (an A/A test): each side's own σ̂²ᵣ, Welch–Satterthwaite on 3 and 2 df.
        let part = RunPart::symmetric(&b, &c).expect("replicated");
        let (vb, vc) = (b.shift_var / 4.0, c.shift_var / 3.0);
        assert!((part.var - (vb + vc)).abs() < 1e-15);
        let df = (vb + vc).powi(2) / (vb * vb / 3.0 + vc * vc / 2.0);
        assert!((part.df() - df).abs() < 1e-9);
    }

    /// A candidate whose runs are shifted far apart neither widens the run part nor goes
    /// unnoticed; without baseline replicates there is no run part at all.
    #[test]
    fn candidate_spread_is_flagged_never_used() {
        let b = side_noise(&[&[0.5, 0.5], &[0.52, 0.52], &[0.49, 0.49]]);
        let wide = side_noise(&[&[0.0, 0.0], &[1.0, 1.0], &[0.5, 0.5]]);
        let calm = side_noise(&[&[0.5, 0.5], &[0.51, 0.51], &[0.5, 0.5]]);
        let part = RunPart::new(&b, &wide).unwrap();
        assert_eq!(part.var, RunPart::new(&b, &calm).unwrap().var);
        assert!(candidate_noisier(&b, &wide) && !candidate_noisier(&b, &calm));
        assert!(RunPart::new(&side_noise(&[&[0.5, 0.5]]), &wide).is_none());
        // F(2, 2) at 0.99 is 99 (tables): a ratio of 50 is not flagged.
        let f = statrs::distribution::FisherSnedecor::new(2.0, 2.0).unwrap();
        assert!((f.inverse_cdf(0.99) - 99.0).abs() < 1e-6);
    }

    #[test]
    fn a_single_side_borrows_the_other_sides_variance() {
        let base = side_noise(&[&[0.5, 0.5], &[0.7, 0.7], &[0.6, 0.6]]);
        let cand = side_noise(&[&[0.6, 0.6]]);
        let part = RunPart::new(&base, &cand).expect("baseline replicated");
        // σ̂²ᵣ(1/3 + 1/1), on the baseline's 2 df.
        assert!((part.var - base.shift_var * (1.0 / 3.0 + 1.0)).abs() < 1e-15);
        assert!((part.df() - 2.0).abs() < 1e-9, "{}", part.df());
        let mut stats = vec![0.0; 100_000];
        part.add_draws(&mut stats, [9; 32]);
        let v = crate::stats::describe::sd(&stats).powi(2);
        assert!((v / part.var - 1.0).abs() < 0.03, "{v} vs {}", part.var);
    }

    /// The A/A file's summary rebuilds the decomposition of its runs, and single runs on both
    /// sides draw the whole-run shift from it: variance 2σ̂²ᵣ on the A/A runs' R − 1 df.
    #[test]
    fn an_aa_record_carries_the_shift_into_single_runs() {
        let runs: Vec<Vec<f64>> = [0.0, 0.03, -0.02, 0.01, 0.04]
            .iter()
            .enumerate()
            .map(|(r, s)| {
                (0..8)
                    .map(|i| 0.4 + s + 0.01 * ((i * (r + 2)) % 3) as f64)
                    .collect()
            })
            .collect();
        let full = side_noise(&runs.iter().map(Vec::as_slice).collect::<Vec<_>>());
        let means: Vec<f64> = runs
            .iter()
            .map(|x| crate::stats::describe::mean(x))
            .collect();
        let rec = SideNoise::recorded(8, &means, full.jitter_var);
        assert!((rec.mean_var - full.mean_var).abs() < 1e-15);
        assert!((rec.shift_var - full.shift_var).abs() < 1e-15 && rec.shift_var > 0.0);
        let part = RunPart::from_aa(&rec, [1, 1]).expect("five A/A runs");
        assert!((part.var - 2.0 * rec.shift_var).abs() < 1e-15);
        // Satterthwaite by hand: (2 s²ₘ)²/4 + (2 MSₑ/8)²/(7·4).
        let den = (2.0 * rec.mean_var).powi(2) / 4.0 + (2.0 * rec.jitter_var / 8.0).powi(2) / 28.0;
        assert!((part.df() - part.var * part.var / den).abs() < 1e-9);
        let mut stats = vec![0.0; 100_000];
        part.add_draws(&mut stats, [5; 32]);
        let v = crate::stats::describe::sd(&stats).powi(2);
        assert!((v / part.var - 1.0).abs() < 0.03, "{v} vs {}", part.var);
        // Three candidate runs: σ̂²ᵣ(1 + 1/3).
        let three = RunPart::from_aa(&rec, [1, 3]).unwrap();
        assert!((three.var - rec.shift_var * (4.0 / 3.0)).abs() < 1e-15);
        assert!(RunPart::from_aa(&SideNoise::recorded(8, &[0.4], 0.0), [1, 1]).is_none());
    }

    /// Known answers from calibration/scipy_crossed_df.py (numpy ANOVA, scipy t): V, ν, the t
    /// stretch and the p-value of a 3-run baseline against a 2-run candidate, once with a
    /// positive shift variance and once with one truncated to 0, where s²ₘ still enters ν at its
    /// 2 df (the rows alone would say 5).
    #[test]
    fn satterthwaite_matches_scipy() {
        let cand: [&[f64]; 2] = [
            &[0.55, 0.65, 0.35, 0.83, 0.47, 0.74],
            &[0.52, 0.66, 0.30, 0.85, 0.50, 0.73],
        ];
        let shifted: [&[f64]; 3] = [
            &[0.50, 0.62, 0.31, 0.80, 0.44, 0.70],
            &[0.53, 0.66, 0.33, 0.84, 0.49, 0.71],
            &[0.49, 0.60, 0.27, 0.79, 0.45, 0.66],
        ];
        let truncated_cand: [&[f64]; 2] = [
            &[0.58, 0.60, 0.39, 0.78, 0.49, 0.70],
            &[0.52, 0.68, 0.30, 0.86, 0.42, 0.76],
        ];
        let truncated: [&[f64]; 3] = [
            &[0.50, 0.62, 0.31, 0.80, 0.44, 0.70],
            &[0.51, 0.61, 0.32, 0.79, 0.45, 0.69],
            &[0.49, 0.63, 0.30, 0.81, 0.44, 0.71],
        ];
        // (s²ₘ, MSₑ, σ̂²ᵣ, V_rows, V, ν, stretch, p) as printed by the script.
        type Runs<'a> = &'a [&'a [f64]];
        let cases: [(Runs, Runs, [f64; 8]); 2] = [
            (
                &shifted,
                &cand,
                [
                    0.000_639_814_814_815,
                    0.000_112_222_222_222,
                    0.000_621_111_111_111,
                    1.081_790_123_46e-5,
                    0.000_528_410_493_827,
                    1.963_726_750_64,
                    2.234_591_850_88,
                    0.327_253_022_819,
                ],
            ),
            (
                &truncated,
                &truncated_cand,
                [
                    9.259_259_259_26e-7,
                    0.000_105_555_555_556,
                    0.0,
                    3.104_938_271_6e-5,
                    3.104_938_271_6e-5,
                    4.492_303_430_99,
                    1.357_406_959_6,
                    0.005_566_424_758_72,
                ],
            ),
        ];
        for (base, cand, want) in cases {
            assert_matches_scipy(base, cand, want);
        }
    }

    /// One case of `satterthwaite_matches_scipy`: `want` = (s²ₘ, MSₑ, σ̂²ᵣ, V_rows, V, ν,
    /// stretch, p).
    fn assert_matches_scipy(base: &[&[f64]], cand: &[&[f64]], want: [f64; 8]) {
        let [ms, mse, shift, rows_var, v, nu, stretch, p] = want;
        let close = |got: f64, want: f64| (got - want).abs() <= 1e-9 * want.abs().max(1e-12);
        let (b, c) = (side_noise(base), side_noise(cand));
        assert!(close(b.mean_var, ms), "{} vs {ms}", b.mean_var);
        assert!(close(b.jitter_var, mse), "{} vs {mse}", b.jitter_var);
        assert!(close(b.shift_var, shift), "{} vs {shift}", b.shift_var);
        let deltas: Vec<f64> = (0..6)
            .map(|i| {
                let m =
                    |runs: &[&[f64]]| runs.iter().map(|r| r[i]).sum::<f64>() / runs.len() as f64;
                m(cand) - m(base)
            })
            .collect();
        let rv = crate::stats::describe::sd(&deltas).powi(2) / 6.0;
        assert!(close(rv, rows_var), "{rv} vs {rows_var}");
        let part = RunPart::new(&b, &c).expect("baseline replicated");
        let fix = correction(rv, 5.0, &part, 0.95);
        assert!(close(fix.se * fix.se, v), "{} vs {v}", fix.se * fix.se);
        assert!(close(fix.df, nu), "{} vs {nu}", fix.df);
        assert!(
            (fix.stretch - stretch).abs() < 1e-7,
            "{} vs {stretch}",
            fix.stretch
        );
        let theta = crate::stats::describe::mean(&deltas);
        assert!(
            (fix.p_value(theta) - p).abs() < 1e-7,
            "{} vs {p}",
            fix.p_value(theta)
        );
    }

    #[test]
    fn correction_matches_t_tables() {
        // Only a run part on 4 df: t_{4, 0.975} = 2.776445 (tables), z = 1.959964.
        let part = RunPart {
            sides: [
                SideDraw {
                    draws: 1,
                    pool: vec![0.0],
                    scale: 0.0,
                },
                SideDraw {
                    draws: 1,
                    pool: vec![0.0],
                    scale: 0.0,
                },
            ],
            var: 1.0,
            // 1²/4: a run part on 4 df.
            satterthwaite_den: 0.25,
            replicates: [5, 5],
            aa_runs: None,
        };
        let c = correction(0.0, 99.0, &part, 0.95);
        assert!((c.df - 4.0).abs() < 1e-12);
        assert!((c.stretch - 2.776_445 / 1.959_964).abs() < 1e-5);
        // t = 2.776445 on 4 df is the two-sided 5% point.
        assert!((c.p_value(2.776_445) - 0.05).abs() < 1e-5);
        assert_eq!(c.stretch_bound(1.0, 2.0), 1.0 + c.stretch);
        // Two equal components on 4 and ∞ df: ν = 4 / (1/4) = 16.
        let c = correction(1.0, f64::INFINITY, &part, 0.95);
        assert!((c.df - 16.0).abs() < 1e-9, "{}", c.df);
    }

    #[test]
    fn noise_floor_and_sd_interval_by_hand() {
        // Run means 0.50, 0.52: s²ₘ = 0.0002; t_{1, 0.975} = 12.7062 → 12.7062·√0.0004.
        let s = side_noise(&[&[0.5, 0.5], &[0.52, 0.52]]);
        let f = noise_floor(&s, 0.95).expect("two runs");
        assert!((f - 12.706_205 * 0.02).abs() < 1e-6, "{f}");
        // χ²₄: 0.484419 and 11.143287 (tables).
        let [lo, hi] = sd_interval(1.0, 4.0, 0.95);
        assert!((lo - (4.0f64 / 11.143_287).sqrt()).abs() < 1e-5);
        assert!((hi - (4.0f64 / 0.484_419).sqrt()).abs() < 1e-5);
        // χ²₁: 0.000982069 and 5.023886 (tables).
        let [lo, hi] = sd_interval(1.0, 1.0, 0.95);
        assert!((lo - (1.0f64 / 5.023_886).sqrt()).abs() < 1e-5, "{lo}");
        assert!(
            (hi / (1.0f64 / 0.000_982_069).sqrt() - 1.0).abs() < 1e-4,
            "{hi}"
        );
        assert_eq!(sd_interval(0.0, 1.0, 0.95), [0.0, 0.0]);
    }

    /// Monte Carlo: normal whole-run shifts and jitter; the chi-square interval of the run-mean
    /// standard deviation covers its true value √(σ²ᵣ + σ²ₑ/n) about 95% of the time.
    #[test]
    fn run_sd_interval_covers_about_95_percent() {
        use rand::RngCore;
        let mut rng = ChaCha8Rng::from_seed([11; 32]);
        let mut normal = || {
            let u = (f64::from(rng.next_u32()) + 0.5) / 4_294_967_296.0;
            let v = (f64::from(rng.next_u32()) + 0.5) / 4_294_967_296.0;
            (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
        };
        let (n, r, sets) = (50, 5, 1000);
        let truth = (0.01f64.powi(2) + 0.05f64.powi(2) / n as f64).sqrt();
        let mut covered = 0;
        for _ in 0..sets {
            let runs: Vec<Vec<f64>> = (0..r)
                .map(|_| {
                    let shift = 0.01 * normal();
                    (0..n)
                        .map(|i| i as f64 / 50.0 + shift + 0.05 * normal())
                        .collect()
                })
                .collect();
            let s = side_noise(&runs.iter().map(Vec::as_slice).collect::<Vec<_>>());
            let [lo, hi] = sd_interval(s.mean_var.sqrt(), (r - 1) as f64, 0.95);
            covered += usize::from(lo <= truth && truth <= hi);
        }
        let rate = covered as f64 / sets as f64;
        assert!((0.93..=0.97).contains(&rate), "coverage {rate}");
    }
}
