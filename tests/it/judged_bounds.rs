//! Judged coverage: `judged@k` against ir_measures' Judged@k on the shared fixtures (reference
//! made by tests/data/eval/judged/judged_ir_measures.py), and the judged bounds of `check` over
//! one shared judgment per document: removing the candidate-only documents' judgments flags the
//! gate (a warning by default, a failure with `on-unreliable = "fail"`), adding them back clears
//! it; a pull request that changes nothing has bounds equal to its delta; positive-only qrels are
//! the collection's convention. `min-judged` and `--holes` too.

use crate::support;

use std::collections::BTreeMap;

use support::{GateFile, Out, TestContext};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/eval");

#[test]
fn judged_at_k_equals_ir_measures_judged_on_the_shared_fixtures() {
    let reference =
        std::fs::read_to_string(format!("{DATA}/judged/judged.ir_measures.tsv")).unwrap();
    let mut want: BTreeMap<(String, String, String), f64> = BTreeMap::new();
    for l in reference.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = l.split('\t').collect();
        let measure = f[2].replace("Judged@", "judged@");
        want.insert((f[0].into(), f[1].into(), measure), f[3].parse().unwrap());
    }
    let runs: Vec<&str> = {
        let mut r: Vec<&str> = want.keys().map(|k| k.0.as_str()).collect();
        r.dedup();
        r
    };
    let ctx = TestContext::new();
    let mut compared = 0;
    for run in runs {
        let folder = run.split('/').next().unwrap();
        let qrels = match folder {
            "cacm" => "cacm/qrels.cacm.txt",
            "trec-covid-r2" => "trec-covid-r2/qrels.covid-round2.txt",
            _ => "trec_eval_test/qrels.rel_level",
        };
        let out = ctx
            .run(&[
                "eval",
                "--metrics",
                "judged@5,judged@10,judged@100",
                "--empty-gold",
                "zero",
                "--qrels",
                &format!("{DATA}/fixtures/{qrels}"),
                "--run",
                &format!("{DATA}/fixtures/{run}"),
            ])
            .expect(0)
            .utf8();
        for line in out.stdout.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let qid = v["query_id"].as_str().unwrap().to_string();
            for m in ["judged@5", "judged@10", "judged@100"] {
                // ir_measures leaves out queries the run lacks; rag-gate scores them 0 (-c).
                let Some(w) = want.get(&(run.to_string(), qid.clone(), m.to_string())) else {
                    continue;
                };
                let got = v[m].as_f64().unwrap();
                assert!(
                    (got - w).abs() < 1e-12,
                    "{run} {qid} {m}: {got} vs ir_measures {w}"
                );
                compared += 1;
            }
        }
    }
    assert_eq!(compared, want.len(), "every reference value was compared");
}

/// 40 queries. Each has three relevant docs: `a`, `c` and `z` (never retrieved), and nine judged
/// non-relevant ones. The baseline ranks `a` first; the candidate brings in `c` first and ranks
/// `a` second: a clear gain. `unjudge` queries have no judgment for `c`, which only the
/// candidate ranks (a full pool minus the candidate-only documents' judgments).
fn write_case(ctx: &TestContext, unjudge: usize) {
    let (mut qrels, mut base, mut cand) = (String::new(), String::new(), String::new());
    for q in 0..40 {
        let qid = format!("q{q:02}");
        qrels.push_str(&format!("{qid} 0 a 1\n"));
        if q >= unjudge {
            qrels.push_str(&format!("{qid} 0 c 1\n"));
        }
        qrels.push_str(&format!("{qid} 0 z 1\n"));
        for n in 1..=9 {
            qrels.push_str(&format!("{qid} 0 n{n} 0\n"));
        }
        let put = |out: &mut String, docs: &[String]| {
            for (i, d) in docs.iter().enumerate() {
                out.push_str(&format!("{qid} Q0 {d} {} {} run\n", i + 1, 100 - i));
            }
        };
        let ns: Vec<String> = (1..=9).map(|n| format!("n{n}")).collect();
        let mut b = vec!["a".to_string()];
        b.extend(ns.iter().cloned());
        let mut c = vec!["c".to_string(), "a".to_string()];
        c.extend(ns[..8].iter().cloned());
        put(&mut cand, &c);
        put(&mut base, &b);
    }
    ctx.write("qrels.txt", qrels);
    ctx.write("base.txt", base);
    ctx.write("cand.txt", cand);
}

/// `gate.toml` in the folder, over base.txt and cand.txt of [`write_case`], `extra` after `[slices]`.
fn unjudged_case_gate(ctx: &TestContext, extra: &str) -> std::path::PathBuf {
    let text = GateFile::default()
        .path("qrels", "qrels.txt")
        .input("baseline", "{ run = \"base.txt\" }")
        .input("candidate", "{ run = \"cand.txt\" }")
        .resamples(1000)
        .table("slices", "min-queries = 10")
        .raw(extra)
        .gate("ndcg@10", "max-drop = 0.02");
    let p = ctx.join(support::GATE);
    std::fs::write(&p, text.to_string()).unwrap();
    p
}

#[test]
fn removing_the_candidate_only_judgments_flags_the_gate_and_adding_them_back_clears_it() {
    let ctx = TestContext::new();
    let g = unjudged_case_gate(&ctx, "");
    // Full pool: passes, and both bounds are today's delta with today's interval.
    write_case(&ctx, 0);
    let (code, v) = ctx.check_file(&g, &["--format", "json"]).verdict_json();
    assert_eq!(code, 0, "{}", v["headline"]);
    let c = &v["comparisons"][0];
    let j = &c["judged"];
    assert_eq!(j["delta"], c["delta"]);
    for b in ["lower", "upper"] {
        assert_eq!(j[b]["delta"], c["delta"], "{b}");
        assert_eq!(j[b]["ci"], c["ci"], "{b}");
    }
    assert_eq!(
        (
            j["baseline_unjudged"].as_u64(),
            j["candidate_unjudged"].as_u64()
        ),
        (Some(0), Some(0))
    );
    assert_eq!(j["candidate_judged"], 1.0);
    let r = &v["gates"][0]["judged"];
    assert_eq!(
        (&r["lower"], &r["upper"], &r["unreliable"]),
        (&"pass".into(), &"pass".into(), &false.into())
    );
    // The judgments of the candidate-only `c` removed: today the candidate loses (c counts
    // non-relevant, `a` fell to rank 2) and fails; had `c` been relevant it would pass.
    // Unreliable: a warning by default, naming the documents to judge first.
    write_case(&ctx, 40);
    let (code, v) = ctx
        .check_file(
            &g,
            &[
                "--format",
                "json",
                "--holes",
                ctx.join("holes.txt").to_str().unwrap(),
            ],
        )
        .verdict_json();
    assert_eq!(code, 1, "today's figures fail");
    let r = &v["gates"][0];
    assert_eq!(r["status"], "fail");
    assert_eq!(r["judged"]["lower"], "fail");
    assert_eq!(r["judged"]["upper"], "pass");
    assert_eq!(r["judged"]["unreliable"], true);
    let j = &v["comparisons"][0]["judged"];
    let (delta, lo, hi) = (
        j["delta"].as_f64().unwrap(),
        j["lower"]["delta"].as_f64().unwrap(),
        j["upper"]["delta"].as_f64().unwrap(),
    );
    // Only the candidate ranks `c`: judged non-relevant is the lower bound, today's delta.
    assert_eq!(lo, delta);
    assert!(delta < -0.02 && hi > 0.0, "{lo} {delta} {hi}");
    assert_eq!(
        (
            j["baseline_unjudged"].as_u64(),
            j["candidate_unjudged"].as_u64()
        ),
        (Some(0), Some(40))
    );
    let named = v["warnings"].as_array().unwrap().iter().any(|w| {
        let w = w.as_str().unwrap();
        w.contains("unreliable: unjudged documents could flip it (a warning")
            && w.contains("upper bound ")
            && w.contains("→ pass")
            && w.contains("judge these first: q00 (candidate c@1)")
    });
    assert!(named, "{}", v["warnings"]);
    let holes = ctx.read("holes.txt");
    let lines: Vec<&str> = holes.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 40);
    assert!(lines[0].starts_with("q00 0 c ?"), "{}", lines[0]);
    // on-unreliable = "fail": the gate fails as unreliable, and the headline says so with
    // both bounds' intervals.
    let (code, v) = ctx
        .check_file(
            unjudged_case_gate(&ctx, "[judged]\non-unreliable = \"fail\""),
            &["--format", "json"],
        )
        .verdict_json();
    assert_eq!(code, 1);
    assert_eq!(
        v["gates"][0]["decided_by"],
        "unreliable: unjudged documents could flip it (judged bounds)"
    );
    let h = v["headline"].as_str().unwrap();
    assert!(
        h.contains("unreliable, unjudged documents could flip it") && h.contains(" to +"),
        "{h}"
    );
    // The judgments back: passes, no warning.
    write_case(&ctx, 0);
    let (code, v) = ctx.check_file(&g, &["--format", "json"]).verdict_json();
    assert_eq!(code, 0);
    assert_eq!(v["gates"][0]["judged"]["unreliable"], false);
}

#[test]
fn a_pull_request_that_changes_nothing_has_bounds_equal_to_its_delta() {
    let ctx = TestContext::new();
    write_case(&ctx, 20);
    std::fs::copy(ctx.join("cand.txt"), ctx.join("base.txt")).unwrap();
    let (code, v) = ctx
        .check_file(unjudged_case_gate(&ctx, ""), &["--format", "json"])
        .verdict_json();
    // Nothing moved among 40 queries: untouched, exit 0.
    assert_eq!(code, 0, "{}", v["headline"]);
    assert!(
        v["headline"]
            .as_str()
            .unwrap()
            .starts_with("UNTOUCHED: unchanged on all 40 queries"),
        "{}",
        v["headline"]
    );
    let j = &v["comparisons"][0]["judged"];
    assert_eq!(j["candidate_unjudged"], 20);
    for b in ["lower", "upper"] {
        assert_eq!(j[b]["delta"], 0.0, "{b}");
    }
    // No warning but the resolution's blind spot (nothing about unjudged documents).
    assert!(
        v["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|w| w.as_str().unwrap().contains("can hide in this sample")),
        "{}",
        v["warnings"]
    );
}

/// The qrels of `write_case` without their judged non-relevant documents (MS MARCO style).
fn positive_only(ctx: &TestContext) {
    let q = ctx.read("qrels.txt");
    let kept: String = q
        .lines()
        .filter(|l| !l.ends_with(" 0"))
        .map(|l| format!("{l}\n"))
        .collect();
    ctx.write("qrels.txt", kept);
}

#[test]
fn positive_only_qrels_are_the_collections_convention_never_unreliable() {
    let ctx = TestContext::new();
    write_case(&ctx, 40);
    positive_only(&ctx);
    for extra in ["", "[judged]\non-unreliable = \"fail\""] {
        let (_, v) = ctx
            .check_file(unjudged_case_gate(&ctx, extra), &["--format", "json"])
            .verdict_json();
        let text = v.to_string();
        assert!(!text.contains("unreliable: "), "{text}");
        let j = &v["comparisons"][0]["judged"];
        assert!(j.get("lower").is_none() && j.get("upper").is_none(), "{j}");
        assert!(j["not_computed"]
            .as_str()
            .unwrap()
            .starts_with("positive-only qrels"));
        // The judged figures are still there: 8 of the candidate's 10 are unjudged n1..n8 and c.
        assert!(
            (j["candidate_judged"].as_f64().unwrap() - 0.1).abs() < 1e-12,
            "{j}"
        );
        let notes: Vec<&str> = v["notes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap())
            .collect();
        let said: Vec<&&str> = notes
            .iter()
            .filter(|n| n.contains("list only relevant documents"))
            .collect();
        assert_eq!(said.len(), 1, "{notes:?}");
        assert!(
            said[0].contains("judged@10 baseline 0.100, candidate 0.100"),
            "{}",
            said[0]
        );
    }
}

#[test]
fn a_slice_below_min_judged_is_undecided_and_a_failed_rule_stays_failed() {
    let ctx = TestContext::new();
    write_case(&ctx, 20);
    // Mean judged@10: the baseline's 1.0, the candidate's 0.95 (its 20 queries with `c`
    // unjudged have 9 of 10). Below min-judged on the candidate's side only: undecided on this
    // pull request; its max-drop already failed on the interval, so it stays failed.
    let (code, v) = ctx
        .check_file(
            unjudged_case_gate(&ctx, "[judged]\nmin-judged = 0.97"),
            &["--format", "json"],
        )
        .verdict_json();
    assert_eq!(code, 1);
    let r = &v["gates"][0];
    assert_eq!(r["status"], "fail");
    assert_eq!(r["decided_by"], "non-inferiority (max-drop)");
    assert!(
        r["detail"].as_str().unwrap().contains(
            "also undecided on this sample, the candidate's mean judged@10 0.950 < min-judged 0.97"
        ),
        "{r}"
    );
    // The baseline's own coverage below the floor is the setup's: not judged, which fails on
    // `all` (the sides swapped: the baseline is the 0.95 one).
    std::fs::rename(ctx.join("cand.txt"), ctx.join("swap.txt")).unwrap();
    std::fs::rename(ctx.join("base.txt"), ctx.join("cand.txt")).unwrap();
    std::fs::rename(ctx.join("swap.txt"), ctx.join("base.txt")).unwrap();
    let (code, v) = ctx
        .check_file(
            unjudged_case_gate(&ctx, "[judged]\nmin-judged = 0.97"),
            &["--format", "json"],
        )
        .verdict_json();
    assert_eq!(code, 1);
    let r = &v["gates"][0];
    assert_eq!(r["status"], "too-small");
    assert_eq!(r["decided_by"], "too few judgments (min-judged)");
    assert!(r["detail"]
        .as_str()
        .unwrap()
        .starts_with("mean judged@10 0.950 < min-judged 0.97"));
    let (code, _) = ctx
        .check_file(
            unjudged_case_gate(
                &ctx,
                "on-small-slice = \"fail\"\n[judged]\nmin-judged = 0.97",
            ),
            &["--format", "json"],
        )
        .verdict_json();
    assert_eq!(code, 1);
    let e = ctx.check_file(unjudged_case_gate(&ctx, "[judged]\nmin-judged = 1.5"), &[]);
    assert_eq!(e.code, Some(2));
    assert!(e
        .stderr
        .as_str()
        .contains("[judged] min-judged = 1.5: expected a share between 0 and 1"));
}

const COVID: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/eval/fixtures/trec-covid-r2"
);

/// A gate file over the TREC-COVID fixture runs, one `max-drop` gate per metric.
fn covid_gate(ctx: &TestContext, base: &str, cand: &str, metrics: &[&str]) -> std::path::PathBuf {
    let mut s = GateFile::default()
        .path("qrels", format!("{COVID}/qrels.covid-round2.txt"))
        .input("baseline", format!("{{ run = \"{COVID}/{base}\" }}"))
        .input("candidate", format!("{{ run = \"{COVID}/{cand}\" }}"))
        .resamples(500);
    for m in metrics {
        s = s.gate(m, "max-drop = 0.02");
    }
    let p = ctx.join("covid.toml");
    std::fs::write(&p, s.to_string()).unwrap();
    p
}

#[test]
fn a_no_op_on_trec_covid_has_bounds_equal_to_its_delta_for_every_metric() {
    let ctx = TestContext::new();
    let metrics = [
        "p@5",
        "p@10",
        "recall@10",
        "recall@100",
        "hit@5",
        "ndcg@10",
        "ndcg",
        "mrr@10",
        "mrr",
        "ap@10",
        "map",
        "rprec",
    ];
    for run in ["run.covidex-sim.txt", "run.covidex-t5.txt"] {
        let (code, v) = ctx
            .check_file(covid_gate(&ctx, run, run, &metrics), &["--format", "json"])
            .verdict_json();
        // A no-op on 35 topics: untouched; the bounds below are the subject.
        assert_eq!(code, 0, "{run}: {}", v["headline"]);
        assert!(
            v["headline"].as_str().unwrap().starts_with("UNTOUCHED"),
            "{run}: {}",
            v["headline"]
        );
        let comps = v["comparisons"].as_array().unwrap();
        assert_eq!(comps.len(), metrics.len());
        for c in comps {
            let j = &c["judged"];
            for b in ["lower", "upper"] {
                assert_eq!(j[b]["delta"], c["delta"], "{run} {} {b}", c["metric"]);
                assert_eq!(j[b]["ci"], c["ci"], "{run} {} {b}", c["metric"]);
            }
            assert_eq!(j["exact"], true);
        }
        assert!(!v.to_string().contains("unreliable: "), "{run}");
    }
}

#[test]
fn sim_to_t5_on_trec_covid_passes_max_drop_by_default_with_the_judged_figures() {
    let ctx = TestContext::new();
    let g = covid_gate(
        &ctx,
        "run.covidex-sim.txt",
        "run.covidex-t5.txt",
        &["ndcg@10"],
    );
    let (code, v) = ctx.check_file(&g, &["--format", "json"]).verdict_json();
    assert_eq!(code, 0, "{}", v["headline"]);
    let j = &v["comparisons"][0]["judged"];
    // judged@10: sim 0.497, t5 0.937 (ir_measures Judged@10 on these runs).
    assert!(
        (j["baseline_judged"].as_f64().unwrap() - 0.497).abs() < 5e-4,
        "{j}"
    );
    assert!(
        (j["candidate_judged"].as_f64().unwrap() - 0.937).abs() < 5e-4,
        "{j}"
    );
    let (lo, hi) = (&j["lower"], &j["upper"]);
    assert!(
        lo["delta"].as_f64() <= j["delta"].as_f64() && j["delta"].as_f64() <= hi["delta"].as_f64()
    );
    let r = &v["gates"][0];
    assert_eq!(r["status"], "pass");
    // Where the bounds could flip it: a warning naming the documents to judge first.
    if r["judged"]["unreliable"] == true {
        let w = v["warnings"].as_array().unwrap();
        assert!(
            w.iter()
                .any(|w| w.as_str().unwrap().contains("judge these first: ")),
            "{w:?}"
        );
    }
    // The text report shows the judged table with both bounds and the decisions.
    let out = ctx.check_file(&g, &[]);
    let text = out.stdout.as_str();
    assert!(text.contains("decision at lower / upper"), "{text}");
    assert!(text.contains("#1 max-drop: "), "{text}");
    // map over 1000-deep rankings: AP's pools are too large to try every assignment, so the
    // bound is the proved, wider one, and the report says so.
    let g = covid_gate(&ctx, "run.covidex-sim.txt", "run.covidex-t5.txt", &["map"]);
    let (_, v) = ctx.check_file(&g, &["--format", "json"]).verdict_json();
    assert_eq!(v["comparisons"][0]["judged"]["exact"], false);
    let out = ctx.check_file(&g, &[]);
    assert!(out.stdout.contains("(proved, wider)"));
}

#[test]
fn eval_judged_only_is_trec_eval_minus_j_per_query_and_enters_the_fingerprint() {
    let ctx = TestContext::new();
    let want = std::fs::read_to_string(format!("{COVID}/run.covidex-sim.te.J.txt")).unwrap();
    let want: BTreeMap<String, f64> = want
        .lines()
        .filter(|l| l.starts_with("ndcg_cut_10 "))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[1].to_string(), f[2].parse().unwrap())
        })
        .collect();
    let out_path = ctx.join("sim.J.jsonl");
    Out::of(
        ctx.command()
            .args([
                "eval",
                "--metrics",
                "ndcg@10",
                "--empty-gold",
                "zero",
                "--judged-only",
            ])
            .arg("--qrels")
            .arg(format!("{COVID}/qrels.covid-round2.txt"))
            .arg("--run")
            .arg(format!("{COVID}/run.covidex-sim.txt"))
            .arg("-o")
            .arg(&out_path),
    )
    .expect(0);
    let rows = std::fs::read_to_string(&out_path).unwrap();
    let mut n = 0;
    for line in rows.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let q = v["query_id"].as_str().unwrap();
        let got = v["ndcg@10"].as_f64().unwrap();
        assert!(
            (got - want[q]).abs() <= 5e-5 * (1.0 + 1e-9),
            "{q}: {got} vs {}",
            want[q]
        );
        n += 1;
    }
    assert_eq!(n, 35);
    assert!((want["all"] - 0.5958).abs() < 1e-9);
    // The fingerprint says how unjudged documents counted: a condensed side is refused against
    // a plain one, naming the field.
    let proto = ctx.read("sim.J.jsonl.protocol.json");
    assert!(
        proto.contains("removed before scoring (condensed list, trec_eval -J)"),
        "{proto}"
    );
    Out::of(
        ctx.command()
            .args(["eval", "--metrics", "ndcg@10", "--empty-gold", "zero"])
            .arg("--qrels")
            .arg(format!("{COVID}/qrels.covid-round2.txt"))
            .arg("--run")
            .arg(format!("{COVID}/run.covidex-t5.txt"))
            .arg("-o")
            .arg(ctx.join("t5.jsonl")),
    )
    .expect(0);
    let g = ctx.write(
        "mix.toml",
        GateFile::new("sim.J.jsonl", "t5.jsonl")
            .gate("ndcg@10", "max-drop = 0.02")
            .to_string(),
    );
    let out = ctx.check_file(&g, &[]);
    let out = out.expect(2);
    let err = out.stderr.as_str();
    assert!(
        err.contains("ndcg@10.unjudged: baseline removed before scoring"),
        "{err}"
    );
}

/// `rag-gate eval` of one TREC-COVID run into `NAME.jsonl` in the folder with these metrics.
fn eval_to(ctx: &TestContext, run: &str, name: &str, metrics: &str) {
    Out::of(
        ctx.command()
            .args(["eval", "--metrics", metrics])
            .arg("--qrels")
            .arg(format!("{COVID}/qrels.covid-round2.txt"))
            .arg("--run")
            .arg(format!("{COVID}/{run}"))
            .arg("-o")
            .arg(ctx.join(format!("{name}.jsonl"))),
    )
    .expect(0);
}

/// The judged figures of the ndcg@10 comparison on `all`.
fn ndcg(v: &serde_json::Value) -> serde_json::Value {
    v["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["metric"] == "ndcg@10" && c["slice"] == "all")
        .unwrap()["judged"]
        .clone()
}

#[test]
fn metric_files_and_runs_get_one_verdict_on_min_judged() {
    let ctx = TestContext::new();
    eval_to(&ctx, "run.covidex-sim.txt", "sim", "ndcg@10,judged@10");
    eval_to(&ctx, "run.covidex-t5.txt", "t5", "ndcg@10,judged@10");
    eval_to(&ctx, "run.covidex-sim.txt", "sim-bare", "ndcg@10");
    eval_to(&ctx, "run.covidex-t5.txt", "t5-bare", "ndcg@10");
    let tail = "[judged]\nmin-judged = 0.9\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.02\n";
    let min_judged = |b: &str, c: &str| {
        GateFile::new(b, c)
            .table("judged", "min-judged = 0.9")
            .gate("ndcg@10", "max-drop = 0.02")
            .to_string()
    };
    let files = ctx.write("files.toml", min_judged("sim.jsonl", "t5.jsonl"));
    let runs = covid_gate(&ctx, "run.covidex-sim.txt", "run.covidex-t5.txt", &[]);
    let runs_text = std::fs::read_to_string(&runs).unwrap();
    std::fs::write(&runs, format!("{runs_text}{tail}")).unwrap();
    // Both routes: sim's mean judged@10 is 0.497, below 0.9: not judged, which fails on `all`.
    for g in [&files, &runs] {
        let (code, v) = ctx.check_file(g, &["--format", "json"]).verdict_json();
        assert_eq!(code, 1, "{}: {}", g.display(), v["headline"]);
        let r = &v["gates"][0];
        assert_eq!(r["decided_by"], "too few judgments (min-judged)");
        assert!(r["detail"]
            .as_str()
            .unwrap()
            .starts_with("mean judged@10 0.497 < min-judged 0.9"));
        let j = ndcg(&v);
        assert!(
            (j["candidate_judged"].as_f64().unwrap() - 0.937).abs() < 5e-4,
            "{j}"
        );
    }
    let (_, v) = ctx.check_file(&files, &["--format", "json"]).verdict_json();
    assert!(ndcg(&v)["not_computed"]
        .as_str()
        .unwrap()
        .starts_with("metric files: the bounds need both sides' rankings"));
    // Files without the judged@10 column: min-judged cannot be applied, an error naming it.
    ctx.write("files.toml", min_judged("sim-bare.jsonl", "t5-bare.jsonl"));
    let out = ctx.check_file(&files, &[]);
    let out = out.expect(2);
    let err = out.stderr.as_str();
    assert!(
        err.contains("files.toml") && err.contains("has no judged@10 column: add it"),
        "{err}"
    );
}

#[test]
fn condensed_true_reports_the_gated_deltas_on_condensed_lists_beside_todays() {
    let ctx = TestContext::new();
    let g = covid_gate(
        &ctx,
        "run.covidex-sim.txt",
        "run.covidex-t5.txt",
        &["ndcg@10"],
    );
    let text = std::fs::read_to_string(&g).unwrap();
    std::fs::write(&g, format!("{text}[judged]\ncondensed = true\n")).unwrap();
    let (code, v) = ctx.check_file(&g, &["--format", "json"]).verdict_json();
    // Reported beside today's, deciding nothing: the verdict is today's (a pass).
    assert_eq!(code, 0, "{}", v["headline"]);
    let j = ndcg(&v);
    // trec_eval -J: sim 0.5958, t5 0.6499 (4 decimals each).
    let condensed = j["condensed"]["delta"].as_f64().unwrap();
    assert!((condensed - (0.6499 - 0.5958)).abs() < 1e-4, "{condensed}");
    assert!(j["condensed"]["ci"][0].as_f64() < j["condensed"]["ci"][1].as_f64());
    let r = &v["gates"][0];
    assert!(
        ["pass", "fail"].contains(&r["condensed"].as_str().unwrap()),
        "{r}"
    );
    let out = ctx.check_file(&g, &[]);
    let text = out.stdout.as_str();
    assert!(
        text.contains(&format!("(condensed lists {condensed:+.4} [")),
        "{text}"
    );
    assert!(text.contains("#1 on condensed lists: "), "{text}");
}

#[test]
fn the_sidecar_records_why_a_metric_file_has_no_bounds() {
    let ctx = TestContext::new();
    write_case(&ctx, 40);
    let eval = |qrels: &str, run: &str, out: &str| {
        Out::of(
            ctx.command()
                .args(["eval", "--metrics", "ndcg@10,judged@10", "--qrels"])
                .arg(ctx.join(qrels))
                .arg("--run")
                .arg(ctx.join(run))
                .arg("-o")
                .arg(ctx.join(out)),
        )
        .expect(0);
        let p = std::fs::read_to_string(ctx.join(format!("{out}.protocol.json"))).unwrap();
        serde_json::from_str::<serde_json::Value>(&p).unwrap()["judged-bounds"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(eval("qrels.txt", "base.txt", "b.jsonl").starts_with("not computable from this file"));
    positive_only(&ctx);
    let why = eval("qrels.txt", "base.txt", "b.jsonl");
    assert!(
        why.starts_with("not needed: the qrels list only relevant documents"),
        "{why}"
    );
    eval("qrels.txt", "cand.txt", "c.jsonl");
    let g = ctx.write(
        "files.toml",
        GateFile::new("b.jsonl", "c.jsonl")
            .gate("ndcg@10", "max-drop = 0.02")
            .to_string(),
    );
    let (_, v) = ctx.check_file(&g, &["--format", "json"]).verdict_json();
    assert!(ndcg(&v)["not_computed"]
        .as_str()
        .unwrap()
        .starts_with("positive-only qrels"));
    // Keys that need runs say so instead of doing nothing.
    let text = std::fs::read_to_string(&g).unwrap();
    std::fs::write(&g, format!("{text}[judged]\ncondensed = true\n")).unwrap();
    let (_, v) = ctx.check_file(&g, &["--format", "json"]).verdict_json();
    assert!(v["warnings"].as_array().unwrap().iter().any(|w| w
        .as_str()
        .unwrap()
        .contains("[judged] condensed has no effect: judged bounds and condensed lists need both inputs to be runs")));
    assert!(v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n.as_str().unwrap().contains("list only relevant documents")));
}

#[test]
fn a_passing_gate_that_unjudged_documents_could_flip_says_why_it_passed_first() {
    // TREC-COVID round 2, `sim` against `t5`: the recall@100 gate passes today, and the pool's
    // unjudged documents could flip it (a warning under on-unreliable = "warn", the default).
    // Its why (HTML, JUnit, JSON `detail`) leads with its own reason; the bounds and the
    // documents to judge first stay in the warning.
    let ctx = TestContext::new();
    let covid = format!("{DATA}/fixtures/trec-covid-r2");
    ctx.gate(
        GateFile::default()
            .input(
                "baseline",
                format!("{{ run = \"{covid}/run.covidex-sim.txt\" }}"),
            )
            .input(
                "candidate",
                format!("{{ run = \"{covid}/run.covidex-t5.txt\" }}"),
            )
            .path("qrels", format!("{covid}/qrels.covid-round2.txt"))
            .resamples(2000)
            .gate("recall@100", "max-drop = 0.05"),
    );
    let (code, v) = ctx.check_json(&["--export-html", "r.html"]).verdict_json();
    assert_eq!(code, 0);
    let g = &v["gates"][0];
    assert_eq!(
        (&g["status"], &g["judged"]["unreliable"]),
        (&"pass".into(), &true.into())
    );
    let detail = g["detail"].as_str().unwrap();
    assert!(detail.starts_with("non-inferiority: "), "{detail}");
    assert!(
        detail.ends_with(
            "; warning, unreliable: unjudged documents could flip it (fail at the lower bound, \
             pass at the upper)"
        ),
        "{detail}"
    );
    let html = ctx.read("r.html");
    assert!(html.contains("<td>non-inferiority: "), "the why cell");
    assert!(!html.contains("<td>unreliable: "), "the why cell");
    let warned = v["warnings"].as_array().unwrap().iter().any(|w| {
        let w = w.as_str().unwrap();
        w.contains("recall@100 on all: unreliable: unjudged documents could flip it")
            && w.contains("judge these first: ")
    });
    assert!(warned, "{}", v["warnings"]);
}

/// `deep-judged-bounds`: one query ranking thousands of unjudged documents (the uncut metrics'
/// pool is the whole ranking). The baseline ranks the one relevant document first, then
/// `u1 … uN`; the candidate ranks `u1 … uN`, then the relevant one. The exact bounds are known:
/// no shared judgment lowers the candidate below today (mrr, rprec), and judging `u1` (mrr) or
/// every `u` (rprec, ndcg: both rankings then ideal) closes the gap to 0. The sweep reaches the
/// far end of the pool (m = N); its cost is measured by bench/hostile/judged_bounds.sh.
#[test]
fn deep_judged_bounds() {
    let n = 3000;
    let ctx = TestContext::new();
    let (mut base, mut cand) = (String::from("q1 Q0 r 1 100000 b\n"), String::new());
    for i in 1..=n {
        base.push_str(&format!("q1 Q0 u{i} {} {} b\n", i + 1, 100000 - i));
        cand.push_str(&format!("q1 Q0 u{i} {i} {} c\n", 100000 - i));
    }
    cand.push_str(&format!("q1 Q0 r {} 1 c\n", n + 1));
    ctx.write("qrels.txt", "q1 0 r 1\nq1 0 n 0\n");
    ctx.write("base.txt", base);
    ctx.write("cand.txt", cand);
    let gate = ["mrr", "rprec", "ndcg", "map"].iter().fold(
        GateFile::default()
            .path("qrels", "qrels.txt")
            .input("baseline", "{ run = \"base.txt\" }")
            .input("candidate", "{ run = \"cand.txt\" }")
            .resamples(40)
            .table("slices", "min-queries = 1"),
        |g, m| g.gate(m, "max-drop = 0.05"),
    );
    ctx.gate(gate);
    let (code, v) = ctx.check_json(&[]).verdict_json();
    assert_eq!(code, 1, "{}", v["headline"]);
    let judged = |metric: &str| -> (f64, f64, f64, bool) {
        let c = v["comparisons"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["metric"] == metric && c["slice"] == "all")
            .unwrap();
        let j = &c["judged"];
        let at = |b: &str| j[b]["delta"].as_f64().unwrap();
        (
            at("lower"),
            c["delta"].as_f64().unwrap(),
            at("upper"),
            j["exact"].as_bool().unwrap(),
        )
    };
    let today_mrr = 1.0 / (n + 1) as f64 - 1.0;
    let (lo, delta, hi, exact) = judged("mrr");
    assert!((lo - today_mrr).abs() < 1e-12 && (delta - today_mrr).abs() < 1e-12);
    assert_eq!((hi, exact), (0.0, true));
    let (lo, delta, hi, exact) = judged("rprec");
    assert_eq!((lo, delta, hi, exact), (-1.0, -1.0, 0.0, true));
    let (lo, delta, hi, exact) = judged("ndcg");
    assert!(lo <= delta && delta < 0.0 && exact, "{lo} {delta}");
    assert!(
        hi.abs() < 1e-12,
        "every u judged relevant: both rankings ideal, {hi}"
    );
    let (lo, delta, hi, exact) = judged("map");
    assert!(lo <= delta && delta < hi && !exact, "{lo} {delta} {hi}");
}
