//! `[probe]`: both sides' runs on unlabelled queries. On the CACM BM25 run (64 ranked queries,
//! 52 judged: 12 unlabelled) the same run on both sides is untouched with the probe's
//! resolution in the header; the deepest ten documents lifted to the top on 5 probe queries
//! names those 5 (report and `--probe-batch`) and bounds the loss (beyond the margin where no
//! labelled query moved: a fail); on TREC-COVID with 10
//! queries' judgments held out, the real system change (Covidex sim → t5) is decided by the
//! labelled set. A synthetic probe of 5,000 queries shows the probe deciding a pass the labelled
//! set cannot. Protocol mismatches and bad keys are exit 2 with file, line and key; every
//! output format carries the probe's header line.

use crate::support;
use support::{toml_path, GateFile, Out, TestContext};

use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::Path;

use support::output::assert_contains;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/eval/fixtures");

fn cacm(file: &str) -> String {
    format!("{FIXTURES}/cacm/{file}")
}

/// The CACM run's queries the qrels do not judge, in file order.
fn unjudged_cacm() -> Vec<String> {
    let qrels = std::fs::read_to_string(cacm("qrels.cacm.txt")).unwrap();
    let judged: BTreeSet<&str> = qrels
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let run = std::fs::read_to_string(cacm("run.cacm-bm25.txt")).unwrap();
    let mut out: Vec<String> = Vec::new();
    for q in run.lines().filter_map(|l| l.split_whitespace().next()) {
        if !judged.contains(q) && !out.iter().any(|o| o == q) {
            out.push(q.to_string());
        }
    }
    out
}

/// The CACM run with, on each query of `lifted`, its ranks 21–30 moved to the top (every
/// document of its top 10 changes), written to `path`.
fn lift_deepest(path: &Path, lifted: &[String]) {
    let run = std::fs::read_to_string(cacm("run.cacm-bm25.txt")).unwrap();
    let mut out = String::new();
    for l in run.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        if lifted.iter().any(|q| q == f[0]) {
            let rank: usize = f[3].parse().unwrap();
            let new = if rank > 20 { rank - 20 } else { rank + 10 };
            let _ = writeln!(out, "{} Q0 {} {new} {} {}", f[0], f[2], 1000 - new, f[5]);
        } else {
            let _ = writeln!(out, "{l}");
        }
    }
    std::fs::write(path, out).unwrap();
}

/// A gate file on the CACM run (labelled: the judged queries) with `[probe]` on `base`, `cand`.
fn cacm_gate(ctx: &TestContext, cand: &str, extra: &str) -> std::path::PathBuf {
    let run = cacm("run.cacm-bm25.txt");
    let text = format!(
        "[inputs]\nqrels = \"{q}\"\nbaseline = {{ run = \"{run}\" }}\ncandidate = {{ run = \"{run}\" }}\n\
         [bootstrap]\nresamples = 500\n\
         [probe]\nbaseline = \"{run}\"\ncandidate = \"{cand}\"\n{extra}\
         [[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.05\n",
        q = cacm("qrels.cacm.txt"),
    );
    let p = ctx.join("gate.toml");
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn the_same_run_on_both_sides_is_untouched_with_the_probe_resolution() {
    let ctx = TestContext::new();
    let gate = cacm_gate(&ctx, &cacm("run.cacm-bm25.txt"), "");
    let v = ctx
        .check_file(&gate, &["--format", "json"])
        .expect(0)
        .json();
    assert_eq!(v["verdict"], "untouched");
    let p = &v["probe"];
    assert_eq!(p["queries"], 12);
    assert_eq!(p["labelled_left_out"], 52);
    assert_eq!(p["changed"], 0);
    assert_eq!(p["cutoff"], 10);
    // 1 − 0.025^(1/12)
    let res = p["resolution"].as_f64().unwrap();
    assert!(
        (res - (1.0 - 0.025f64.powf(1.0 / 12.0))).abs() < 1e-12,
        "{res}"
    );
    assert_eq!(p["changed_share_bound"].as_f64().unwrap(), res);
    assert_contains(p["decided"].as_str().unwrap(), "untouched by the probe");
    let text = ctx.check_file(&gate, &[]).expect(0).utf8().stdout;
    let header: Vec<&str> = text.lines().take(6).collect();
    assert!(
        header.iter().any(|l| l.starts_with("probe: untouched by the probe: no top 10 moved on 12 unlabelled queries; a change touching fewer than 26.5% of queries can hide")),
        "{text}"
    );
    assert!(
        crate::report_schema::violations(&v).is_empty(),
        "{:?}",
        crate::report_schema::violations(&v)
    );
}

#[test]
fn five_moved_probe_queries_are_named_bounded_and_written_as_the_next_batch() {
    let ctx = TestContext::new();
    let probe = unjudged_cacm();
    let lifted: Vec<String> = probe[..5].to_vec();
    let cand = ctx.path().join("cand.txt");
    lift_deepest(&cand, &lifted);
    let gate = cacm_gate(&ctx, cand.to_str().unwrap(), "");
    let batch = ctx.path().join("batch.txt");
    let v = Out::of(
        ctx.command()
            .arg("check")
            .arg(&gate)
            .args(["--format", "json"])
            .arg("--probe-batch")
            .arg(&batch),
    )
    .expect(1)
    .json();
    let p = &v["probe"];
    assert_eq!(p["changed"], 5);
    let named: BTreeSet<&str> = p["moved"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["query_id"].as_str().unwrap())
        .collect();
    assert_eq!(named, lifted.iter().map(String::as_str).collect());
    for m in p["moved"].as_array().unwrap() {
        // Every top-10 document changed: no overlap, ten in and ten out, worst loss the reach.
        assert_eq!(m["rbo"].as_f64().unwrap(), 0.0);
        assert_eq!(m["entering"].as_array().unwrap().len(), 10);
        assert_eq!(m["leaving"].as_array().unwrap().len(), 10);
        assert_eq!(m["worst_loss"].as_f64().unwrap(), 1.0);
    }
    let b = &p["bounds"][0];
    assert_eq!(b["metric"], "ndcg@10");
    assert!((b["worst_mean_loss"].as_f64().unwrap() - 5.0 / 12.0).abs() < 1e-12);
    // Zeros and ones: the bound is Clopper–Pearson's 5 of 12 at 0.025 (scipy: 0.7233303).
    assert!(
        (b["loss_bound"].as_f64().unwrap() - 0.7233303).abs() < 1e-6,
        "{b}"
    );
    // No labelled query moved, so the labelled set cannot see this change, and its worst case
    // is beyond the margin: the probe fails it, naming the queries to label.
    assert_eq!(v["verdict"], "fail");
    assert_contains(p["decided"].as_str().unwrap(), "label the moved queries");
    assert_eq!(
        v["gates"][0]["decided_by"],
        "probe: moved where the labelled set saw nothing"
    );
    let batch = std::fs::read_to_string(&batch).unwrap();
    let queries: BTreeSet<&str> = batch
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(queries, lifted.iter().map(String::as_str).collect());
    // Both sides' top 10, disjoint: 20 documents per query, each a `qid 0 doc ?` line.
    assert_eq!(batch.lines().filter(|l| !l.starts_with('#')).count(), 100);
    assert!(batch
        .lines()
        .filter(|l| !l.starts_with('#'))
        .all(|l| l.split_whitespace().nth(3) == Some("?")));
}

#[test]
fn a_probe_whose_protocol_differs_is_refused_with_its_key() {
    let ctx = TestContext::new();
    let run = std::fs::read_to_string(cacm("run.cacm-bm25.txt")).unwrap();
    let dropped = unjudged_cacm()[0].clone();
    let fewer: String = run
        .lines()
        .filter(|l| l.split_whitespace().next() != Some(dropped.as_str()))
        .map(|l| format!("{l}\n"))
        .collect();
    let cand = ctx.path().join("fewer.txt");
    std::fs::write(&cand, fewer).unwrap();
    let gate = cacm_gate(&ctx, cand.to_str().unwrap(), "");
    let (code, err) = {
        let o = Out::of(ctx.command().arg("check").arg(&gate));
        (o.code, o.stderr)
    };
    assert_eq!(code, Some(2), "{err}");
    assert_contains(&err, "gate.toml:9");
    assert_contains(&err, "[probe] candidate");
    assert_contains(&err, "query set differs");
    assert_contains(&err, &format!("only in the baseline: \"{dropped}\""));
    // Shallower rankings: the depth differs.
    let shallow: String = run
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .nth(3)
                .unwrap()
                .parse::<usize>()
                .unwrap()
                <= 20
        })
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&cand, shallow).unwrap();
    let (code, err) = {
        let o = Out::of(ctx.command().arg("check").arg(&gate));
        (o.code, o.stderr)
    };
    assert_eq!(code, Some(2), "{err}");
    assert_contains(&err, "ranks to depth 20, the baseline's");
    assert_contains(&err, "to depth 30");
    // Nothing half-written: no batch file.
    let batch = ctx.path().join("batch.txt");
    let out = Out::of(
        ctx.command()
            .arg("check")
            .arg(&gate)
            .arg("--probe-batch")
            .arg(&batch),
    );
    assert_eq!(out.code, Some(2));
    assert!(!batch.exists());
}

#[test]
fn bad_probe_keys_are_refused_with_line_and_key() {
    let ctx = TestContext::new();
    let gate = cacm_gate(&ctx, &cacm("run.cacm-bm25.txt"), "persistence = 1.5\n");
    let (code, err) = {
        let o = Out::of(ctx.command().arg("check").arg(&gate));
        (o.code, o.stderr)
    };
    assert_eq!(code, Some(2), "{err}");
    assert_contains(&err, "gate.toml:10");
    assert_contains(&err, "[probe] persistence = 1.5");
    let gate = cacm_gate(&ctx, &cacm("run.cacm-bm25.txt"), "depth = 10\n");
    let (code, err) = {
        let o = Out::of(ctx.command().arg("check").arg(&gate));
        (o.code, o.stderr)
    };
    assert_eq!(code, Some(2), "{err}");
    assert_contains(&err, "depth");
    // A missing probe run names its key.
    let gate = cacm_gate(&ctx, "nowhere.txt", "");
    let (code, err) = {
        let o = Out::of(ctx.command().arg("check").arg(&gate));
        (o.code, o.stderr)
    };
    assert_eq!(code, Some(2), "{err}");
    assert_contains(&err, "gate.toml:9");
    assert_contains(&err, "[probe] candidate: ");
    assert_contains(&err, "nowhere.txt: opening");
    // --probe-batch without [probe].
    let plain = ctx.path().join("plain.toml");
    let text = std::fs::read_to_string(&gate).unwrap();
    let start = text.find("[probe]").unwrap();
    let end = text.find("[[gate]]").unwrap();
    std::fs::write(&plain, format!("{}{}", &text[..start], &text[end..])).unwrap();
    let (code, err) = {
        let o = Out::of(
            ctx.command()
                .arg("check")
                .arg(&plain)
                .args(["--probe-batch", "b.txt"]),
        );
        (o.code, o.stderr)
    };
    assert_eq!(code, Some(2), "{err}");
    assert_contains(&err, "--probe-batch");
}

/// `n` probe queries of 10 documents each; on the first `moved`, the candidate swaps in two new
/// documents at ranks 9 and 10 (p@10 loses at most 0.2 there).
fn synthetic_probe(ctx: &TestContext, n: usize, moved: usize) {
    let (mut b, mut c) = (String::new(), String::new());
    for q in 0..n {
        for r in 1..=10 {
            let _ = writeln!(b, "p{q} Q0 d{q}-{r} {r} {} base", 100 - r);
            let doc = if q < moved && r > 8 {
                format!("n{q}-{r}")
            } else {
                format!("d{q}-{r}")
            };
            let _ = writeln!(c, "p{q} Q0 {doc} {r} {} cand", 100 - r);
        }
    }
    ctx.write("probe-base.txt", b);
    ctx.write("probe-cand.txt", c);
}

/// 40 labelled queries whose p@10 deltas are wide (±0.3): the labelled interval reaches past a
/// 0.05 margin, so `max-drop` fails on them alone.
fn noisy_labelled(ctx: &TestContext) {
    let (mut b, mut c) = (String::new(), String::new());
    for i in 0..40 {
        let d = [0.3, -0.3, 0.2, -0.2][i % 4];
        let _ = writeln!(b, "{{\"query_id\":\"l{i}\",\"p@10\":0.5}}");
        let _ = writeln!(c, "{{\"query_id\":\"l{i}\",\"p@10\":{}}}", 0.5 + d);
    }
    ctx.write("b.jsonl", b);
    ctx.write("c.jsonl", c);
    std::fs::write(
        ctx.join("gate.toml"),
        "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n[bootstrap]\nresamples = 500\n\
         [probe]\nbaseline = \"probe-base.txt\"\ncandidate = \"probe-cand.txt\"\n\
         [[gate]]\nmetric = \"p@10\"\nmax-drop = 0.05\n",
    )
    .unwrap();
}

#[test]
fn a_few_moved_probe_queries_within_the_margin_pass_on_the_probe() {
    let ctx = TestContext::new();
    noisy_labelled(&ctx);
    // Without the probe's say (every probe query moved), the labelled set fails the gate.
    synthetic_probe(&ctx, 5000, 5000);
    let v = Out::of(
        ctx.command()
            .arg("check")
            .arg(ctx.path().join("gate.toml"))
            .args(["--format", "json"]),
    )
    .expect(1)
    .json();
    assert_eq!(v["verdict"], "fail");
    assert_contains(
        v["probe"]["decided"].as_str().unwrap(),
        "the labelled set decided",
    );
    // 3 of 5,000 moved, each losing at most 0.2 of p@10: the worst case stays within 0.05.
    synthetic_probe(&ctx, 5000, 3);
    let v = Out::of(
        ctx.command()
            .arg("check")
            .arg(ctx.path().join("gate.toml"))
            .args(["--format", "json"]),
    )
    .expect(0)
    .json();
    assert_eq!(v["verdict"], "pass");
    let p = &v["probe"];
    assert_eq!(p["changed"], 3);
    let b = &p["bounds"][0];
    assert!((b["worst_mean_loss"].as_f64().unwrap() - 0.6 / 5000.0).abs() < 1e-12);
    let bound = b["loss_bound"].as_f64().unwrap();
    // Below Clopper–Pearson's 3 of 5,000 (every loss at the reach) and above its floor.
    assert!(bound < 0.0017 && bound > 0.0007, "{bound}");
    assert_contains(p["decided"].as_str().unwrap(), "the probe decided");
    let g = &v["gates"][0];
    assert_eq!(g["status"], "pass");
    assert_contains(g["decided_by"].as_str().unwrap(), "probe worst case");
}

#[test]
fn a_real_system_change_is_decided_by_the_labelled_set() {
    let ctx = TestContext::new();
    let dir = format!("{FIXTURES}/trec-covid-r2");
    let qrels = std::fs::read_to_string(format!("{dir}/qrels.covid-round2.txt")).unwrap();
    let ids: BTreeSet<&str> = qrels
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    // Ten judged queries' judgments held out: unlabelled, the probe.
    let held: BTreeSet<&str> = ids.iter().rev().take(10).copied().collect();
    let kept: String = qrels
        .lines()
        .filter(|l| !held.contains(l.split_whitespace().next().unwrap()))
        .map(|l| format!("{l}\n"))
        .collect();
    ctx.write("qrels.txt", kept);
    let (sim, t5) = (
        format!("{dir}/run.covidex-sim.txt"),
        format!("{dir}/run.covidex-t5.txt"),
    );
    ctx.gate(
        GateFile::default()
            .path("qrels", "qrels.txt")
            .input("baseline", format!("{{ run = {} }}", toml_path(&sim)))
            .input("candidate", format!("{{ run = {} }}", toml_path(&t5)))
            .resamples(500)
            .table(
                "probe",
                &format!(
                    "baseline = {}\ncandidate = {}",
                    toml_path(&sim),
                    toml_path(&t5)
                ),
            )
            .gate("ndcg@10", "max-drop = 0.02"),
    );
    let v = ctx.check_json(&[]).json();
    let p = &v["probe"];
    assert_eq!(p["queries"], 10);
    // The reranker moves the top 10 of 6 of the 10 held-out queries (measured).
    assert_eq!(p["changed"], 6);
    assert_contains(p["decided"].as_str().unwrap(), "the labelled set decided");
    assert_ne!(
        v["gates"][0]["decided_by"].as_str().unwrap(),
        "probe worst case (max-drop / max-change)"
    );
    assert!(
        crate::report_schema::violations(&v).is_empty(),
        "{:?}",
        crate::report_schema::violations(&v)
    );
}

#[test]
fn every_output_format_carries_the_probe() {
    let ctx = TestContext::new();
    let cand = ctx.path().join("cand.txt");
    lift_deepest(&cand, &unjudged_cacm()[..5]);
    let gate = cacm_gate(&ctx, cand.to_str().unwrap(), "");
    let line = "probe: 5 of 12 unlabelled queries moved their top 10";
    for format in ["text", "markdown", "json", "junit"] {
        let out = Out::of(
            ctx.command()
                .arg("check")
                .arg(&gate)
                .args(["--format", format]),
        )
        .expect(1);
        let s = out.stdout;
        assert_contains(
            &s,
            if format == "json" {
                "5 of 12 unlabelled queries moved their top 10"
            } else {
                line
            },
        );
        if format != "junit" && format != "json" {
            assert_contains(&s, "Probe (unlabelled queries)");
        }
    }
    let html = ctx.path().join("r.html");
    Out::of(
        ctx.command()
            .arg("check")
            .arg(&gate)
            .arg("--export-html")
            .arg(&html),
    )
    .expect(1);
    let page = std::fs::read_to_string(&html).unwrap();
    assert_contains(&page, "<h2>Probe (unlabelled queries)</h2>");
    assert_contains(&page, line);
    // The same seed gives the same report, byte for byte.
    let a = Out::of(
        ctx.command()
            .arg("check")
            .arg(&gate)
            .args(["--format", "json"]),
    )
    .expect(1)
    .stdout;
    let b = Out::of(
        ctx.command()
            .arg("check")
            .arg(&gate)
            .args(["--format", "json"]),
    )
    .expect(1)
    .stdout;
    assert_eq!(a, b);
}

#[test]
fn probes_that_cannot_be_compared_are_refused() {
    let ctx = TestContext::new();
    // A JSONL ranked list (kept in its given order) against the scored TREC run.
    let run = std::fs::read_to_string(cacm("run.cacm-bm25.txt")).unwrap();
    let mut by: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for l in run.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        by.entry(f[0]).or_default().push(f[2]);
    }
    let jsonl: String = by
        .iter()
        .map(|(q, docs)| format!("{}\n", serde_json::json!({"query_id": q, "ranked": docs})))
        .collect();
    let cand = ctx.path().join("cand.jsonl");
    std::fs::write(&cand, jsonl).unwrap();
    let gate = cacm_gate(&ctx, cand.to_str().unwrap(), "");
    let (code, err) = {
        let o = Out::of(ctx.command().arg("check").arg(&gate));
        (o.code, o.stderr)
    };
    assert_eq!(code, Some(2), "{err}");
    assert_contains(
        &err,
        "its rankings are ordered by given, the baseline's by score",
    );
    // Every query of the probe runs labelled: no probe.
    let dir = format!("{FIXTURES}/trec-covid-r2");
    let (sim, t5) = (
        format!("{dir}/run.covidex-sim.txt"),
        format!("{dir}/run.covidex-t5.txt"),
    );
    let gate = ctx.path().join("all.toml");
    std::fs::write(
        &gate,
        format!(
            "[inputs]\nqrels = \"{dir}/qrels.covid-round2.txt\"\nbaseline = {{ run = \"{sim}\" }}\ncandidate = {{ run = \"{t5}\" }}\n\
             [probe]\nbaseline = \"{sim}\"\ncandidate = \"{t5}\"\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.02\n"
        ),
    )
    .unwrap();
    let (code, err) = {
        let o = Out::of(ctx.command().arg("check").arg(&gate));
        (o.code, o.stderr)
    };
    assert_eq!(code, Some(2), "{err}");
    assert_contains(&err, "all.toml:5");
    assert_contains(&err, "every one of the 35 queries");
    // No gate on a ranking metric: nothing to bound.
    let rows: String = (0..40)
        .map(|i| format!("{{\"query_id\":\"l{i}\",\"latency_ms\":3}}\n"))
        .collect();
    ctx.write("b.jsonl", &rows);
    ctx.write("c.jsonl", &rows);
    let run = cacm("run.cacm-bm25.txt");
    std::fs::write(
        &gate,
        format!(
            "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n[probe]\nbaseline = \"{run}\"\ncandidate = \"{run}\"\n\
             [[gate]]\nmetric = \"latency_ms\"\nhigher-is-better = false\nmax-mean = 5\n"
        ),
    )
    .unwrap();
    let (code, err) = {
        let o = Out::of(ctx.command().arg("check").arg(&gate));
        (o.code, o.stderr)
    };
    assert_eq!(code, Some(2), "{err}");
    assert_contains(&err, "no [[gate]] gates a ranking metric");
}
