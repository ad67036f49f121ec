//! Intervals inside what the metric allows. A delta of a metric bounded to [0, 1] lies in
//! [−1, +1] (so do a median's and a p95's); an interval from few or extreme queries can reach
//! past it (a t interval on 4 queries: [−1.69, +0.56]). Its bounds are cut to the range, which
//! changes no gate decision: every delta rule's margin is below 1 (`config::gate`), so a bound
//! beyond ±1 and the cut bound fall on the same side of it.

use crate::model::Comparison;

/// Cuts every interval of a [0, 1] metric to [−1, +1]; returns the names of the comparisons
/// whose interval reached past it (`metric on slice`).
pub fn clamp_intervals(comparisons: &mut [Comparison]) -> Vec<String> {
    let mut cut = Vec::new();
    for c in comparisons.iter_mut() {
        if !crate::metric_names::is_bounded(&crate::metric_names::canonical(&c.metric)) {
            continue;
        }
        let [lo, hi] = c.ci;
        // A broken interval (NaN, infinite, inverted) stays as it is: the rules refuse it.
        if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
            continue;
        }
        let clamped = [lo.clamp(-1.0, 1.0), hi.clamp(-1.0, 1.0)];
        if clamped != [lo, hi] {
            c.ci = clamped;
            cut.push(format!("{} on {}", c.name(), c.slice));
        }
    }
    cut
}

/// The note for the report when some interval was cut.
pub fn clamped_note(cut: &[String]) -> Option<String> {
    (!cut.is_empty()).then(|| {
        format!(
            "{} of a metric bounded to [0, 1] reached past [−1, +1], the most its delta can be, and {} cut there: {}",
            crate::numbers::count(cut.len(), "interval", "intervals"),
            if cut.len() == 1 { "is" } else { "are" },
            crate::error::few(cut, 5)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comparison(metric: &str, ci: [f64; 2]) -> Comparison {
        Comparison {
            metric: metric.into(),
            slice: "qtype=when".into(),
            n: 4,
            groups: None,
            effective_groups: None,
            baseline_mean: 0.5,
            candidate_mean: 0.3,
            delta: -0.2,
            ci,
            wins: 1,
            ties: 0,
            losses: 3,
            moved: 4,
            untouched: false,
            within_noise: None,
            value_range: 1.0,
            atom: None,
            se: 0.3,
            df: 3.0,
            statistic: "mean".into(),
            higher_is_better: true,
            baseline_value: 0.5,
            candidate_value: 0.3,
            estimate: -0.2,
            ci_mc_se: [0.0, 0.0],
            resamples_used: 100,
            mc_rerun: false,
            p_value: 0.5,
            p_floor: 0.125,
            mde: 0.9,
            margin: 0.01,
            label: None,
            practical_tie: 0.01,
            practical_wins: 1,
            practical_ties: 0,
            practical_losses: 3,
            worst: Vec::new(),
            judged: None,
            replicates: None,
            stacked_runs: None,
            statistic_in_name: false,
        }
    }

    #[test]
    fn bounded_intervals_are_cut_to_the_range_of_a_delta() {
        let mut cs = vec![
            comparison("ndcg@10", [-1.6886, 0.5605]),
            comparison("recall@100", [-0.2, 0.1]),
            comparison("latency_ms", [-40.0, 12.0]),
            comparison("ndcg@10", [f64::NEG_INFINITY, 0.0]),
            comparison("mrr", [f64::NAN, f64::NAN]),
        ];
        let cut = clamp_intervals(&mut cs);
        assert_eq!(cut, ["ndcg@10 on qtype=when"]);
        assert_eq!(cs[0].ci, [-1.0, 0.5605]);
        assert_eq!(cs[1].ci, [-0.2, 0.1]);
        assert_eq!(cs[2].ci, [-40.0, 12.0]);
        assert_eq!(cs[3].ci[0], f64::NEG_INFINITY);
        assert!(cs[4].ci[0].is_nan());
        let note = clamped_note(&cut).unwrap();
        assert!(
            note.starts_with("1 interval of a metric bounded to [0, 1] reached past [−1, +1]"),
            "{note}"
        );
        assert!(
            note.contains("is cut there: \"ndcg@10 on qtype=when\""),
            "{note}"
        );
        assert!(clamped_note(&[]).is_none());
    }
}
