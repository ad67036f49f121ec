//! Which statistic of the per-query values is compared: the mean (default), the median or the
//! 95th percentile. For a quantile statistic the compared quantity is the difference of that
//! statistic between the two sides, q(candidate) − q(baseline) — not the quantile of the deltas —
//! so `statistic = "p95"` on `latency_ms` compares tail latency (Efron & Tibshirani 1993, ch. 6:
//! any plug-in statistic can be bootstrapped).

use serde::{Deserialize, Serialize};

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

    /// The statistic of one side's values (type-7 quantiles, as `stats::quantile`).
    ///
    /// Panics if `x` is empty.
    pub fn of(self, x: &[f64]) -> f64 {
        match self.level() {
            None => super::describe::mean(x),
            Some(p) => super::quantile::quantile_unsorted(&mut x.to_vec(), p),
        }
    }
}
