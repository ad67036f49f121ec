//! The baseline's provenance line for the report, and `[baseline]`'s limits applied to it.
//!
//! The line comes from the best source there is: the fetch's record (`rag-gate-baseline.json`),
//! else `[inputs] baseline-commit`, else a `commit` field of the baseline sidecar's ir_metadata
//! (run context), else it says the provenance is unknown and why. Its age counts whole days from
//! the run's date to "today" (`--today` / `RAG_GATE_TODAY`, else the UTC date): the only date in
//! a report.

use std::collections::BTreeMap;
use std::path::Path;

use super::{recorded, Provenance};
use crate::config::{Config, OnMissing};
use crate::error::{Error, Result};
use crate::model::BaselineInfo;
use crate::model::Date;

/// The provenance line and the warnings `[baseline] on-missing = "warn"` turns limits into.
pub struct Assessed {
    pub info: BaselineInfo,
    pub warnings: Vec<String>,
}

/// A fetch recorded that there was no baseline: with `on-missing = "fail"` that is an error
/// naming the record; with `"warn"` the sentence to print (the check does not run).
pub fn missing_baseline(cfg: &Config) -> Result<Option<String>> {
    let Some((path, rec)) = recorded(&cfg.inputs.baseline.path)? else {
        return Ok(None);
    };
    let Some(why) = rec.missing else {
        return Ok(None);
    };
    match cfg.baseline.on_missing {
        OnMissing::Fail => Err(Error::input(
            path.display(),
            0,
            format!(
                "no baseline: {why} ([baseline] on-missing = \"fail\"; set it to \"warn\" to let \
                 the pull request through without a check)"
            ),
        )),
        OnMissing::Warn => Ok(Some(format!(
            "rag-gate {}: not checked: no baseline: {why} ([baseline] on-missing = \"warn\")",
            cfg.id
        ))),
    }
}

/// The baseline's provenance for the report; a limit it breaks (or cannot be checked against)
/// is an error at the gate file's key, or a warning under `on-missing = "warn"`.
/// `context` is the baseline sidecar's run context, when it has one.
pub fn assess(cfg: &Config, context: Option<&BTreeMap<String, String>>) -> Result<Assessed> {
    let info = match recorded(&cfg.inputs.baseline.path)? {
        Some((_, rec)) if rec.found.is_some() => fetched(&rec, cfg.baseline.today),
        _ => not_fetched(cfg, context),
    };
    let mut warnings = Vec::new();
    for problem in limit_problems(cfg, &info) {
        let (msg, span) = problem;
        match cfg.baseline.on_missing {
            OnMissing::Fail => return Err(cfg.error_at(&span, msg)),
            OnMissing::Warn => warnings.push(format!("{msg} (on-missing = \"warn\")")),
        }
    }
    Ok(Assessed { info, warnings })
}

/// From the fetch's record.
fn fetched(rec: &Provenance, today: Option<Date>) -> BaselineInfo {
    let f = rec.found.as_ref().expect("a found record");
    let age = super::date_of(&f.run_date)
        .and_then(Date::parse)
        .zip(today)
        .map(|(run, today)| today.days() - run.days());
    let age_words = match age {
        Some(0) => "from today".to_string(),
        Some(d) if d < 0 => format!("dated {} days after today", -d),
        Some(d) => format!("{} old", crate::numbers::count(d as usize, "day", "days")),
        None => format!(
            "of {}",
            super::date_of(&f.run_date).unwrap_or("an unknown date")
        ),
    };
    let mut behind = match f.commits_behind {
        0 => "at the merge-base".to_string(),
        n => format!(
            "{} behind the merge-base",
            crate::numbers::count(n, "commit", "commits")
        ),
    };
    match rec.merge_base_behind {
        Some(0) => behind.push_str(&format!(
            "; the merge-base is {}'s head",
            crate::safe_text::shown(&rec.branch)
        )),
        Some(n) => behind.push_str(&format!(
            "; {} is {} past the merge-base",
            crate::safe_text::shown(&rec.branch),
            crate::numbers::count(n as usize, "commit", "commits")
        )),
        // Unknown (a record of an older fetch, or GitHub did not say): the fetch said so, and
        // `[baseline] max-behind` refuses it; the line stays as it was.
        None => {}
    }
    BaselineInfo {
        line: format!(
            "{}@{} (run {}, {age_words}, {behind})",
            crate::safe_text::shown(&rec.branch),
            short(&f.commit),
            f.run_id
        ),
        source: "fetch".into(),
        commit: Some(f.commit.clone()),
        branch: Some(rec.branch.clone()),
        workflow: Some(rec.workflow.clone()),
        run_id: Some(f.run_id),
        run_url: f.run_url.clone(),
        run_date: Some(f.run_date.clone()),
        age_days: age,
        commits_behind: Some(f.commits_behind),
        merge_base: Some(rec.merge_base.clone()),
        merge_base_behind: rec.merge_base_behind,
    }
}

/// Without a fetch: the gate file's commit, else the sidecar's, else unknown.
fn not_fetched(cfg: &Config, context: Option<&BTreeMap<String, String>>) -> BaselineInfo {
    let sidecar = context.and_then(|c| {
        c.iter()
            .find(|(k, v)| k.ends_with("commit") && crate::config::is_commit(v))
    });
    let (line, source, commit) = match (&cfg.baseline.commit, sidecar) {
        (Some(c), _) => (
            format!(
                "{} ([inputs] baseline-commit; run and age unknown)",
                short(c)
            ),
            "gate-file",
            Some(c.clone()),
        ),
        (None, Some((key, c))) => (
            format!(
                "{} (the baseline's ir_metadata {}; run and age unknown)",
                short(c),
                crate::safe_text::shown(key)
            ),
            "ir-metadata",
            Some(c.to_ascii_lowercase()),
        ),
        (None, None) => (
            format!(
                "unknown (no {} beside it from `rag-gate baseline fetch`, no [inputs] \
                 baseline-commit)",
                super::FILE_NAME
            ),
            "unknown",
            None,
        ),
    };
    BaselineInfo {
        line,
        source: source.into(),
        commit,
        branch: None,
        workflow: None,
        run_id: None,
        run_url: None,
        run_date: None,
        age_days: None,
        commits_behind: None,
        merge_base: None,
        merge_base_behind: None,
    }
}

type Problem = (String, Option<std::ops::Range<usize>>);

/// Each `[baseline]` limit the baseline breaks, or that its provenance cannot answer.
fn limit_problems(cfg: &Config, info: &BaselineInfo) -> Vec<Problem> {
    let b = &cfg.baseline;
    let redo = match (&info.workflow, &info.branch) {
        (Some(w), Some(br)) => format!(
            "re-run {} on {}",
            crate::safe_text::shown(w),
            crate::safe_text::shown(br)
        ),
        _ => "re-run the base branch's evaluation".to_string(),
    };
    let unknown = |what: &str| {
        format!(
            "the baseline's {what} is unknown (baseline: {}); fetch it with `rag-gate baseline \
             fetch`, which records it",
            info.line
        )
    };
    let mut out = Vec::new();
    if let Some((max, span)) = &b.max_age_days {
        let msg = match (info.age_days, cfg.baseline.today) {
            (Some(age), _) if age > *max as i64 => Some(format!(
                "the baseline {} is {age} days old, more than max-age-days = {max}; {redo} (or raise max-age-days)",
                info.line
            )),
            (Some(_), _) => None,
            (None, _) => Some(unknown("age")),
        };
        out.extend(msg.map(|m| (format!("[baseline] max-age-days: {m}"), span.clone())));
    }
    if let Some((max, span)) = &b.max_commits_behind {
        let msg = match info.commits_behind {
            Some(n) if n as u64 > *max => Some(format!(
                "the baseline {} is {n} commits behind the merge-base, more than \
                 max-commits-behind = {max}; no run of the nearer commits left the artifact: {redo} \
                 (or raise max-commits-behind)",
                info.line
            )),
            Some(_) => None,
            None => Some(unknown("distance from the merge-base")),
        };
        out.extend(msg.map(|m| (format!("[baseline] max-commits-behind: {m}"), span.clone())));
    }
    if let Some((max, span)) = &b.max_behind {
        let msg =
            match (info.merge_base_behind, &info.merge_base) {
                (Some(n), Some(base)) if n > *max => Some(format!(
                "the pull request's merge-base {} is {n} commits behind {} (baseline: {}), more \
                 than max-behind = {max}: the pull request branched from an old commit and would \
                 be judged against that commit's baseline; merge or rebase it onto {} (or raise \
                 max-behind)",
                short(base),
                info.branch.as_deref().map_or("the base branch".into(), crate::safe_text::shown),
                info.line,
                info.branch.as_deref().map_or("the base branch".into(), crate::safe_text::shown),
            )),
                (Some(_), Some(_)) => None,
                _ => Some(unknown("merge-base's distance behind the base branch")),
            };
        out.extend(msg.map(|m| (format!("[baseline] max-behind: {m}"), span.clone())));
    }
    out
}

fn short(sha: &str) -> &str {
    sha.get(..7).unwrap_or(sha)
}

/// The provenance file of `baseline`, when there is one (registered as an input of `check`).
pub fn file_of(baseline: &Path) -> Option<std::path::PathBuf> {
    recorded(baseline).ok().flatten().map(|(p, _)| p)
}
