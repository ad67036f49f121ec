//! The statistics in the JSON report: fields, the deciding rule, Holm, `compare --method bca`.

use crate::support;

use support::output::comparisons;
use support::{GateFile, TestContext};

#[test]
fn shipped_example_reports_p_values_labels_mde_and_the_deciding_rule() {
    let r = TestContext::new()
        .cwd(support::repo(""))
        .check_file("gates/prod.toml", &["--format", "json"])
        .expect(1)
        .json();
    assert_eq!(r["schema_version"], 3);
    assert_eq!(
        (r["method"].as_str(), r["unit"].as_str()),
        (Some("bootstrap-t"), Some("group"))
    );
    for c in comparisons(&r) {
        let p = c["p_value"].as_f64().unwrap();
        assert!(p > 0.0 && p <= 1.0);
        assert!(c["mde"].as_f64().unwrap() > 0.0);
        let n = c["n"].as_u64().unwrap();
        let sum = |k: [&str; 3]| k.iter().map(|f| c[*f].as_u64().unwrap()).sum::<u64>();
        assert_eq!(sum(["wins", "ties", "losses"]), n);
        assert_eq!(
            sum(["practical_wins", "practical_ties", "practical_losses"]),
            n
        );
        assert!([
            "better",
            "better-below-margin",
            "no-change",
            "unclear",
            "worse-within-margin",
            "worse"
        ]
        .contains(&c["label"].as_str().unwrap()));
    }
    let gates = r["gates"].as_array().unwrap();
    let failed = gates
        .iter()
        .find(|g| g["slice"] == "risk=compliance" && g["rule"] == "max-drop")
        .unwrap();
    assert_eq!(failed["passed"], false);
    assert_eq!(failed["decided_by"], "non-inferiority (max-drop)");
    assert_eq!(failed["label"], "worse");
    // The family: each gated metric × slice once (recall@5 all, mrr@5 all, ndcg@10 all and
    // risk=compliance); p_adjusted is Holm over their p-values.
    let mut family: Vec<(String, f64)> = Vec::new();
    for g in gates {
        let key = format!("{} {}", g["metric"], g["slice"]);
        if !family.iter().any(|(k, _)| *k == key) {
            family.push((key, g["p_value"].as_f64().unwrap()));
        }
        assert_eq!(g["family_size"], 4);
    }
    let adjusted = rag_gate::stats::holm::holm(&family.iter().map(|f| f.1).collect::<Vec<_>>());
    for g in gates {
        let key = format!("{} {}", g["metric"], g["slice"]);
        let i = family.iter().position(|(k, _)| *k == key).unwrap();
        assert_eq!(g["p_adjusted"].as_f64().unwrap(), adjusted[i]);
        assert!(adjusted[i] >= g["p_value"].as_f64().unwrap());
    }
    // The compliance drop is shown (its whole interval lies past −0.01): no power warning
    // there; the MDE warning is only where a result may be for want of data
    // (tests/it/trust_cases.rs, the_mde_warning_is_only_where_power_matters).
    let warnings = r["warnings"].as_array().unwrap();
    assert!(
        !warnings
            .iter()
            .any(|w| w.as_str().unwrap().contains("can only detect")),
        "{warnings:?}"
    );
}

fn write_pair(ctx: &TestContext, n: usize, drop: f64) {
    let (mut b, mut c) = (String::new(), String::new());
    for i in 0..n {
        let x = 0.3 + 0.6 * ((i * 37 % 101) as f64 / 101.0);
        let wobble = 0.02 * ((i * 13 % 7) as f64 - 3.0);
        b.push_str(&format!("{{\"query_id\": \"q{i}\", \"ndcg@10\": {x}}}\n"));
        c.push_str(&format!(
            "{{\"query_id\": \"q{i}\", \"ndcg@10\": {}}}\n",
            x - drop + wobble
        ));
    }
    ctx.write("b.jsonl", b);
    ctx.write("c.jsonl", c);
}

#[test]
fn proven_harm_rule_fails_only_on_a_proven_drop_beyond_its_margin() {
    let ctx = TestContext::new();
    ctx.gate(
        GateFile::new("b.jsonl", "c.jsonl")
            .resamples(2000)
            .gate("ndcg@10", "fail-if-significant-drop = 0.02"),
    );
    let run = |drop: f64| {
        write_pair(&ctx, 200, drop);
        ctx.check_json(&[]).verdict_json()
    };
    // A drop of 0.01 is real but inside the margin: passes; 0.06 is proven beyond it: fails.
    let (code, r) = run(0.01);
    assert_eq!(code, 0, "{}", r["headline"]);
    assert_eq!(
        r["gates"][0]["decided_by"],
        "proven harm (fail-if-significant-drop)"
    );
    let (code, r) = run(0.06);
    assert_eq!(code, 1);
    assert_eq!(r["gates"][0]["label"], "worse");
    assert!(
        r["headline"].as_str().unwrap().contains("proven drop"),
        "{}",
        r["headline"]
    );
}

#[test]
fn compare_accepts_method_bca() {
    let ctx = TestContext::new();
    write_pair(&ctx, 120, 0.01);
    let r = ctx
        .run(&[
            "compare",
            "b.jsonl",
            "c.jsonl",
            "--method",
            "bca",
            "--resamples",
            "2000",
            "--format",
            "json",
        ])
        .expect(0)
        .json();
    assert_eq!(r["method"], "bca");
    let c = &r["comparisons"][0];
    assert!(c["ci"][0].as_f64().unwrap() < c["estimate"].as_f64().unwrap());
}

#[test]
fn lower_is_better_metrics_count_rises_as_losses_and_gate_on_p95() {
    let ctx = TestContext::new();
    let (mut b, mut c) = (String::new(), String::new());
    for i in 0..120 {
        let lat = 100.0 + (i * 37 % 120) as f64;
        // Every fourth query 30 ms slower, the rest 1 ms faster.
        let cand = if i % 4 == 0 { lat + 30.0 } else { lat - 1.0 };
        b.push_str(&format!(
            "{{\"query_id\": \"q{i}\", \"latency_ms\": {lat}}}\n"
        ));
        c.push_str(&format!(
            "{{\"query_id\": \"q{i}\", \"latency_ms\": {cand}}}\n"
        ));
    }
    ctx.write("b.jsonl", b);
    ctx.write("c.jsonl", c);
    ctx.gate(GateFile::new("b.jsonl", "c.jsonl").resamples(2000).gate(
        "latency_ms",
        "statistic = \"p95\"\nhigher-is-better = false\nmax-mean = 1000",
    ));
    let r = ctx.check_json(&[]).expect(0).json();
    let c = &r["comparisons"][0];
    assert_eq!(c["statistic"], "p95");
    assert_eq!(
        (c["wins"].as_u64(), c["losses"].as_u64()),
        (Some(90), Some(30))
    );
    assert!(c["worst"]
        .as_array()
        .unwrap()
        .iter()
        .all(|w| w["delta"].as_f64().unwrap() > 0.0));
    assert!(r["gates"][0]["detail"]
        .as_str()
        .unwrap()
        .starts_with("candidate p95 "));
}
