//! Replicates, `aa` and `[noise]` through the binary: exit codes, messages, the noise file, and
//! that single-run reports carry nothing new. Fixtures: tests/data/noise (make_replicates.py).

use crate::support;
use support::{GateFile, Out, TestContext};

use std::path::{Path, PathBuf};

use predicates::prelude::*;

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/noise")
        .join(rel)
}

fn ann(name: &str) -> PathBuf {
    data(&format!("ann/{name}"))
}

/// The ann fixture copied into a temp folder with a gate file (`extra` appended).
fn gate_dir(baseline: &str, candidate: &str, extra: &str) -> TestContext {
    let ctx = TestContext::new();
    for f in std::fs::read_dir(data("ann")).unwrap() {
        let p = f.unwrap().path();
        ctx.copy(&p, p.file_name().unwrap());
    }
    ctx.gate(
        GateFile::default()
            .input("baseline", baseline)
            .input("candidate", candidate)
            .queries("queries.jsonl")
            .resamples(2000)
            .table("slices", "by = [\"lang\"]")
            .raw(extra)
            .gate("ndcg@10", "max-drop = 0.01"),
    );
    ctx
}

const MAIN: &str = "[\"main-1.jsonl\", \"main-2.jsonl\", \"main-3.jsonl\"]";
const PR: &str = "[\"pr-1.jsonl\", \"pr-2.jsonl\", \"pr-3.jsonl\"]";

#[test]
fn aa_on_two_identical_files_reports_zero_noise() {
    let ctx = TestContext::new();
    let out = ctx.path().join("noise.json");
    ctx.command()
        .arg("aa")
        .arg(ann("main-1.jsonl"))
        .arg(ann("main-1.jsonl"))
        .arg("--output")
        .arg(&out)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("no significant difference"));
    let f: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(f["noise_version"], 2);
    assert_eq!(f["replicates"], 2);
    for e in f["entries"].as_array().unwrap() {
        for key in [
            "run_sd",
            "shift_sd",
            "jitter_sd",
            "noise_floor",
            "flaky_share",
            "aa_delta",
        ] {
            assert_eq!(e[key], 0.0, "{key} in {e}");
        }
        assert_eq!(e["run_sd_ci"], serde_json::json!([0.0, 0.0]));
        assert_eq!(e["aa_p"], 1.0);
    }
    assert!(f["flaky_queries"]["ndcg@10"].as_array().unwrap().is_empty());
}

/// `aa` writes text or the noise file's JSON; a format it has no renderer for is a usage error
/// (exit 2), never the text report under another name.
#[test]
fn aa_refuses_a_format_it_cannot_write() {
    let ctx = TestContext::new();
    for format in ["markdown", "junit", "html"] {
        ctx.command()
            .arg("aa")
            .arg(ann("main-1.jsonl"))
            .arg(ann("main-1.jsonl"))
            .args(["--format", format])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("possible values: text, json"));
    }
}

#[test]
fn aa_recovers_the_injected_spread_within_its_interval() {
    let ctx = TestContext::new();
    let truth: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(data("recover/truth.json")).unwrap())
            .unwrap();
    let files: Vec<PathBuf> = (1..=8)
        .map(|r| data(&format!("recover/rec-{r}.jsonl")))
        .collect();
    let out = Out::of(ctx.command().arg("aa").args(&files).args([
        "--resamples",
        "2000",
        "--format",
        "json",
    ]));
    let out = out.expect(0);
    let f = out.json();
    let e = &f["entries"][0];
    for (est, ci, want) in [
        ("run_sd", "run_sd_ci", "run_sd"),
        ("jitter_sd", "jitter_sd_ci", "jitter_sd"),
    ] {
        let [lo, hi] = [e[ci][0].as_f64().unwrap(), e[ci][1].as_f64().unwrap()];
        let t = truth[want].as_f64().unwrap();
        assert!(
            lo <= t && t <= hi,
            "{want} {t} outside [{lo}, {hi}] (estimate {})",
            e[est]
        );
        assert!(lo <= e[est].as_f64().unwrap() && e[est].as_f64().unwrap() <= hi);
    }
    // Every query jitters in this data set.
    assert_eq!(e["flaky_share"], 1.0);
}

#[test]
fn aa_on_a_broken_instrument_exits_1() {
    // Arm B is the healthy PR replicates (their own, independent per-query jitter) lowered by
    // 0.05 on every query: the same instrument, shifted. (Arm B is not a copy of
    // arm A's files minus 0.05; a copy shares A's jitter, so its run-shift variance estimate has
    // under 1 df under Satterthwaite's rule and could not show a break of 0.05. Independent
    // jitter is what replicates have.)
    let ctx = TestContext::new();
    let mut files = vec![
        ann("main-1.jsonl"),
        ann("main-2.jsonl"),
        ann("main-3.jsonl"),
    ];
    for r in [1, 2, 3] {
        let text = std::fs::read_to_string(ann(&format!("pr-{r}.jsonl"))).unwrap();
        let shifted: String = text
            .lines()
            .map(|l| {
                let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                for m in ["ndcg@10", "recall@10"] {
                    v[m] = (v[m].as_f64().unwrap() - 0.05).max(0.0).into();
                }
                format!("{v}\n")
            })
            .collect();
        let p = ctx.path().join(format!("broken-{r}.jsonl"));
        std::fs::write(&p, shifted).unwrap();
        files.push(p);
    }
    ctx.command()
        .arg("aa")
        .args(&files)
        .args(["--resamples", "2000"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("the instrument is broken"));
}

#[test]
fn aa_healthy_replicates_pass_and_list_flaky_queries() {
    let ctx = TestContext::new();
    let files: Vec<PathBuf> = ["main-1", "main-2", "main-3", "pr-1", "pr-2", "pr-3"]
        .iter()
        .map(|f| ann(&format!("{f}.jsonl")))
        .collect();
    let out = Out::of(
        ctx.command()
            .arg("aa")
            .args(&files)
            .arg("--queries")
            .arg(ann("queries.jsonl"))
            .args(["--by", "lang", "--resamples", "2000", "--format", "json"]),
    );
    assert_eq!(out.code, Some(0));
    let f = out.json();
    let slices: Vec<&str> = f["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["slice"].as_str().unwrap())
        .collect();
    assert_eq!(
        slices,
        ["all", "lang=de", "lang=en", "all", "lang=de", "lang=en"]
    );
    let flaky = f["flaky_queries"]["ndcg@10"].as_array().unwrap().len();
    assert_eq!(f["entries"][0]["flaky"], flaky);
    assert!(
        flaky > 20 && flaky < 120,
        "about 30% of 200 are unstable: {flaky}"
    );
}

#[test]
fn aa_refuses_one_file_and_a_replicate_that_lacks_queries() {
    let ctx = TestContext::new();
    ctx.command()
        .arg("aa")
        .arg(ann("main-1.jsonl"))
        .assert()
        .code(2);
    let ctx = TestContext::new();
    let text = std::fs::read_to_string(ann("main-2.jsonl")).unwrap();
    let short = ctx.path().join("short.jsonl");
    std::fs::write(
        &short,
        text.lines().skip(1).collect::<Vec<_>>().join("\n") + "\n",
    )
    .unwrap();
    ctx.command()
        .arg("aa")
        .arg(ann("main-1.jsonl"))
        .arg(&short)
        .arg(ann("main-3.jsonl"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("short.jsonl: a replicate of").and(predicate::str::contains(
            "lacks 1 paired query: \"q000\"; replicates of one commit must cover the same queries",
        )));
}

#[test]
fn check_with_replicates_reports_counts_and_degrees_of_freedom() {
    let ctx = gate_dir(MAIN, PR, "");
    let out = Out::of(
        ctx.command()
            .args(["check", "gate.toml", "--format", "json"]),
    );
    let r = out.json();
    assert_eq!(r["noise"]["replicates"], serde_json::json!([3, 3]));
    let c = &r["comparisons"][0];
    assert_eq!(c["replicates"]["baseline_runs"], 3);
    assert!(c["replicates"]["df"].as_f64().unwrap() >= 1.0);
    assert!(c["replicates"]["t_stretch"].as_f64().unwrap() > 1.0);
    // The paired values are the per-query means over the replicates.
    let mean = |side: &str| -> f64 {
        (1..=3)
            .map(|k| {
                let t =
                    std::fs::read_to_string(ctx.path().join(format!("{side}-{k}.jsonl"))).unwrap();
                t.lines()
                    .map(|l| {
                        serde_json::from_str::<serde_json::Value>(l).unwrap()["ndcg@10"]
                            .as_f64()
                            .unwrap()
                    })
                    .sum::<f64>()
                    / 200.0
            })
            .sum::<f64>()
            / 3.0
    };
    assert!((c["baseline_mean"].as_f64().unwrap() - mean("main")).abs() < 1e-9);
    assert!((c["candidate_mean"].as_f64().unwrap() - mean("pr")).abs() < 1e-9);
    let text = Out::of(ctx.command().args(["check", "gate.toml"]));
    let text = text.stdout;
    assert!(
        text.contains("ndcg@10 on all: 3 baseline × 3 candidate runs;"),
        "{text}"
    );
    let md = Out::of(
        ctx.command()
            .args(["check", "gate.toml", "--format", "markdown"]),
    );
    assert!(md
        .utf8()
        .stdout
        .contains("**Replicates:** 3 baseline × 3 candidate runs"));
}

#[test]
fn single_run_reports_carry_nothing_new() {
    let ctx = gate_dir("\"main-1.jsonl\"", "\"pr-1.jsonl\"", "");
    for format in ["json", "text", "markdown"] {
        let out = Out::of(
            ctx.command()
                .args(["check", "gate.toml", "--format", format]),
        );
        let s = out.stdout;
        for word in [
            "replicates",
            "Replicates",
            "noise",
            "Noise",
            "Flaky",
            "Quarantined",
        ] {
            assert!(!s.contains(word), "{format}: {word} in\n{s}");
        }
    }
}

#[test]
fn replicates_must_cover_the_paired_queries() {
    let ctx = gate_dir(MAIN, "[\"pr-1.jsonl\", \"short.jsonl\"]", "");
    let text = ctx.read("pr-2.jsonl");
    let kept: Vec<&str> = text.lines().filter(|l| !l.contains("\"q007\"")).collect();
    ctx.write("short.jsonl", kept.join("\n") + "\n");
    ctx.command()
        .args(["check", "gate.toml"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("short.jsonl: a replicate of")
                .and(predicate::str::contains("\"q007\"")),
        );
}

#[test]
fn quantile_gates_refuse_replicates() {
    let ctx = gate_dir(
        MAIN,
        PR,
        "[[gate]]\nmetric = \"recall@10\"\nstatistic = \"median\"\nmax-drop = 0.1\n",
    );
    ctx.command()
        .args(["check", "gate.toml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "statistic = \"median\" with replicate runs",
        ));
}

fn noise_file(ctx: &TestContext) {
    let files: Vec<PathBuf> = ["main-1", "main-2", "main-3"]
        .iter()
        .map(|f| ctx.join(format!("{f}.jsonl")))
        .collect();
    ctx.command()
        .arg("aa")
        .args(&files)
        .args([
            "--queries",
            "queries.jsonl",
            "--by",
            "lang",
            "--resamples",
            "2000",
            "-o",
            "noise.json",
        ])
        .assert()
        .code(0);
}

const QUARANTINE: &str = "[[query]]\nid = \"q000\"\nreason = \"HNSW tie at rank 10\"\nowner = \"alice\"\nexpires = 2026-12-31\n";

#[test]
fn noise_floor_warns_and_quarantine_keeps_queries_out() {
    let ctx = gate_dir(
        MAIN,
        PR,
        "[noise]\nfile = \"noise.json\"\nquarantine = \"flaky.toml\"\n",
    );
    noise_file(&ctx);
    ctx.write("flaky.toml", QUARANTINE);
    let out = Out::of(ctx.command().args([
        "check",
        "gate.toml",
        "--format",
        "json",
        "--today",
        "2026-12-01",
    ]));
    assert!(out.code != Some(2), "{}", out.stderr);
    let r = out.json();
    assert_eq!(
        r["comparisons"][0]["n"], 199,
        "q000 is out of the comparison"
    );
    let q = &r["noise"]["quarantined"][0];
    assert_eq!(
        (q["query_id"].as_str(), q["owner"].as_str()),
        (Some("q000"), Some("alice"))
    );
    assert!(q["deltas"]["ndcg@10"].is_number());
    let floor = r["noise"]["floors"][0]["floor_here"].as_f64().unwrap();
    let w = r["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect::<Vec<_>>();
    let want = format!("gate #1 ndcg@10 on all: margin 0.01 is below the noise floor {floor:.4} measured by noise.json (3 replicates)");
    assert!(w.iter().any(|w| w.starts_with(&want)), "{want}\n{w:#?}");
    assert!(!r["noise"]["flaky"]["ndcg@10"]
        .as_array()
        .unwrap()
        .is_empty());
}

#[test]
fn an_expired_quarantine_entry_fails_loudly() {
    let ctx = gate_dir(MAIN, PR, "[noise]\nquarantine = \"flaky.toml\"\n");
    ctx.write("flaky.toml", QUARANTINE);
    ctx.command()

        .args(["check", "gate.toml"])
        .env("RAG_GATE_TODAY", "2027-01-01")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "flaky.toml:1:1: quarantine entry \"q000\" (owner alice, \"HNSW tie at rank 10\") expired on 2026-12-31 (today is 2027-01-01)",
        ));
    ctx.command()
        .args(["check", "gate.toml", "--today", "31/12/2026"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("expected a date like 2026-12-01"));
}

#[test]
fn compare_takes_replicate_flags() {
    let ctx = TestContext::new();
    let out = Out::of(
        ctx.command()
            .arg("compare")
            .arg(ann("main-1.jsonl"))
            .arg(ann("pr-1.jsonl"))
            .arg("--baseline-replicate")
            .arg(ann("main-2.jsonl"))
            .arg("--candidate-replicate")
            .arg(ann("pr-2.jsonl"))
            .arg("--candidate-replicate")
            .arg(ann("pr-3.jsonl"))
            .args(["--resamples", "2000", "--format", "json"]),
    );
    let out = out.expect(0);
    assert_eq!(out.json()["noise"]["replicates"], serde_json::json!([2, 3]));
}

#[test]
fn replicate_reports_are_deterministic() {
    let ctx = gate_dir(MAIN, PR, "");
    let run = || {
        ctx.command()
            .args(["check", "gate.toml", "--format", "json"])
            .output()
            .unwrap()
            .stdout
    };
    assert_eq!(run(), run());
}

#[test]
fn a_single_baseline_run_carries_the_aa_runs_whole_run_shift() {
    // The ann A/A runs shift as a whole (sd 0.0031: 0.0044 between two single runs). With one
    // baseline run and the noise file, the mean intervals carry that shift (the crossed interval
    // on the A/A runs' 2 df); with the baseline's three replicates, they carry it themselves.
    let run = |baseline: &str, extra: &str| {
        let ctx = gate_dir(baseline, "\"pr-1.jsonl\"", extra);
        noise_file(&ctx);
        let out = Out::of(
            ctx.command()
                .args(["check", "gate.toml", "--format", "json"]),
        );
        assert_ne!(out.code, Some(2), "{}", out.stderr);
        out.json()
    };
    let all = |r: &serde_json::Value| {
        r["comparisons"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["metric"] == "ndcg@10" && c["slice"] == "all")
            .unwrap()
            .clone()
    };
    let with_aa = run("\"main-1.jsonl\"", "[noise]\nfile = \"noise.json\"\n");
    let without = run("\"main-1.jsonl\"", "");
    let (a, w) = (all(&with_aa), all(&without));
    assert_eq!(a["replicates"]["aa_runs"], 3, "{a}");
    assert_eq!(a["replicates"]["baseline_runs"], 1);
    assert!(a["replicates"]["run_se"].as_f64().unwrap() > 0.004, "{a}");
    assert!(w["replicates"].is_null());
    let width = |c: &serde_json::Value| c["ci"][1].as_f64().unwrap() - c["ci"][0].as_f64().unwrap();
    assert!(
        width(&a) > 1.5 * width(&w),
        "{} vs {}",
        width(&a),
        width(&w)
    );
    assert_eq!(a["delta"], w["delta"]);
    let shift_warnings = |r: &serde_json::Value| {
        support::output::warnings(r)
            .into_iter()
            .filter(|w| w.contains("whole-run shift"))
            .collect::<Vec<_>>()
    };
    assert!(shift_warnings(&with_aa).is_empty());
    let replicated = run(MAIN, "[noise]\nfile = \"noise.json\"\n");
    assert!(all(&replicated)["replicates"]["aa_runs"].is_null());
    assert_eq!(all(&replicated)["replicates"]["baseline_runs"], 3);
}

#[test]
fn a_noise_file_without_the_gated_metric_warns_that_no_shift_is_carried() {
    let ctx = gate_dir(
        "\"main-1.jsonl\"",
        "\"pr-1.jsonl\"",
        "[noise]\nfile = \"noise.json\"\n",
    );
    noise_file(&ctx);
    let text = std::fs::read_to_string(ctx.join("noise.json")).unwrap();
    ctx.write("noise.json", text.replace("\"ndcg@10\"", "\"recall@5\""));
    let out = Out::of(
        ctx.command()
            .args(["check", "gate.toml", "--format", "json"]),
    );
    assert_ne!(out.code, Some(2), "{}", out.stderr);
    let warned: Vec<String> = support::output::warnings(&out.json())
        .into_iter()
        .filter(|w| w.contains("whole-run shift"))
        .collect();
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert!(
        warned[0].starts_with("ndcg@10: noise.json has no A/A runs of it"),
        "{warned:?}"
    );
}
