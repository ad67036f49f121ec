//! An ANN sweep's throughput at a target recall. The sweep's points (recall, QPS) are first cut
//! to their Pareto frontier — the points no other point beats on both recall and QPS, as
//! ann-benchmarks plots them (Aumüller, Bernhardsson & Faithfull 2020, "ANN-Benchmarks",
//! Information Systems 87:101374) — so recall rises and QPS falls along it. The target is read
//! between the two neighbouring frontier points, log-linearly: ln QPS is linear in recall,
//!
//!   QPS(r) = exp(ln q₁ + (r − r₁)/(r₂ − r₁) · (ln q₂ − ln q₁)),  r₁ ≤ r ≤ r₂,
//!
//! since QPS falls by roughly constant factors per recall step in such sweeps. A target outside
//! the frontier's recall range is never extrapolated: the answer says which end it lies beyond.
//!
//! Pure, O(n log n).

/// The reading at a target, or why there is none.
#[derive(Debug, Clone, PartialEq)]
pub enum Reading {
    /// The interpolated QPS, and the two frontier points it lies between (equal at a point).
    Qps { qps: f64, between: [(f64, f64); 2] },
    /// No points at all.
    NoPoints,
    /// Below the lowest recall on the frontier, or above the highest: (lowest, highest).
    Outside { low: f64, high: f64 },
}

/// The Pareto frontier of (recall, qps) points, recall ascending (and QPS descending).
pub fn frontier(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut p = points.to_vec();
    // Highest recall first, the higher QPS first among equal recalls.
    p.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.total_cmp(&a.1)));
    let mut out: Vec<(f64, f64)> = Vec::new();
    for (r, q) in p {
        if out.last().is_none_or(|&(_, best)| q > best) {
            out.push((r, q));
        }
    }
    out.reverse();
    out
}

/// QPS at recall `target`, log-linear between the frontier's neighbouring points.
pub fn qps_at(points: &[(f64, f64)], target: f64) -> Reading {
    let f = frontier(points);
    let (Some(&first), Some(&last)) = (f.first(), f.last()) else {
        return Reading::NoPoints;
    };
    if target < first.0 || target > last.0 {
        return Reading::Outside {
            low: first.0,
            high: last.0,
        };
    }
    if let Some(&p) = f.iter().find(|p| p.0 == target) {
        return Reading::Qps {
            qps: p.1,
            between: [p, p],
        };
    }
    let i = f
        .iter()
        .position(|p| p.0 > target)
        .expect("inside the range");
    let (a, b) = (f[i - 1], f[i]);
    let t = (target - a.0) / (b.0 - a.0);
    Reading::Qps {
        qps: (a.1.ln() + t * (b.1.ln() - a.1.ln())).exp(),
        between: [a, b],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dominated_points_leave_the_frontier() {
        let f = frontier(&[(0.9, 100.0), (0.8, 50.0), (0.95, 40.0), (0.7, 200.0)]);
        assert_eq!(f, vec![(0.7, 200.0), (0.9, 100.0), (0.95, 40.0)]);
    }

    #[test]
    fn halfway_in_recall_is_the_geometric_mean_in_qps() {
        let Reading::Qps { qps, between } = qps_at(&[(0.9, 400.0), (0.96, 100.0)], 0.93) else {
            panic!("inside")
        };
        assert!((qps - 200.0).abs() < 1e-9, "{qps}");
        assert_eq!(between, [(0.9, 400.0), (0.96, 100.0)]);
    }

    #[test]
    fn never_extrapolated() {
        let p = [(0.9, 400.0), (0.96, 100.0)];
        assert_eq!(
            qps_at(&p, 0.97),
            Reading::Outside {
                low: 0.9,
                high: 0.96
            }
        );
        assert_eq!(
            qps_at(&p, 0.5),
            Reading::Outside {
                low: 0.9,
                high: 0.96
            }
        );
        assert_eq!(qps_at(&[], 0.5), Reading::NoPoints);
        assert!(matches!(qps_at(&p, 0.96), Reading::Qps { qps, .. } if qps == 100.0));
    }
}
