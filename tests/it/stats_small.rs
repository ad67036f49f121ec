//! Small samples through the binary: too few groups is *not judged* (min-groups, counted as the
//! effective number of groups), a `fail-if-significant-drop` whose sign-flip p cannot reach its
//! level says so, and the report carries the p floor and the effective groups.

use crate::support;

use std::path::Path;

use serde_json::Value;
use support::cli::{assert_contains, check_json, code_and_stderr, exit, rag_gate};

/// Writes b.jsonl / c.jsonl: `sizes[g]` queries in group g; groups listed in `slice_groups` are
/// tagged risk=compliance. Every candidate value is the baseline's minus `drop` plus a wobble.
fn write(dir: &Path, sizes: &[usize], slice_groups: &[usize], drop: f64) {
    let (mut b, mut c) = (String::new(), String::new());
    let mut q = 0;
    for (g, &size) in sizes.iter().enumerate() {
        let risk = if slice_groups.contains(&g) {
            "compliance"
        } else {
            "none"
        };
        for _ in 0..size {
            let x = 0.3 + 0.6 * ((q * 37 % 101) as f64 / 101.0);
            let wobble = 0.02 * ((q * 13 % 7) as f64 - 3.0);
            let tags = format!("\"group\": \"g{g}\", \"slices\": {{\"risk\": \"{risk}\"}}");
            b.push_str(&format!(
                "{{\"query_id\": \"q{q}\", {tags}, \"ndcg@10\": {x}}}\n"
            ));
            c.push_str(&format!(
                "{{\"query_id\": \"q{q}\", {tags}, \"ndcg@10\": {}}}\n",
                x - drop + wobble
            ));
            q += 1;
        }
    }
    std::fs::write(dir.join("b.jsonl"), b).unwrap();
    std::fs::write(dir.join("c.jsonl"), c).unwrap();
}

fn check(dir: &Path, extra_slices: &str, rule: &str) -> (Option<i32>, Value) {
    let gate = dir.join("g.toml");
    std::fs::write(
        &gate,
        format!(
            "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n[bootstrap]\nresamples = 2000\nunit = \"group\"\n\
             [slices]\nby = [\"risk\"]\ncritical = [\"risk=compliance\"]\nmin-queries = 5\n{extra_slices}\n\
             [[gate]]\nmetric = \"ndcg@10\"\n{rule}\nslices = [\"risk=compliance\"]\n"
        ),
    )
    .unwrap();
    let out = check_json(&gate).output().unwrap();
    let r = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code(), r)
}

fn compliance(r: &Value) -> &Value {
    r["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["slice"] == "risk=compliance")
        .unwrap()
}

#[test]
fn five_conversations_are_not_judged_under_the_default_min_groups() {
    let dir = tempfile::tempdir().unwrap();
    // 30 groups of 4; the compliance slice holds 5 of them (20 queries, above min-queries 5).
    write(dir.path(), &[4; 30], &[0, 1, 2, 3, 4], 0.0);
    let (code, r) = check(dir.path(), "", "max-drop = 0.01");
    let g = &r["gates"][0];
    assert_eq!(g["status"], "too-small", "{g}");
    assert_eq!(g["decided_by"], "not judged: too small (min-groups)");
    assert!(
        g["detail"]
            .as_str()
            .unwrap()
            .starts_with("not judged, 5 groups < min-groups 8"),
        "{}",
        g["detail"]
    );
    assert_eq!(compliance(&r)["effective_groups"], 5.0);
    // A failure by default (on-small-slice = "fail"); a warning with "warn".
    assert_eq!(code, Some(1));
    let (code, _) = check(dir.path(), "on-small-slice = \"warn\"", "max-drop = 0.01");
    assert_eq!(code, Some(0));
    let (code, r) = check(dir.path(), "on-small-slice = \"fail\"", "max-drop = 0.01");
    assert_eq!(code, Some(1));
    assert_eq!(r["gates"][0]["passed"], false);
    // With min-groups = 5 it is judged (and fails: 5 groups cannot prove a drop under 0.01).
    let (_, r) = check(dir.path(), "min-groups = 5", "max-drop = 0.01");
    assert_eq!(
        r["gates"][0]["decided_by"], "non-inferiority (max-drop)",
        "{}",
        r["gates"][0]
    );
}

#[test]
fn very_unequal_groups_count_as_their_effective_number() {
    let dir = tempfile::tempdir().unwrap();
    // Compliance: 10 groups, one of 30 queries and nine of 1: Kish (39)² / (900 + 9) = 1.67
    // groups; counted with the (weak) within-group correlation of these deltas, 1 + IK df = 2.6.
    let mut sizes = vec![30];
    sizes.extend([1; 9]);
    sizes.extend([4; 20]);
    write(dir.path(), &sizes, &(0..10).collect::<Vec<_>>(), 0.0);
    let (_, r) = check(dir.path(), "", "max-drop = 0.01");
    let g = &r["gates"][0];
    assert_eq!(g["status"], "too-small");
    assert!(
        g["detail"].as_str().unwrap().starts_with(
            "not judged, 2.6 effective groups (10 groups, weighed by size and within-group correlation) < min-groups 8"
        ),
        "{}",
        g["detail"]
    );
    let eff = compliance(&r)["effective_groups"].as_f64().unwrap();
    // numpy, from the matrices (calibration/scipy_ties.py's ik_groups on these deltas' ANOVA
    // components σ²_e = 0.0017931, σ²_u = 0): 2.5903083700440526.
    assert!((eff - 2.590_308_370_044_052_6).abs() < 1e-9, "{eff}");
}

#[test]
fn a_proven_harm_rule_that_cannot_fire_says_so() {
    let dir = tempfile::tempdir().unwrap();
    // Everything drops by 0.2: the interval is far below −0.01, but 5 groups give p ≥ 2/32 > 0.05.
    write(dir.path(), &[4; 30], &[0, 1, 2, 3, 4], 0.2);
    let (_, r) = check(
        dir.path(),
        "min-groups = 3",
        "fail-if-significant-drop = 0.01",
    );
    let c = compliance(&r);
    assert_eq!(c["p_floor"], 0.0625);
    // Undecided on this sample, with an observed drop of 0.2 ≥ m/2: it fails.
    let g = &r["gates"][0];
    assert_eq!(g["status"], "fail", "{g}");
    assert_eq!(
        g["decided_by"],
        "undecided, observed drop at or past half the margin"
    );
    let detail = g["detail"].as_str().unwrap();
    assert!(
        detail.contains(
            "the sign-flip p-value cannot go below 0.0625 (5 units with a non-zero delta)"
        ) && detail.contains("this rule cannot fire here"),
        "{detail}"
    );
    let warnings = r["warnings"].to_string();
    assert!(
        warnings.contains("fail-if-significant-drop has 0 power"),
        "{warnings}"
    );
}

#[test]
fn min_groups_must_be_positive_and_is_dumped() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), &[4; 10], &[0], 0.0);
    let gate = dir.path().join("g.toml");
    std::fs::write(
        &gate,
        "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n[slices]\nmin-groups = 0\n\
         [[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n",
    )
    .unwrap();
    let (code, err) = code_and_stderr(rag_gate().arg("check").arg(&gate));
    assert_eq!(code, Some(2));
    assert_contains(&err, "g.toml:5:14: [slices] min-groups must be ≥ 1");
    std::fs::write(
        &gate,
        "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n\
         [[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n",
    )
    .unwrap();
    let out = exit(rag_gate().arg("check").arg(&gate).arg("--dump-config"), 0);
    let dumped = String::from_utf8_lossy(&out.stdout);
    assert_contains(&dumped, "min-groups = 8");
    assert_contains(&dumped, "method = \"bootstrap-t\"");
}

#[test]
fn the_headline_names_the_groups_or_the_sign_flip_floor_that_made_it_too_small() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), &[4; 30], &[0, 1, 2, 3, 4], 0.0);
    let (code, r) = check(dir.path(), "on-small-slice = \"fail\"", "max-drop = 0.01");
    assert_eq!(code, Some(1));
    let headline = r["headline"].as_str().unwrap();
    assert!(
        headline.starts_with(
            "FAIL: ndcg@10 on risk=compliance not judged: 5 groups, too few to judge max-drop"
        ),
        "{headline}"
    );
    // Unequal sizes: the effective number.
    let mut sizes = vec![30];
    sizes.extend([1; 9]);
    sizes.extend([4; 20]);
    write(dir.path(), &sizes, &(0..10).collect::<Vec<_>>(), 0.0);
    let (_, r) = check(dir.path(), "on-small-slice = \"fail\"", "max-drop = 0.01");
    let headline = r["headline"].as_str().unwrap();
    assert!(
        headline.contains("not judged: 2.6 effective groups (of 10), too few"),
        "{headline}"
    );
    write(dir.path(), &[4; 30], &[0, 1, 2, 3, 4], 0.2);
    let (_, r) = check(
        dir.path(),
        "min-groups = 3\non-small-slice = \"fail\"",
        "fail-if-significant-drop = 0.01",
    );
    let headline = r["headline"].as_str().unwrap();
    assert!(
        headline.starts_with(
            "FAIL: ndcg@10 on risk=compliance: fail-if-significant-drop cannot fire, the sign-flip test has 5 units with a non-zero delta and needs at least 6; add groups, or gate with max-drop instead"
        ),
        "{headline}"
    );
}

#[test]
fn compare_warns_where_check_would_not_judge() {
    // 5 conversations of 8 turns: 40 queries (above min-queries 30), 5 groups < min-groups 8.
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), &[8; 5], &[], 0.0);
    let out = rag_gate()
        .current_dir(dir.path())
        .args(["compare", "b.jsonl", "c.jsonl", "--unit", "group"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_contains(
        &text,
        "1 comparison is smaller than check judges (its defaults: min-queries 30, min-groups 8), so their labels rest on too few units: ndcg@10 on all (5 groups < min-groups 8)",
    );
    // 30 groups: nothing to warn about.
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), &[4; 30], &[], 0.0);
    let out = rag_gate()
        .current_dir(dir.path())
        .args(["compare", "b.jsonl", "c.jsonl", "--unit", "group"])
        .output()
        .unwrap();
    assert!(!String::from_utf8(out.stdout)
        .unwrap()
        .contains("smaller than check judges"));
}
