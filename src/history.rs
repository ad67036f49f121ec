//! The commands of the gate across time:
//! - `rag-gate ledger record GATE --results FILE [--parent FILE]`: on main, after the evaluation,
//!   appends this run to the ledger carried forward from the parent's stored results (its delta
//!   against the parent and against the anchor, with intervals, per `max-drift` gate and slice)
//!   and writes `FILE.ledger.json`, which travels with the results in the baseline artifact.
//! - `rag-gate anchor write --from FILE --to ANCHOR`: a new anchor from main's stored results,
//!   with its fingerprint and a record (`ANCHOR.anchor.json`: hash, commit, the ledger's final
//!   state). Moving the anchor is a commit a reviewer sees; an existing anchor is never replaced
//!   without `--replace`.

use std::path::Path;

use crate::check::anchor::drift_config;
use crate::cli::{AnchorWriteArgs, LedgerRecordArgs};
use crate::config::{self, Config, InputKind, InputSpec};
use crate::error::{Error, Result};
use crate::load::history::{self as files, LedgerRead};
use crate::model::history::{
    AnchorRecord, Interval, Ledger, LedgerAnchor, LedgerDelta, LedgerEntry, ANCHOR_FORMAT,
    LEDGER_FORMAT,
};
use crate::outcome::Outcome;

/// The pull request a merge commit's message names: "Merge pull request #812 from …" (a merge
/// commit) or a first line ending "(#812)" (a squash merge).
pub fn pr_from_message(message: &str) -> Option<u64> {
    let first = message.lines().next().unwrap_or("").trim();
    let digits = |s: &str| -> Option<u64> {
        let d: String = s.chars().take_while(char::is_ascii_digit).collect();
        (!d.is_empty()).then(|| d.parse().ok()).flatten()
    };
    if let Some(rest) = first.strip_prefix("Merge pull request #") {
        return digits(rest);
    }
    // GitLab's merge commit ends its message with "See merge request group/project!801".
    let see = message
        .lines()
        .rev()
        .map(str::trim)
        .find_map(|l| l.strip_prefix("See merge request "))
        .and_then(|l| l.rfind('!').map(|at| &l[at + 1..]))
        .and_then(digits);
    if see.is_some() {
        return see;
    }
    let open = first.strip_suffix(')')?.rfind("(#")?;
    digits(&first[open + 2..])
}

fn spec(path: &Path) -> InputSpec {
    InputSpec {
        path: config::resolve(Path::new(""), &path.display().to_string()),
        written: path.display().to_string(),
        kind: InputKind::Metrics {
            format: None,
            id_column: "query_id".into(),
            columns: Default::default(),
        },
        span: None,
    }
}

/// Every `max-drift` gate × slice's interval of `side` against `reference` (the anchor, or the
/// parent's results), keyed (metric, statistic, slice).
fn deltas(
    cfg: &Config,
    reference: &InputSpec,
    side: &InputSpec,
) -> Result<Vec<(String, String, String, Interval)>> {
    let Some(a) = &cfg.anchor else {
        return Ok(Vec::new());
    };
    let mut narrowed = a.clone();
    narrowed.file = reference.clone();
    let report = crate::check::analyze(&drift_config(cfg, &narrowed, side, &[]))?;
    let mut out: Vec<(String, String, String, Interval)> = Vec::new();
    for r in &report.gates {
        let Some(c) = report.comparisons.iter().find(|c| r.is_on(c)) else {
            continue;
        };
        if !out
            .iter()
            .any(|(m, s, sl, _)| *m == c.metric && *s == c.statistic && *sl == c.slice)
        {
            let i = Interval {
                estimate: c.estimate,
                ci: c.ci,
            };
            out.push((c.metric.clone(), c.statistic.clone(), c.slice.clone(), i));
        }
    }
    Ok(out)
}

/// The parent's ledger, when it checks out against this anchor and the parent's results; a
/// ledger that does not is restarted with a warning.
fn parent_ledger(
    parent: Option<&InputSpec>,
    anchor_sha: &str,
    warnings: &mut Vec<String>,
) -> Result<Vec<LedgerEntry>> {
    let Some(p) = parent.filter(|p| p.path.exists()) else {
        return Ok(Vec::new());
    };
    let results = files::file_sha256(&p.path, &p.shown())?;
    let path = files::beside(&p.path, ".ledger.json");
    match files::read_ledger(
        &path,
        &path.display().to_string(),
        anchor_sha,
        Some(&results),
    ) {
        LedgerRead::Verified(l) => Ok(l.entries),
        LedgerRead::Absent | LedgerRead::Stale(_) => Ok(Vec::new()),
        LedgerRead::Ignored(w) => {
            warnings.push(format!("{w}; this run starts a new ledger"));
            Ok(Vec::new())
        }
    }
}

/// This run's deltas against the anchor and, when there is one, against its parent.
fn run_deltas(
    cfg: &Config,
    anchor: &InputSpec,
    parent: Option<&InputSpec>,
    results: &InputSpec,
) -> Result<Vec<LedgerDelta>> {
    let vs_anchor = deltas(cfg, anchor, results)?;
    let vs_parent = match parent.filter(|p| p.path.exists()) {
        Some(p) => deltas(cfg, p, results)?,
        None => Vec::new(),
    };
    Ok(vs_anchor
        .into_iter()
        .map(|(metric, statistic, slice, a)| LedgerDelta {
            vs_parent: vs_parent
                .iter()
                .find(|(m, s, sl, _)| *m == metric && *s == statistic && *sl == slice)
                .map(|d| d.3),
            metric,
            statistic,
            slice,
            vs_anchor: a,
        })
        .collect())
}

/// `rag-gate ledger record`.
/// The merged pull request of `commit`: `--pr`, else the forge's (GitHub's pull requests of the
/// commit, GitLab's merge requests of it), else, labelled in a warning, the number the head
/// commit's message names (a rebase merge's message may name another pull request).
fn merged_pr(
    flag: Option<u64>,
    env: &crate::forge::github::GithubEnv,
    commit: &str,
) -> (Option<u64>, Option<String>) {
    if flag.is_some() {
        return (flag, None);
    }
    let asked = from_forge(env, commit);
    if let Ok(Some(n)) = asked {
        return (Some(n), None);
    }
    let why = match asked {
        Err(e) => e,
        _ => "the forge names no merged request for it".into(),
    };
    let gitlab =
        crate::forge::gitlab::GitlabEnv::from_process("GITHUB_TOKEN").filter(|_| !env.actions);
    let message = match &gitlab {
        Some(gl) => gl.commit_message.clone(),
        None => env.push_message(),
    };
    let pr = message.as_deref().and_then(pr_from_message);
    let said = pr.map(|n| match gitlab {
        Some(_) => format!(
            "the merged merge request !{n} was read from the head commit's message \
             (CI_COMMIT_MESSAGE), not from the forge ({why}); a rebase merge's message may name \
             another merge request: pass --pr N to be sure"
        ),
        None => format!(
            "the merged pull request #{n} was read from the head commit's message, not from the \
             forge ({why}); a rebase merge's message may name another pull request: pass --pr N \
             to be sure"
        ),
    });
    (pr, said)
}

/// The forge's answer for `commit`; Err says why there is none (no forge, no token, a refusal).
#[cfg(feature = "github")]
fn from_forge(
    env: &crate::forge::github::GithubEnv,
    commit: &str,
) -> std::result::Result<Option<u64>, String> {
    let gitlab =
        crate::forge::gitlab::GitlabEnv::from_process("GITHUB_TOKEN").filter(|_| !env.actions);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("could not start the async runtime: {e}"))?;
    let token = |t: Option<&crate::forge::Token>, var: &str| {
        t.cloned()
            .ok_or_else(|| format!("no token: {var} is not set"))
    };
    if let Some(gl) = gitlab {
        let t = token(gl.token.as_ref(), &gl.token_var)?;
        let found = rt.block_on(async {
            let client = crate::forge::gitlab::Client::new(&gl, &t, env.retries, 0)?;
            crate::forge::merged::gitlab(&client, commit).await
        });
        return found.map_err(|e| crate::forge::redact(&e, Some(&t)));
    }
    let t = token(env.token.as_ref(), &env.token_var)?;
    let repo = env
        .repository
        .clone()
        .ok_or("GITHUB_REPOSITORY is not set")?;
    let found = rt.block_on(async {
        let client = crate::forge::github::client::Client::new(env, &t, &repo)?;
        tokio::time::timeout(env.deadline, crate::forge::merged::github(&client, commit))
            .await
            .map_err(|_| "GitHub did not answer in time".to_string())?
    });
    found.map_err(|e| crate::forge::redact(&e, Some(&t)))
}

#[cfg(not(feature = "github"))]
fn from_forge(
    _: &crate::forge::github::GithubEnv,
    _: &str,
) -> std::result::Result<Option<u64>, String> {
    Err("this rag-gate was built without the forge clients (cargo feature `github`)".into())
}

pub fn ledger_record(args: &LedgerRecordArgs) -> Result<Outcome> {
    let cfg = config::load(&args.gate_file)?;
    let env = crate::forge::github::GithubEnv::from_process("GITHUB_TOKEN");
    let Some(anchor) = &cfg.anchor else {
        // A workflow may record on every main run before the team adopts an anchor.
        let w = format!(
            "{}: no [anchor], so there is no drift to record; nothing written (add [anchor] file = \"anchors/….jsonl\" and a max-drift gate)",
            args.gate_file.display()
        );
        return Ok(Outcome {
            stderr: vec![crate::publish::actions::warning(env.actions, &w)],
            ..Default::default()
        });
    };
    let commit = args
        .commit
        .clone()
        .or_else(|| env.sha.clone())
        .or_else(|| {
            crate::forge::gitlab::GitlabEnv::from_process("GITHUB_TOKEN").and_then(|gl| gl.sha)
        })
        .ok_or_else(|| {
            Error::Usage(
                "no commit: pass --commit SHA (neither GITHUB_SHA nor CI_COMMIT_SHA is set)".into(),
            )
        })?;
    let (pr, said) = merged_pr(args.pr, &env, &commit);
    let results = spec(&args.results);
    let parent = args.parent.as_deref().map(spec);
    let anchor_sha = files::file_sha256(&anchor.file.path, &anchor.file.shown())?;
    let mut warnings: Vec<String> = said.into_iter().collect();
    let mut entries = parent_ledger(parent.as_ref(), &anchor_sha, &mut warnings)?;
    let deltas = run_deltas(&cfg, &anchor.file, parent.as_ref(), &results)?;
    let last = entries.last();
    let mut entry = LedgerEntry {
        commit,
        pr,
        parent: last.map(|e| e.commit.clone()),
        results_sha256: files::file_sha256(&results.path, &results.shown())?,
        deltas,
        prev: last.map(|e| e.hash.clone()).unwrap_or_default(),
        hash: String::new(),
    };
    entry = files::shortened(&entry);
    entry.hash = files::entry_hash(&entry);
    entries.push(entry);
    let name = anchor.name.clone().unwrap_or_else(|| {
        anchor
            .file
            .path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned()
    });
    let ledger = Ledger {
        ledger_format: LEDGER_FORMAT,
        anchor: LedgerAnchor {
            name,
            sha256: anchor_sha,
        },
        entries,
    };
    let out = files::beside(&results.path, ".ledger.json");
    let text = serde_json::to_string_pretty(&ledger).expect("a ledger serialises") + "\n";
    crate::atomic::write_atomic(&out, text.as_bytes())?;
    Ok(Outcome {
        stdout: format!(
            "ledger: {} ({} main run(s) since anchor {})\n",
            out.display(),
            ledger.entries.len(),
            ledger.anchor.name
        ),
        stderr: warnings
            .iter()
            .map(|w| crate::publish::actions::warning(env.actions, w))
            .collect(),
        exit_code: 0,
    })
}

/// The commit the results measured: the ledger's last entry, else the fetch's record beside.
fn results_commit(from: &Path, ledger: Option<&Ledger>) -> Option<String> {
    if let Some(e) = ledger.and_then(|l| l.entries.last()) {
        return Some(e.commit.clone());
    }
    let rec = crate::provenance::recorded(from).ok().flatten()?;
    rec.1.found.map(|f| f.commit)
}

/// The ledger beside main's results, checked (its own chain, and that it describes `bytes`):
/// the final state the new anchor records. A ledger that fails is an error here: re-anchoring
/// is a reviewed step and must not launder an edited ledger.
fn final_ledger(from: &Path, bytes: &[u8]) -> Result<Option<Ledger>> {
    let path = files::beside(from, ".ledger.json");
    if !path.is_file() {
        return Ok(None);
    }
    let text =
        crate::load::source::read_text(&path, &path.display().to_string(), "a rag-gate ledger")?;
    let l = serde_json::from_str::<Ledger>(&text).map_err(|e| {
        Error::input(
            path.display(),
            e.line(),
            format!("not a rag-gate ledger: {e}"),
        )
    })?;
    let sha = crate::protocol::sha256_hex(bytes);
    files::check_ledger(&l, &l.anchor.sha256, Some(&sha)).map_err(|why| {
        Error::input(
            path.display(),
            0,
            format!("the ledger fails its check: {why}"),
        )
    })?;
    Ok(Some(l))
}

/// `rag-gate anchor write`.
pub fn anchor_write(args: &AnchorWriteArgs) -> Result<Outcome> {
    let from = spec(&args.from);
    let shown = from.shown();
    let sidecar = crate::protocol::sidecar_path(&from.path);
    if !sidecar.is_file() {
        return Err(Error::input(&shown, 0, format!(
            "no protocol fingerprint beside it ({shown}.protocol.json): an anchor must say how it was measured; write main's results with `rag-gate eval -o FILE`"
        )));
    }
    // The results and the fingerprint must agree before they become the reference.
    let table =
        crate::load::load_metrics(&from.path, &shown, None, "query_id", &Default::default())?;
    let protocol = crate::load::protocol::read_sidecar(&from.path, &shown)?;
    if let Some(p) = &protocol {
        crate::load::protocol::check_query_set(p, &table, &shown)?;
    }
    let to = args.to.clone();
    let to_sidecar = crate::protocol::sidecar_path(&to);
    let to_record = files::beside(&to, ".anchor.json");
    if !args.replace {
        if let Some(there) = [&to, &to_sidecar, &to_record]
            .into_iter()
            .find(|p| p.exists())
        {
            return Err(Error::Usage(format!(
                "{} exists: an anchor is never replaced silently; write a new file (anchors/v1.5.jsonl) and point [anchor] file at it, or pass --replace",
                there.display()
            )));
        }
    }
    let read = crate::load::source::read_stored;
    let bytes = read(&from.path, &shown, "per-query results")?;
    let side_bytes = read(
        &sidecar,
        &format!("{shown}.protocol.json"),
        "a rag-gate protocol fingerprint",
    )?;
    let ledger = final_ledger(&from.path, &bytes)?;
    let results_sha = crate::protocol::sha256_hex(&bytes);
    let name = args.name.clone().unwrap_or_else(|| {
        to.file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned()
    });
    let record = AnchorRecord {
        anchor_format: ANCHOR_FORMAT,
        name: name.clone(),
        sha256: results_sha,
        from: from.written.clone(),
        commit: results_commit(&from.path, ledger.as_ref()),
        protocol_hash: Some(crate::protocol::sha256_hex(&side_bytes)),
        ledger_final: ledger,
    };
    let record_text = serde_json::to_string_pretty(&record).expect("a record serialises") + "\n";
    if let Some(dir) = to.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir.display(), "creating", e))?;
    }
    let written: [(&Path, &[u8]); 3] = [
        (&to, &bytes),
        (&to_sidecar, &side_bytes),
        (&to_record, record_text.as_bytes()),
    ];
    crate::atomic::write_all_atomic(&written)?;
    Ok(Outcome {
        stdout: format!(
            "anchor {name}: {} ({}) with {} and {}; commit it and point [anchor] file at it: the move is reviewed like any change\n",
            to.display(),
            crate::numbers::count(table.rows.len(), "query", "queries"),
            to_sidecar.display(),
            to_record.display()
        ),
        ..Default::default()
    })
}

#[cfg(test)]
mod tests {
    use super::pr_from_message;

    #[test]
    fn merge_and_squash_messages_name_their_pull_request() {
        assert_eq!(
            pr_from_message("Merge pull request #812 from o/b\n\nx"),
            Some(812)
        );
        assert_eq!(
            pr_from_message("Tune the reranker (#820)\n\n* a"),
            Some(820)
        );
        assert_eq!(
            pr_from_message(
                "Merge branch 'tune' into 'main'\n\nTune the reranker\n\nSee merge request grp/proj!801\n"
            ),
            Some(801)
        );
        assert_eq!(pr_from_message("Fix #12 in the loader"), None);
        assert_eq!(pr_from_message("(#)"), None);
        assert_eq!(pr_from_message(""), None);
    }
}
