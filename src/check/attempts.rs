//! A re-run adds evidence, it does not replace it: the earlier attempts of the judged commit
//! (from the sticky comment's checked state) become further replicate runs of the candidate,
//! judged with this attempt's by the replicate-aware (crossed) interval, exactly as
//! `--candidate-replicate` files are. Identical results count once: a re-run of a deterministic
//! pipeline (every attempt with the same results) gives the first attempt's report, byte for
//! byte (only the comment's hidden state records the attempt). Results that cannot be paired with this attempt's queries are not pooled, and the report
//! says so. A median or p95 gate reads the attempts' runs stacked (every value of every run:
//! `stats::harrell_davis::pooled_difference`); the summarised attempts, folded into per-query
//! means past the state's cap, are runs to a mean but not to a quantile, and the report says
//! which attempts a quantile read. Each earlier attempt that did not pass spends the level
//! this one is judged at (`stats::spending`): the count goes to the analysis and the report.

use crate::config::Config;
use crate::load::{MetricTable, Rows};
use crate::model::looks::{
    AttemptValues, AttemptsReport, Earlier, EarlierSummary, EarlierVerdict, SummarisedAttempts,
};
use crate::model::Verdict;
use crate::pair::Paired;

/// The earlier attempts as the analysis uses them.
pub struct Pooled {
    /// One table per run of each pooled attempt, aligned with the paired ids: the summarised
    /// attempts' stand-ins (their per-query means, once per run) first.
    pub tables: Vec<MetricTable>,
    /// How many of `tables` stand for summarised attempts.
    pub summarised: usize,
    pub report: Option<AttemptsReport>,
    /// Every earlier attempt had this attempt's very results: the report shows no attempts
    /// (it is the first attempt's) unless what the other rules read differs.
    pub identical: bool,
    pub warnings: Vec<String>,
    /// The earlier attempts of the candidate that did not pass (their verdicts as the signed
    /// state keeps them; 0 when every attempt had these very results), and the runs the state
    /// lost: what this attempt's level is spent by (`stats::spending`).
    pub failed: u32,
}

pub use crate::model::looks::ids_hash;

/// This attempt's candidate results: every candidate run (the paired file and its gate-file
/// replicates), before any earlier attempt is attached.
pub fn own_values(paired: &Paired) -> AttemptValues {
    let metrics = paired
        .metrics
        .iter()
        .map(|(m, p)| {
            let runs = match &paired.replicates {
                Some(r) => r.metrics[m][1].clone(),
                None => vec![p.candidate.clone()],
            };
            (m.clone(), runs)
        })
        .collect();
    AttemptValues {
        ids: ids_hash(&paired.ids),
        metrics,
    }
}

/// Which earlier attempts are pooled with `own` (distinct results that cover the same queries
/// and metrics), their tables, and the report's attempts section (None on a first attempt).
pub fn pool(cfg: &Config, earlier: &Earlier, paired: &Paired, own: &AttemptValues) -> Pooled {
    let mut out = Pooled {
        tables: Vec::new(),
        summarised: 0,
        report: None,
        identical: false,
        warnings: Vec::new(),
        // Runs the state lost count as failing attempts, a first attempt's too.
        failed: earlier.unaccounted,
    };
    let first_attempt = earlier.attempts.is_empty() && earlier.summary.is_none();
    let (Some(commit), false) = (&earlier.commit, first_attempt) else {
        return out;
    };
    let short = commit.get(..7).unwrap_or(commit);
    let mut seen = vec![own.digest()];
    let mut shown = Vec::new();
    let summarised = earlier.summary.as_ref().map(|s| {
        let (results, tables) = summarised(s, (paired, own), &mut seen);
        if results == "lost" && s.runs > 0 {
            out.warnings.push(format!(
                "attempts {}–{} of {short} (summarised): their results cover other queries or \
                 metrics than this attempt's; they are not judged",
                s.first, s.last
            ));
        }
        out.summarised = tables.len();
        out.tables.extend(tables);
        (s, results)
    });
    for a in &earlier.attempts {
        let results = one_attempt(a, (paired, own), (&mut seen, short), &mut out);
        shown.push(EarlierVerdict {
            attempt: a.attempt,
            verdict: a.verdict,
            results: results.into(),
        });
    }
    if let Some((s, "pooled")) = summarised {
        out.warnings.extend(quantiles_unread(cfg, s, short));
    }
    // Every earlier attempt had these very results: a deterministic re-run adds nothing, and
    // its report is the first attempt's.
    let all_identical = summarised.is_none_or(|(_, r)| r == "identical");
    out.identical = all_identical && shown.iter().all(|s| s.results == "identical");
    let folded = summarised
        .filter(|(_, r)| *r == "pooled")
        .map_or(0, |(s, _)| s.distinct);
    let pooled = shown.iter().filter(|s| s.results == "pooled").count();
    let runs = 1 + pooled + folded as usize;
    // Every look that did not pass spends the level; a deterministic re-run adds no look.
    if !out.identical {
        out.failed = out.failed.saturating_add(failed_looks(earlier));
    }
    let confidence = crate::stats::spending::spent_confidence(cfg.bootstrap.confidence, out.failed);
    out.report = Some(AttemptsReport {
        commit: commit.clone(),
        attempt: earlier.attempt.max(1),
        failed_before: out.failed,
        confidence,
        runs,
        earlier: shown,
        summarised: summarised.map(|(s, results)| SummarisedAttempts {
            first: s.first,
            last: s.last,
            verdicts: s.verdicts.clone(),
            runs: if results == "pooled" { s.runs } else { 0 },
            results: results.into(),
        }),
        judged_alone: Vec::new(),
        pooled: Vec::new(),
    });
    out
}

/// The earlier attempts that did not pass, kept and folded alike (their verdicts as the signed
/// state records them).
fn failed_looks(earlier: &Earlier) -> u32 {
    let folded: u32 = earlier.summary.as_ref().map_or(0, |s| {
        s.verdicts
            .iter()
            .filter(|(v, _)| v.as_str() != Verdict::Pass.as_str())
            .map(|(_, n)| *n)
            .sum()
    });
    let kept = earlier
        .attempts
        .iter()
        .filter(|a| a.verdict != Verdict::Pass)
        .count() as u32;
    folded.saturating_add(kept)
}

/// How one earlier attempt is judged ("identical", "lost" or "pooled"); a pooled
/// one's tables go to `out`, and why one is lost to its warnings.
fn one_attempt(
    a: &crate::model::looks::EarlierAttempt,
    (paired, own): (&Paired, &AttemptValues),
    (seen, short): (&mut Vec<String>, &str),
    out: &mut Pooled,
) -> &'static str {
    match &a.values {
        _ if seen.contains(&a.digest) => "identical",
        None => {
            out.warnings.push(format!(
                "attempt {} of {short}: its results were not kept in the sticky comment's \
                 state (too large for the comment, or damaged); it is not judged",
                a.attempt
            ));
            "lost"
        }
        Some(v) if v.ids != own.ids || !same_metrics(v, own, paired.ids.len()) => {
            out.warnings.push(format!(
                "attempt {} of {short}: its results cover other queries or metrics than \
                 this attempt's; it is not judged",
                a.attempt
            ));
            "lost"
        }
        Some(v) => {
            seen.push(a.digest.clone());
            out.tables.extend(tables(v, paired, a.attempt, short));
            "pooled"
        }
    }
}

/// The summarised attempts: how they are judged, and their tables (the per-query means once per
/// run they stand for, so each run weighs as one in the candidate's per-query average). Their
/// digests join `seen`.
fn summarised(
    s: &EarlierSummary,
    (paired, own): (&Paired, &AttemptValues),
    seen: &mut Vec<String>,
) -> (&'static str, Vec<MetricTable>) {
    let Some(m) = &s.means else {
        return ("lost", Vec::new());
    };
    if s.digests.iter().all(|d| seen.contains(d)) && s.distinct == 1 {
        return ("identical", Vec::new());
    }
    if m.ids != own.ids || !same_metrics(m, own, paired.ids.len()) {
        return ("lost", Vec::new());
    }
    seen.extend(
        s.digests
            .iter()
            .filter(|d| !seen.contains(d))
            .cloned()
            .collect::<Vec<_>>(),
    );
    let one = tables(m, paired, s.first, "the summarised attempts");
    let tables = (0..s.runs).flat_map(|_| one.iter().cloned()).collect();
    ("pooled", tables)
}

/// The median and p95 gates, which cannot read the summarised attempts `s` (their per-query
/// means are not runs' values): said, naming the attempts, so nothing is dropped unseen.
fn quantiles_unread(cfg: &Config, s: &EarlierSummary, short: &str) -> Option<String> {
    use crate::stats::statistic::Statistic;
    let gates: Vec<String> = cfg
        .gates
        .iter()
        .filter(|g| g.statistic != Statistic::Mean)
        .map(|g| {
            format!(
                "gate #{} ({} {})",
                g.index,
                crate::safe_text::shown(&g.metric),
                g.statistic.as_str()
            )
        })
        .collect();
    (!gates.is_empty()).then(|| {
        format!(
            "attempts {}–{} of {short} were summarised past the sticky comment's cap (their \
             results kept as per-query means): the mean gates read them, but {} cannot (a \
             quantile of means is not a quantile of runs); they read the runs of the attempts \
             kept in full",
            s.first,
            s.last,
            gates.join(", ")
        )
    })
}

/// The same metrics as `b`, each run one value per paired query (`n`).
fn same_metrics(a: &AttemptValues, b: &AttemptValues, n: usize) -> bool {
    a.metrics.keys().eq(b.metrics.keys())
        && a.metrics
            .values()
            .all(|runs| runs.iter().all(|r| r.len() == n))
}

/// One table per run of an earlier attempt, its rows the paired ids.
fn tables(v: &AttemptValues, paired: &Paired, attempt: u32, short: &str) -> Vec<MetricTable> {
    let mut rows = Rows::default();
    for (i, id) in paired.ids.iter().enumerate() {
        rows.push(id, i + 1, None, Default::default());
    }
    (0..v.runs())
        .map(|r| MetricTable {
            source: format!("attempt {attempt} of {short}"),
            rows: rows.clone(),
            metrics: v
                .metrics
                .iter()
                .map(|(m, runs)| (m.clone(), runs[r].iter().copied().map(Some).collect()))
                .collect(),
            rounded_to: None,
        })
        .collect()
}
