//! The noise file (JSON), written by `rag-gate aa --output` and read by `[noise] file`.
//!
//! Layout (`noise_version` 2; field order as here, every list in a fixed order; a version 1
//! file, which has no `query_bands`, is still read):
//! - `noise_version`, `files` (the replicates, as given), `replicates`, `queries` (paired),
//!   `confidence`, `seed`, `resamples`, `tie_epsilon`;
//! - `entries`: one per metric (name order) × slice (`all` first), each with
//!   `run_means` (each replicate's mean, file order), `run_sd` (their standard deviation: the
//!   run-to-run spread of the metric's mean) and `run_sd_ci` (chi-square interval on
//!   `replicates` − 1 df), `shift_sd` (the whole-run part, ANOVA), `jitter_sd` and `jitter_sd_ci`
//!   (per-query jitter, on (n − 1)(replicates − 1) df), `flaky` and `flaky_share` (queries whose
//!   value differs between replicates by more than `tie_epsilon`), `noise_floor` (two-sided
//!   prediction bound at `confidence` for the difference of two fresh single runs:
//!   t · √2 · `run_sd`), and the A/A test of the second half of the files against the first:
//!   `aa_delta`, `aa_ci`, `aa_p`, `aa_p_adjusted` (Holm over the entries);
//! - `flaky_queries`: metric → the flaky query ids (byte order) over all queries;
//! - `query_bands`: metric → flaky query id → its band, the largest difference between two
//!   replicates on that query (what two runs of this commit showed it can move by itself).

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

pub const NOISE_VERSION: u32 = 2;

/// The oldest noise file version still read (it has no per-query bands).
pub const OLDEST_NOISE_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoiseFile {
    pub noise_version: u32,
    pub files: Vec<String>,
    pub replicates: usize,
    pub queries: usize,
    pub confidence: f64,
    pub seed: u64,
    pub resamples: u64,
    pub tie_epsilon: f64,
    pub entries: Vec<NoiseEntry>,
    pub flaky_queries: BTreeMap<String, Vec<String>>,
    /// Absent from a version 1 file: no per-query bands were measured.
    #[serde(default)]
    pub query_bands: BTreeMap<String, BTreeMap<String, f64>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoiseEntry {
    pub metric: String,
    pub slice: String,
    pub n: usize,
    pub run_means: Vec<f64>,
    pub run_sd: f64,
    pub run_sd_ci: [f64; 2],
    pub shift_sd: f64,
    pub jitter_sd: f64,
    pub jitter_sd_ci: [f64; 2],
    pub flaky: usize,
    pub flaky_share: f64,
    pub noise_floor: f64,
    pub aa_delta: f64,
    pub aa_ci: [f64; 2],
    pub aa_p: f64,
    pub aa_p_adjusted: f64,
}

impl NoiseFile {
    /// The entry for `metric` on `slice`.
    pub fn entry(&self, metric: &str, slice: &str) -> Option<&NoiseEntry> {
        self.entries
            .iter()
            .find(|e| e.metric == metric && e.slice == slice)
    }

    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("a noise file serialises");
        s.push('\n');
        s
    }
}

/// Reads a noise file; errors name the file and, for bad JSON, the line.
pub fn read(path: &Path, shown: &str) -> Result<NoiseFile> {
    let text =
        crate::load::source::read_text(path, shown, "a noise file from `rag-gate aa --output`")?;
    let f: NoiseFile = serde_json::from_str(&text).map_err(|e| {
        Error::input(
            shown,
            e.line(),
            format!("not a rag-gate noise file: {e}; write one with `rag-gate aa FILE FILE ... --output {shown}`"),
        )
    })?;
    if !(OLDEST_NOISE_VERSION..=NOISE_VERSION).contains(&f.noise_version) {
        return Err(Error::input(
            shown,
            0,
            format!(
                "noise_version {} is not supported (expected {OLDEST_NOISE_VERSION} to {NOISE_VERSION}); rerun `rag-gate aa`",
                f.noise_version
            ),
        ));
    }
    Ok(f)
}
