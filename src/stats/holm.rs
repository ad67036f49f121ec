//! Holm–Bonferroni step-down adjustment (Holm 1979, "A simple sequentially rejective multiple
//! test procedure", Scand. J. Statist. 6:65): with the m p-values sorted ascending,
//! p̃₍ᵢ₎ = max_{j ≤ i} min(1, (m − j + 1) · p₍ⱼ₎). Rejecting where p̃ < α controls the
//! family-wise error rate at α under any dependence between the tests.

/// Holm-adjusted p-values, in the order of `p`. Ties keep their input order.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]).then(a.cmp(&b)));
    let mut out = vec![0.0; m];
    let mut running = 0.0f64;
    for (j, &i) in order.iter().enumerate() {
        running = running.max(((m - j) as f64 * p[i]).min(1.0));
        out[i] = running;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_worked_example() {
        // p = (0.01, 0.04, 0.03, 0.005), m = 4. Sorted: 0.005·4 = 0.02; 0.01·3 = 0.03;
        // 0.03·2 = 0.06; 0.04·1 = 0.04 → max(0.06, 0.04) = 0.06 (monotone step-down).
        let adj = holm(&[0.01, 0.04, 0.03, 0.005]);
        let want = [0.03, 0.06, 0.06, 0.02];
        for (a, w) in adj.iter().zip(want) {
            assert!((a - w).abs() < 1e-15, "{adj:?}");
        }
        // Capped at 1; a single test is unadjusted; empty family is empty.
        assert_eq!(holm(&[0.6, 0.7]), vec![1.0, 1.0]);
        assert_eq!(holm(&[0.2]), vec![0.2]);
        assert!(holm(&[]).is_empty());
    }
}
