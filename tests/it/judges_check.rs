//! `[judge]` through the binary on real qrels: TREC-COVID round 2 (covidex-t5 → covidex-sim)
//! split into a human-labelled sample of 12 of 35 topics and a simulated judge that over-rates
//! the candidate's documents (tests/data/judges/make_judge_fixture.py). Taken as truth the
//! judge passes the change; the humans fail it; the judge corrected by the humans fails it. The
//! judge (its sidecar) is part of the protocol fingerprint: two sides labelled by different judges
//! are refused (exit 2).

use crate::support::output::warnings;
use crate::support::{Out, TestContext};
use serde_json::Value;

/// `name` in tests/data/judges (its gate files, qrels and judge sidecar).
fn data(name: &str) -> String {
    format!("{}/tests/data/judges/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn max_drop_value(report: &Value) -> f64 {
    report["gates"][0]["value"].as_f64().unwrap()
}

#[test]
fn judge_only_passes_what_humans_and_the_corrected_gate_fail() {
    let ctx = TestContext::new();
    let judge_only = Out::of(
        ctx.command()
            .arg("check")
            .arg(data("judge-only.toml"))
            .args(["--format", "json"]),
    )
    .expect(0)
    .json();
    assert_eq!(judge_only["verdict"], "pass");
    let human = Out::of(
        ctx.command()
            .arg("check")
            .arg(data("human.toml"))
            .args(["--format", "json"]),
    )
    .expect(1)
    .json();
    assert_eq!(human["gates"][0]["status"], "fail");
    let corrected = Out::of(
        ctx.command()
            .arg("check")
            .arg(data("corrected.toml"))
            .args(["--format", "json"]),
    )
    .expect(1)
    .json();
    assert_eq!(corrected["gates"][0]["status"], "fail");
    assert!(
        max_drop_value(&corrected) < -0.05,
        "{}",
        corrected["gates"][0]
    );

    let j = &corrected["judge"];
    assert_eq!(j["model"], "simulated-judge-v1");
    assert_eq!(j["gate_on"], "corrected");
    let d = &j["deltas"][0];
    assert_eq!(
        (d["metric"].as_str(), d["slice"].as_str()),
        (Some("ndcg@10"), Some("all"))
    );
    // The three deltas side by side: the judge's lean towards the candidate, the humans' drop,
    // and the corrected delta with the humans (and narrower than theirs).
    let (human_d, judge_d) = (
        d["human"]["delta"].as_f64().unwrap(),
        d["judge_only"]["delta"].as_f64().unwrap(),
    );
    let c = &d["corrected"];
    assert!(judge_d > 0.0 && human_d < -0.2, "{d}");
    assert!(c["ci"][1].as_f64().unwrap() < -0.05, "{d}");
    assert_eq!(
        (c["labelled"].as_u64(), c["unlabelled"].as_u64()),
        (Some(12), Some(23))
    );
    let width = |v: &Value| v["ci"][1].as_f64().unwrap() - v["ci"][0].as_f64().unwrap();
    assert!(width(c) < width(&d["human"]), "{d}");
    // The judge's agreement, and the evidence that it favours the candidate.
    let a = &j["agreement"];
    assert!(a["kappa"].as_f64().unwrap() > 0.5, "{a}");
    assert_eq!(a["grades"], serde_json::json!([0, 1, 2]));
    assert!(warnings(&corrected)
        .iter()
        .any(|w| w.starts_with("the judge favours the candidate on ndcg@10 (all)")));
    // The report's comparison and the gate read the corrected interval.
    assert_eq!(corrected["comparisons"][0]["ci"], c["ci"]);
}

#[test]
fn conversations_as_units_when_humans_label_whole_conversations() {
    let ctx = TestContext::new();
    let r = Out::of(
        ctx.command()
            .arg("check")
            .arg(data("corrected-group.toml"))
            .args(["--format", "json"]),
    )
    .expect(1)
    .json();
    assert_eq!(r["unit"], "group");
    let d = &r["judge"]["deltas"][0];
    let c = &d["corrected"];
    assert_eq!(
        (c["labelled"].as_u64(), c["unlabelled"].as_u64()),
        (Some(4), Some(8))
    );
    assert!(c["ci"][1].as_f64().unwrap() < -0.05, "{d}");
    assert_eq!(d["judge_only"]["units"], 12);
    assert_eq!(r["gates"][0]["status"], "fail");
}

#[test]
fn the_three_deltas_are_in_every_report_format() {
    let ctx = TestContext::new();
    let html = ctx.path().join("report.html");
    for (format, want) in [
        ("text", "corrected (PPI++)"),
        (
            "markdown",
            "Judge: human-only, judge-only and corrected deltas",
        ),
    ] {
        let out = Out::of(
            ctx.command()
                .args([
                    "check",
                    &data("corrected.toml"),
                    "--format",
                    format,
                    "--export-html",
                ])
                .arg(&html),
        );
        assert_eq!(out.code, Some(1), "{}", out.stderr);
        let text = out.stdout.as_str();
        assert!(text.contains(want), "{format}: no {want:?} in\n{text}");
        assert!(text.contains("simulated-judge-v1"), "{format}");
        let page = std::fs::read_to_string(&html).unwrap();
        assert!(page.contains("<h2>Judge</h2>") && page.contains("corrected (PPI++)"));
        std::fs::remove_file(&html).unwrap();
    }
}

/// A gate file beside the fixture's data, with `[judge]` as given.
fn judge_gate(ctx: &TestContext, judge: &str) -> std::path::PathBuf {
    let data = data("");
    let runs = format!(
        "{}/tests/data/eval/fixtures/trec-covid-r2",
        env!("CARGO_MANIFEST_DIR")
    );
    ctx.write("gate.toml",
        format!(
            "[inputs]\nbaseline = {{ run = \"{runs}/run.covidex-t5.txt\" }}\ncandidate = {{ run = \"{runs}/run.covidex-sim.txt\" }}\nqrels = \"{data}human.qrels\"\n\n[slices]\nmin-queries = 10\n\n[judge]\n{judge}\n\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.05\n"
        ),
    )
}

#[test]
fn too_few_human_labels_is_not_judged_and_fails() {
    let ctx = TestContext::new();
    let g = judge_gate(
        &ctx,
        &format!(
            "qrels = \"{}\"\ngate-on = \"corrected\"\nmin-labelled = 13",
            data("judge.qrels")
        ),
    );
    let r = ctx.check_file(&g, &["--format", "json"]).expect(1).json();
    let gr = &r["gates"][0];
    assert_eq!(gr["status"], "too-small");
    assert_eq!(gr["fails_build"], true);
    assert!(
        gr["detail"]
            .as_str()
            .unwrap()
            .contains("12 human-labelled queries < min-labelled 13"),
        "{gr}"
    );
    assert!(r["judge"]["deltas"][0]["corrected"].is_null());
}

#[test]
fn a_judge_below_the_kappa_floor_is_not_judged() {
    let ctx = TestContext::new();
    let g = judge_gate(
        &ctx,
        &format!(
            "qrels = \"{}\"\ngate-on = \"corrected\"\nmin-kappa = 0.99",
            data("judge.qrels")
        ),
    );
    let r = ctx.check_file(&g, &["--format", "json"]).expect(1).json();
    assert_eq!(r["gates"][0]["status"], "too-small");
    let why = r["judge"]["deltas"][0]["not_judged"].as_str().unwrap();
    assert!(why.contains("below min-kappa 0.99"), "{why}");
}

#[test]
fn a_missing_or_broken_sidecar_and_a_wrong_key_are_errors() {
    let ctx = TestContext::new();
    let qrels = ctx.write("j.qrels", std::fs::read(data("judge.qrels")).unwrap());
    let g = judge_gate(&ctx, &format!("qrels = \"{}\"", qrels.display()));
    let out = Out::of(ctx.command().arg("check").arg(&g));
    assert_eq!(out.code, Some(2));
    let err = out.stderr.as_str();
    assert!(
        err.contains("j.qrels.judge.json") && err.contains("sidecar"),
        "{err}"
    );

    ctx.write(
        "j.qrels.judge.json",
        "{\"model\": \"m\", \"date\": \"2026-01-01\"}",
    );
    let out = Out::of(ctx.command().arg("check").arg(&g));
    assert_eq!(out.code, Some(2));
    let err = out.stderr.as_str();
    assert!(
        err.contains("j.qrels.judge.json") && err.contains("prompt_hash"),
        "{err}"
    );

    let g = judge_gate(
        &ctx,
        &format!("qrels = \"{}\"\ngate-on = \"judge\"", qrels.display()),
    );
    let out = Out::of(ctx.command().arg("check").arg(&g));
    assert_eq!(out.code, Some(2));
    let err = out.stderr.as_str();
    assert!(
        err.contains("gate-on = \"judge\"") && err.contains("\"corrected\""),
        "{err}"
    );
}

#[test]
fn holes_export_as_json_lines_for_a_judging_step() {
    let ctx = TestContext::new();
    let holes = ctx.path().join("holes.jsonl");
    let out = Out::of(
        ctx.command()
            .args(["check", &data("human.toml"), "--holes"])
            .arg(&holes),
    );
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    let text = std::fs::read_to_string(&holes).unwrap();
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert!(
        first["query_id"].is_string() && first["doc_id"].is_string(),
        "{first}"
    );
    assert!(
        first["candidate_rank"].is_u64() || first["baseline_rank"].is_u64(),
        "{first}"
    );
}

/// `rag-gate eval` of a covid run (`t5` or `sim`) against `qrels` into `out` with its sidecar.
fn eval_judged(qrels: &std::path::Path, run: &str, out: &std::path::Path) {
    let ctx = TestContext::new();
    let run = format!(
        "{}/tests/data/eval/fixtures/trec-covid-r2/run.covidex-{run}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let o = Out::of(
        ctx.command()
            .args(["eval", "--metrics", "ndcg@10", "--qrels"])
            .arg(qrels)
            .args(["--run", &run, "-o"])
            .arg(out),
    );
    assert_eq!(o.code, Some(0), "{}", o.stderr);
}

/// The judge's qrels copied into `name/` in the folder with `sidecar` beside them (none: no
/// sidecar).
fn judged_qrels(ctx: &TestContext, name: &str, sidecar: Option<Value>) -> std::path::PathBuf {
    let q = ctx.copy(data("judge.qrels"), format!("{name}/judge.qrels"));
    if let Some(s) = sidecar {
        ctx.write(format!("{name}/judge.qrels.judge.json"), s.to_string());
    }
    q
}

fn shipped_sidecar() -> Value {
    serde_json::from_str(&std::fs::read_to_string(data("judge.qrels.judge.json")).unwrap()).unwrap()
}

/// `compare b.jsonl c.jsonl` in the folder.
fn compare_in(ctx: &TestContext) -> Out {
    ctx.run(&[
        "compare",
        "b.jsonl",
        "c.jsonl",
        "--resamples",
        "200",
        "--format",
        "json",
    ])
}

#[test]
fn the_judge_is_part_of_the_fingerprint_and_two_judges_are_not_compared() {
    let ctx = TestContext::new();
    let a = judged_qrels(&ctx, "a", Some(shipped_sidecar()));
    eval_judged(&a, "t5", &ctx.join("b.jsonl"));
    let side: Value = serde_json::from_str(&ctx.read("b.jsonl.protocol.json")).unwrap();
    assert_eq!(side["judge"]["model"], "simulated-judge-v1");
    assert_eq!(side["judge"]["prompt-hash"], "sha256:0f1e2d3c");
    assert_eq!(
        side["judge"]["settings"],
        "{\"bias\":\"candidate +0.7\",\"temperature\":0}"
    );

    // The same labels, byte for byte, claimed by another judge, with other settings, or by no
    // judge at all: refused (exit 2), naming the field with both values.
    let mut other_model = shipped_sidecar();
    other_model["model"] = "other-judge-v2".into();
    let mut warmer = shipped_sidecar();
    warmer["settings"]["temperature"] = 0.7.into();
    let cases = [
        (
            "model",
            Some(other_model),
            "judge-model: baseline simulated-judge-v1 | candidate other-judge-v2",
        ),
        ("settings", Some(warmer), "judge-settings: baseline"),
        (
            "none",
            None,
            "judge-model: baseline simulated-judge-v1 | candidate none (labels without a judge sidecar)",
        ),
    ];
    for (name, sidecar, needle) in cases {
        let q = judged_qrels(&ctx, name, sidecar);
        eval_judged(&q, "sim", &ctx.join("c.jsonl"));
        let o = compare_in(&ctx);
        let err = o.stderr.as_str();
        assert_eq!(o.code, Some(2), "{name}: {err}");
        assert!(
            err.contains("protocol mismatch: b.jsonl and c.jsonl"),
            "{err}"
        );
        assert!(err.contains(needle), "{name}: {needle} not in {err}");
        assert!(o.stdout.is_empty(), "{name}: a report was printed");
    }

    // The same judge on another day is the same judge: compared, and the report names it.
    let mut later = shipped_sidecar();
    later["date"] = "2027-01-15".into();
    let q = judged_qrels(&ctx, "later", Some(later));
    eval_judged(&q, "sim", &ctx.join("c.jsonl"));
    let o = compare_in(&ctx);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let r: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(r["protocol"]["status"], "checked");
    let fields = r["protocol"]["fields"].as_array().unwrap();
    assert!(
        fields
            .iter()
            .any(|f| f["field"] == "judge-model" && f["value"] == "simulated-judge-v1"),
        "{fields:?}"
    );
}

#[test]
fn a_run_judged_here_against_a_stored_file_of_another_judge_is_refused() {
    let ctx = TestContext::new();
    let a = judged_qrels(&ctx, "a", Some(shipped_sidecar()));
    eval_judged(&a, "t5", &ctx.join("b.jsonl"));
    let mut next = shipped_sidecar();
    next["model"] = "simulated-judge-v2".into();
    judged_qrels(&ctx, "next", Some(next));
    let run = format!(
        "{}/tests/data/eval/fixtures/trec-covid-r2/run.covidex-sim.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let g = ctx.write("g.toml",
        format!(
            "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = {{ run = \"{run}\" }}\nqrels = \"next/judge.qrels\"\n\
             [bootstrap]\nresamples = 200\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.05\n"
        ),
    );
    let o = Out::of(
        ctx.command()
            .arg("check")
            .arg(&g)
            .args(["--export-json", "report.json"]),
    );
    let err = o.stderr.as_str();
    assert_eq!(o.code, Some(2), "{err}");
    assert!(
        err.contains("judge-model: baseline simulated-judge-v1 | candidate simulated-judge-v2"),
        "{err}"
    );
    assert!(!ctx.join("report.json").exists(), "a report was written");
}

#[test]
fn a_check_on_judged_qrels_shows_the_judge_in_its_shared_protocol() {
    let ctx = TestContext::new();
    let r = Out::of(
        ctx.command()
            .arg("check")
            .arg(data("judge-only.toml"))
            .args(["--format", "json"]),
    )
    .expect(0)
    .json();
    assert_eq!(r["protocol"]["status"], "shared");
    let fields = r["protocol"]["fields"].as_array().unwrap();
    for (field, value) in [
        ("judge-model", "simulated-judge-v1"),
        ("judge-prompt-hash", "sha256:0f1e2d3c"),
    ] {
        assert!(
            fields
                .iter()
                .any(|f| f["field"] == field && f["value"] == value),
            "{field}: {fields:?}"
        );
    }
    // Human labels carry no judge fields.
    let human = Out::of(
        ctx.command()
            .arg("check")
            .arg(data("human.toml"))
            .args(["--format", "json"]),
    )
    .expect(1)
    .json();
    let fields = human["protocol"]["fields"].as_array().unwrap();
    assert!(!fields
        .iter()
        .any(|f| f["field"].as_str().unwrap().starts_with("judge")));
}
