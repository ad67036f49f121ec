//! The probe's calibration: escape at the margin and friction on honest pull requests of a gate
//! file with `[probe]` (the labelled set and the probe combined, the tighter bound deciding)
//! beside the same gate file without it (the labelled set alone), each pull request written as
//! files and judged by `check::analyze`, as `rag-gate check` judges them.
//!
//! A pull request touches a share q of the population's queries; each touched query drops s
//! documents out of its top 10 and takes in s new ones (s = 0: ranks 1 and 2 trade places). The
//! gated metric is `p@10` (worst loss s/10) or `ndcg@10` (worst loss 1 for any change of its top
//! 10), with `max-drop` m; the labelled values are the same tenths under either name. In the labelled set (n queries) a touched query loses what the design says; in
//! the probe (N queries, unlabelled) the same share is touched, and its worst feasible loss is
//! s/10. Regressions at the margin lose exactly their worst case on every touched query (the
//! probe's own worst case realised: its bound is then tight), so the population's true mean loss
//! is m. Generators: seeded ChaCha8, one stream per cell and pull request.

use std::fmt::Write;

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One kind of pull request.
#[derive(Debug, Clone, Copy)]
pub struct Design {
    pub name: &'static str,
    /// Share of queries touched.
    pub share: f64,
    /// Documents swapped out of a touched query's top 10.
    pub swapped: usize,
    /// The labelled loss of a touched query: `Some(l)` loses l (p@10), `None` an honest change
    /// of ±s/10 with equal odds (true mean 0).
    pub loss: Option<f64>,
}

impl Design {
    pub fn honest(&self) -> bool {
        self.loss.is_none_or(|l| l <= 0.0)
    }
}

/// The designs: three regressions at m = 0.02 (true mean loss q·l = m), three honest ones.
pub const DESIGNS: [Design; 6] = [
    Design {
        name: "drop-few-total 2% x 1.0",
        share: 0.02,
        swapped: 10,
        loss: Some(1.0),
    },
    Design {
        name: "drop-few 4% x 0.5",
        share: 0.04,
        swapped: 5,
        loss: Some(0.5),
    },
    Design {
        name: "drop-broad 20% x 0.1",
        share: 0.20,
        swapped: 1,
        loss: Some(0.1),
    },
    Design {
        name: "refactor-reorder 3% (set kept)",
        share: 0.03,
        swapped: 0,
        loss: Some(0.0),
    },
    Design {
        name: "refactor-swap 1% x 0.1 (equal)",
        share: 0.01,
        swapped: 1,
        loss: Some(0.0),
    },
    Design {
        name: "honest-noisy 30% x ±0.1",
        share: 0.30,
        swapped: 1,
        loss: None,
    },
];

pub const MARGIN: f64 = 0.02;

fn uniform(rng: &mut ChaCha8Rng) -> f64 {
    (f64::from(rng.next_u32()) + 0.5) / 4_294_967_296.0
}

/// A p@10 value on the grid of tenths, uniform over those from `lo` to 1.
fn grid_from(rng: &mut ChaCha8Rng, lo: f64) -> f64 {
    let steps = ((1.0 - lo) * 10.0).round() as u32;
    lo + f64::from(rng.next_u32() % (steps + 1)) / 10.0
}

/// The labelled set's two JSONL metric files (n queries).
pub fn labelled(rng: &mut ChaCha8Rng, d: &Design, n: usize, metric: &str) -> [String; 2] {
    let (mut b, mut c) = (String::new(), String::new());
    for i in 0..n {
        let touched = uniform(rng) < d.share;
        let delta = match (touched, d.loss) {
            (false, _) => 0.0,
            (true, Some(l)) => -l,
            (true, None) => {
                if uniform(rng) < 0.5 {
                    -(d.swapped as f64) / 10.0
                } else {
                    d.swapped as f64 / 10.0
                }
            }
        };
        // Both sides stay in [0, 1]: a loss l starts from [l, 1], a gain g from [0, 1 − g].
        let base = if delta < 0.0 {
            grid_from(rng, -delta)
        } else {
            1.0 - grid_from(rng, delta)
        };
        let cand = ((base + delta) * 10.0).round() / 10.0;
        let _ = writeln!(b, "{{\"query_id\":\"l{i}\",\"{metric}\":{base:.1}}}");
        let _ = writeln!(c, "{{\"query_id\":\"l{i}\",\"{metric}\":{cand:.1}}}");
    }
    [b, c]
}

/// The probe's two TREC runs (n queries, depth 10).
pub fn probe(rng: &mut ChaCha8Rng, d: &Design, n: usize) -> [String; 2] {
    let (mut b, mut c) = (String::new(), String::new());
    for q in 0..n {
        let touched = uniform(rng) < d.share;
        for r in 1..=10usize {
            let _ = writeln!(b, "u{q} Q0 d{q}-{r} {r} {} b", 100 - r);
            let doc = if touched && r > 10 - d.swapped {
                format!("n{q}-{r}")
            } else if touched && d.swapped == 0 {
                // Reordered: ranks 1 and 2 trade places, the set kept.
                format!(
                    "d{q}-{}",
                    match r {
                        1 => 2,
                        2 => 1,
                        r => r,
                    }
                )
            } else {
                format!("d{q}-{r}")
            };
            let _ = writeln!(c, "u{q} Q0 {doc} {r} {} c", 100 - r);
        }
    }
    [b, c]
}

/// The gate file on `metric`, with `[probe]` or without.
pub fn gate_text(metric: &str, with_probe: bool, resamples: u64) -> String {
    let probe = if with_probe {
        "[probe]\nbaseline = \"probe-b.txt\"\ncandidate = \"probe-c.txt\"\n"
    } else {
        ""
    };
    format!(
        "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n[bootstrap]\nresamples = {resamples}\n\
         {probe}[[gate]]\nmetric = \"{metric}\"\nmax-drop = {MARGIN}\n"
    )
}

/// The generator of pull request `set` of `design` under `seed`.
pub fn rng(seed: u64, design: usize, set: usize) -> ChaCha8Rng {
    let key = rag_gate::stats::streams::stream_key(
        seed,
        &["probe-calibration", DESIGNS[design].name, &set.to_string()],
    );
    ChaCha8Rng::from_seed(key)
}
