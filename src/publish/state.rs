//! The sticky comment's hidden state: each pushed commit's look (verdict, gated estimates) and,
//! for the newest commit, each attempt's per-query candidate results, so that a re-run of that
//! commit is judged on all its attempts. It sits at the end of the comment as
//!
//! ```text
//! <!-- rag-gate:state v1 check=hmac-sha256:HEX
//! BASE64 (deflated JSON)
//! -->
//! ```
//!
//! The check is an HMAC-SHA-256 (RFC 2104) under a secret key when one is set (`--state-key-env`,
//! default `RAG_GATE_STATE_KEY`), else a plain SHA-256; both cover the repository, the pull
//! request and the gate key as well as the payload, so a state copied from another comment
//! fails too. A state that fails its check is ignored with a warning, never trusted: without a
//! key the check catches an edit by hand, not someone who recomputes the SHA-256 (only a key
//! they do not hold stops that). Pure: no I/O.

use std::collections::BTreeMap;
use std::io::{Read, Write};

use base64::Engine;
use serde::{Deserialize, Serialize};

use crate::model::looks::{AttemptExtra, AttemptValues, Look, LookRow, Series};
use crate::model::Verdict;

/// The environment variable that holds the state key, unless `--state-key-env` names another.
pub const KEY_ENV: &str = "RAG_GATE_STATE_KEY";
const OPEN: &str = "<!-- rag-gate:state v1 check=";
/// The state's share of the comment: past it, the oldest attempts are folded into the
/// look's summary (their verdicts counted, their results into per-query means) until it fits.
pub const BUDGET: usize = 40_000;
/// Looks kept (the oldest are dropped, and counted in [`State::dropped_looks`]).
pub const MAX_LOOKS: usize = 40;
/// Attempt records kept per look: past it, the oldest are folded into the look's summary.
pub const MAX_ATTEMPTS: usize = 24;
/// Digests of folded results a summary keeps (the newest), to count an identical re-run once.
const MAX_DIGESTS: usize = 64;
/// An attempt's results inflate to at most this many bytes.
const MAX_VALUES_BYTES: u64 = 64 << 20;

/// What the state holds: the looks, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub looks: Vec<StoredLook>,
    /// Looks dropped past [`MAX_LOOKS`], oldest first.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dropped_looks: u32,
    /// With a state key: the newest run that wrote this state, by the forge's monotonic count
    /// (`model::looks::Standing`), so an older state pasted back is told from the current one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<Reference>,
}

/// A run by the forge's monotonic count: GitHub's workflow run number, GitLab's pipeline id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reference {
    /// What `number` counts ("github workflow 77", "gitlab pipelines").
    pub source: String,
    pub number: u64,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// One candidate's look and its attempts: keyed by the pull request's change (`change`, see
/// `history`) when the forge lists it, else by the commit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredLook {
    /// The newest commit checked with this change.
    pub commit: String,
    /// SHA-256 of the pull request's change as the forge lists it (None: keyed by commit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub change: Option<String>,
    pub verdict: Verdict,
    pub rows: Vec<LookRow>,
    pub attempts: Vec<StoredAttempt>,
    /// The oldest attempts, folded past [`MAX_ATTEMPTS`] or the budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<Summary>,
}

impl StoredLook {
    pub fn look(&self) -> Look {
        let folded = self.summary.as_ref().map_or(0, |s| s.attempts());
        Look {
            commit: self.commit.clone(),
            attempts: self.attempts.len() as u32 + folded,
            verdict: self.verdict,
            rows: self.rows.clone(),
        }
    }

    /// Folds the oldest attempt record into the summary; false when there is none.
    fn fold_oldest(&mut self) -> bool {
        if self.attempts.is_empty() {
            return false;
        }
        let a = self.attempts.remove(0);
        self.summary.get_or_insert_with(Summary::default).fold(&a);
        true
    }
}

/// The oldest attempts of a look: verdicts counted, distinct results summed per query.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub first: u32,
    pub last: u32,
    /// Verdict → attempts folded.
    pub verdicts: BTreeMap<String, u32>,
    /// Runs the sums add up (0: none).
    pub runs: usize,
    /// Distinct results folded.
    pub distinct: u32,
    pub ids: String,
    pub metrics: Vec<String>,
    /// Per-query sums over the folded runs, packed as [`StoredAttempt::values`] (one run).
    pub sums: Option<String>,
    /// Digests of the newest distinct results folded.
    pub digests: Vec<String>,
    /// Attempts folded without results (dropped, damaged, or other queries and metrics).
    pub lost: u32,
    /// The rules beyond the per-query results that failed in a folded attempt (their words):
    /// for a run-level gate, judged on the worst attempt, the sufficient statistic.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alone_failed: Vec<String>,
    /// Per series of [`StoredExtra`]: the folded attempts' values summed per query, and how
    /// many attempts the sums add (the per-query mean is the sufficient statistic of a pooled
    /// bound or judge label).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub series_sums: BTreeMap<String, StoredSum>,
}

/// A series summed over folded attempts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredSum {
    pub metric: String,
    pub ids: String,
    /// The per-query sums, packed as [`StoredSeries::values`].
    pub sums: String,
    pub attempts: u32,
}

impl StoredSum {
    /// The per-query means, each checked as an input value of its metric.
    pub fn means(&self) -> Result<(Series, u32), String> {
        let sums = unpack(&self.sums).ok_or("its sums cannot be read (damaged)")?;
        if self.attempts == 0 {
            return Err("it sums no attempt".into());
        }
        let values: Vec<f64> = sums.iter().map(|x| x / self.attempts as f64).collect();
        check_series(&self.metric, &values)?;
        let s = Series {
            metric: self.metric.clone(),
            ids: self.ids.clone(),
            values,
        };
        Ok((s, self.attempts))
    }
}

impl Summary {
    pub fn attempts(&self) -> u32 {
        self.verdicts.values().sum()
    }

    /// Adds attempt `a`: its verdict counted, its results (when kept and distinct) summed.
    fn fold(&mut self, a: &StoredAttempt) {
        if self.attempts() == 0 {
            self.first = a.attempt;
        }
        self.first = self.first.min(a.attempt);
        self.last = self.last.max(a.attempt);
        *self.verdicts.entry(a.verdict.as_str().into()).or_default() += 1;
        for r in &a.alone_failed {
            if !self.alone_failed.contains(r) {
                self.alone_failed.push(r.clone());
            }
        }
        if self.digests.contains(&a.digest) {
            // Identical results count once, with what the other rules read.
            return;
        }
        self.fold_series(a);
        if self.digests.contains(&a.digest) {
            return;
        }
        // Results of another shape (other queries or metrics) than the sums': the newer shape
        // is what later attempts pool with, so the older sums' attempts become lost.
        if let (Ok(v), Some(old)) = (a.values(), self.sums().filter(|_| self.runs > 0)) {
            if !same_shape(&old, &v) {
                self.lost += self.distinct;
                (self.runs, self.distinct, self.sums) = (0, 0, None);
                self.digests.clear();
            }
        }
        let sums = self.sums();
        match (a.values().ok(), sums) {
            (Some(v), Some(mut sums)) if self.runs == 0 || same_shape(&sums, &v) => {
                if self.runs == 0 {
                    sums = AttemptValues {
                        ids: v.ids.clone(),
                        metrics: v
                            .metrics
                            .iter()
                            .map(|(m, r)| (m.clone(), vec![vec![0.0; r[0].len()]]))
                            .collect(),
                    };
                }
                for (m, runs) in &v.metrics {
                    let total = &mut sums.metrics.get_mut(m).expect("same metrics")[0];
                    for run in runs {
                        for (t, x) in total.iter_mut().zip(run) {
                            *t += x;
                        }
                    }
                }
                self.runs += v.runs();
                self.distinct += 1;
                self.ids = sums.ids.clone();
                self.metrics = sums.metrics.keys().cloned().collect();
                self.sums = Some(pack(&sums));
                self.digests.push(a.digest.clone());
                let extra = self.digests.len().saturating_sub(MAX_DIGESTS);
                self.digests.drain(..extra);
            }
            _ => self.lost += 1,
        }
    }

    /// Adds each series of `a` that reads back to its sum (a series of other queries than the
    /// sum's replaces it: the newer queries are what later attempts pool with).
    fn fold_series(&mut self, a: &StoredAttempt) {
        let Some(extra) = &a.extra else { return };
        for (name, st) in &extra.series {
            let Some(v) = unpack(&st.values) else {
                continue;
            };
            let old = self.series_sums.get(name).and_then(|sum| {
                let s = unpack(&sum.sums)?;
                (sum.ids == st.ids && sum.metric == st.metric && s.len() == v.len())
                    .then_some((s, sum.attempts))
            });
            let (mut total, n) = old.unwrap_or((vec![0.0; v.len()], 0));
            total.iter_mut().zip(&v).for_each(|(t, x)| *t += x);
            self.series_sums.insert(
                name.clone(),
                StoredSum {
                    metric: st.metric.clone(),
                    ids: st.ids.clone(),
                    sums: pack_floats(&total),
                    attempts: n + 1,
                },
            );
        }
    }

    /// The sums as one run (an empty record before the first fold); None once dropped.
    fn sums(&self) -> Option<AttemptValues> {
        if self.runs == 0 {
            return Some(AttemptValues {
                ids: String::new(),
                metrics: BTreeMap::new(),
            });
        }
        let raw = unpack(self.sums.as_deref()?)?;
        split(&raw, &self.metrics, 1).map(|metrics| AttemptValues {
            ids: self.ids.clone(),
            metrics,
        })
    }

    /// The per-query means of the folded runs, each checked as an input value; Err when they
    /// were dropped or one fails its check.
    pub fn means(&self) -> Result<AttemptValues, String> {
        let mut v = self
            .sums()
            .filter(|_| self.runs > 0)
            .ok_or("their results were not kept")?;
        for runs in v.metrics.values_mut() {
            for x in runs[0].iter_mut() {
                *x /= self.runs as f64;
            }
        }
        check_values(&v)?;
        Ok(v)
    }

    /// Drops the sums (the state cannot hold them); the attempts become lost.
    fn drop_sums(&mut self) -> bool {
        let series = !self.series_sums.is_empty();
        self.series_sums.clear();
        if self.sums.take().is_none() {
            return series;
        }
        self.lost += self.distinct;
        self.runs = 0;
        self.distinct = 0;
        true
    }
}

fn same_shape(a: &AttemptValues, b: &AttemptValues) -> bool {
    a.ids == b.ids
        && a.metrics.keys().eq(b.metrics.keys())
        && a.metrics
            .values()
            .zip(b.metrics.values())
            .all(|(x, y)| y.iter().all(|r| r.len() == x[0].len()))
}

/// Every value as an input file's value must be (`load::source::check_value`: finite, and in
/// [0, 1] for a bounded metric); the first that is not, in words.
fn check_values(v: &AttemptValues) -> Result<(), String> {
    for (m, runs) in &v.metrics {
        for x in runs.iter().flatten() {
            if let Err(e) = crate::load::source::check_value("the state", 0, m, *x) {
                let said = e.to_string();
                let why = said.split_once("metric ").map_or(said.as_str(), |(_, w)| w);
                return Err(format!(
                    "a value read back fails the input checks: metric {why}"
                ));
            }
        }
    }
    Ok(())
}

/// Every value of a series as an input value of `metric` must be; the first that is not, in
/// words.
fn check_series(metric: &str, values: &[f64]) -> Result<(), String> {
    let v = AttemptValues {
        ids: String::new(),
        metrics: [(metric.to_string(), vec![values.to_vec()])].into(),
    };
    check_values(&v)
}

/// Values, one a line, as their shortest exact decimal, deflated, base64.
fn pack(v: &AttemptValues) -> String {
    pack_all(v.metrics.values().flatten().flatten())
}

/// [`pack`] of one list of values.
fn pack_floats(xs: &[f64]) -> String {
    pack_all(xs.iter())
}

fn pack_all<'a>(xs: impl Iterator<Item = &'a f64>) -> String {
    let mut raw = String::new();
    for x in xs {
        raw.push_str(&x.to_string());
        raw.push('\n');
    }
    let mut z = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(raw.as_bytes()).expect("writing to memory");
    let packed = z.finish().expect("writing to memory");
    base64::engine::general_purpose::STANDARD.encode(packed)
}

/// [`pack`] read back (the numbers, unchecked); None when damaged.
fn unpack(packed: &str) -> Option<Vec<f64>> {
    let packed = base64::engine::general_purpose::STANDARD
        .decode(packed)
        .ok()?;
    let mut raw = Vec::new();
    flate2::read::DeflateDecoder::new(&packed[..])
        .take(MAX_VALUES_BYTES)
        .read_to_end(&mut raw)
        .ok()?;
    std::str::from_utf8(&raw)
        .ok()?
        .lines()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()
}

/// `all` split into `runs` runs of each metric, metric by metric; None when it does not divide.
fn split(all: &[f64], metrics: &[String], runs: usize) -> Option<BTreeMap<String, Vec<Vec<f64>>>> {
    let per = metrics.len() * runs;
    if per == 0 || !all.len().is_multiple_of(per) {
        return None;
    }
    let n = all.len() / per;
    let mut floats = all.iter().copied();
    let mut out = BTreeMap::new();
    for m in metrics {
        let rs: Vec<Vec<f64>> = (0..runs)
            .map(|_| floats.by_ref().take(n).collect())
            .collect();
        out.insert(m.clone(), rs);
    }
    Some(out)
}

/// One attempt of a commit: which run it was, its verdict and (newest commit only) its results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredAttempt {
    pub attempt: u32,
    /// The CI run that made it (`RUN_ID/RUN_ATTEMPT` on GitHub, `pipeline PIPELINE job JOB` on
    /// GitLab), when known: a second check in the same run replaces its record.
    pub run: Option<String>,
    pub verdict: Verdict,
    /// [`AttemptValues::digest`] of its results.
    pub digest: String,
    /// SHA-256 of the paired query ids, in order.
    pub ids: String,
    /// The metrics of `values`, in order.
    pub metrics: Vec<String>,
    pub runs: usize,
    /// The results: each value's shortest exact decimal, one a line, metric by metric, run by
    /// run, query by query, deflated, base64. None once dropped (an older commit's, or past the
    /// budget).
    pub values: Option<String>,
    /// The rules beyond the per-query results that failed here (their words:
    /// `model::looks::AloneRule`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alone_failed: Vec<String>,
    /// What those rules read here (None once dropped: an older look's, or past the budget).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<StoredExtra>,
}

/// What the rules beyond the per-query results read in one attempt
/// (`model::looks::AttemptExtra`), as the state keeps it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StoredExtra {
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub series: BTreeMap<String, StoredSeries>,
    /// The candidate's run card as JSON (its conditions, gated metrics and curve), read back
    /// through the run-card reader.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
}

/// One series: its metric, the SHA-256 of its query ids, and its values packed as
/// [`StoredAttempt::values`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredSeries {
    pub metric: String,
    pub ids: String,
    pub values: String,
}

impl StoredExtra {
    /// The record of `e` (the card as JSON a run-card file could hold).
    pub fn new(e: &AttemptExtra) -> Self {
        StoredExtra {
            series: e
                .series
                .iter()
                .map(|(name, s)| {
                    let st = StoredSeries {
                        metric: s.metric.clone(),
                        ids: s.ids.clone(),
                        values: pack_floats(&s.values),
                    };
                    (name.clone(), st)
                })
                .collect(),
            card: e.card.as_ref().map(card_json),
        }
    }

    /// Read back: each series' values checked as input values of its metric, the card through
    /// the run-card reader's checks; what fails is left out, with why (`attempt` names it).
    pub fn read(&self, attempt: &str) -> (AttemptExtra, Vec<String>) {
        let mut out = AttemptExtra::default();
        let mut why = Vec::new();
        for (name, st) in &self.series {
            let values = unpack(&st.values).ok_or_else(|| "cannot be read (damaged)".to_string());
            match values.and_then(|v| check_series(&st.metric, &v).map(|()| v)) {
                Ok(values) => {
                    let s = Series {
                        metric: st.metric.clone(),
                        ids: st.ids.clone(),
                        values,
                    };
                    out.series.insert(name.clone(), s);
                }
                Err(e) => why.push(format!("{attempt}: its {name} values: {e}; not judged")),
            }
        }
        if let Some(text) = &self.card {
            let shown = format!("the run card of {attempt} (the sticky comment's state)");
            match crate::load::run_card::parse(text, &shown) {
                Ok(c) => out.card = Some(c),
                Err(e) => why.push(format!("{e}; not judged")),
            }
        }
        (out, why)
    }
}

/// A run card as the JSON the run-card reader reads: its conditions, metrics and curve (the
/// model's fields decide no gate and are left out).
fn card_json(c: &crate::model::RunCard) -> String {
    let points: Vec<&BTreeMap<String, f64>> = c.qps_at_recall.iter().collect();
    let mut v = serde_json::json!({ "conditions": c.conditions, "metrics": c.metrics });
    if !points.is_empty() {
        v["curves"] = serde_json::json!({ "qps_at_recall": points });
    }
    v.to_string()
}

impl StoredAttempt {
    /// The record of `values` (kept in full).
    pub fn new(attempt: u32, run: Option<String>, verdict: Verdict, v: &AttemptValues) -> Self {
        // The shortest decimal that reads back as the same double (Rust's `Display`), one a
        // line: per-query metrics are often short decimals, which deflate far better than bits.
        StoredAttempt {
            attempt,
            run,
            verdict,
            digest: v.digest(),
            ids: v.ids.clone(),
            metrics: v.metrics.keys().cloned().collect(),
            runs: v.runs(),
            values: Some(pack(v)),
            alone_failed: Vec::new(),
            extra: None,
        }
    }

    /// The results back, checked against the digest and, value by value, as an input file's
    /// values are (a forged 5.0 for an nDCG, a NaN, an infinity are refused, never pooled);
    /// Err says why they cannot be used ("not kept" when dropped).
    pub fn values(&self) -> Result<AttemptValues, String> {
        let packed = self.values.as_deref().ok_or("its results were not kept")?;
        let damaged = "its results cannot be read (damaged)";
        let all = unpack(packed).ok_or(damaged)?;
        let metrics = split(&all, &self.metrics, self.runs).ok_or(damaged)?;
        let v = AttemptValues {
            ids: self.ids.clone(),
            metrics,
        };
        if v.digest() != self.digest {
            return Err("its results do not match their digest".into());
        }
        check_values(&v)?;
        Ok(v)
    }
}

/// What a comment's state block said.
#[derive(Debug, Clone, PartialEq)]
pub enum Found {
    /// No state block (a comment from before states, or no comment).
    None,
    Trusted(State),
    /// A state that failed its check, and why: ignored, never trusted.
    Ignored(String),
}

/// The check of `payload` for `scope` (repository, request, gate key): HMAC-SHA-256 under `key`,
/// else SHA-256.
fn check(scope: &str, payload: &str, key: Option<&[u8]>) -> String {
    use hmac::Mac;
    use sha2::Digest;
    let message = format!("rag-gate state v1\n{scope}\n{payload}");
    match key {
        Some(k) => {
            let mut mac =
                hmac::Hmac::<sha2::Sha256>::new_from_slice(k).expect("HMAC takes any key length");
            mac.update(message.as_bytes());
            format!("hmac-sha256:{:x}", mac.finalize().into_bytes())
        }
        None => format!("sha256:{:x}", sha2::Sha256::digest(message.as_bytes())),
    }
}

/// The state block for `state` (ends with a line break).
pub fn block(state: &State, scope: &str, key: Option<&[u8]>) -> String {
    let json = serde_json::to_vec(state).expect("the state serialises");
    let mut z = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(&json).expect("writing to memory");
    let payload =
        base64::engine::general_purpose::STANDARD.encode(z.finish().expect("writing to memory"));
    // Lines of 76 characters, so no line of the comment is overlong.
    let lines: Vec<&str> = payload
        .as_bytes()
        .chunks(76)
        .map(|c| std::str::from_utf8(c).expect("base64 is ASCII"))
        .collect();
    format!(
        "{OPEN}{} -->\n<!--\n{}\n-->\n",
        check(scope, &payload, key),
        lines.join("\n")
    )
}

/// Each look's attempts past [`MAX_ATTEMPTS`] folded into its summary (a state written
/// without the cap is read as bounded too).
pub fn cap(state: &mut State) {
    for l in &mut state.looks {
        while l.attempts.len() > MAX_ATTEMPTS {
            l.fold_oldest();
        }
    }
}

/// `state`'s block, within [`BUDGET`]: looks past [`MAX_LOOKS`] dropped (and counted), each
/// look's attempts past [`MAX_ATTEMPTS`] folded into its summary; then, until it fits, the
/// oldest attempts folded, then summaries' sums dropped, then the oldest looks dropped. Never
/// over the budget, so the comment's marker and verdict always have their room.
pub fn block_within(state: &mut State, scope: &str, key: Option<&[u8]>) -> String {
    let extra = state.looks.len().saturating_sub(MAX_LOOKS);
    state.looks.drain(..extra);
    state.dropped_looks += extra as u32;
    cap(state);
    loop {
        let b = block(state, scope, key);
        if b.len() <= BUDGET {
            return b;
        }
        let folded = state.looks.iter_mut().any(StoredLook::fold_oldest)
            || state
                .looks
                .iter_mut()
                .filter_map(|l| l.summary.as_mut())
                .any(Summary::drop_sums);
        if !folded {
            if state.looks.is_empty() {
                return b;
            }
            state.looks.remove(0);
            state.dropped_looks += 1;
        }
    }
}

/// Reads the state block of a comment `body` (written by rag-gate's own identity).
pub fn read(body: &str, scope: &str, key: Option<&[u8]>) -> Found {
    let Some(at) = body.find(OPEN) else {
        return Found::None;
    };
    let rest = &body[at + OPEN.len()..];
    let Some((claimed, rest)) = rest.split_once(" -->") else {
        return Found::Ignored("its state block is cut short".into());
    };
    let payload: String = rest
        .trim_start()
        .strip_prefix("<!--")
        .and_then(|r| r.split_once("-->"))
        .map(|(p, _)| p.chars().filter(|c| !c.is_whitespace()).collect())
        .unwrap_or_default();
    let claimed = claimed.trim();
    match (claimed.starts_with("hmac-sha256:"), key) {
        (true, None) => {
            return Found::Ignored(format!(
                "its state is signed with a key, and {KEY_ENV} (--state-key-env) is not set"
            ))
        }
        (false, Some(_)) => {
            return Found::Ignored(
                "its state is not signed, and a state key is set: only a signed state is trusted"
                    .into(),
            )
        }
        _ => {}
    }
    if check(scope, &payload, key) != claimed {
        return Found::Ignored("its state failed its check (the comment was edited?)".into());
    }
    match decode(&payload) {
        Some(s) => Found::Trusted(s),
        None => Found::Ignored("its state passed its check but cannot be read".into()),
    }
}

fn decode(payload: &str) -> Option<State> {
    let packed = base64::engine::general_purpose::STANDARD
        .decode(payload)
        .ok()?;
    let mut json = Vec::new();
    flate2::read::DeflateDecoder::new(&packed[..])
        .take(MAX_VALUES_BYTES)
        .read_to_end(&mut json)
        .ok()?;
    serde_json::from_slice(&json).ok()
}

/// `body` without its state block (what a reader sees is the same).
pub fn without(body: &str) -> &str {
    body.find(OPEN).map_or(body, |at| &body[..at])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(xs: &[f64]) -> AttemptValues {
        AttemptValues {
            ids: "ids".into(),
            metrics: [("ndcg@10".to_string(), vec![xs.to_vec()])].into(),
        }
    }

    fn state() -> State {
        State {
            dropped_looks: 0,
            reference: None,
            looks: vec![StoredLook {
                commit: "a".repeat(40),
                change: None,
                summary: None,
                verdict: Verdict::Fail,
                rows: vec![LookRow {
                    gate: 1,
                    metric: "ndcg@10".into(),
                    slice: "all".into(),
                    estimate: -0.02,
                    ci: [-0.03, -0.01],
                    passed: false,
                }],
                attempts: vec![StoredAttempt::new(
                    1,
                    Some("9/1".into()),
                    Verdict::Fail,
                    &values(&[0.5, 0.25, 1.0 / 3.0]),
                )],
            }],
        }
    }

    #[test]
    fn a_state_reads_back_whole_under_both_checks() {
        for key in [None, Some(&b"secret"[..])] {
            let b = block(&state(), "o/r#7/prod", key);
            let body = format!("<!-- rag-gate:v1 id=prod -->\nreport\n{b}");
            assert_eq!(read(&body, "o/r#7/prod", key), Found::Trusted(state()));
            assert_eq!(without(&body), "<!-- rag-gate:v1 id=prod -->\nreport\n");
        }
        let back = state().looks[0].attempts[0].values().expect("kept");
        assert_eq!(back, values(&[0.5, 0.25, 1.0 / 3.0]));
    }

    #[test]
    fn crlf_line_ends_do_not_break_the_check() {
        let b = block(&state(), "s", None).replace('\n', "\r\n");
        assert_eq!(read(&b, "s", None), Found::Trusted(state()));
    }

    #[test]
    fn an_edited_copied_or_unsigned_state_is_ignored() {
        let key = Some(&b"secret"[..]);
        let b = block(&state(), "o/r#7/prod", key);
        // Another pull request's comment, or another gate's.
        assert!(matches!(read(&b, "o/r#8/prod", key), Found::Ignored(_)));
        // A payload edited by one character.
        let at = b.find("\n<!--\n").unwrap() + 8;
        let mut edited = b.clone().into_bytes();
        edited[at] = if edited[at] == b'A' { b'B' } else { b'A' };
        let edited = String::from_utf8(edited).unwrap();
        assert!(matches!(
            read(&edited, "o/r#7/prod", key),
            Found::Ignored(_)
        ));
        // Without the key, or unsigned when a key is set, or under another key.
        assert!(matches!(read(&b, "o/r#7/prod", None), Found::Ignored(_)));
        let plain = block(&state(), "o/r#7/prod", None);
        assert!(matches!(read(&plain, "o/r#7/prod", key), Found::Ignored(_)));
        assert!(matches!(
            read(&b, "o/r#7/prod", Some(b"other")),
            Found::Ignored(_)
        ));
        assert_eq!(read("no state here", "s", None), Found::None);
    }

    #[test]
    fn the_hmac_is_rfc_4231s() {
        // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?".
        use hmac::Mac;
        let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(b"Jefe").unwrap();
        mac.update(b"what do ya want for nothing?");
        assert_eq!(
            format!("{:x}", mac.finalize().into_bytes()),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn past_the_budget_the_oldest_results_go_first() {
        let mut s = state();
        // 2,500 values that do not compress: each attempt's results take about 27,000 characters.
        let noisy: Vec<f64> = (0..2500u64)
            .map(|i| (i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 11) as f64 / (1u64 << 53) as f64)
            .collect();
        s.looks[0]
            .attempts
            .push(StoredAttempt::new(2, None, Verdict::Pass, &values(&noisy)));
        s.looks[0].attempts.push(StoredAttempt::new(
            3,
            None,
            Verdict::Pass,
            &values(&noisy.iter().map(|x| x / 2.0).collect::<Vec<_>>()),
        ));
        let b = block_within(&mut s, "s", None);
        assert!(b.len() <= BUDGET, "{}", b.len());
        // Folded, not dropped: every verdict counted; attempts 2 and 3's results summed per
        // query (the 2,500 sums fit where two attempts' values did not); attempt 1's, of other
        // queries than the newer ones, counted as lost.
        assert!(s.looks[0].attempts.is_empty());
        let sum = s.looks[0].summary.as_ref().expect("a summary");
        assert_eq!((sum.first, sum.last, sum.attempts()), (1, 3, 3));
        assert_eq!((sum.runs, sum.lost), (2, 1));
        let means = sum.means().unwrap();
        let want = (noisy[7] + noisy[7] / 2.0) / 2.0;
        assert!((means.metrics["ndcg@10"][0][7] - want).abs() < 1e-12);
    }

    #[test]
    fn a_thousand_attempts_fit_the_budget_and_keep_their_mean_and_verdicts() {
        let mut s = state();
        let n = 300;
        for k in 2..=1000u32 {
            let xs: Vec<f64> = (0..n)
                .map(|i| ((i as u64 * 7 + k as u64 * 13) % 1000) as f64 / 1000.0)
                .collect();
            let mut v = values(&xs);
            v.ids = "many".into();
            let verdict = if k % 10 == 0 {
                Verdict::Pass
            } else {
                Verdict::Fail
            };
            s.looks[0]
                .attempts
                .push(StoredAttempt::new(k, None, verdict, &v));
            if k % 97 == 0 {
                block_within(&mut s, "s", None);
            }
        }
        let b = block_within(&mut s, "s", None);
        assert!(b.len() <= BUDGET, "{}", b.len());
        let l = &s.looks[0];
        assert!(l.attempts.len() <= MAX_ATTEMPTS);
        let sum = l.summary.as_ref().unwrap();
        assert_eq!(sum.attempts() + l.attempts.len() as u32, 1000);
        assert_eq!(
            sum.verdicts["pass"]
                + l.attempts
                    .iter()
                    .filter(|a| a.verdict == Verdict::Pass)
                    .count() as u32,
            100
        );
        // Attempt 1 covered other queries: lost; every other attempt's results are in the sums.
        assert_eq!(sum.lost, 1);
        assert_eq!(sum.runs as u32, sum.attempts() - 1);
        let means = sum.means().unwrap();
        let want: f64 = (2..=sum.last)
            .map(|k| ((7 * 5 + k as u64 * 13) % 1000) as f64 / 1000.0)
            .sum::<f64>()
            / sum.runs as f64;
        assert!((means.metrics["ndcg@10"][0][5] - want).abs() < 1e-9);
        assert_eq!(read(&b, "s", None), Found::Trusted(s.clone()));
    }

    #[test]
    fn values_read_back_go_through_the_input_checks() {
        for bad in [5.0, f64::NAN, f64::INFINITY, -0.5] {
            let a = StoredAttempt::new(1, None, Verdict::Fail, &values(&[0.5, bad]));
            let why = a.values().unwrap_err();
            assert!(why.contains("fails the input checks"), "{bad}: {why}");
        }
        // An unbounded metric may exceed 1; never be infinite.
        let mut v = values(&[5.0]);
        v.metrics = [("latency".to_string(), vec![vec![5.0]])].into();
        assert!(StoredAttempt::new(1, None, Verdict::Fail, &v)
            .values()
            .is_ok());
    }
}

#[cfg(test)]
mod extra {
    use super::*;

    fn extra(values: Vec<f64>, card_ms: f64) -> AttemptExtra {
        let series = Series {
            metric: "ndcg@10".into(),
            ids: "ids".into(),
            values,
        };
        let card = crate::model::RunCard {
            source: "c.card.json".into(),
            model: Default::default(),
            conditions: [("hardware".to_string(), "c6i".to_string())].into(),
            metrics: [("query-latency-ms".to_string(), vec![card_ms, 12.5])].into(),
            qps_at_recall: Vec::new(),
        };
        AttemptExtra {
            series: [("lower candidate ndcg@10".to_string(), series)].into(),
            card: Some(card),
        }
    }

    #[test]
    fn bounds_labels_and_cards_read_back_whole() {
        let e = extra(vec![0.5, 1.0 / 3.0], 12.25);
        let (back, why) = StoredExtra::new(&e).read("attempt 1");
        assert!(why.is_empty(), "{why:?}");
        assert_eq!(back.series, e.series);
        let card = back.card.unwrap();
        assert_eq!(card.metrics, e.card.as_ref().unwrap().metrics);
        assert_eq!(card.conditions, e.card.as_ref().unwrap().conditions);
    }

    #[test]
    fn forged_bounds_and_cards_fail_the_input_checks() {
        for bad in [5.0, f64::NAN, f64::INFINITY, -0.5] {
            let (back, why) = StoredExtra::new(&extra(vec![0.5, bad], 12.0)).read("attempt 1");
            assert!(back.series.is_empty(), "{bad}");
            assert!(why[0].contains("fails the input checks"), "{bad}: {why:?}");
        }
        let mut forged = StoredExtra::new(&extra(vec![0.5], 12.0));
        forged.card = Some("{\"metrics\": {\"query-latency-ms\": [\"fast\"]}}".into());
        let (back, why) = forged.read("attempt 2");
        assert!(back.card.is_none());
        assert!(why[0].contains("the run card of attempt 2"), "{why:?}");
    }

    #[test]
    fn folded_series_are_summed_and_their_mean_checked() {
        let mut sum = Summary::default();
        for (k, v) in [(1, 0.2), (2, 0.6)] {
            let mut a = StoredAttempt::new(
                k,
                None,
                Verdict::Fail,
                &AttemptValues {
                    ids: "i".into(),
                    metrics: [("ndcg@10".to_string(), vec![vec![v]])].into(),
                },
            );
            a.extra = Some(StoredExtra::new(&extra(vec![v, 1.0], 12.0)));
            sum.fold(&a);
        }
        let (means, n) = sum.series_sums["lower candidate ndcg@10"].means().unwrap();
        assert_eq!(n, 2);
        assert!((means.values[0] - 0.4).abs() < 1e-12 && means.values[1] == 1.0);
        // A forged sum (an nDCG mean of 3) is refused when read back.
        let st = sum.series_sums.get_mut("lower candidate ndcg@10").unwrap();
        st.sums = pack_floats(&[6.0, 2.0]);
        assert!(st.means().unwrap_err().contains("fails the input checks"));
    }
}

#[cfg(test)]
mod size {
    use super::*;

    /// Characters an attempt's results take in the state, per value.
    fn per_value(xs: &[f64]) -> f64 {
        let v = AttemptValues {
            ids: "i".into(),
            metrics: [("m".to_string(), vec![xs.to_vec()])].into(),
        };
        let a = StoredAttempt::new(1, None, Verdict::Pass, &v);
        a.values.unwrap().len() as f64 / xs.len() as f64
    }

    fn unit(i: u64) -> f64 {
        let z = i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let z = (z ^ (z >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        (z >> 11) as f64 / (1u64 << 53) as f64
    }

    #[test]
    fn five_decimals_take_about_four_characters_a_value_full_doubles_about_twelve() {
        // Five decimals, as the shipped examples and most metric files write them.
        let short: Vec<f64> = (0..2000).map(|i| (unit(i) * 1e5).round() / 1e5).collect();
        let full: Vec<f64> = (0..2000).map(unit).collect();
        let (s, f) = (per_value(&short), per_value(&full));
        eprintln!("characters per value: five decimals {s:.2}, full doubles {f:.2}");
        assert!(s < 6.0, "{s}");
        assert!(f < 13.0, "{f}");
    }
}
