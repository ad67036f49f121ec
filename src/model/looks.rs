//! A pull request seen across runs: the attempts of one commit judged together (a re-run adds
//! evidence, it does not replace it) and the history of looks (each pushed commit's verdict and
//! gated estimates). Plain data: the forge layer keeps it in the sticky comment's checked state
//! and hands it to the analysis; the renderers show it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Real, Verdict};

/// One attempt's candidate results, as pooled with the others of its commit: per metric, one
/// value per paired query, in the pairing's query order; `ids` is the SHA-256 of that order.
#[derive(Debug, Clone, PartialEq)]
pub struct AttemptValues {
    pub ids: String,
    /// Metric → each run of the attempt (usually one) → one value per paired query.
    pub metrics: std::collections::BTreeMap<String, Vec<Vec<f64>>>,
}

impl AttemptValues {
    /// SHA-256 of the ids hash, the metric names and every value's bits: equal digests are the
    /// same results.
    pub fn digest(&self) -> String {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        h.update(self.ids.as_bytes());
        for (m, runs) in &self.metrics {
            h.update([0xff]);
            h.update(m.as_bytes());
            for run in runs {
                h.update([0xfe]);
                for v in run {
                    h.update(v.to_bits().to_le_bytes());
                }
            }
        }
        format!("{:x}", h.finalize())
    }

    /// The runs of this attempt, as many as it has.
    pub fn runs(&self) -> usize {
        self.metrics.values().next().map_or(0, Vec::len)
    }
}

/// SHA-256 of query ids, in order (what a [`Series`] or [`AttemptValues`] is aligned with).
pub fn ids_hash<S: AsRef<str>>(ids: impl IntoIterator<Item = S>) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for id in ids {
        h.update(id.as_ref().as_bytes());
        h.update([0]);
    }
    format!("{:x}", h.finalize())
}

/// An earlier attempt of the judged commit, as the comment's state recorded it.
#[derive(Debug, Clone, PartialEq)]
pub struct EarlierAttempt {
    /// 1 for the first check of the commit, 2 for the next, …
    pub attempt: u32,
    /// The verdict that attempt's report gave.
    pub verdict: Verdict,
    /// [`AttemptValues::digest`] of its results.
    pub digest: String,
    /// Its results (None when the state did not keep them: too large for the comment, or the
    /// same as an earlier attempt's).
    pub values: Option<AttemptValues>,
    /// The rules beyond the per-query results ([`AloneRule`]) that failed there, by their
    /// `rule` words.
    pub alone_failed: Vec<String>,
    /// What those rules read in that attempt (bounds, judge labels, run card), as kept.
    pub extra: AttemptExtra,
}

/// One attempt's evidence for a rule the per-query results do not reach, per query: a side's
/// values at a judged bound, the candidate's judged@k, the candidate's values under the
/// judge's labels. `ids` is the SHA-256 of the query ids in order (their own pairing's).
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// The metric the values are of (each value read back is checked as one of it).
    pub metric: String,
    pub ids: String,
    pub values: Vec<f64>,
}

/// What the rules beyond the per-query results read in one attempt: named [`Series`]
/// ("lower baseline ndcg@10", "judged@10", "judge ndcg@10") and the candidate's run card (its
/// gated metrics and curve only).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AttemptExtra {
    pub series: std::collections::BTreeMap<String, Series>,
    pub card: Option<super::RunCard>,
}

/// Where this check stands among the request's runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    /// What the numbers count ("github workflow 77", "gitlab pipelines"): numbers of another
    /// source are never compared.
    pub source: String,
    /// This check's run.
    pub number: u64,
    /// The request's other runs that finished (passed or failed), any order.
    pub finished: Vec<u64>,
}

/// What the analysis is handed about earlier attempts of the commit it judges.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Earlier {
    /// The judged commit (40 hex digits), when known.
    pub commit: Option<String>,
    /// This attempt's number (1 for the first check of the commit; 0 read as 1).
    pub attempt: u32,
    pub attempts: Vec<EarlierAttempt>,
    /// The oldest attempts, folded into sufficient statistics when the state reached its cap.
    pub summary: Option<EarlierSummary>,
    /// Warnings from reading the state (a state that failed its check, a lost attempt).
    pub warnings: Vec<String>,
    /// Runs of the request the forge lists that the state holds no record of (it was removed,
    /// or replaced by an older one): counted as attempts that did not pass.
    pub unaccounted: u32,
}

/// The oldest attempts of a candidate as the state keeps them past its cap: their verdicts
/// counted, their results folded into per-query means (the sufficient statistic of the
/// candidate's pooled runs: the crossed interval averages the candidate's runs per query).
#[derive(Debug, Clone, PartialEq)]
pub struct EarlierSummary {
    /// The first and last attempt folded.
    pub first: u32,
    pub last: u32,
    /// Verdict (as its report said it) → attempts.
    pub verdicts: std::collections::BTreeMap<String, u32>,
    /// Runs the means average (each counts as one run when pooled).
    pub runs: usize,
    /// Distinct results folded (the attempts they came from).
    pub distinct: u32,
    /// The per-query means, one run (None when they were not kept, or failed their checks).
    pub means: Option<AttemptValues>,
    /// Digests of the distinct results folded (the newest ones), so an identical re-run still
    /// counts once.
    pub digests: Vec<String>,
    /// Attempts folded without their results (not kept, or covering other queries).
    pub lost: u32,
    /// The rules beyond the per-query results that failed in any folded attempt.
    pub alone_failed: Vec<String>,
    /// Per [`Series`] name: the folded attempts' values summed per query, and how many.
    pub series_sums: std::collections::BTreeMap<String, (Series, u32)>,
}

impl Earlier {
    /// `own` pooled with the same series of the earlier attempts (those of the same queries in
    /// the same order, identical values counted once; the summarised ones through their sums):
    /// the per-query mean, and the distinct attempts it averages (1: this attempt's alone).
    pub fn pooled(&self, name: &str, own: &Series) -> (Vec<f64>, usize) {
        let n = own.values.len();
        let same = |s: &Series| s.ids == own.ids && s.values.len() == n && s.metric == own.metric;
        let mut sum = own.values.clone();
        let mut count = 1usize;
        // Identical values count once, as identical results do.
        let mut seen: Vec<&[f64]> = vec![&own.values];
        for s in self
            .attempts
            .iter()
            .filter_map(|a| a.extra.series.get(name))
            .filter(|s| same(s))
        {
            if seen.contains(&s.values.as_slice()) {
                continue;
            }
            seen.push(&s.values);
            sum.iter_mut().zip(&s.values).for_each(|(t, x)| *t += x);
            count += 1;
        }
        if let Some((s, k)) = self
            .summary
            .as_ref()
            .and_then(|s| s.series_sums.get(name))
            .filter(|(s, k)| same(s) && *k > 0)
        {
            sum.iter_mut().zip(&s.values).for_each(|(t, x)| *t += x);
            count += *k as usize;
        }
        sum.iter_mut().for_each(|t| *t /= count as f64);
        (sum, count)
    }

    /// The earlier attempts' run cards, oldest first.
    pub fn cards(&self) -> Vec<(u32, &super::RunCard)> {
        self.attempts
            .iter()
            .filter_map(|a| Some((a.attempt, a.extra.card.as_ref()?)))
            .collect()
    }
}

/// How the report's verdict pooled the attempts of one commit (`--comment`: a re-run, or a
/// commit that left the change as it was), its attempts' results pooled as replicates of the
/// candidate from the sticky comment's checked state (absent on a first attempt).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(rename = "attempts")]
pub struct AttemptsReport {
    /// The judged commit.
    pub commit: String,
    /// This attempt's number (1 for the first check of the commit).
    #[schemars(range(min = 1))]
    pub attempt: u32,
    /// The earlier attempts of the candidate that did not pass (0 when all passed, or when
    /// every attempt had these very results).
    pub failed_before: u32,
    /// The two-sided confidence this attempt's `max-drop` / `max-change` rules are judged at:
    /// the configured one, spent by `failed_before` (`stats::spending`).
    #[schemars(range(max = 1), extend("exclusiveMinimum" = 0))]
    pub confidence: f64,
    /// Distinct results the verdict is judged on (identical attempts count once).
    #[schemars(range(min = 1))]
    pub runs: usize,
    /// The attempts before this one, oldest first (past the state's cap, the newest ones; the
    /// older are in `summarised`).
    pub earlier: Vec<EarlierVerdict>,
    /// The oldest attempts, folded into per-query means when the state reached its cap.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "SummarisedAttempts")]
    pub summarised: Option<SummarisedAttempts>,
    /// The rules beyond the per-query results that read this attempt's own inputs alone (no
    /// earlier attempt kept what they read: recorded by an older rag-gate, or lost).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub judged_alone: Vec<AloneRule>,
    /// The rules beyond the per-query results that read the earlier attempts too (what the
    /// comment's state keeps for them), and how.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pooled: Vec<PooledRule>,
}

/// A rule beyond the per-query results judged on the pooled attempts.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(rename = "pooled_rule")]
pub struct PooledRule {
    /// The rule in words, as [`AloneRule::rule`].
    pub rule: String,
    /// The attempts whose evidence it read (this one included).
    #[schemars(range(min = 2))]
    pub attempts: usize,
    /// How: "the per-query bounds averaged over the attempts", "the worst attempt's run card
    /// decides", …
    pub how: String,
    /// It failed (a failing check of the verdict).
    pub failed: bool,
}

/// A rule judged on one attempt's own inputs alone, whatever the attempts pooled: a gate's
/// judged bounds (`[judged]`: the unjudged documents of this attempt's runs), the judge's part
/// of a gate on the judge-corrected delta (`[judge] gate-on = "corrected"`: this attempt's runs
/// against the judge's labels; the human-labelled part reads the pooled runs), a run-level gate
/// (`[efficiency]`: this attempt's run card).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(rename = "alone_rule")]
pub struct AloneRule {
    /// The rule in words: "gate #1 max-drop ndcg@10 on all: its judged bounds (`[judged]`)".
    pub rule: String,
    /// It failed this attempt (a failing check of the verdict).
    pub failed: bool,
    /// What it reads, as the analysis counts pooled attempts: "bounds ndcg@10", "judge
    /// ndcg@10", "card 2".
    #[serde(skip)]
    pub reads: String,
}

/// "gate #2 max-increase query-latency-ms: the run cards (`[efficiency]`)".
pub fn card_rule(r: &crate::model::RunGateResult) -> String {
    format!(
        "gate #{} {} {}: the run cards ([efficiency])",
        r.gate, r.rule, r.metric
    )
}

/// "gate #1 max-drop ndcg@10 on all".
fn gate_words(g: &crate::model::GateResult) -> String {
    format!("gate #{} {} {} on {}", g.gate, g.rule, g.name(), g.slice)
}

impl crate::model::Report {
    /// The rules of this report that read more than the per-query results ([`AloneRule`]), in
    /// gate order: each gate's judged bounds, each gate on the judge-corrected delta, each
    /// run-level gate.
    pub fn rules_beyond_results(&self) -> Vec<AloneRule> {
        use crate::model::NotJudged;
        let corrected = self
            .judge
            .as_ref()
            .is_some_and(|j| j.gate_on == "corrected");
        let mut out = Vec::new();
        for g in self.gates.iter().filter(|g| g.rule != "max-drift") {
            let too_few = g.not_judged == Some(NotJudged::TooFewJudgments);
            if g.judged.is_some() || too_few {
                let unreliable = g.judged.as_ref().is_some_and(|b| b.unreliable);
                out.push(AloneRule {
                    rule: format!("{}: its judged bounds ([judged])", gate_words(g)),
                    failed: (unreliable || too_few) && g.fails_build,
                    reads: format!("bounds {}", g.metric),
                });
            }
            if corrected && g.statistic == "mean" {
                out.push(AloneRule {
                    rule: format!(
                        "{}: the judge's part of its corrected delta ([judge] gate-on = \
                         \"corrected\")",
                        gate_words(g)
                    ),
                    failed: !g.passed && g.fails_build,
                    reads: format!("judge {}", g.metric),
                });
            }
        }
        for r in self.efficiency.iter().flat_map(|e| &e.gates) {
            out.push(AloneRule {
                rule: card_rule(r),
                failed: !r.passed && r.fails_build,
                reads: format!("card {}", r.gate),
            });
        }
        out
    }

    /// The rules of [`Self::rules_beyond_results`] that read this attempt alone: all of them
    /// but those the attempts section lists as pooled.
    pub fn judged_alone(&self) -> Vec<AloneRule> {
        let pooled: Vec<&str> = self
            .attempts
            .iter()
            .flat_map(|a| &a.pooled)
            .map(|p| p.rule.as_str())
            .collect();
        self.rules_beyond_results()
            .into_iter()
            .filter(|r| !pooled.contains(&r.rule.as_str()))
            .collect()
    }
}

/// The report's view of [`EarlierSummary`].
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(rename = "summarised_attempts")]
pub struct SummarisedAttempts {
    #[schemars(range(min = 1))]
    pub first: u32,
    #[schemars(range(min = 1))]
    pub last: u32,
    /// Verdict → attempts.
    pub verdicts: std::collections::BTreeMap<String, u32>,
    /// Runs their means stand for in the pooled verdict (0 when not pooled).
    pub runs: usize,
    /// "pooled", "identical" or "lost", as for an earlier attempt.
    #[schemars(extend("enum" = ["pooled", "identical", "lost", "not-pooled"]))]
    pub results: String,
}

/// An earlier attempt as the report shows it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(rename = "earlier_verdict")]
pub struct EarlierVerdict {
    #[schemars(range(min = 1))]
    pub attempt: u32,
    pub verdict: Verdict,
    /// "pooled" (its results are among the runs judged), "identical" (the same results as a
    /// pooled run: counted once) or "lost" (its results were not kept; not judged).
    #[schemars(extend("enum" = ["pooled", "identical", "lost", "not-pooled"]))]
    pub results: String,
}

/// One gated row of a look: the gate, its metric and slice, the estimate and interval.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema, Deserialize)]
#[schemars(rename = "look_row")]
pub struct LookRow {
    #[schemars(range(min = 1))]
    pub gate: usize,
    pub metric: String,
    pub slice: String,
    #[schemars(with = "Real")]
    pub estimate: f64,
    #[schemars(with = "[Real; 2]")]
    pub ci: [f64; 2],
    pub passed: bool,
}

/// One pushed commit's check: its verdict (over all its attempts) and gated estimates.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema, Deserialize)]
#[schemars(rename = "look")]
pub struct Look {
    pub commit: String,
    /// The distinct attempts recorded for this commit.
    pub attempts: u32,
    pub verdict: Verdict,
    /// Each gated metric × slice: the estimate and interval (candidate − baseline) and whether it
    /// passed.
    pub rows: Vec<LookRow>,
}

/// The pull request's history of looks, oldest first, the current one last (absent with fewer
/// than two looks).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(rename = "looks")]
pub struct LooksReport {
    pub looks: Vec<Look>,
    /// Set when the pull request went from fail to pass by changes within the noise: what
    /// moved, for the reviewer to check for tuning to the evaluation set.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub tuning: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(ids: &str, values: &[f64]) -> Series {
        Series {
            metric: "ndcg@10".into(),
            ids: ids.into(),
            values: values.to_vec(),
        }
    }

    fn attempt(k: u32, s: Series) -> EarlierAttempt {
        EarlierAttempt {
            attempt: k,
            verdict: Verdict::Fail,
            digest: k.to_string(),
            values: None,
            alone_failed: Vec::new(),
            extra: AttemptExtra {
                series: [("judge ndcg@10".to_string(), s)].into(),
                card: None,
            },
        }
    }

    #[test]
    fn pooled_series_average_distinct_attempts_of_the_same_queries() {
        let e = Earlier {
            attempts: vec![
                attempt(1, series("q", &[0.2, 0.4])),
                // The same values as attempt 1: counted once.
                attempt(2, series("q", &[0.2, 0.4])),
                // Other queries: not pooled.
                attempt(3, series("other", &[0.9, 0.9])),
            ],
            ..Default::default()
        };
        let (means, n) = e.pooled("judge ndcg@10", &series("q", &[0.6, 0.8]));
        assert_eq!(n, 2);
        assert!((means[0] - 0.4).abs() < 1e-12 && (means[1] - 0.6).abs() < 1e-12);
        let (alone, n) = e.pooled("lower candidate ndcg@10", &series("q", &[0.6, 0.8]));
        assert_eq!((alone, n), (vec![0.6, 0.8], 1));
    }
}
