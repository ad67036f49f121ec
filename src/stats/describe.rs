//! Descriptive statistics of paired samples: means, and win/tie/loss counts where a delta with
//! |candidate − baseline| ≤ ε is a tie.

/// Arithmetic mean; NaN for an empty slice.
pub fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

/// Sample standard deviation (n − 1 denominator); 0 for fewer than two values.
pub fn sd(x: &[f64]) -> f64 {
    if x.len() < 2 {
        return 0.0;
    }
    let m = mean(x);
    (x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (x.len() - 1) as f64).sqrt()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WinTieLoss {
    pub wins: usize,
    pub ties: usize,
    pub losses: usize,
}

/// Counts deltas above ε (wins), below −ε (losses) and the rest (ties).
pub fn win_tie_loss(deltas: &[f64], eps: f64) -> WinTieLoss {
    let mut w = WinTieLoss::default();
    for &d in deltas {
        if d > eps {
            w.wins += 1;
        } else if d < -eps {
            w.losses += 1;
        } else {
            w.ties += 1;
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_moments() {
        let d = [0.5, -0.25, 0.0, 1e-12, -1e-12, -0.1];
        assert_eq!(
            win_tie_loss(&d, 1e-9),
            WinTieLoss {
                wins: 1,
                ties: 3,
                losses: 2
            }
        );
        assert!((mean(&[1.0, 2.0, 3.0, 4.0]) - 2.5).abs() < 1e-15);
        // sd of 1..4 = sqrt(5/3)
        assert!((sd(&[1.0, 2.0, 3.0, 4.0]) - (5.0f64 / 3.0).sqrt()).abs() < 1e-15);
    }
}
