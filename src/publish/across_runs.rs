//! The pull request across runs, from the sticky comment's checked state ([`super::state`]):
//! before the analysis, the earlier attempts of the commit being judged (handed to it as plain
//! data, to be pooled as replicates of the candidate); after it, the next state (this attempt
//! and this look added) and the history of looks the report shows.
//!
//! An attempt is one check of a candidate: GitHub's re-run (`GITHUB_RUN_ATTEMPT`), a new run on
//! the same head SHA, a retried GitLab job, and also a new commit that leaves the pull request's
//! change as it was (an empty commit, an amend of the message, a rebase or a merge of main that
//! touches none of its files): attempts are keyed by the SHA-256 of the change as the forge
//! lists it (each changed file's path, status and content hash), and by the head commit only
//! when the forge cannot list it (said in a warning). A second check in the same CI run (the
//! same run id and attempt, or pipeline and job) replaces its own record instead of adding one.

use crate::model::looks::{
    AttemptExtra, AttemptValues, Earlier, EarlierAttempt, EarlierSummary, LookRow, LooksReport,
    Standing,
};
use crate::model::{Report, Verdict};
use crate::numbers::signed;

use super::state::{Found, Reference, State, StoredAttempt, StoredLook};
use super::{GithubEnv, PublishArgs};

/// Where this check runs: the commit it judges, the CI run, and what the state's check covers.
#[derive(Debug, Clone, Default)]
pub struct Context {
    pub commit: Option<String>,
    /// `RUN_ID/ATTEMPT` on GitHub, `pipeline P job J` on GitLab.
    pub run: Option<String>,
    /// Repository, request and gate key: a state is only good for its own comment.
    pub scope: String,
    pub key: Option<Vec<u8>>,
    /// SHA-256 of the pull request's change as the forge lists it, or why it could not be
    /// listed (attempts are then keyed by the commit).
    pub change: Option<Result<String, String>>,
    /// With a state key: this run among the request's runs by the forge's monotonic count, or
    /// why the forge could not say.
    pub standing: Option<Result<Standing, String>>,
}

/// What the comment said before this check.
#[derive(Debug, Clone, Default)]
pub struct History {
    pub ctx: Context,
    /// The trusted state (None: no comment, no state, or a state that failed its check).
    pub state: Option<State>,
    /// For the report: a state that failed its check.
    pub warnings: Vec<String>,
    /// For stderr only: the comment could not be read (publishing will say why again).
    pub unread: Option<String>,
    /// `--comment-mode on-failure`: a passing run posts nothing, so a missing state says
    /// nothing about a removal.
    pub may_skip: bool,
    /// Runs of the request the forge lists that the state cannot account for (it was removed,
    /// or replaced by an older one): each spends the level as a failing attempt would.
    pub unaccounted: u32,
}

/// Reads this gate's sticky comment (best effort: a failure is a warning, and the check runs
/// on this attempt alone). Only with `--comment`.
pub fn read(args: &PublishArgs, env: &GithubEnv) -> History {
    let key = std::env::var(&args.state_key_env)
        .ok()
        .filter(|k| !k.trim().is_empty())
        .map(|k| k.trim().as_bytes().to_vec());
    let mut h = History {
        may_skip: args.comment_mode == super::CommentWhen::OnFailure,
        ..Default::default()
    };
    match super::post::read_comment(args, env) {
        Ok((ctx, body)) => {
            h.ctx = Context { key, ..ctx };
            let found = body
                .map(|b| super::state::read(&b, &h.ctx.scope, h.ctx.key.as_deref()))
                .unwrap_or(Found::None);
            match found {
                Found::Trusted(mut s) => {
                    super::state::cap(&mut s);
                    h.state = Some(s)
                }
                Found::None => {}
                Found::Ignored(why) => h.warnings.push(format!(
                    "the sticky comment's hidden state was ignored: {why}; earlier attempts \
                     and looks are not counted"
                )),
            }
            if let Some((warning, replayed, lost)) = h.rolled_back() {
                h.warnings.push(warning);
                h.unaccounted = lost;
                if replayed {
                    h.state = None;
                }
            }
        }
        Err(msg) => {
            h.unread = Some(format!(
                "the sticky comment could not be read ({msg}); earlier attempts and looks are \
                 not counted"
            ))
        }
    }
    h
}

impl History {
    /// The change key, when the forge listed the change.
    fn change(&self) -> Option<&String> {
        self.ctx.change.as_ref().and_then(|c| c.as_ref().ok())
    }

    /// The look of this candidate: the one with this change, else (no change listed, or a look
    /// recorded before changes were) the one of this commit.
    fn mine(&self, state: &State) -> Option<usize> {
        let commit = self.ctx.commit.as_ref()?;
        let change = self.change();
        state
            .looks
            .iter()
            .position(|l| change.is_some() && l.change.as_ref() == change)
            .or_else(|| {
                state
                    .looks
                    .iter()
                    .position(|l| &l.commit == commit && (change.is_none() || l.change.is_none()))
            })
    }

    /// With a state key, on GitHub's re-run of a run (`RUN_ID/ATTEMPT`, attempt 2 or more): the
    /// warning when the state holds no earlier attempt of that run, which a re-run always
    /// follows: the state (or the comment) was removed, or replaced by an older one.
    fn vanished(&self) -> Option<(String, u32)> {
        self.ctx.key.as_ref()?;
        let (id, attempt) = self.ctx.run.as_deref()?.split_once('/')?;
        let attempt: u32 = attempt.parse().ok().filter(|&a| a > 1)?;
        let recorded: Vec<u32> = self
            .state
            .iter()
            .flat_map(|s| &s.looks)
            .flat_map(|l| &l.attempts)
            .filter_map(|a| a.run.as_deref()?.split_once('/'))
            .filter(|(r, _)| *r == id)
            .filter_map(|(_, k)| k.parse().ok())
            .collect();
        let missing: Vec<String> = (1..attempt)
            .filter(|k| !recorded.contains(k))
            .map(|k| k.to_string())
            .collect();
        (!missing.is_empty()).then(|| {
            let w = format!(
                "this is attempt {attempt} of CI run {id}, but the sticky comment's signed state \
                 holds no record of its attempt(s) {}: the state or the comment was removed, or \
                 replaced by an older one (or that attempt stopped before it posted); what it \
                 lost is not pooled, and each lost attempt spends the level as a failing one",
                missing.join(", ")
            );
            (w, missing.len() as u32)
        })
    }

    /// With a state key, by the forge's count of the request's runs ([`Standing`]): the warning
    /// when the state went back in time (a run that finished after the one that wrote it; the
    /// state is then a replay, not trusted: `true`) or disappeared (no state, but earlier runs
    /// finished), or when the forge could not say.
    /// Also how many runs the state cannot account for.
    fn rolled_back(&self) -> Option<(String, bool, u32)> {
        self.ctx.key.as_ref()?;
        let standing = match self.ctx.standing.as_ref()? {
            Ok(s) => s,
            Err(why) => {
                let w = format!(
                    "the sticky comment's signed state could not be checked against the \
                     forge's runs ({why}): a state removed, or replaced by an older one, would \
                     go unnoticed"
                );
                return Some((w, false, 0));
            }
        };
        let mut before: Vec<u64> = standing
            .finished
            .iter()
            .copied()
            .filter(|&n| n < standing.number)
            .collect();
        before.sort_unstable();
        before.dedup();
        let (src, now) = (standing.source.as_str(), standing.number);
        match &self.state {
            Some(s) => {
                let r = s
                    .reference
                    .as_ref()
                    .filter(|r| r.source == standing.source)?;
                let newer: Vec<u64> = before.into_iter().filter(|&n| n > r.number).collect();
                (!newer.is_empty()).then(|| {
                    let w = format!(
                        "the sticky comment's signed state was last written by {}, but {} of \
                         this request finished after it (this is {}): the state was replaced \
                         by an older one (or those runs stopped before they posted); it is not \
                         trusted, and this verdict is judged without the request's history (each \
                         run it cannot account for spends the level as a failing attempt)",
                        named(src, &[r.number]),
                        named(src, &newer),
                        named(src, &[now]),
                    );
                    (w, true, newer.len() as u32)
                })
            }
            None if self.warnings.is_empty() && !self.may_skip && !before.is_empty() => {
                let w = format!(
                    "the sticky comment holds no state, but {} of this request finished before \
                     this one ({}): the state or the comment was removed (or those runs stopped \
                     before they posted); this verdict is judged without the request's history \
                     (each of those runs spends the level as a failing attempt)",
                    named(src, &before),
                    named(src, &[now]),
                );
                Some((w, false, before.len() as u32))
            }
            None => None,
        }
    }

    /// The earlier attempts of the judged candidate, for the analysis to pool.
    pub fn earlier(&self) -> Earlier {
        let mut e = Earlier {
            commit: self.ctx.commit.clone(),
            attempt: 1,
            attempts: Vec::new(),
            summary: None,
            warnings: self.warnings.clone(),
            unaccounted: self.unaccounted,
        };
        if let (Some(_), Some(Err(why))) = (&self.ctx.commit, &self.ctx.change) {
            e.warnings.push(format!(
                "attempts are counted per commit: the pull request's changed files could not be \
                 listed ({why}); an empty commit, an amend or a rebase starts a new count"
            ));
        }
        if let Some((w, lost)) = self.vanished() {
            e.warnings.push(w);
            e.unaccounted += lost;
        }
        let look = self
            .state
            .as_ref()
            .and_then(|s| self.mine(s).map(|i| &s.looks[i]));
        let mine = |a: &&StoredAttempt| a.run.is_some() && a.run == self.ctx.run;
        let Some(l) = look else { return e };
        let folded = l.summary.as_ref().map_or(0, |s| s.last);
        e.attempt = match l.attempts.iter().find(mine) {
            Some(a) => a.attempt,
            None => {
                l.attempts
                    .iter()
                    .map(|a| a.attempt)
                    .max()
                    .unwrap_or(0)
                    .max(folded)
                    + 1
            }
        };
        let short = l.commit.get(..7).unwrap_or(&l.commit);
        for a in l.attempts.iter().filter(|a| !mine(a)) {
            let values = a.values().map_err(|why| {
                if a.values.is_some() {
                    e.warnings.push(format!(
                        "attempt {} of {short}: {why}; it is not judged",
                        a.attempt
                    ));
                }
            });
            let named = format!("attempt {} of {short}", a.attempt);
            let (extra, why) = a.extra.as_ref().map(|x| x.read(&named)).unwrap_or_default();
            e.warnings.extend(why);
            e.attempts.push(EarlierAttempt {
                attempt: a.attempt,
                verdict: a.verdict,
                digest: a.digest.clone(),
                values: values.ok(),
                alone_failed: a.alone_failed.clone(),
                extra,
            });
        }
        e.summary = l
            .summary
            .as_ref()
            .map(|s| summary(s, short, &mut e.warnings));
        e
    }

    /// The state after this check: this attempt (its results kept) and this look recorded,
    /// the look moved last (the newest); the results of other looks' attempts dropped. None
    /// without a judged commit.
    pub fn next(
        &self,
        report: &Report,
        attempt: u32,
        (own, extra): (&AttemptValues, &AttemptExtra),
    ) -> Option<State> {
        let commit = self.ctx.commit.clone()?;
        let mut state = self.state.clone().unwrap_or_default();
        if let (Some(_), Some(Ok(s))) = (&self.ctx.key, &self.ctx.standing) {
            let newer = state
                .reference
                .take()
                .filter(|r| r.source == s.source && r.number > s.number);
            state.reference = Some(newer.unwrap_or(Reference {
                source: s.source.clone(),
                number: s.number,
            }));
        }
        let mut look = match self.mine(&state) {
            Some(i) => state.looks.remove(i),
            None => StoredLook {
                commit: commit.clone(),
                change: None,
                verdict: report.verdict,
                rows: Vec::new(),
                attempts: Vec::new(),
                summary: None,
            },
        };
        for l in &mut state.looks {
            for a in &mut l.attempts {
                a.values = None;
                a.extra = None;
            }
        }
        look.commit = commit;
        look.change = self.change().cloned();
        look.verdict = report.verdict;
        look.rows = rows(report);
        look.attempts
            .retain(|a| a.run.is_none() || a.run != self.ctx.run);
        // Results identical to a recorded attempt's add no evidence: the attempt is recorded
        // without them, or (no CI run to tell it apart: a local check) not at all.
        let digest = own.digest();
        let mut record = StoredAttempt::new(attempt, self.ctx.run.clone(), report.verdict, own);
        let kept = extra.card.is_some() || !extra.series.is_empty();
        record.extra = kept.then(|| super::state::StoredExtra::new(extra));
        record.alone_failed = report
            .rules_beyond_results()
            .into_iter()
            .filter(|r| r.failed)
            .map(|r| r.rule)
            .collect();
        let seen = look.attempts.iter().any(|a| a.digest == digest)
            || look
                .summary
                .as_ref()
                .is_some_and(|s| s.digests.contains(&digest));
        if seen {
            record.values = None;
        }
        if !seen || record.run.is_some() {
            look.attempts.push(record);
            look.attempts.sort_by_key(|a| a.attempt);
        }
        state.looks.push(look);
        Some(state)
    }
}

/// A look's summary as the analysis reads it: its means checked as input values (a warning
/// and not pooled when they fail).
fn summary(s: &super::state::Summary, short: &str, warnings: &mut Vec<String>) -> EarlierSummary {
    let means = match s.means() {
        Ok(m) => Some(m),
        Err(why) => {
            if s.runs > 0 {
                warnings.push(format!(
                    "attempts {}–{} of {short} (summarised): {why}; they are not judged",
                    s.first, s.last
                ));
            }
            None
        }
    };
    let mut series_sums = std::collections::BTreeMap::new();
    for (name, sum) in &s.series_sums {
        match sum.means() {
            Ok((means, n)) => {
                series_sums.insert(name.clone(), (means, n));
            }
            Err(why) => warnings.push(format!(
                "attempts {}–{} of {short} (summarised): their {name} values: {why}; not judged",
                s.first, s.last
            )),
        }
    }
    EarlierSummary {
        series_sums,
        first: s.first,
        last: s.last,
        verdicts: s.verdicts.clone(),
        runs: if means.is_some() { s.runs } else { 0 },
        distinct: s.distinct,
        means,
        digests: s.digests.clone(),
        lost: s.lost,
        alone_failed: s.alone_failed.clone(),
    }
}

/// A build let through (pass, untouched or inconclusive) after a failing attempt of the same
/// candidate (nothing the evaluation reads changed between them, whatever the size of the
/// move): the warning that says so.
pub fn flip_warning(earlier: &Earlier, verdict: Verdict) -> Option<String> {
    if verdict == Verdict::Fail {
        return None;
    }
    let mut failed: Vec<String> = earlier
        .attempts
        .iter()
        .filter(|a| a.verdict == Verdict::Fail)
        .map(|a| a.attempt.to_string())
        .collect();
    let folded = earlier
        .summary
        .as_ref()
        .and_then(|s| s.verdicts.get("fail").copied())
        .unwrap_or(0);
    if failed.is_empty() && folded == 0 {
        return None;
    }
    if folded > 0 {
        failed.insert(0, format!("{folded} summarised"));
    }
    let commit = earlier.commit.as_deref().map_or("", short);
    Some(format!(
        "{} after a fail with nothing the evaluation reads changed: {commit} is the same \
         change as its failing attempt(s) {} (re-runs, or commits that left the change as it \
         was); the verdict is judged on the pooled runs of all its attempts, but check that the \
         check was not re-run until it passed",
        verdict.as_str(),
        failed.join(", ")
    ))
}

/// The rules judged on this attempt alone (`Report::judged_alone`: no earlier attempt kept what
/// they read) that hold now but failed in an earlier attempt of the same candidate (nothing the
/// evaluation reads changed between them): one warning each, whatever the verdict and the size
/// of the move.
pub fn alone_flips(earlier: &Earlier, report: &Report) -> Vec<String> {
    let commit = earlier.commit.as_deref().map_or("", short);
    report
        .judged_alone()
        .into_iter()
        .filter(|r| !r.failed)
        .filter_map(|r| {
            let mut failed: Vec<String> = earlier
                .attempts
                .iter()
                .filter(|a| a.alone_failed.contains(&r.rule))
                .map(|a| a.attempt.to_string())
                .collect();
            if let Some(s) = earlier
                .summary
                .as_ref()
                .filter(|s| s.alone_failed.contains(&r.rule))
            {
                failed.insert(0, format!("{}–{} (summarised)", s.first, s.last));
            }
            (!failed.is_empty()).then(|| {
                format!(
                    "{}, judged on the newest attempt alone, failed in attempt(s) {} of {commit} \
                     and holds now with nothing the evaluation reads changed (re-runs, or commits \
                     that left the change as it was): no earlier attempt kept what it reads in \
                     the sticky comment's state (recorded by an older rag-gate, or lost), so it \
                     could not be pooled; check that the check was not re-run until it passed",
                    r.rule,
                    failed.join(", ")
                )
            })
        })
        .collect()
}

/// The gated rows of a report, as a look keeps them.
pub fn rows(report: &Report) -> Vec<LookRow> {
    report
        .gates
        .iter()
        .filter_map(|g| {
            let c = report.comparisons.iter().find(|c| g.is_on(c))?;
            Some(LookRow {
                gate: g.gate,
                metric: g.name(),
                slice: g.slice.clone(),
                estimate: c.estimate,
                ci: c.ci,
                passed: g.passed || !g.fails_build,
            })
        })
        .collect()
}

/// Runs of `source` by number, as the forge names them: "workflow run #41", "workflow runs
/// #43, #44", "pipeline 812"; past five, how many more.
fn named(source: &str, ns: &[u64]) -> String {
    let github = source.starts_with("github");
    let shown: Vec<String> = ns
        .iter()
        .take(5)
        .map(|n| {
            if github {
                format!("#{n}")
            } else {
                n.to_string()
            }
        })
        .collect();
    let noun = match (github, ns.len() > 1) {
        (true, false) => "workflow run",
        (true, true) => "workflow runs",
        (false, false) => "pipeline",
        (false, true) => "pipelines",
    };
    match ns.len() {
        n if n > 5 => format!("{noun} {} and {} more", shown.join(", "), n - 5),
        _ => format!("{noun} {}", shown.join(", ")),
    }
}

fn short(commit: &str) -> &str {
    commit.get(..7).unwrap_or(commit)
}

/// The history of looks for the report (None with fewer than two), and the tuning flag: the
/// newest look passes, the one before failed, and every row that failed moved by less than half
/// its interval's width (a change within the noise).
pub fn looks_report(state: &State) -> Option<LooksReport> {
    if state.looks.len() < 2 {
        return None;
    }
    let looks: Vec<_> = state.looks.iter().map(StoredLook::look).collect();
    let (prev, last) = (&looks[looks.len() - 2], &looks[looks.len() - 1]);
    let tuning = (prev.verdict == Verdict::Fail && last.verdict != Verdict::Fail)
        .then(|| small_moves(prev, last))
        .flatten()
        .map(|moved| {
            format!(
                "this pull request went from fail ({}) to {} ({}) by changes within the \
                 noise: {}; after {} looks, check that the change was not tuned to the \
                 evaluation set",
                short(&prev.commit),
                last.verdict.as_str(),
                short(&last.commit),
                moved.join("; "),
                looks.len()
            )
        });
    Some(LooksReport { looks, tuning })
}

/// The failing rows of `prev` and how each moved in `last`, when every move is within half the
/// failing interval's width; None when one moved more (or is not in `last`).
fn small_moves(
    prev: &crate::model::looks::Look,
    last: &crate::model::looks::Look,
) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for p in prev.rows.iter().filter(|r| !r.passed) {
        let l = last
            .rows
            .iter()
            .find(|l| l.gate == p.gate && l.metric == p.metric && l.slice == p.slice)?;
        let half = (p.ci[1] - p.ci[0]) / 2.0;
        if (l.estimate - p.estimate).abs() > half {
            return None;
        }
        out.push(format!(
            "{} on {} {} → {} (interval half-width {})",
            p.metric,
            p.slice,
            signed(p.estimate),
            signed(l.estimate),
            crate::numbers::plain(half)
        ));
    }
    (!out.is_empty()).then_some(out)
}
