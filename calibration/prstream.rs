//! The pull-request stream: both errors of a gate file, measured per pull request.
//!
//! A team's gate file is fixed by its profile (queries, unit, critical slices) and its
//! `max-drop` margin; a stream of pull requests of known kinds goes through the library's own
//! stages in memory, as `check` runs them on two metric files (pair → slices → resample →
//! judge → verdict → exit code; `tests/it/calibration_prstream.rs` holds the in-memory verdict
//! equal to `check::analyze` on the same data written as files). Per gate file it counts:
//!
//! - **friction**: P(exit 1 | an honest pull request: true delta ≥ 0 on every gated slice);
//! - **escape**: P(exit 0 | true delta = −m on a gated slice), split into green (pass or
//!   untouched) and amber (inconclusive);
//! - the **amber** rate on honest pull requests;
//! - the **resolution** p* = 1 − (α/2)^(1/units): a change touching a smaller share of the
//!   units can go unseen on a sample, at a worst cost of p* × the metric's range (1 here).
//!
//! The generators (seeded ChaCha8, one stream per cell and set): a per-query delta d is drawn
//! first, then the baseline value uniformly on the feasible range [max(0, −d), min(1, 1 − d)],
//! so both sides stay in [0, 1] and the mean of the deltas is the design's true delta exactly
//! in expectation. Groups (the group unit) are runs of 1–6 queries (a conversation); the
//! critical slice `kind=hard` is every fourth group (every fourth query without groups).

use std::collections::BTreeMap;
use std::sync::Arc;

use rag_gate::config::{Config, Missing};
use rag_gate::load::table::Tags;
use rag_gate::load::{MetricTable, Rows};
use rag_gate::model::Verdict;
use rag_gate::stats::streams::stream_key;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The gated metric: a [0, 1] metric (range 1).
pub const METRIC: &str = "ndcg@10";

/// The team profiles: queries in the golden set.
pub const PROFILES: [usize; 8] = [20, 30, 43, 50, 100, 200, 500, 5_000];

/// The `max-drop` margins a team writes.
pub const MARGINS: [f64; 3] = [0.01, 0.02, 0.05];

/// One team's gate file: its set, unit and critical slices, its margin and guarantee.
#[derive(Debug, Clone)]
pub struct Team {
    pub n: usize,
    pub groups: bool,
    pub critical: bool,
    pub margin: f64,
    /// `[verdict] guarantee`, or None for an engine without the key (written as no table).
    pub guarantee: Option<&'static str>,
}

/// The pull-request kinds of the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// Both sides the same values.
    Identical,
    /// 1–10 queries moved by U(−0.01, +0.01).
    Refactor,
    /// Every query moved by U(−0.005, +0.005), recentred so the set's mean delta is 0.
    NetZero,
    /// Each query with chance 1% moved by N(0, 0.02²) (truncated at ±0.06): a nondeterministic
    /// retriever whose ties break differently.
    Jitter1,
    /// The same on every query.
    Jitter100,
    /// 20% of the queries gain U(0, 0.1): a true delta of +0.01.
    Gain,
    /// The same commit evaluated again: every value off by U(−1e-6, +1e-6) (summation order).
    Rerun,
    /// A regression at the margin, carried by every query: −m + U(−0.03, +0.03) (plus a group
    /// effect U(−0.03, +0.03) under the group unit).
    DropAll,
    /// A regression at the margin carried by 10% of the queries: each loses (m / 0.1)·U(0.5, 1.5).
    DropFew,
    /// A regression at the margin carried by a few large losses: a share m / 0.6 of the
    /// queries loses U(0.4, 0.8).
    DropLarge,
    /// A regression at the margin on the critical slice only (every query of it), nothing
    /// elsewhere (only with critical slices).
    DropCritical,
}

impl Kind {
    pub const HONEST: [Kind; 7] = [
        Kind::Identical,
        Kind::Refactor,
        Kind::NetZero,
        Kind::Jitter1,
        Kind::Jitter100,
        Kind::Gain,
        Kind::Rerun,
    ];
    pub const DROPS: [Kind; 4] = [
        Kind::DropAll,
        Kind::DropFew,
        Kind::DropLarge,
        Kind::DropCritical,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Identical => "identical",
            Kind::Refactor => "refactor",
            Kind::NetZero => "net-zero",
            Kind::Jitter1 => "jitter-1%",
            Kind::Jitter100 => "jitter-100%",
            Kind::Gain => "gain",
            Kind::Rerun => "re-run",
            Kind::DropAll => "drop-all",
            Kind::DropFew => "drop-few",
            Kind::DropLarge => "drop-large",
            Kind::DropCritical => "drop-critical",
        }
    }

    pub fn honest(self) -> bool {
        Kind::HONEST.contains(&self)
    }

    /// The share of the gated slice's units a drop of this kind touches at margin `m` (the
    /// design's, not a sample's): every unit, 10% of the queries, m / 0.6 of them, or every
    /// unit of the critical slice. Under the group unit a group is touched when one of its
    /// 1–6 queries is. None for honest kinds.
    pub fn touched(self, m: f64, groups: bool) -> Option<f64> {
        let p = match self {
            Kind::DropAll | Kind::DropCritical => 1.0,
            Kind::DropFew => 0.1,
            Kind::DropLarge => m / 0.6,
            _ => return None,
        };
        let by_group = (1..=6).map(|k| (1.0 - p).powi(k)).sum::<f64>() / 6.0;
        Some(if groups { 1.0 - by_group } else { p })
    }
}

/// How a pull request ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Exit 0, green.
    Green,
    /// Exit 0, amber (inconclusive).
    Amber,
    /// Exit 1.
    Red,
}

/// The tallies of one kind on one gate file.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tally {
    pub sets: usize,
    pub green: usize,
    pub amber: usize,
    pub red: usize,
}

impl Tally {
    pub fn add(&mut self, e: Ending) {
        self.sets += 1;
        match e {
            Ending::Green => self.green += 1,
            Ending::Amber => self.amber += 1,
            Ending::Red => self.red += 1,
        }
    }
    pub fn rate(&self, k: usize) -> f64 {
        k as f64 / self.sets.max(1) as f64
    }
    /// P(exit 0): green + amber.
    pub fn exit0(&self) -> f64 {
        self.rate(self.green + self.amber)
    }
}

/// The resolution of `units` units at one-sided α/2 = 0.025: p* = 1 − 0.025^(1/units).
pub fn resolution(units: usize) -> f64 {
    1.0 - 0.025f64.powf(1.0 / units.max(1) as f64)
}

fn uniform(rng: &mut ChaCha8Rng) -> f64 {
    (f64::from(rng.next_u32()) + 0.5) / 4_294_967_296.0
}

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let (u, v) = (uniform(rng), uniform(rng));
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

fn between(rng: &mut ChaCha8Rng, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * uniform(rng)
}

/// One simulated pull request: each query's group and whether it is in the critical slice,
/// the baseline and the candidate.
pub struct Sample {
    pub group: Vec<u32>,
    pub hard: Vec<bool>,
    pub base: Vec<f64>,
    pub cand: Vec<f64>,
}

/// The groups of n queries: runs of 1–6 (without groups, one query each).
fn layout(rng: &mut ChaCha8Rng, n: usize, groups: bool) -> Vec<u32> {
    if !groups {
        return (0..n as u32).collect();
    }
    let mut out = Vec::with_capacity(n);
    let mut g = 0;
    while out.len() < n {
        let size = 1 + (rng.next_u32() % 6) as usize;
        out.extend(std::iter::repeat_n(g, size.min(n - out.len())));
        g += 1;
    }
    out
}

/// The deltas of `kind` at margin `m` on the layout.
fn deltas(rng: &mut ChaCha8Rng, kind: Kind, m: f64, group: &[u32], hard: &[bool]) -> Vec<f64> {
    let n = group.len();
    let groups = group.last().map_or(0, |&g| g as usize + 1);
    let effect: Vec<f64> = (0..groups).map(|_| between(rng, -0.03, 0.03)).collect();
    let grouped = groups < n;
    let jitter = |rng: &mut ChaCha8Rng| (0.02 * normal(rng)).clamp(-0.06, 0.06);
    let mut d = vec![0.0; n];
    match kind {
        Kind::Identical => {}
        Kind::Refactor => {
            let k = (1 + (rng.next_u32() % 10) as usize).min(n);
            for i in pick(rng, n, k) {
                d[i] = between(rng, -0.01, 0.01);
            }
        }
        Kind::NetZero => {
            d.iter_mut().for_each(|x| *x = between(rng, -0.005, 0.005));
            let mean = d.iter().sum::<f64>() / n as f64;
            d.iter_mut().for_each(|x| *x -= mean);
        }
        Kind::Jitter1 | Kind::Jitter100 => {
            let p = if kind == Kind::Jitter1 { 0.01 } else { 1.0 };
            for x in &mut d {
                if uniform(rng) < p {
                    *x = jitter(rng);
                }
            }
        }
        Kind::Gain => d.iter_mut().for_each(|x| {
            if uniform(rng) < 0.2 {
                *x = between(rng, 0.0, 0.1);
            }
        }),
        Kind::Rerun => d.iter_mut().for_each(|x| *x = between(rng, -1e-6, 1e-6)),
        Kind::DropAll | Kind::DropCritical => {
            for (i, x) in d.iter_mut().enumerate() {
                if kind == Kind::DropAll || hard[i] {
                    let u = if grouped {
                        effect[group[i] as usize]
                    } else {
                        0.0
                    };
                    *x = -m + u + between(rng, -0.03, 0.03);
                }
            }
        }
        Kind::DropFew => d.iter_mut().for_each(|x| {
            if uniform(rng) < 0.1 {
                *x = -(m / 0.1) * between(rng, 0.5, 1.5);
            }
        }),
        Kind::DropLarge => d.iter_mut().for_each(|x| {
            if uniform(rng) < m / 0.6 {
                *x = -between(rng, 0.4, 0.8);
            }
        }),
    }
    d
}

/// k distinct indices of 0..n (partial Fisher–Yates).
fn pick(rng: &mut ChaCha8Rng, n: usize, k: usize) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    for i in 0..k {
        let j = i + (rng.next_u32() as usize % (n - i));
        idx.swap(i, j);
    }
    idx.truncate(k);
    idx
}

/// One pull request of `kind` for `team` (set number `set` of the cell's stream).
pub fn sample(seed: u64, team: &Team, kind: Kind, set: usize) -> Sample {
    let label = format!(
        "prstream-{}-{}-{}-{}",
        team.n, team.groups, team.margin, kind as u8
    );
    let mut rng = ChaCha8Rng::from_seed(stream_key(seed, &[&label, &set.to_string()]));
    let group = layout(&mut rng, team.n, team.groups);
    let hard: Vec<bool> = group.iter().map(|g| g % 4 == 0).collect();
    let d = deltas(&mut rng, kind, team.margin, &group, &hard);
    let base: Vec<f64> = d
        .iter()
        .map(|&x| between(&mut rng, (-x).max(0.0), (1.0 - x).min(1.0)))
        .collect();
    let cand = base.iter().zip(&d).map(|(b, x)| b + x).collect();
    Sample {
        group,
        hard,
        base,
        cand,
    }
}

/// The gate file of `team`, as a team would write it.
pub fn gate_text(team: &Team) -> String {
    let mut s = String::from(
        "[inputs]\nbaseline = \"baseline.jsonl\"\ncandidate = \"candidate.jsonl\"\n\n",
    );
    if team.groups {
        s.push_str("[bootstrap]\nunit = \"group\"\n\n");
    }
    if team.critical {
        s.push_str("[slices]\ncritical = [\"kind=hard\"]\n\n");
    }
    if let Some(g) = team.guarantee {
        s.push_str(&format!("[verdict]\nguarantee = \"{g}\"\n\n"));
    }
    s.push_str(&format!(
        "[[gate]]\nmetric = \"{METRIC}\"\nmax-drop = {}\n",
        team.margin
    ));
    if team.critical {
        s.push_str("slices = \"critical\"\n");
    }
    s
}

/// The validated configuration of `team`'s gate file (written into `dir`, read by
/// `config::load` as `check` reads it), with `resamples` in place of the default when given.
pub fn config(team: &Team, dir: &std::path::Path, resamples: Option<u64>) -> Config {
    let path = dir.join("gate.toml");
    std::fs::write(&path, gate_text(team)).expect("temp folder writable");
    let mut cfg = rag_gate::config::load(&path).expect("the team's gate file is valid");
    if let Some(r) = resamples {
        cfg.bootstrap.resamples = r;
    }
    cfg
}

/// The two sides as metric tables (query ids q00000…, groups g…, the `kind` tag).
pub fn tables(s: &Sample, groups: bool) -> [MetricTable; 2] {
    let hard: Arc<str> = Arc::from("hard");
    let easy: Arc<str> = Arc::from("easy");
    let kind: Arc<str> = Arc::from("kind");
    let names: BTreeMap<u32, Arc<str>> = s
        .group
        .iter()
        .map(|&g| (g, Arc::from(format!("g{g:05}").as_str())))
        .collect();
    let mut rows = Rows::default();
    for i in 0..s.base.len() {
        let tags = Tags::from_pairs(vec![(
            kind.clone(),
            if s.hard[i] {
                hard.clone()
            } else {
                easy.clone()
            },
        )]);
        let group = groups.then(|| names[&s.group[i]].clone());
        rows.push(&format!("q{i:05}"), i + 1, group.as_deref(), tags);
    }
    let table = |source: &str, v: &[f64]| MetricTable {
        source: source.into(),
        rows: rows.clone(),
        metrics: [(METRIC.to_string(), v.iter().map(|&x| Some(x)).collect())].into(),
        rounded_to: None,
    };
    [
        table("baseline.jsonl", &s.base),
        table("candidate.jsonl", &s.cand),
    ]
}

/// The verdict of `cfg` on the two tables through the stages `check` runs on two metric files:
/// pair → slices → resample → label → judge (the verdict stage) → verdict.
pub fn verdict(cfg: &Config, [base, cand]: &[MetricTable; 2]) -> Verdict {
    use rag_gate::{pair, resample, slices, verdict};
    let metrics = vec![METRIC.to_string()];
    let paired = pair::pair(base, cand, None, Missing::Error, &metrics).expect("paired");
    let slices = slices::build(cfg, &paired).expect("slices");
    let settings = resample::Settings::from_config(cfg);
    let mut comparisons = resample::compare_all(&paired, &slices, &metrics, &settings);
    verdict::label_comparisons(&mut comparisons);
    let judged = verdict::judge(cfg, &comparisons).expect("judged");
    verdict::verdict(&judged.results)
}

/// How a verdict ends a pull request: its exit code, and green or amber when it is 0.
pub fn ending(cfg: &Config, v: Verdict) -> Ending {
    match (
        rag_gate::check::exit_code(v, cfg.verdict.on_inconclusive.as_str()),
        v.as_str(),
    ) {
        (0, "pass" | "untouched") => Ending::Green,
        (0, _) => Ending::Amber,
        _ => Ending::Red,
    }
}

/// Writes the two sides as the JSONL metric files `gate_text` names, into `dir`.
pub fn write_files(s: &Sample, groups: bool, dir: &std::path::Path) {
    for (name, v) in [("baseline.jsonl", &s.base), ("candidate.jsonl", &s.cand)] {
        let mut text = String::new();
        for (i, x) in v.iter().enumerate() {
            let group = if groups {
                format!(", \"group\": \"g{:05}\"", s.group[i])
            } else {
                String::new()
            };
            let kind = if s.hard[i] { "hard" } else { "easy" };
            text.push_str(&format!(
                "{{\"query_id\": \"q{i:05}\"{group}, \"slices\": {{\"kind\": \"{kind}\"}}, \"{METRIC}\": {x:?}}}\n"
            ));
        }
        std::fs::write(dir.join(name), text).expect("temp folder writable");
    }
}
