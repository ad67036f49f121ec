//! Plain-words sentences shared by the Markdown and HTML renderers.

use crate::model::{RankMove, Report};

/// What the header's query count counts: "50 queries paired", or with a quarantine "50 queries
/// paired, 1 quarantined: 49 in the comparisons" (the comparisons' n are the 49).
pub fn paired_count(r: &Report) -> String {
    if let Some(j) = r.judge.as_ref().filter(|j| j.gate_on == "corrected") {
        return format!(
            "{} paired under the judge's labels ({} human-labelled, {} judge-only): the corrected analysis",
            crate::numbers::count(j.queries, "query", "queries"),
            j.labelled_queries,
            j.queries.saturating_sub(j.labelled_queries)
        );
    }
    let paired = crate::numbers::count(r.pairing.paired, "query", "queries");
    let out = r.noise.as_ref().map_or(0, |n| n.quarantined.len());
    let mut unranked = String::new();
    for (side, n) in [
        ("baseline", r.pairing.baseline_unranked),
        ("candidate", r.pairing.candidate_unranked),
    ] {
        if n > 0 {
            unranked.push_str(&format!(" ({n} without a {side} ranking, scored 0)"));
        }
    }
    if out == 0 {
        return format!("{paired} paired{unranked}");
    }
    format!(
        "{paired} paired{unranked}, {out} quarantined: {} in the comparisons",
        r.pairing.paired.saturating_sub(out)
    )
}

/// The interval method as the header names it: the configured resampling method, or with
/// `[judge] gate-on = "corrected"` the prediction-powered t interval the means read (a median
/// or p95 keeps the configured method, which the p-value footnote says).
pub fn method(r: &Report) -> String {
    match r.judge.as_ref().filter(|j| j.gate_on == "corrected") {
        Some(_) => "prediction-powered (PPI++) t".into(),
        None => r.method.clone(),
    }
}

/// What one comparison is: "metric × slice", or "metric × statistic × slice" when a metric is
/// compared under several statistics.
pub fn comparison_unit(r: &Report) -> &'static str {
    if r.comparisons.iter().any(|c| c.statistic_in_name) {
        "metric × statistic × slice"
    } else {
        "metric × slice"
    }
}

/// The test behind the p-values next to it: the paired sign-flip (randomization) test, or with
/// replicate runs the t test on the replicate-aware standard error (`stats::crossed`); both
/// named when the report has both.
pub fn p_test(r: &Report) -> String {
    let crossed = r
        .comparisons
        .iter()
        .filter(|c| c.replicates.is_some())
        .count();
    let sign_flip = format!(
        "two-sided paired sign-flip (randomization) test at the {} unit",
        r.unit
    );
    let t_test = "two-sided t test on the replicate-aware standard error (queries and \
                  run-to-run noise, Welch–Satterthwaite df)";
    if r.judge.as_ref().is_some_and(|j| j.gate_on == "corrected") {
        return format!(
            "normal-theory test of the judge-corrected (prediction-powered) delta for the means; the {sign_flip} for a median or p95"
        );
    }
    let stacked = r.comparisons.iter().any(|c| c.stacked_runs.is_some());
    let main = match crossed {
        0 => sign_flip,
        n if n == r.comparisons.len() => t_test.to_string(),
        _ => format!("{t_test} for the means with replicate runs, else the {sign_flip}"),
    };
    match stacked {
        true => format!(
            "{main}; for a median or p95 on pooled attempts, the t test of its jackknife (or \
             bootstrap) standard error on units − 1 df"
        ),
        false => main,
    }
}

/// How one relevant document moved: "D123 (rel 2): rank 1 → 7", "D9 (rel 1) dropped out of the
/// top 10 (rank 3 → 14)", "D9 (rel 1) dropped out of the top 10 (rank 3 → not retrieved)",
/// "D5 (rel 1) entered the top 10 (rank 15 → 2)".
pub fn rank_move(m: &RankMove) -> String {
    let rank = |r: Option<usize>| r.map_or("not retrieved".to_string(), |r| r.to_string());
    let inside = |r: Option<usize>| r.is_some_and(|r| r <= m.cutoff);
    let (b, c) = (rank(m.baseline_rank), rank(m.candidate_rank));
    match (inside(m.baseline_rank), inside(m.candidate_rank)) {
        (true, false) => format!(
            "{} (rel {}) dropped out of the top {} (rank {b} → {c})",
            m.doc, m.rel, m.cutoff
        ),
        (false, true) => format!(
            "{} (rel {}) entered the top {} (rank {b} → {c})",
            m.doc, m.rel, m.cutoff
        ),
        _ => format!("{} (rel {}): rank {b} → {c}", m.doc, m.rel),
    }
}

/// The header's guarantee and resolution lines: "guarantee regular · resolution on all: a change
/// touching fewer than 8.2% of the 43 queries can hide, at a worst cost of 0.0822 on ndcg@10
/// (margin 0.0500)", and one line per slice where the worst cost exceeds its margin; under
/// `distribution-free` what the same share costs there, which hides nothing. Nothing for a
/// report without gates.
pub fn resolution_lines(r: &Report) -> Vec<String> {
    let bounded = r.guarantee == crate::config::Guarantee::DistributionFree.as_str();
    let mut lines = crate::verdict::resolution::header_lines(&r.resolution, &r.unit, bounded);
    lines.extend(super::probe::header_line(r));
    lines
        .into_iter()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                format!("guarantee {} · {l}", r.guarantee)
            } else {
                l
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(b: Option<usize>, c: Option<usize>) -> String {
        rank_move(&RankMove {
            doc: "D9".into(),
            rel: 2,
            baseline_rank: b,
            candidate_rank: c,
            cutoff: 10,
        })
    }

    #[test]
    fn moves_in_words() {
        assert_eq!(mv(Some(1), Some(7)), "D9 (rel 2): rank 1 → 7");
        assert_eq!(
            mv(Some(3), None),
            "D9 (rel 2) dropped out of the top 10 (rank 3 → not retrieved)"
        );
        assert_eq!(
            mv(Some(3), Some(14)),
            "D9 (rel 2) dropped out of the top 10 (rank 3 → 14)"
        );
        assert_eq!(
            mv(Some(15), Some(2)),
            "D9 (rel 2) entered the top 10 (rank 15 → 2)"
        );
    }
}
