//! Which statistic of the per-query values is compared: the mean (default), the median or the
//! 95th percentile. For a quantile statistic the compared quantity is the difference of that
//! statistic between the two sides, q(candidate) − q(baseline) — not the quantile of the deltas —
//! so `statistic = "p95"` on `latency_ms` compares tail latency (Efron & Tibshirani 1993, ch. 6:
//! any plug-in statistic can be bootstrapped).
//!
//! A quantile is estimated as its interval route reads it (`QuantileEstimator`): the
//! Harrell–Davis quantile under the default route (its jackknife t interval, `harrell_davis`),
//! type 7 (numpy's default) under `percentile` and `bca` (the bootstrap of the type 7 difference).

use serde::{Deserialize, Serialize};

use super::interval::IntervalMethod;

/// How a quantile statistic is estimated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuantileEstimator {
    /// Harrell & Davis (1982): every order statistic, weighted (`harrell_davis`).
    HarrellDavis,
    /// Linear interpolation between two order statistics (Hyndman & Fan 1996, type 7).
    Type7,
}

impl QuantileEstimator {
    /// The estimator the interval `method` reads: type 7 for the bootstrap intervals of a
    /// quantile (percentile, BCa), Harrell–Davis for the others (its jackknife t interval).
    pub fn for_method(method: IntervalMethod) -> QuantileEstimator {
        match method {
            IntervalMethod::Percentile | IntervalMethod::Bca => QuantileEstimator::Type7,
            IntervalMethod::BootstrapT | IntervalMethod::ExpandedPercentile => {
                QuantileEstimator::HarrellDavis
            }
        }
    }
}

/// Ordered mean, median, p95: the order a metric's comparisons appear in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Statistic {
    #[default]
    Mean,
    Median,
    P95,
}

impl Statistic {
    pub fn as_str(self) -> &'static str {
        match self {
            Statistic::Mean => "mean",
            Statistic::Median => "median",
            Statistic::P95 => "p95",
        }
    }

    /// The quantile level of a quantile statistic; None for the mean.
    pub fn level(self) -> Option<f64> {
        match self {
            Statistic::Mean => None,
            Statistic::Median => Some(0.5),
            Statistic::P95 => Some(0.95),
        }
    }
}
