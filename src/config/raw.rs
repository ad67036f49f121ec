//! The gate file as written: serde types that reject unknown keys and wrong types (toml reports
//! the line and column). Semantic checks happen in `validate`.

use serde::Deserialize;
use toml::Spanned;

use super::{Method, Missing, OnSmallSlice, OnUnreliable, Statistic, Unit};
use crate::load::Format;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawConfig {
    pub id: Option<Spanned<String>>,
    pub inputs: RawInputs,
    #[serde(default)]
    pub bootstrap: RawBootstrap,
    #[serde(default)]
    pub slices: RawSlices,
    #[serde(default)]
    pub report: RawReport,
    #[serde(default)]
    pub eval: Option<Spanned<toml::Table>>,
    #[serde(default)]
    pub protocol: RawProtocol,
    #[serde(default)]
    pub judged: RawJudged,
    #[serde(default)]
    pub policy: RawPolicy,
    #[serde(default, rename = "gate")]
    pub gates: Vec<Spanned<RawGate>>,
    #[serde(default)]
    pub noise: RawNoise,
    #[serde(default)]
    pub baseline: super::baseline::RawBaseline,
    pub efficiency: Option<RawEfficiency>,
    pub anchor: Option<Spanned<super::anchor::RawAnchor>>,
    pub judge: Option<Spanned<RawJudge>>,
    pub probe: Option<Spanned<super::probe::RawProbe>>,
    #[serde(default)]
    pub verdict: RawVerdict,
}

/// `[verdict]`: the guarantee the gate file's statistical rules give, and what an undecided
/// check does.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawVerdict {
    pub guarantee: Option<super::Guarantee>,
    pub accept_blind_spot: Option<bool>,
    pub on_inconclusive: Option<super::OnInconclusive>,
}

/// `[judge]`: a judge's qrels (a model's relevance labels) beside the human `qrels`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawJudge {
    pub qrels: Spanned<String>,
    pub sidecar: Option<Spanned<String>>,
    pub gate_on: Option<Spanned<String>>,
    pub min_labelled: Option<Spanned<i64>>,
    pub min_kappa: Option<Spanned<f64>>,
    pub sample: Option<Spanned<String>>,
    pub plant_key: Option<Spanned<String>>,
}

/// `[efficiency]`: each side's run card (`load::run_card`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawEfficiency {
    pub baseline: Spanned<String>,
    pub candidate: Spanned<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawNoise {
    pub file: Option<Spanned<String>>,
    pub quarantine: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawInputs {
    pub baseline: Spanned<toml::Value>,
    pub candidate: Spanned<toml::Value>,
    pub queries: Option<Spanned<String>>,
    pub qrels: Option<Spanned<String>>,
    pub format: Option<Format>,
    pub id_column: Option<String>,
    pub missing: Option<Missing>,
    pub group_from_id: Option<Spanned<String>>,
    pub baseline_commit: Option<Spanned<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawBootstrap {
    pub resamples: Option<Spanned<i64>>,
    pub seed: Option<Spanned<i64>>,
    pub confidence: Option<Spanned<f64>>,
    pub unit: Option<Spanned<Unit>>,
    pub method: Option<Method>,
    pub weights: Option<Spanned<super::Weights>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawSlices {
    #[serde(default)]
    pub by: Vec<Spanned<String>>,
    #[serde(default)]
    pub critical: Vec<Spanned<String>>,
    pub min_queries: Option<Spanned<i64>>,
    pub min_groups: Option<Spanned<i64>>,
    pub min_moved: Option<Spanned<i64>>,
    pub on_small_slice: Option<OnSmallSlice>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawReport {
    pub worst: Option<Spanned<i64>>,
    pub tie_epsilon: Option<Spanned<f64>>,
    pub practical_tie: Option<Spanned<f64>>,
    pub metrics: Option<Vec<Spanned<String>>>,
    pub details: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawPolicy {
    pub max_k: Option<Spanned<i64>>,
}

/// Only the `gate` key, read before the strict parse: `[gate]` (one table) instead of
/// `[[gate]]` (an array of tables) gets an error that says so.
#[derive(Debug, Deserialize)]
pub struct GateProbe {
    pub gate: Option<Spanned<toml::Value>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawGate {
    pub metric: Spanned<String>,
    pub min_mean: Option<Spanned<f64>>,
    pub max_mean: Option<Spanned<f64>>,
    pub max_drop: Option<Spanned<f64>>,
    pub max_change: Option<Spanned<f64>>,
    pub fail_if_significant_drop: Option<Spanned<f64>>,
    pub max_loss_rate: Option<Spanned<f64>>,
    pub max_drift: Option<Spanned<f64>>,
    pub max_unit_loss: Option<Spanned<f64>>,
    pub statistic: Option<Statistic>,
    pub higher_is_better: Option<bool>,
    pub slices: Option<Spanned<toml::Value>>,
    // Run-level rules, on a run-card metric (`config::run_gate`).
    pub max_increase: Option<Spanned<toml::Value>>,
    pub max_decrease: Option<Spanned<toml::Value>>,
    pub min: Option<Spanned<f64>>,
    pub max: Option<Spanned<f64>>,
    pub at: Option<Spanned<toml::Table>>,
    pub allow_condition_change: Option<Spanned<Vec<String>>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawProtocol {
    pub require: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawJudged {
    pub on_unreliable: Option<OnUnreliable>,
    pub min_judged: Option<Spanned<f64>>,
    pub condensed: Option<bool>,
}
