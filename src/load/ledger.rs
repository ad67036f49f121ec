//! Reads the files of the gate across time: an anchor's record (`ANCHOR.anchor.json`, written by
//! `rag-gate anchor write`) and main's ledger (`RESULTS.ledger.json`), checked before it is
//! trusted. A ledger that fails its check (an entry edited, the chain broken, another anchor,
//! results it does not describe) is not an error: it is ignored with a warning saying why, and
//! the check runs without attribution.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::model::ledger::{AnchorRecord, Ledger, LedgerEntry, ANCHOR_FORMAT, LEDGER_FORMAT};
use crate::protocol::sha256_hex;

/// `FILE` + `suffix` (`.ledger.json`, `.anchor.json`).
pub fn beside(file: &Path, suffix: &str) -> PathBuf {
    let mut s = file.as_os_str().to_owned();
    s.push(suffix);
    s.into()
}

/// SHA-256 of a file's bytes as stored (a folder is refused: anchors and the results a ledger
/// describes are single files).
pub fn file_sha256(path: &Path, shown: &str) -> Result<String> {
    let bytes = super::source::read_stored(path, shown, "per-query results")?;
    Ok(sha256_hex(&bytes))
}

/// `x` to 12 significant digits: a decimal that JSON writes and reads back exactly (a longer
/// one may come back one unit in the last place off), so an entry's hash survives its file.
pub fn short(x: f64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    format!("{x:.11e}").parse().unwrap_or(x)
}

/// `e` with every number at 12 significant digits (what the ledger stores).
pub fn shortened(e: &LedgerEntry) -> LedgerEntry {
    let mut e = e.clone();
    let cut = |i: &mut crate::model::ledger::Interval| {
        i.estimate = short(i.estimate);
        i.ci = [short(i.ci[0]), short(i.ci[1])];
    };
    for d in &mut e.deltas {
        cut(&mut d.vs_anchor);
        if let Some(p) = &mut d.vs_parent {
            cut(p);
        }
    }
    e
}

/// The hash an entry carries: SHA-256 of its JSON with `hash` empty and its numbers at 12
/// significant digits.
pub fn entry_hash(e: &LedgerEntry) -> String {
    let mut blank = shortened(e);
    blank.hash = String::new();
    sha256_hex(serde_json::to_string(&blank).unwrap_or_default().as_bytes())
}

/// The anchor's record beside it, when there is one; a record that is not one is an error
/// naming it (the anchor is reviewed, committed input, like the gate file).
pub fn anchor_record(anchor: &Path, shown: &str) -> Result<Option<AnchorRecord>> {
    let path = beside(anchor, ".anchor.json");
    if !path.is_file() {
        return Ok(None);
    }
    let shown = format!("{shown}.anchor.json");
    let text = super::source::read_text(&path, &shown, "a rag-gate anchor record")?;
    let rec: AnchorRecord = serde_json::from_str(&text).map_err(|e| {
        Error::input(
            &shown,
            e.line(),
            format!("not a rag-gate anchor record: {e}"),
        )
    })?;
    if rec.anchor_format != ANCHOR_FORMAT {
        return Err(Error::input(
            &shown,
            0,
            format!(
                "anchor_format {} is not {ANCHOR_FORMAT}, the one this rag-gate reads",
                rec.anchor_format
            ),
        ));
    }
    Ok(Some(rec))
}

/// A ledger read and checked, or why it is not trusted.
pub enum LedgerRead {
    Verified(Ledger),
    Absent,
    /// It measured against another anchor (main has not run since the anchor moved): not an
    /// error, the next main run starts a new ledger.
    Stale(String),
    Ignored(String),
}

/// Reads the ledger at `path` and checks it: its format, every entry's hash and link to the one
/// before, the anchor it measured against (`anchor_sha256`) and, when given, that its last entry
/// describes `results_sha256` (the baseline it travelled with).
pub fn read_ledger(
    path: &Path,
    shown: &str,
    anchor_sha256: &str,
    results_sha256: Option<&str>,
) -> LedgerRead {
    if !path.is_file() {
        return LedgerRead::Absent;
    }
    let ledger = match super::source::read_text(path, shown, "a rag-gate ledger")
        .map_err(|e| e.to_string())
        .and_then(|t| serde_json::from_str::<Ledger>(&t).map_err(|e| e.to_string()))
    {
        Ok(l) => l,
        Err(e) => return LedgerRead::Ignored(format!("not a rag-gate ledger: {e}")),
    };
    if ledger.ledger_format == LEDGER_FORMAT && ledger.anchor.sha256 != anchor_sha256 {
        return LedgerRead::Stale(ledger.anchor.name);
    }
    match check_ledger(&ledger, anchor_sha256, results_sha256) {
        Ok(()) => LedgerRead::Verified(ledger),
        Err(why) => LedgerRead::Ignored(why),
    }
    .named(shown)
}

impl LedgerRead {
    fn named(self, shown: &str) -> LedgerRead {
        match self {
            LedgerRead::Ignored(why) => LedgerRead::Ignored(format!(
                "ledger {} ignored: {why}; the drift budget is judged without attribution",
                crate::safe_text::shown(shown)
            )),
            other => other,
        }
    }
}

/// The ledger's own check: format, chain, anchor, and its tie to the results it travels with.
pub fn check_ledger(
    ledger: &Ledger,
    anchor_sha256: &str,
    results_sha256: Option<&str>,
) -> std::result::Result<(), String> {
    if ledger.ledger_format != LEDGER_FORMAT {
        return Err(format!(
            "ledger_format {} is not {LEDGER_FORMAT}",
            ledger.ledger_format
        ));
    }
    if ledger.anchor.sha256 != anchor_sha256 {
        return Err(format!(
            "it measured against another anchor ({}, SHA-256 {}…)",
            crate::safe_text::shown(&ledger.anchor.name),
            ledger
                .anchor
                .sha256
                .get(..12)
                .unwrap_or(&ledger.anchor.sha256)
        ));
    }
    let mut prev = String::new();
    for (i, e) in ledger.entries.iter().enumerate() {
        if e.prev != prev {
            return Err(format!(
                "entry {} does not follow the entry before it",
                i + 1
            ));
        }
        if entry_hash(e) != e.hash {
            return Err(format!(
                "entry {} ({}) does not match its hash: it was edited",
                i + 1,
                crate::safe_text::shown(&e.commit)
            ));
        }
        prev = e.hash.clone();
    }
    match (ledger.entries.last(), results_sha256) {
        (Some(last), Some(r)) if last.results_sha256 != r => Err(format!(
            "its last entry ({}) describes other results than the baseline beside it",
            crate::safe_text::shown(&last.commit)
        )),
        _ => Ok(()),
    }
}
