//! Small samples through the binary: too few groups (min-groups, counted as the effective number
//! of groups) is judged on the small-sample cluster interval with a setup warning under the
//! default `on-small-slice = "judge"` and *not judged* under `"fail"` / `"warn"`, a
//! `fail-if-significant-drop` whose sign-flip p cannot reach its level says so, and the report
//! carries the p floor and the effective groups.

use crate::support;

use std::path::Path;

use serde_json::Value;
use support::output::assert_contains;
use support::{GateFile, TestContext};

/// Writes b.jsonl / c.jsonl: `sizes[g]` queries in group g; groups listed in `slice_groups` are
/// tagged risk=compliance. Every candidate value is the baseline's minus `drop` plus a wobble.
fn groups(dir: &Path, sizes: &[usize], slice_groups: &[usize], drop: f64) {
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

/// ndcg@10 by group on the critical slice `risk=compliance`, gated by `rule`, with
/// `extra_slices` in `[slices]`.
fn compliance_gate(extra_slices: &str, rule: &str) -> GateFile {
    GateFile::new("b.jsonl", "c.jsonl")
        .table("bootstrap", "resamples = 2000\nunit = \"group\"")
        .table(
            "slices",
            &format!(
                "by = [\"risk\"]\ncritical = [\"risk=compliance\"]\nmin-queries = 5\n{extra_slices}"
            ),
        )
        .gate(
            "ndcg@10",
            &format!("{rule}\nslices = [\"risk=compliance\"]"),
        )
}

fn compliance(r: &Value) -> &Value {
    r["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["slice"] == "risk=compliance")
        .unwrap()
}

/// Writes b.jsonl / c.jsonl: `sizes[g]` queries in group g, those of `slice_groups` tagged
/// risk=compliance; every candidate value equals the baseline's except query q, moved by d for
/// each (q, d) of `moves`.
fn moved(dir: &Path, sizes: &[usize], slice_groups: &[usize], moves: &[(usize, f64)]) {
    groups(dir, sizes, slice_groups, 0.0);
    let base = std::fs::read_to_string(dir.join("b.jsonl")).unwrap();
    let cand: String = base
        .lines()
        .enumerate()
        .map(|(q, line)| {
            let mut row: Value = serde_json::from_str(line).unwrap();
            let d = moves.iter().find(|m| m.0 == q).map_or(0.0, |m| m.1);
            row["ndcg@10"] = (row["ndcg@10"].as_f64().unwrap() + d).into();
            format!("{row}\n")
        })
        .collect();
    std::fs::write(dir.join("c.jsonl"), cand).unwrap();
}

/// The compliance slice's one gate result.
fn compliance_gate_result(r: &Value) -> &Value {
    r["gates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["slice"] == "risk=compliance")
        .unwrap()
}

#[test]
fn five_conversations_are_judged_on_the_small_sample_cluster_interval_by_default() {
    let ctx = TestContext::new();
    // 30 groups of 4; the compliance slice holds 5 of them (20 queries, above min-queries 5).
    // A refactor: three of its queries move by at most 0.004, either way.
    let refactor = [(1, 0.004), (6, -0.003), (11, 0.002)];
    moved(ctx.path(), &[4; 30], &[0, 1, 2, 3, 4], &refactor);
    ctx.gate(compliance_gate("", "max-drop = 0.05"));
    let (code, r) = ctx.check_json(&[]).verdict_json();
    let g = compliance_gate_result(&r);
    assert_eq!(code, 0, "{g}");
    assert_eq!(g["status"], "pass", "{g}");
    assert_eq!(
        g["decided_by"],
        "non-inferiority (max-drop), small-sample cluster interval (CR2, Imbens–Kolesár t)"
    );
    assert_eq!(compliance(&r)["effective_groups"], 5.0);
    // Equal sizes: the Student t interval on the 5 group means (0.001, −0.00075, 0.0005, 0, 0),
    // t(0.975, 4) = 2.7764451051977987 (scipy.stats.t.ppf); here no tilted side is wider.
    let means = [0.001, -0.00075, 0.0005, 0.0, 0.0];
    let mean = means.iter().sum::<f64>() / 5.0;
    let var = means.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / 4.0;
    let half = 2.776_445_105_197_798_7 * (var / 5.0).sqrt();
    let ci = &compliance(&r)["ci"];
    for (bound, want) in [(&ci[0], mean - half), (&ci[1], mean + half)] {
        assert!(
            (bound.as_f64().unwrap() - want).abs() < 1e-9,
            "{ci} vs {want}"
        );
    }
    let warnings = r["warnings"].to_string();
    assert_contains(
        &warnings,
        "gate #1 ndcg@10 on risk=compliance, max-drop: judged on 5 groups, fewer than min-groups 8: the small-sample cluster interval decided (the Student t on the CR2 standard error with the Imbens–Kolesár degrees of freedom, effective groups − 1; on-small-slice = \\\"judge\\\", the default)",
    );
    assert_contains(&warnings, "set [verdict] accept-blind-spot = true");
    // Its interval is shown in the text report, not "too small".
    let text = ctx.check(&[]).expect(0).stdout;
    assert!(!text.contains("too small"), "{text}");

    // Accepted once in the gate file: no warning.
    ctx.gate(compliance_gate("", "max-drop = 0.05").table("verdict", "accept-blind-spot = true"));
    let (code, r) = ctx.check_json(&[]).verdict_json();
    assert_eq!(code, 0);
    assert!(
        !r["warnings"].to_string().contains("fewer than min-groups"),
        "{}",
        r["warnings"]
    );

    // A real drop on the slice (every query by 0.2, with a wobble): it fails.
    groups(ctx.path(), &[4; 30], &[0, 1, 2, 3, 4], 0.2);
    ctx.gate(compliance_gate("", "max-drop = 0.05"));
    let (code, r) = ctx.check_json(&[]).verdict_json();
    let g = compliance_gate_result(&r);
    assert_eq!(code, 1, "{g}");
    assert_eq!(g["status"], "fail", "{g}");
    assert!(g["value"].as_f64().unwrap() < -0.05, "{g}");

    // Identical results: untouched, no size warning.
    moved(ctx.path(), &[4; 30], &[0, 1, 2, 3, 4], &[]);
    let (code, r) = ctx.check_json(&[]).verdict_json();
    assert_eq!(code, 0);
    assert_eq!(compliance_gate_result(&r)["status"], "untouched");
    assert!(!r["warnings"].to_string().contains("fewer than min-groups"));
}

#[test]
fn five_conversations_are_not_judged_under_fail_or_warn() {
    let ctx = TestContext::new();
    let refactor = [(1, 0.004), (6, -0.003), (11, 0.002)];
    moved(ctx.path(), &[4; 30], &[0, 1, 2, 3, 4], &refactor);
    ctx.gate(compliance_gate(
        "on-small-slice = \"fail\"",
        "max-drop = 0.05",
    ));
    let (code, r) = ctx.check_json(&[]).verdict_json();
    let g = compliance_gate_result(&r);
    assert_eq!(code, 1);
    assert_eq!(g["status"], "too-small", "{g}");
    assert_eq!(g["passed"], false);
    assert_eq!(g["decided_by"], "not judged: too small (min-groups)");
    assert!(
        g["detail"]
            .as_str()
            .unwrap()
            .starts_with("not judged, 5 groups < min-groups 8"),
        "{}",
        g["detail"]
    );
    // "warn": not judged, a warning on the slice, not a failure.
    ctx.gate(compliance_gate(
        "on-small-slice = \"warn\"",
        "max-drop = 0.05",
    ));
    let (code, r) = ctx.check_json(&[]).verdict_json();
    assert_eq!(code, 0);
    assert_eq!(compliance_gate_result(&r)["status"], "too-small");
    // With min-groups = 5 it is judged on the regular interval, without the size warning.
    ctx.gate(compliance_gate("min-groups = 5", "max-drop = 0.05"));
    let (_, r) = ctx.check_json(&[]).verdict_json();
    assert_eq!(
        compliance_gate_result(&r)["decided_by"],
        "non-inferiority (max-drop)",
        "{}",
        r["gates"]
    );
    // A method the small-sample interval was not calibrated for keeps the floor.
    ctx.gate(
        GateFile::new("b.jsonl", "c.jsonl")
            .table(
                "bootstrap",
                "resamples = 2000\nunit = \"group\"\nmethod = \"percentile\"",
            )
            .table(
                "slices",
                "by = [\"risk\"]\ncritical = [\"risk=compliance\"]\nmin-queries = 5",
            )
            .gate("ndcg@10", "max-drop = 0.05\nslices = [\"risk=compliance\"]"),
    );
    let (code, r) = ctx.check_json(&[]).verdict_json();
    assert_eq!(code, 1);
    assert_eq!(compliance_gate_result(&r)["status"], "too-small");
}

#[test]
fn very_unequal_groups_count_as_their_effective_number() {
    let ctx = TestContext::new();
    // Compliance: 10 groups, one of 30 queries and nine of 1: Kish (39)² / (900 + 9) = 1.67
    // groups; counted with the (weak) within-group correlation of these deltas, 1 + IK df = 2.6.
    let mut sizes = vec![30];
    sizes.extend([1; 9]);
    sizes.extend([4; 20]);
    groups(ctx.path(), &sizes, &(0..10).collect::<Vec<_>>(), 0.0);
    ctx.gate(compliance_gate(
        "on-small-slice = \"fail\"",
        "max-drop = 0.01",
    ));
    let (_, r) = ctx.check_json(&[]).verdict_json();
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
    let ctx = TestContext::new();
    // Everything drops by 0.2: the interval is far below −0.01, but 5 groups give p ≥ 2/32 > 0.05.
    groups(ctx.path(), &[4; 30], &[0, 1, 2, 3, 4], 0.2);
    ctx.gate(compliance_gate(
        "min-groups = 3",
        "fail-if-significant-drop = 0.01",
    ));
    let (_, r) = ctx.check_json(&[]).verdict_json();
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
    let ctx = TestContext::new();
    groups(ctx.path(), &[4; 10], &[0], 0.0);
    let gate = GateFile::new("b.jsonl", "c.jsonl").gate("ndcg@10", "max-drop = 0.01");
    ctx.gate(gate.clone().table("slices", "min-groups = 0"));
    let err = ctx.check(&[]).expect(2).stderr;
    assert_contains(&err, "gate.toml:5:14: [slices] min-groups must be ≥ 1");
    ctx.gate(gate);
    let dumped = ctx.check(&["--dump-config"]).expect(0).stdout;
    assert_contains(&dumped, "min-groups = 8");
    assert_contains(&dumped, "method = \"bootstrap-t\"");
}

#[test]
fn the_headline_names_the_groups_or_the_sign_flip_floor_that_made_it_too_small() {
    let ctx = TestContext::new();
    groups(ctx.path(), &[4; 30], &[0, 1, 2, 3, 4], 0.0);
    ctx.gate(compliance_gate(
        "on-small-slice = \"fail\"",
        "max-drop = 0.01",
    ));
    let (code, r) = ctx.check_json(&[]).verdict_json();
    assert_eq!(code, 1);
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
    groups(ctx.path(), &sizes, &(0..10).collect::<Vec<_>>(), 0.0);
    ctx.gate(compliance_gate(
        "on-small-slice = \"fail\"",
        "max-drop = 0.01",
    ));
    let (_, r) = ctx.check_json(&[]).verdict_json();
    let headline = r["headline"].as_str().unwrap();
    assert!(
        headline.contains("not judged: 2.6 effective groups (of 10), too few"),
        "{headline}"
    );
    groups(ctx.path(), &[4; 30], &[0, 1, 2, 3, 4], 0.2);
    ctx.gate(compliance_gate(
        "min-groups = 3\non-small-slice = \"fail\"",
        "fail-if-significant-drop = 0.01",
    ));
    let (_, r) = ctx.check_json(&[]).verdict_json();
    let headline = r["headline"].as_str().unwrap();
    assert!(
        headline.starts_with(
            "FAIL: ndcg@10 on risk=compliance: fail-if-significant-drop cannot fire, the sign-flip test has 5 units with a non-zero delta and needs at least 6; add groups, or gate with max-drop instead"
        ),
        "{headline}"
    );
}

#[test]
fn compare_warns_below_checks_default_sizes() {
    // 5 conversations of 8 turns: 40 queries (above min-queries 30), 5 groups < min-groups 8.
    let ctx = TestContext::new();
    groups(ctx.path(), &[8; 5], &[], 0.0);
    let text = ctx
        .run(&["compare", "b.jsonl", "c.jsonl", "--unit", "group"])
        .expect(0)
        .stdout;
    assert_contains(
        &text,
        "1 comparison is below check's default sizes (min-queries 30, min-groups 8), where check judges only with a setup warning (on-small-slice = \"judge\"), so its label rests on few units: ndcg@10 on all (5 groups < min-groups 8)",
    );
    // 30 groups: nothing to warn about.
    let ctx = TestContext::new();
    groups(ctx.path(), &[4; 30], &[], 0.0);
    let out = ctx.run(&["compare", "b.jsonl", "c.jsonl", "--unit", "group"]);
    assert!(!out.stdout.contains("below check's default sizes"));
}
