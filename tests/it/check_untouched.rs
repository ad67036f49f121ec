//! Identical results never block under the regular guarantee: the same run on both sides of
//! real collections (trec_eval's test files, CACM, TREC-COVID round 2: 3 to 64 topics) at
//! margins 0.01, 0.02 and 0.05 exits 0 as untouched; nothing says FAIL, the JUnit report has no
//! failure, and the header states the resolution. Identical metric files with critical slices
//! of 3 queries do too. Under `guarantee = "distribution-free"` zero moves prove a no-op only
//! where the finite-sample bound reaches within the margin: on these small collections that is
//! a failure that says why, on 5,000 identical queries at 0.01 it is untouched.

use crate::support;
use support::TestContext;

use support::output::{assert_contains, json};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/eval/fixtures");

/// (collection, qrels, run) of each shared fixture.
const COLLECTIONS: [(&str, &str, &str); 3] = [
    ("trec_eval_test", "qrels.test", "results.test"),
    ("cacm", "qrels.cacm.txt", "run.cacm-bm25.txt"),
    (
        "trec-covid-r2",
        "qrels.covid-round2.txt",
        "run.covidex-sim.txt",
    ),
];

fn gate_file(collection: &str, qrels: &str, run: &str, margin: f64, guarantee: &str) -> String {
    let dir = format!("{FIXTURES}/{collection}");
    format!(
        "[inputs]\nqrels = \"{dir}/{qrels}\"\nbaseline = {{ run = \"{dir}/{run}\" }}\n\
         candidate = {{ run = \"{dir}/{run}\" }}\n[bootstrap]\nresamples = 500\n\
         [verdict]\nguarantee = \"{guarantee}\"\n\
         [[gate]]\nmetric = \"ndcg@10\"\nmax-drop = {margin}\nfail-if-significant-drop = {margin}\n\
         [[gate]]\nmetric = \"recip_rank\"\nmax-change = {margin}\n\
         [[gate]]\nmetric = \"P@5\"\nmax-drop = {margin}\nmax-loss-rate = 0.1\n"
    )
}

#[test]
fn the_same_run_on_both_sides_is_untouched_on_every_collection_and_margin() {
    let ctx = TestContext::new();
    for (collection, qrels, run) in COLLECTIONS {
        for margin in [0.01, 0.02, 0.05] {
            for guarantee in ["regular"] {
                let case = format!("{collection} at {margin}, {guarantee}");
                ctx.write(
                    "gate.toml",
                    gate_file(collection, qrels, run, margin, guarantee),
                );
                let o = ctx.run(&[
                    "check",
                    "gate.toml",
                    "--format",
                    "text",
                    "--export-json",
                    "r.json",
                    "--export-junit",
                    "r.xml",
                    "--export-markdown",
                    "r.md",
                ]);
                assert_eq!(o.code, Some(0), "{case}: {}{}", o.stdout, o.stderr);
                assert!(!o.stdout.contains("FAIL"), "{case}: {}", o.stdout);
                assert_contains(&o.stdout, "UNTOUCHED: unchanged on all ");
                assert_contains(
                    &o.stdout,
                    "resolution on all: a change touching fewer than ",
                );
                let r = json(&std::fs::read(ctx.path().join("r.json")).unwrap());
                assert_eq!(r["verdict"], "untouched", "{case}");
                assert_eq!(r["guarantee"], guarantee, "{case}");
                let n = r["pairing"]["paired"].as_u64().unwrap();
                assert!(n >= 3, "{case}: {n} topics");
                let res = &r["resolution"][0];
                assert_eq!(res["slice"], "all");
                assert_eq!(res["units"].as_u64(), Some(n), "{case}");
                let share = 1.0 - 0.025f64.powf(1.0 / n as f64);
                assert!(
                    (res["share"].as_f64().unwrap() - share).abs() < 1e-12,
                    "{case}"
                );
                for g in r["gates"].as_array().unwrap() {
                    assert_eq!(g["status"], "untouched", "{case}: {g}");
                    assert_eq!(g["fails_build"], false, "{case}: {g}");
                }
                for c in r["comparisons"].as_array().unwrap() {
                    assert_eq!(c["untouched"], true, "{case}");
                    assert_eq!(c["ci"][0], c["ci"][1], "{case}: the interval is the point");
                }
                let junit = ctx.read("r.xml");
                assert!(!junit.contains("<failure"), "{case}: {junit}");
                assert!(!junit.contains("<skipped"), "{case}: {junit}");
                let md = ctx.read("r.md");
                assert_contains(&md, "rag-gate untouched: unchanged on all ");
                assert!(!md.contains("fail**"), "{case}: {md}");
            }
        }
    }
}

#[test]
fn distribution_free_fails_what_zero_moves_on_a_small_collection_cannot_prove() {
    let ctx = TestContext::new();
    for (collection, qrels, run) in COLLECTIONS {
        for margin in [0.01, 0.05] {
            let case = format!("{collection} at {margin}");
            ctx.write(
                "gate.toml",
                gate_file(collection, qrels, run, margin, "distribution-free"),
            );
            let o = ctx.run(&["check", "gate.toml", "--export-json", "r.json"]);
            assert_eq!(o.code, Some(1), "{case}: {}{}", o.stdout, o.stderr);
            let r = json(&std::fs::read(ctx.path().join("r.json")).unwrap());
            assert_eq!(r["verdict"], "fail", "{case}");
            let rule = |name: &str| {
                r["gates"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|g| g["rule"] == name)
                    .unwrap()
                    .clone()
            };
            let drop = rule("max-drop");
            // Failed by the bound, or (3 topics) not judged below min-queries: never passed.
            assert_eq!(drop["fails_build"], true, "{case}: {drop}");
            if drop["status"] == "fail" {
                assert_contains(drop["detail"].as_str().unwrap(), "distribution-free");
            } else {
                assert_eq!(drop["status"], "too-small", "{case}: {drop}");
            }
            // The loss rate claims nothing about unseen moves: still untouched.
            let loss = rule("max-loss-rate");
            assert_eq!(loss["status"], "untouched", "{case}: {loss}");
        }
    }
    // 5,000 identical queries: zero moves bound an unseen drop by 1 − 0.025^(1/5000) ≈ 0.00074.
    let rows: String = (0..5000)
        .map(|i| {
            format!(
                "{{\"query_id\": \"q{i}\", \"ndcg@10\": {}}}\n",
                (i % 97) as f64 / 97.0
            )
        })
        .collect();
    ctx.write("b.jsonl", &rows);
    ctx.write("c.jsonl", &rows);
    ctx.write("gate.toml",
        "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n[bootstrap]\nresamples = 300\n\
         [verdict]\nguarantee = \"distribution-free\"\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n",
    );
    let o = ctx.run(&["check", "gate.toml", "--export-json", "r.json"]);
    assert_eq!(o.code, Some(0), "{}{}", o.stdout, o.stderr);
    let r = json(&std::fs::read(ctx.path().join("r.json")).unwrap());
    assert_eq!(r["verdict"], "untouched");
    let lo = r["comparisons"][0]["ci"][0].as_f64().unwrap();
    assert!(lo < 0.0 && lo > -0.01, "the finite-sample bound: {lo}");
}

#[test]
fn identical_metric_files_with_critical_slices_of_three_queries_are_untouched() {
    let ctx = TestContext::new();
    let mut rows = String::new();
    for i in 0..43 {
        let tag = ["a", "b", "c", "d", "e"][i % 5];
        let tag = if i < 3 { "tiny" } else { tag };
        rows.push_str(&format!(
            "{{\"query_id\": \"q{i}\", \"slices\": {{\"topic\": \"{tag}\"}}, \"ndcg@10\": {}}}\n",
            0.3 + 0.013 * (i % 11) as f64
        ));
    }
    ctx.write("b.jsonl", &rows);
    ctx.write("c.jsonl", &rows);
    ctx.write(
        "gate.toml",
        "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n[bootstrap]\nresamples = 300\n\
         [slices]\nby = [\"topic\"]\ncritical = [\"topic=tiny\"]\nmin-moved = 8\n\
         [[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\nslices = \"critical\"\n",
    );
    let o = ctx.run(&["check", "gate.toml", "--format", "json"]);
    assert_eq!(o.code, Some(0), "{}{}", o.stdout, o.stderr);
    let r = json(o.stdout.as_bytes());
    assert_eq!(r["verdict"], "untouched");
    assert_contains(
        r["headline"].as_str().unwrap(),
        "UNTOUCHED: unchanged on all 43 queries",
    );
    // min-moved is accepted and said to decide nothing.
    assert!(
        support::output::warnings(&r)
            .iter()
            .any(|w| w.contains("min-moved no longer decides")),
        "{r}"
    );
    // The 3-query critical slice's blind spot is stated and warned about.
    assert!(r["resolution"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["slice"] == "topic=tiny" && e["units"] == 3));
    assert!(support::output::warnings(&r)
        .iter()
        .any(|w| w.contains("topic=tiny") && w.contains("accept-blind-spot")));
}
