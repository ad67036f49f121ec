//! The judge sidecar: the small JSON file that names the model whose relevance labels a qrels
//! file holds, `{"model", "prompt_hash", "date", "settings"}` (docs/judges.md). It sits beside
//! the judge's qrels as `<qrels>.judge.json` (or where `[judge] sidecar` says). Its model,
//! prompt hash and settings enter the protocol fingerprint of every evaluation on those qrels
//! (`protocol::Judge`), so two sides labelled by different judges are refused, not compared;
//! the date is provenance only.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// A judge as its sidecar names it.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JudgeSidecar {
    pub model: String,
    pub prompt_hash: String,
    pub date: String,
    #[serde(default)]
    pub settings: BTreeMap<String, serde_json::Value>,
}

impl JudgeSidecar {
    /// What the protocol fingerprint compares: model, prompt hash, settings (not the date).
    pub fn identity(&self) -> crate::protocol::Judge {
        crate::protocol::Judge {
            model: self.model.clone(),
            prompt_hash: self.prompt_hash.clone(),
            // A BTreeMap (and serde_json's sorted maps inside): one canonical text.
            settings: serde_json::to_string(&self.settings).expect("JSON values serialise"),
        }
    }
}

/// Where the sidecar of the qrels `qrels` sits by default: `<qrels>.judge.json`.
pub fn default_path(qrels: &Path) -> PathBuf {
    let mut s = qrels.as_os_str().to_owned();
    s.push(".judge.json");
    s.into()
}

const LAYOUT: &str = "{\"model\": …, \"prompt_hash\": …, \"date\": …, \"settings\": {…}}";

/// Reads the sidecar at `path` (shown as `shown`): it must exist and name the judge.
pub fn read(path: &Path, shown: &str) -> Result<JudgeSidecar> {
    if !path.is_file() {
        return Err(Error::input(
            shown,
            0,
            format!("no judge sidecar here: [judge] needs one naming the judge, {LAYOUT} (or set [judge] sidecar; docs/judges.md)"),
        ));
    }
    let text = super::source::read_text(
        path,
        shown,
        "the judge's sidecar (model, prompt_hash, date, settings; docs/judges.md)",
    )?;
    let s: JudgeSidecar = serde_json::from_str(&text).map_err(|e| {
        Error::input(
            shown,
            e.line(),
            format!("not a judge sidecar (expected {LAYOUT}): {e}"),
        )
    })?;
    for (key, v) in [
        ("model", &s.model),
        ("prompt_hash", &s.prompt_hash),
        ("date", &s.date),
    ] {
        if v.trim().is_empty() {
            return Err(Error::input(
                shown,
                0,
                format!("{key} is empty: name the judge"),
            ));
        }
    }
    Ok(s)
}

/// The sidecar beside the qrels `qrels` (shown as `qrels_shown`), when there is one: the
/// labels are then a judge's. Standard input has none.
pub fn beside(qrels: &Path, qrels_shown: &str) -> Result<Option<JudgeSidecar>> {
    let path = default_path(qrels);
    if crate::input::open::is_stdin(qrels) || !path.is_file() {
        return Ok(None);
    }
    read(&path, &format!("{qrels_shown}.judge.json")).map(Some)
}
