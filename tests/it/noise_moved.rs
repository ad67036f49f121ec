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
use std::path::Path;

use support::cli::{check_json, exit, json_exit, rag_gate, write};

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
fn setup(candidate: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let none = BTreeMap::new();
    let mut files = Vec::new();
    for (k, flips) in [[0, 0], [1, 0], [0, 1]].into_iter().enumerate() {
        files.push(write(
            dir.path(),
            &format!("aa-{k}.jsonl"),
            run(flips, &none),
        ));
    }
    exit(
        rag_gate()
            .arg("aa")
            .args(&files)
            .args(["--resamples", "2000", "-o"])
            .arg(dir.path().join("noise.json")),
        0,
    );
    write(dir.path(), "base.jsonl", run([1, 1], &none));
    write(dir.path(), "cand.jsonl", candidate);
    dir
}

fn gate(dir: &Path, margin: f64, noise: bool) -> std::path::PathBuf {
    let noise = if noise {
        "[noise]\nfile = \"noise.json\"\n"
    } else {
        ""
    };
    write(
        dir,
        "gate.toml",
        format!(
            "[inputs]\nbaseline = \"base.jsonl\"\ncandidate = \"cand.jsonl\"\n[bootstrap]\nresamples = 2000\n{noise}[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = {margin}\n"
        ),
    )
}

/// Both flaky queries flip down (−0.2, −0.25): a nondeterministic no-op.
fn jittered() -> String {
    run([0, 0], &BTreeMap::new())
}

#[test]
fn aa_writes_each_flaky_querys_band() {
    let dir = setup(&jittered());
    let f: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("noise.json")).unwrap())
            .unwrap();
    assert_eq!(f["noise_version"], 2);
    let bands = f["query_bands"]["ndcg@10"].as_object().unwrap();
    assert_eq!(bands.len(), 2, "{bands:?}");
    assert!((bands["q005"].as_f64().unwrap() - 0.2).abs() < 1e-9);
    assert!((bands["q017"].as_f64().unwrap() - 0.25).abs() < 1e-9);
}

#[test]
fn a_jittered_no_op_within_the_bands_is_untouched_and_says_the_band() {
    let dir = setup(&jittered());
    let g = gate(dir.path(), 0.01, true);
    let out = exit(rag_gate().arg("check").arg(&g), 0);
    let text = String::from_utf8_lossy(&out.stdout);
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
    let report = json_exit(&mut check_json(&g), 0);
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
    let md = dir.path().join("report.md");
    exit(
        rag_gate()
            .arg("check")
            .arg(&g)
            .arg("--export-markdown")
            .arg(&md),
        0,
    );
    let md = std::fs::read_to_string(md).unwrap();
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
    let dir = setup(&jittered());
    let g = gate(dir.path(), 0.01, false);
    let report = json_exit(&mut check_json(&g), 1);
    assert_eq!(report["verdict"], "fail");
    assert!(report["comparisons"][0].get("within_noise").is_none());
}

#[test]
fn a_query_the_aa_runs_never_moved_may_move_within_the_run_band() {
    // q005 flips down (−0.2) and q040, stable in the A/A runs, moves −0.1: two queries moved,
    // as in the A/A runs, each within its band (q040's is the run band 0.25).
    let dir = setup(&run([0, 1], &[(40, -0.1)].into()));
    let g = gate(dir.path(), 0.01, true);
    let report = json_exit(&mut check_json(&g), 0);
    assert_eq!(report["verdict"], "untouched");
    assert_eq!(report["comparisons"][0]["within_noise"]["jittered"], 2);
    // Without the noise file the interval fails it.
    let g = gate(dir.path(), 0.01, false);
    json_exit(&mut check_json(&g), 1);
}

#[test]
fn one_query_more_than_the_aa_runs_moved_is_judged_as_usual() {
    // The jittered no-op plus q040 down by 0.05: three queries moved, the A/A runs moved two.
    let dir = setup(&run([0, 0], &[(40, -0.05)].into()));
    let g = gate(dir.path(), 0.01, true);
    let out = exit(rag_gate().arg("check").arg(&g), 1);
    let head = String::from_utf8_lossy(&out.stdout);
    assert!(head.starts_with("rag-gate gate: FAIL"), "{head}");
    let report = json_exit(&mut check_json(&g), 1);
    assert!(report["comparisons"][0].get("within_noise").is_none());
    assert_eq!(report["gates"][0]["status"], "fail");
}

#[test]
fn a_stable_query_moved_past_the_run_band_is_judged_as_usual() {
    // Only q040 moves, by −0.3: beyond the largest band the A/A runs showed (0.25).
    let dir = setup(&run([1, 1], &[(40, -0.3)].into()));
    let g = gate(dir.path(), 0.01, true);
    let report = json_exit(&mut check_json(&g), 1);
    assert!(report["comparisons"][0].get("within_noise").is_none());
    assert_eq!(report["verdict"], "fail");
}

#[test]
fn a_flaky_query_moved_past_its_band_is_judged_as_usual() {
    // q005 flips down (−0.2) and a further −0.05: beyond its band of 0.2.
    let dir = setup(&run([0, 0], &[(5, -0.05)].into()));
    let g = gate(dir.path(), 0.01, true);
    let report = json_exit(&mut check_json(&g), 1);
    assert!(report["comparisons"][0].get("within_noise").is_none());
    assert_eq!(report["verdict"], "fail");
}

#[test]
fn bands_wider_than_the_margin_leave_the_interval_to_judge() {
    // Within the bands, but moves within them could carry 0.0083 > the margin 0.005.
    let dir = setup(&jittered());
    let g = gate(dir.path(), 0.005, true);
    let report = json_exit(&mut check_json(&g), 1);
    assert!(report["comparisons"][0]["within_noise"].is_object());
    assert_eq!(report["gates"][0]["status"], "fail");
}

#[test]
fn a_version_1_noise_file_has_no_bands_and_keeps_tie_epsilon() {
    let dir = setup(&jittered());
    let path = dir.path().join("noise.json");
    let mut f: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    f["noise_version"] = 1.into();
    f.as_object_mut().unwrap().remove("query_bands");
    std::fs::write(&path, serde_json::to_string_pretty(&f).unwrap()).unwrap();
    let g = gate(dir.path(), 0.01, true);
    let report = json_exit(&mut check_json(&g), 1);
    assert!(report["comparisons"][0].get("within_noise").is_none());
}

/// docs/hostile.md `candidate-drops-within-noise`: a candidate that lowers only main's flaky
/// queries, each within its band, reads untouched only where such moves carry no more than the
/// margin, and its observed drop then lies within the margin; one query more, and the interval
/// judges it.
#[test]
fn candidate_drops_within_noise() {
    let dir = setup(&jittered());
    let report = json_exit(&mut check_json(gate(dir.path(), 0.01, true)), 0);
    let c = &report["comparisons"][0];
    assert_eq!(report["verdict"], "untouched");
    let carry = c["within_noise"]["can_carry"].as_f64().unwrap();
    assert!(
        carry <= 0.01 && c["delta"].as_f64().unwrap() >= -carry,
        "{c}"
    );
    json_exit(&mut check_json(gate(dir.path(), 0.005, true)), 1);
    let dir = setup(&run([0, 0], &[(30, -0.01)].into()));
    json_exit(&mut check_json(gate(dir.path(), 0.01, true)), 1);
}
