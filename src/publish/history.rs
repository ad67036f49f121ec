//! The pull request across runs, from the sticky comment's checked state ([`super::state`]):
//! before the analysis, the earlier attempts of the commit being judged (handed to it as plain
//! data, to be pooled as replicates of the candidate); after it, the next state (this attempt
//! and this look added) and the history of looks the report shows.
//!
//! An attempt is one check of a commit: GitHub's re-run (`GITHUB_RUN_ATTEMPT`), a new run on the
//! same head SHA, a retried GitLab job. A second check in the same CI run (the same run id and
//! attempt, or pipeline and job) replaces its own record instead of adding one.

use crate::model::looks::{AttemptValues, Earlier, EarlierAttempt, LookRow, LooksReport};
use crate::model::{Report, Verdict};
use crate::numbers::signed;

use super::state::{Found, State, StoredAttempt, StoredLook};
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
}

/// Reads this gate's sticky comment (best effort: a failure is a warning, and the check runs
/// on this attempt alone). Only with `--comment`.
pub fn read(args: &PublishArgs, env: &GithubEnv) -> History {
    let key = std::env::var(&args.state_key_env)
        .ok()
        .filter(|k| !k.trim().is_empty())
        .map(|k| k.trim().as_bytes().to_vec());
    let mut h = History::default();
    match super::post::read_comment(args, env) {
        Ok((ctx, body)) => {
            h.ctx = Context { key, ..ctx };
            let found = body
                .map(|b| super::state::read(&b, &h.ctx.scope, h.ctx.key.as_deref()))
                .unwrap_or(Found::None);
            match found {
                Found::Trusted(s) => h.state = Some(s),
                Found::None => {}
                Found::Ignored(why) => h.warnings.push(format!(
                    "the sticky comment's hidden state was ignored: {why}; earlier attempts \
                     and looks are not counted"
                )),
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
    /// The earlier attempts of the judged commit, for the analysis to pool.
    pub fn earlier(&self) -> Earlier {
        let mut e = Earlier {
            commit: self.ctx.commit.clone(),
            attempt: 1,
            attempts: Vec::new(),
            warnings: self.warnings.clone(),
        };
        let Some(commit) = &self.ctx.commit else {
            return e;
        };
        let look = self
            .state
            .iter()
            .flat_map(|s| &s.looks)
            .find(|l| &l.commit == commit);
        let mine = |a: &&StoredAttempt| a.run.is_some() && a.run == self.ctx.run;
        if let Some(l) = look {
            e.attempt = match l.attempts.iter().find(mine) {
                Some(a) => a.attempt,
                None => l.attempts.iter().map(|a| a.attempt).max().unwrap_or(0) + 1,
            };
            e.attempts = l
                .attempts
                .iter()
                .filter(|a| !mine(a))
                .map(|a| EarlierAttempt {
                    attempt: a.attempt,
                    verdict: a.verdict,
                    digest: a.digest.clone(),
                    values: a.values(),
                })
                .collect();
        }
        e
    }

    /// The state after this check: this attempt (its results kept) and this look recorded; the
    /// results of other commits' attempts dropped. None without a judged commit.
    pub fn next(&self, report: &Report, attempt: u32, own: &AttemptValues) -> Option<State> {
        let commit = self.ctx.commit.clone()?;
        let mut state = self.state.clone().unwrap_or_default();
        for l in state.looks.iter_mut().filter(|l| l.commit != commit) {
            for a in &mut l.attempts {
                a.values = None;
            }
        }
        let at = match state.looks.iter().position(|l| l.commit == commit) {
            Some(i) => i,
            None => {
                state.looks.push(StoredLook {
                    commit: commit.clone(),
                    verdict: report.verdict,
                    rows: Vec::new(),
                    attempts: Vec::new(),
                });
                state.looks.len() - 1
            }
        };
        let look = &mut state.looks[at];
        look.verdict = report.verdict;
        look.rows = rows(report);
        look.attempts
            .retain(|a| a.run.is_none() || a.run != self.ctx.run);
        // Results identical to a recorded attempt's add no evidence: the attempt is recorded
        // without them, or (no CI run to tell it apart: a local check) not at all.
        let digest = own.digest();
        let mut record = StoredAttempt::new(attempt, self.ctx.run.clone(), report.verdict, own);
        if look.attempts.iter().any(|a| a.digest == digest) {
            record.values = None;
            if record.run.is_none() {
                return Some(state);
            }
        }
        look.attempts.push(record);
        look.attempts.sort_by_key(|a| a.attempt);
        Some(state)
    }
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
    let tuning = (prev.verdict == Verdict::Fail && last.verdict == Verdict::Pass)
        .then(|| small_moves(prev, last))
        .flatten()
        .map(|moved| {
            format!(
                "this pull request went from fail ({}) to pass ({}) by changes within the \
                 noise: {}; after {} looks, check that the change was not tuned to the \
                 evaluation set",
                short(&prev.commit),
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
