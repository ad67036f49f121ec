//! Pure statistics: numbers in, numbers out; no I/O, no clock, no global state.
//!
//! - `bootstrap`: the paired bootstrap of a mean delta (Efron & Tibshirani, *An Introduction to
//!   the Bootstrap*, 1993, ch. 6 and 13), resampling queries or whole groups (the cluster
//!   bootstrap: Davison & Hinkley, *Bootstrap Methods and their Application*, 1997, §3.8).
//! - `paired_quantile`: the same for a difference of medians or 95th percentiles.
//! - `harrell_davis`: the Harrell–Davis quantile (Harrell & Davis 1982) and the jackknife t
//!   interval of a paired difference of quantiles, the default for median / p95 gates.
//! - `interval`: percentile and BCa intervals (Efron 1987) and their Monte-Carlo error.
//! - `studentized`: the bootstrap-t interval of a mean with a cluster-robust standard error per
//!   resample, from the same draws (Hall 1992; Cameron, Gelbach & Miller 2008).
//! - `poisson`: from 10,000 units, the Poisson bootstrap of means (Hanley & MacGibbon 2006;
//!   Chamandy et al. 2012): one integer weight per unit and resample, read in storage order.
//! - `bins`: from 10,000 units, when values repeat, the Poisson bootstrap and sign-flip test of
//!   means over distinct values: Poisson(count) and Binomial(count, 1/2) per distinct value
//!   (Hanley & MacGibbon 2006's frequency weights), O(distinct values) per resample.
//! - `keyed`: bootstrap weights and sign flips keyed by the unit's id, summed exactly on a
//!   fixed grid, so shards merge (Præstgaard & Wellner 1993; Chamandy et al. 2012).
//! - `spread_columns`: the bootstrap-t's spread columns computed per draw (the same sums as
//!   stored columns, bit for bit, with half the memory traffic or less).
//! - `ties`: the bootstrap-t's partners: per side the widest of it, the Student t bound (Efron
//!   1969) and the tilted score bound, on every sample.
//! - `dirichlet_bound`: the distribution-free bound of a mean with a known worst case (Gaffke
//!   2005; Learned-Miller & Thomas 2019), `[verdict] guarantee = "distribution-free"`.
//! - `clopper_pearson`: the one-sided Clopper–Pearson bound of a binomial share (Clopper &
//!   Pearson 1934): the probe's share of queries whose top k changed.
//! - `rbo`: rank-biased overlap of two rankings, extrapolated (Webber, Moffat & Zobel 2010).
//! - `worst_mean`: the distribution-free upper bound of a mean of worst-case values in [0, 1],
//!   mostly 0 (Gaffke 2005), equal values drawn as one Gamma (Marsaglia & Tsang 2000).
//! - `tilt`: the exponentially tilted score interval of a mean (Efron 1981; DiCiccio & Romano
//!   1990; Wilson 1927 for 0/1 deltas).
//! - `small_sample`: effective number of groups, CR2 standard error and its Bell–McCaffrey
//!   degrees of freedom, the expanded percentile levels (Hesterberg 2015), t quantiles.
//! - `jackknife`: leave-one-unit-out values in O(n), for the BCa acceleration.
//! - `signflip`: the paired randomization test (Fisher 1935; Smucker, Allan & Carterette 2007).
//! - `simd`: AVX2 forms of the engine's inner loops (run-time detected; the same numbers bit for
//!   bit as the portable loops).
//! - `page_rows`: the engine's row tables on 2 MiB pages where the system offers them (fewer
//!   page translations per random draw; the same bytes).
//! - `spending`: the level a re-run after failing attempts of one candidate is judged at (the
//!   error spent over the attempts, Bonferroni over the looks; Lan & DeMets 1983).
//! - `holm`: Holm–Bonferroni adjusted p-values (Holm 1979).
//! - `ppi`: prediction-powered inference of a mean (delta) from judge labels corrected by a few
//!   human labels, PPI++ weighting and the analytic interval (Angelopoulos et al. 2023).
//! - `active_ppi`: the same from an active sample (human labels drawn with recorded, unequal
//!   inclusion probabilities, weighted by their inverse; Zrnic & Candès 2024), and its design.
//! - `power`: minimum detectable effect at 80% power (t quantiles).
//! - `sample_size`: the units a rule needs for a power (Sakai 2016), with the design effect,
//!   the discordance of 0/1 metrics (Connor 1987) and an interval on the units (Bonett 2006).
//! - `expected_power`: the units a rule needs for a power that holds on average over the
//!   pilot's own uncertainty (Julious & Owen 2006), with the interval's skew-aware width at n
//!   (Hall 1992's Edgeworth expansion) and its Student t floor.
//! - `quantile`: sample quantiles with linear interpolation (Hyndman & Fan 1996, type 7; numpy's
//!   default) and the percentile interval built from them.
//! - `statistic`: mean, median or p95.
//! - `streams`: reproducible generator keys derived from the seed and a label.
//! - `describe`: means and win/tie/loss counts of paired deltas.
//! - `crossed`: queries × replicate runs: the pigeonhole bootstrap's run part (Owen 2007) with
//!   variance-component and Satterthwaite corrections.
//! - `welch`: Welch's t interval of a difference of means, of a ratio of means (delta method),
//!   and of a ratio of geometric means on log-measurements (run-level gates on replicate
//!   timings read the first two).
//! - `qps_at_recall`: an ANN sweep's QPS at a target recall, log-linear between the Pareto
//!   frontier's neighbouring points, never extrapolated.

pub mod active_ppi;
pub mod bins;
pub mod bootstrap;
pub mod clopper_pearson;
pub mod columns;
pub mod crossed;
pub mod describe;
pub mod dirichlet_bound;
pub mod expected_power;
pub mod harrell_davis;
pub mod holm;
pub mod interval;
pub mod jackknife;
pub mod order_counts;
pub mod page_rows;
pub mod paired_quantile;
pub mod keyed;
pub mod poisson;
pub mod power;
pub mod ppi;
pub mod quantile;
pub mod rbo;
pub mod sample_size;
pub mod quantile_window;
pub mod signflip;
pub mod simd;
pub mod small_sample;
pub mod spending;
pub mod spread_columns;
pub mod statistic;
pub mod streams;
pub mod studentized;
pub mod ties;
pub mod tilt;
pub mod welch;
pub mod worst_mean;
pub mod qps_at_recall;
