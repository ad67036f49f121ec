//! The bootstrap-t's tie guard against an independent reference
//! (`calibration/scipy_ties.py` → `tests/data/stats/scipy_ties.json`: the CR2 standard error and
//! Bell–McCaffrey df from the general matrix formulas, scipy's t quantile, and the tilted score
//! bounds solved by scipy's brentq on the raw units), in the library and through the binary.

use crate::support;

use rag_gate::resample::estimate::{estimate, Input};
use rag_gate::stats::bootstrap::group_sums;
use rag_gate::stats::interval::IntervalMethod;
use rag_gate::stats::small_sample::{bm_df, correlated_groups, se_cr0_cr2};
use rag_gate::stats::statistic::Statistic;
use rag_gate::stats::ties::{t_bounds, tied_share, TIE_SHARE};
use rag_gate::stats::tilt;
use serde_json::Value;
use support::output::comparison;
use support::scipy::floats;
use support::{GateFile, TestContext};

struct Case {
    name: String,
    deltas: Vec<f64>,
    group_of: Option<Vec<u32>>,
    json: Value,
}

impl Case {
    fn f(&self, key: &str) -> f64 {
        self.json[key].as_f64().unwrap()
    }
    fn t_bounds(&self) -> Vec<f64> {
        floats(&self.json["t_bounds"])
    }
    fn tilt_bounds(&self) -> Vec<f64> {
        floats(&self.json["tilt_bounds"])
    }
    /// The guarded interval the references give: per side the wider of t and tilt.
    fn guarded(&self) -> [f64; 2] {
        let (t, w) = (self.t_bounds(), self.tilt_bounds());
        [t[0].min(w[0]), t[1].max(w[1])]
    }
    /// Unit values, sizes and unit means (singletons for the query unit).
    fn units(&self) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
        let (sums, sizes) = match &self.group_of {
            Some(of) => group_sums(&self.deltas, of, *of.iter().max().unwrap() as usize + 1),
            None => (self.deltas.clone(), vec![1.0; self.deltas.len()]),
        };
        let means = sums.iter().zip(&sizes).map(|(s, k)| s / k).collect();
        (sums, sizes, means)
    }
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string("tests/data/stats/scipy_ties.json").unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    v["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| Case {
            name: c["name"].as_str().unwrap().to_string(),
            deltas: floats(&c["deltas"]),
            group_of: c["group_of"]
                .as_array()
                .map(|a| a.iter().map(|g| g.as_u64().unwrap() as u32).collect()),
            json: c.clone(),
        })
        .collect()
}

fn close(a: f64, b: f64, what: &str) {
    assert!(
        (a - b).abs() <= 1e-9 * (1.0 + b.abs()),
        "{what}: {a} vs {b}"
    );
}

#[test]
fn se_df_ties_and_t_bounds_match_the_matrix_reference() {
    for c in cases() {
        let (sums, sizes, means) = c.units();
        close(se_cr0_cr2(&sums, &sizes).1, c.f("se_cr2"), &c.name);
        close(bm_df(&sizes), c.f("bm_df"), &c.name);
        close(tied_share(&means), c.f("tied_share"), &c.name);
        let mean = sums.iter().sum::<f64>() / sizes.iter().sum::<f64>();
        let [lo, hi] = t_bounds(mean, c.f("se_cr2"), c.f("bm_df"), 0.95).unwrap();
        let want = c.t_bounds();
        close(lo, want[0], &c.name);
        close(hi, want[1], &c.name);
    }
}

#[test]
fn tilted_bounds_match_the_brentq_reference() {
    for c in cases() {
        let (sums, sizes, _) = c.units();
        let sizes = c.group_of.as_ref().map(|_| sizes.as_slice());
        let got = tilt::bounds(&sums, sizes, c.f("bm_df"), 0.95, f64::INFINITY).unwrap();
        let want = c.tilt_bounds();
        close(got[0], want[0], &format!("{} low", c.name));
        close(got[1], want[1], &format!("{} high", c.name));
    }
}

fn report_interval(c: &Case, seed: u64) -> [f64; 2] {
    let base = vec![0.0; c.deltas.len()];
    let groups = c
        .group_of
        .as_ref()
        .map(|g| (g.as_slice(), *g.iter().max().unwrap() as usize + 1));
    let e = estimate(
        &Input {
            base: &base,
            cand: &c.deltas,
            deltas: &c.deltas,
            groups,
            statistic: Statistic::Mean,
            method: IntervalMethod::BootstrapT,
            confidence: 0.95,
            resamples: 2000,
            seed,
            names: ["m", "all"],
            tie_epsilon: rag_gate::config::DEFAULT_TIE_EPSILON,
            cand_runs: &[],
            few_groups_below: 0.0,
        },
        &[],
        None,
    );
    e.interval.bounds
}

/// `got` reaches at least as far as `want` on each side (to rounding).
fn at_least(got: [f64; 2], want: [f64; 2], what: &str) {
    let tol = |b: f64| 1e-9 * (1.0 + b.abs());
    assert!(
        got[0] <= want[0] + tol(want[0]),
        "{what} low: {} vs {}",
        got[0],
        want[0]
    );
    assert!(
        got[1] >= want[1] - tol(want[1]),
        "{what} high: {} vs {}",
        got[1],
        want[1]
    );
}

#[test]
fn on_tie_heavy_units_the_default_interval_reaches_the_wider_of_t_and_tilt() {
    // Per side the widest of the bootstrap-t, t and tilt, on every sample: at least the
    // references' wider of t and tilt, for every seed.
    let (mut by_t, mut by_tilt) = (0, 0);
    for c in cases() {
        assert!(
            c.f("tied_share") >= TIE_SHARE,
            "{}: the cases are tie-heavy",
            c.name
        );
        let want = c.guarded();
        for seed in [1, 2, 3] {
            let got = report_interval(&c, seed);
            at_least(got, want, &format!("{}, seed {seed}", c.name));
        }
        let (t, w) = (c.t_bounds(), c.tilt_bounds());
        by_t += usize::from(t[0] < w[0]) + usize::from(t[1] > w[1]);
        by_tilt += usize::from(w[0] < t[0]) + usize::from(w[1] > t[1]);
    }
    assert!(by_t > 0 && by_tilt > 0, "each rule decides some side");
}

#[test]
fn the_report_of_a_sparse_change_carries_the_guarded_bounds() {
    // 30 queries, 2 moved: through `check`, the JSON interval reaches at least the references'
    // wider of the t and the tilted bound per side.
    let c = cases()
        .into_iter()
        .find(|c| c.name == "sparse-15pct-n30")
        .unwrap();
    let ctx = TestContext::new();
    let (mut b, mut k) = (String::new(), String::new());
    for (i, d) in c.deltas.iter().enumerate() {
        b.push_str(&format!("{{\"query_id\": \"q{i}\", \"ndcg@10\": 0.5}}\n"));
        k.push_str(&format!(
            "{{\"query_id\": \"q{i}\", \"ndcg@10\": {}}}\n",
            0.5 + d
        ));
    }
    ctx.write("b.jsonl", b);
    ctx.write("c.jsonl", k);
    ctx.gate(
        GateFile::new("b.jsonl", "c.jsonl")
            .resamples(2000)
            .table("slices", "min-queries = 5")
            .gate("ndcg@10", "max-drop = 0.01"),
    );
    let out = ctx.check_json(&[]);
    let r = out.json();
    let ci = floats(&comparison(&r, "ndcg@10", "all")["ci"]);
    let want = c.guarded();
    at_least([ci[0], ci[1]], want, "check's interval");
    // The low bound is below −0.01: max-drop 0.01 cannot prove no harm on two moved queries.
    assert!(ci[0] < -0.01, "{ci:?}");
    assert_eq!(out.code, Some(1));
}

#[test]
fn correlated_effective_groups_match_the_matrix_reference() {
    // 1 + the Imbens–Kolesár df under Ω = σ²_e I + σ²_u J per group, from numpy's eigenvalues.
    let text = std::fs::read_to_string("tests/data/stats/scipy_ties.json").unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    for d in v["designs"].as_array().unwrap() {
        let sizes = floats(&d["sizes"]);
        let got = correlated_groups(
            &sizes,
            d["sigma2_e"].as_f64().unwrap(),
            d["sigma2_u"].as_f64().unwrap(),
        );
        close(got, d["ik_groups"].as_f64().unwrap(), &format!("{sizes:?}"));
    }
}
