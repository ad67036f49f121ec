//! What "moved" means with an A/A noise file, through the binary: a pull request whose every
//! per-query move lies within the run-to-run band `rag-gate aa` measured, on no more queries
//! than the A/A runs moved (and whose mean delta lies within the noise floor), is untouched; a
//! move beyond a band, one query too many, bands that could carry more than the margin, or no
//! noise file leave the interval to judge as before.
//!
//! Data: 60 queries, each value fixed but for two flaky queries that flip between two values
//! from run to run (an ANN tie at a rank cut): q005 0.5 / 0.7, q017 0.3 / 0.55. Three A/A
//! replicates show both flips: 2 queries move, the run band is 0.25, and moves within the noise
//! carry at most (0.25 + 0.25) / 60 = 0.0083.

use crate::support;

use std::collections::BTreeMap;

use support::{GateFile, TestContext};

const N: usize = 60;

/// One run: the flaky queries at `flips` (0: first value, 1: second), `moved` added to others.
fn run(flips: [usize; 2], moved: &BTreeMap<usize, f64>) -> String {
    let flaky: BTreeMap<usize, [f64; 2]> = [(5, [0.5, 0.7]), (17, [0.3, 0.55])].into();
    (0..N)
        .map(|i| {
            let mut v = 0.2 + 0.6 * ((i * 37) % N) as f64 / N as f64;
            if let Some(values) = flaky.get(&i) {
                v = values[flips[if i == 5 { 0 } else { 1 }]];
            }
            v += moved.get(&i).copied().unwrap_or(0.0);
            format!("{{\"query_id\": \"q{i:03}\", \"ndcg@10\": {v:.4}}}\n")
        })
        .collect()
}

/// A folder with three A/A replicates, their noise file, the baseline (both flaky queries at
/// their second value) and `candidate`.
fn with_noise_file(candidate: &str) -> TestContext {
    let ctx = TestContext::new();
    let none = BTreeMap::new();
    let mut files = Vec::new();
    for (k, flips) in [[0, 0], [1, 0], [0, 1]].into_iter().enumerate() {
        files.push(ctx.write(format!("aa-{k}.jsonl"), run(flips, &none)));
    }
    ctx.command()
        .arg("aa")
        .args(&files)
        .args(["--resamples", "2000", "-o", "noise.json"])
        .assert()
        .code(0);
    ctx.write("base.jsonl", run([1, 1], &none));
    ctx.write("cand.jsonl", candidate);
    ctx
}

/// base.jsonl vs cand.jsonl, ndcg@10 gated on a `margin` drop, with the noise file or not.
fn noise_gate(margin: f64, noise: bool) -> GateFile {
    let gate = GateFile::new("base.jsonl", "cand.jsonl").resamples(2000);
    let gate = if noise {
        gate.table("noise", "file = \"noise.json\"")
    } else {
        gate
    };
    gate.gate("ndcg@10", &format!("max-drop = {margin}"))
}

/// Both flaky queries flip down (−0.2, −0.25): a nondeterministic no-op.
fn jittered() -> String {
    run([0, 0], &BTreeMap::new())
}

#[test]
fn aa_writes_each_flaky_querys_band() {
    let ctx = with_noise_file(&jittered());
    let f: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(ctx.path().join("noise.json")).unwrap())
            .unwrap();
    assert_eq!(f["noise_version"], 2);
    let bands = f["query_bands"]["ndcg@10"].as_object().unwrap();
    assert_eq!(bands.len(), 2, "{bands:?}");
    assert!((bands["q005"].as_f64().unwrap() - 0.2).abs() < 1e-9);
    assert!((bands["q017"].as_f64().unwrap() - 0.25).abs() < 1e-9);
}

#[test]
fn a_jittered_no_op_within_the_bands_is_untouched_and_says_the_band() {
    let ctx = with_noise_file(&jittered());
    ctx.gate(noise_gate(0.01, true));
    let out = ctx.check(&[]).expect(0);
    let text = out.stdout.as_str();
    let head = text.lines().next().unwrap();
    assert!(
        head.contains("UNTOUCHED: unchanged beyond run-to-run noise on all 60 queries"),
        "{head}"
    );
    // The band is stated: the moves, the bands' mean and the floor.
    for want in [
        "2 queries moved beyond tie-epsilon (the A/A runs moved 2), by at most 0.2500",
        "run-to-run band from noise.json (0.2500 on a query they never moved)",
        "carry a mean change of at most 0.0083",
        "run-level noise floor",
    ] {
        assert!(head.contains(want), "{want:?} not in {head}");
    }
    assert!(!text.contains("FAIL"), "{text}");
    let report = ctx.check_json(&[]).expect(0).json();
    assert_eq!(report["verdict"], "untouched");
    assert_eq!(report["gates"][0]["status"], "untouched");
    let w = &report["comparisons"][0]["within_noise"];
    assert_eq!(w["jittered"], 2, "{w}");
    assert_eq!(w["file"], "noise.json");
    assert!(
        (w["can_carry"].as_f64().unwrap() - 0.5 / 60.0).abs() < 1e-9,
        "{w}"
    );
    assert_eq!(report["comparisons"][0]["untouched"], false);
    // The Markdown gate row reads untouched as the text does, not the interval's low bound.
    ctx.check(&["--export-markdown", "report.md"]).expect(0);
    let md = ctx.read("report.md");
    let row = md
        .lines()
        .find(|l| l.starts_with("| `ndcg@10` | all | max-drop |"))
        .unwrap_or_else(|| panic!("no gate row in {md}"));
    assert!(
        row.contains("| unchanged beyond run-to-run noise |") && row.contains("✅ untouched"),
        "{row}"
    );
    assert!(!row.contains("CI low"), "{row}");
}

#[test]
fn without_a_noise_file_the_same_pair_is_judged_by_its_interval() {
    // tie-epsilon decides as before: two queries moved, and the interval on 2 moved of 60
    // cannot rule out a drop of 0.01.
    let ctx = with_noise_file(&jittered());
    ctx.gate(noise_gate(0.01, false));
    let report = ctx.check_json(&[]).expect(1).json();
    assert_eq!(report["verdict"], "fail");
    assert!(report["comparisons"][0].get("within_noise").is_none());
}

#[test]
fn a_query_the_aa_runs_never_moved_may_move_within_the_run_band() {
    // q005 flips down (−0.2) and q040, stable in the A/A runs, moves −0.1: two queries moved,
    // as in the A/A runs, each within its band (q040's is the run band 0.25).
    let ctx = with_noise_file(&run([0, 1], &[(40, -0.1)].into()));
    ctx.gate(noise_gate(0.01, true));
    let report = ctx.check_json(&[]).expect(0).json();
    assert_eq!(report["verdict"], "untouched");
    assert_eq!(report["comparisons"][0]["within_noise"]["jittered"], 2);
    // Without the noise file the interval fails it.
    ctx.gate(noise_gate(0.01, false));
    ctx.check_json(&[]).expect(1).json();
}

#[test]
fn one_query_more_than_the_aa_runs_moved_is_judged_as_usual() {
    // The jittered no-op plus q040 down by 0.05: three queries moved, the A/A runs moved two.
    let ctx = with_noise_file(&run([0, 0], &[(40, -0.05)].into()));
    ctx.gate(noise_gate(0.01, true));
    let out = ctx.check(&[]).expect(1);
    let head = out.stdout.as_str();
    assert!(head.starts_with("rag-gate gate: FAIL"), "{head}");
    let report = ctx.check_json(&[]).expect(1).json();
    assert!(report["comparisons"][0].get("within_noise").is_none());
    assert_eq!(report["gates"][0]["status"], "fail");
}

#[test]
fn a_stable_query_moved_past_the_run_band_is_judged_as_usual() {
    // Only q040 moves, by −0.3: beyond the largest band the A/A runs showed (0.25).
    let ctx = with_noise_file(&run([1, 1], &[(40, -0.3)].into()));
    ctx.gate(noise_gate(0.01, true));
    let report = ctx.check_json(&[]).expect(1).json();
    assert!(report["comparisons"][0].get("within_noise").is_none());
    assert_eq!(report["verdict"], "fail");
}

#[test]
fn a_flaky_query_moved_past_its_band_is_judged_as_usual() {
    // q005 flips down (−0.2) and a further −0.05: beyond its band of 0.2.
    let ctx = with_noise_file(&run([0, 0], &[(5, -0.05)].into()));
    ctx.gate(noise_gate(0.01, true));
    let report = ctx.check_json(&[]).expect(1).json();
    assert!(report["comparisons"][0].get("within_noise").is_none());
    assert_eq!(report["verdict"], "fail");
}

#[test]
fn bands_wider_than_the_margin_leave_the_interval_to_judge() {
    // Within the bands, but moves within them could carry 0.0083 > the margin 0.005.
    let ctx = with_noise_file(&jittered());
    ctx.gate(noise_gate(0.005, true));
    let report = ctx.check_json(&[]).expect(1).json();
    assert!(report["comparisons"][0]["within_noise"].is_object());
    assert_eq!(report["gates"][0]["status"], "fail");
}

#[test]
fn a_version_1_noise_file_has_no_bands_and_keeps_tie_epsilon() {
    let ctx = with_noise_file(&jittered());
    let path = ctx.path().join("noise.json");
    let mut f: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    f["noise_version"] = 1.into();
    f.as_object_mut().unwrap().remove("query_bands");
    std::fs::write(&path, serde_json::to_string_pretty(&f).unwrap()).unwrap();
    ctx.gate(noise_gate(0.01, true));
    let report = ctx.check_json(&[]).expect(1).json();
    assert!(report["comparisons"][0].get("within_noise").is_none());
}

/// docs/hostile.md `candidate-drops-within-noise`: a candidate that lowers only main's flaky
/// queries, each within its band, reads untouched only where such moves carry no more than the
/// margin, and its observed drop then lies within the margin; one query more, and the interval
/// judges it.
#[test]
fn candidate_drops_within_noise() {
    let ctx = with_noise_file(&jittered());
    let report = {
        ctx.gate(noise_gate(0.01, true));
        ctx.check_json(&[]).expect(0).json()
    };
    let c = &report["comparisons"][0];
    assert_eq!(report["verdict"], "untouched");
    let carry = c["within_noise"]["can_carry"].as_f64().unwrap();
    assert!(
        carry <= 0.01 && c["delta"].as_f64().unwrap() >= -carry,
        "{c}"
    );
    {
        ctx.gate(noise_gate(0.005, true));
        ctx.check_json(&[]).expect(1).json()
    };
    let ctx = with_noise_file(&run([0, 0], &[(30, -0.01)].into()));
    {
        ctx.gate(noise_gate(0.01, true));
        ctx.check_json(&[]).expect(1).json()
    };
}
