//! Pure statistics: numbers in, numbers out; no I/O, no clock, no global state.
//!
//! - `bootstrap`: the paired bootstrap of a mean delta (Efron & Tibshirani, *An Introduction to
//!   the Bootstrap*, 1993, ch. 6 and 13), resampling queries or whole groups (the cluster
//!   bootstrap: Davison & Hinkley, *Bootstrap Methods and their Application*, 1997, §3.8).
//! - `quantile`: sample quantiles with linear interpolation (Hyndman & Fan 1996, type 7; numpy's
//!   default) and the percentile interval built from them.
//! - `streams`: reproducible generator keys derived from the seed and a label.
//! - `describe`: means and win/tie/loss counts of paired deltas.

pub mod bootstrap;
pub mod describe;
pub mod quantile;
pub mod streams;
