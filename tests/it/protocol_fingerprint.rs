//! The protocol fingerprint through the binary: `eval -o FILE` writes `FILE.protocol.json`;
//! `compare` and `check` refuse (exit 2, naming each field with both values) two sides measured
//! differently — other qrels, relevance level, cutoff meaning, tie rule, corpus — and pass
//! identical protocols through, showing the hash. Files without a fingerprint still work with a
//! note, unless `[protocol] require = true`. ir_metadata in a run becomes the run context.

use crate::support;
use support::{toml_path, GateFile, Out, TestContext};

use std::path::{Path, PathBuf};

const COVID: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/eval/fixtures/trec-covid-r2"
);
const PROTO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/eval/protocol");
const CACM: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/eval/fixtures/cacm");

/// `rag-gate eval` of `run` against `qrels` into `out` (with its sidecar), plus `extra` flags.
/// b.jsonl and c.jsonl: TREC-COVID round 2's sim and t5 runs evaluated, each with its sidecar.
fn sim_and_t5(ctx: &TestContext) {
    let q = covid("qrels.covid-round2.txt");
    for (run, out) in [
        ("run.covidex-sim.txt", "b.jsonl"),
        ("run.covidex-t5.txt", "c.jsonl"),
    ] {
        eval_to(ctx, &q, &covid(run), &ctx.join(out), &[]);
    }
}

fn eval_to(ctx: &TestContext, qrels: &Path, run: &Path, out: &Path, extra: &[&str]) {
    Out::of(
        ctx.command()
            .args(["eval", "--metrics", "ndcg@10,recall@100", "--qrels"])
            .arg(qrels)
            .arg("--run")
            .arg(run)
            .arg("-o")
            .arg(out)
            .args(extra),
    )
    .expect(0);
}

fn compare(ctx: &TestContext, format: &str) -> Out {
    ctx.run(&[
        "compare",
        "b.jsonl",
        "c.jsonl",
        "--resamples",
        "200",
        "--format",
        format,
    ])
}

fn covid(name: &str) -> PathBuf {
    Path::new(COVID).join(name)
}

/// Every doc id of the covid qrels and the sim run, one per line (a corpus both sides fit).
fn corpus(ctx: &TestContext, extra: &str) -> PathBuf {
    let mut ids = std::collections::BTreeSet::new();
    for (file, col) in [("qrels.covid-round2.txt", 2), ("run.covidex-sim.txt", 2)] {
        for l in std::fs::read_to_string(covid(file)).unwrap().lines() {
            if let Some(d) = l.split_whitespace().nth(col) {
                ids.insert(d.to_string());
            }
        }
    }
    let mut text: String = ids.into_iter().map(|d| d + "\n").collect();
    text.push_str(extra);
    let p = ctx.join(format!("corpus{}.txt", extra.len()));
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn identical_protocols_pass_and_show_the_hash() {
    let ctx = TestContext::new();
    sim_and_t5(&ctx);
    assert!(ctx.path().join("b.jsonl.protocol.json").is_file());
    let o = compare(&ctx, "json");
    let o = o.expect(0);
    let v = o.json();
    assert_eq!(v["protocol"]["status"], "checked");
    let hash = v["protocol"]["hash"].as_str().unwrap();
    assert_eq!(hash.len(), 64);
    let text = compare(&ctx, "text").utf8().stdout;
    assert!(
        text.ends_with(&format!(
            "protocol checked: sha256 {hash} (21 fields: --details or [report] details = true)\n"
        )),
        "{text}"
    );
    let md = compare(&ctx, "markdown").utf8().stdout;
    assert!(md.contains("<details><summary>Protocol: checked, both sides match</summary>"));
    assert!(md.contains(&format!("<sub>protocol checked: sha256 {hash}</sub>")));
}

#[test]
fn each_protocol_mismatch_exits_2_naming_the_field() {
    let ctx = TestContext::new();
    let qrels = covid("qrels.covid-round2.txt");
    // Other qrels: one judgment changed.
    let text = std::fs::read_to_string(&qrels).unwrap();
    let first = text.lines().next().unwrap().to_string();
    let mut f: Vec<&str> = first.split_whitespace().collect();
    let flipped = if f[3] == "0" { "1" } else { "0" };
    f[3] = flipped;
    let other = ctx.join("qrels.other.txt");
    std::fs::write(&other, text.replacen(&first, &f.join(" "), 1)).unwrap();
    // An identity chunk map: same docs, but the cutoff now counts documents after mapping chunks.
    let run = covid("run.covidex-sim.txt");
    let ids: std::collections::BTreeSet<String> = std::fs::read_to_string(&run)
        .unwrap()
        .lines()
        .map(|l| l.split_whitespace().nth(2).unwrap().to_string())
        .collect();
    let chunks = ctx.join("chunks.tsv");
    std::fs::write(
        &chunks,
        ids.iter()
            .map(|d| format!("{d}\t{d}\n"))
            .collect::<String>(),
    )
    .unwrap();
    let (c1, c2) = (corpus(&ctx, ""), corpus(&ctx, "extra-doc\n"));
    let (c1, c2) = (c1.display().to_string(), c2.display().to_string());
    let chunks = chunks.display().to_string();
    let cases: Vec<(PathBuf, Vec<&str>, Vec<&str>, &str)> = vec![
        (other.clone(), vec![], vec![], "qrels-sha256"),
        // nDCG reads the grades (its values do not depend on the level): the binary metric differs.
        (qrels.clone(), vec![], vec!["--rel-level", "2"], "recall@100.rel-level: baseline 1 | candidate 2"),
        (qrels.clone(), vec![], vec!["--chunk-map", &chunks], "ndcg@10.cutoff-unit: baseline ranked documents | candidate documents, after mapping chunks"),
        (qrels.clone(), vec![], vec!["--order", "given"], "ndcg@10.tie-rule: baseline docid descending (byte order) | candidate file order"),
        (qrels.clone(), vec!["--corpus", &c1], vec!["--corpus", &c2], "corpus-sha256"),
    ];
    for (cand_qrels, base_extra, cand_extra, needle) in cases {
        eval_to(&ctx, &qrels, &run, &ctx.join("b.jsonl"), &base_extra);
        eval_to(&ctx, &cand_qrels, &run, &ctx.join("c.jsonl"), &cand_extra);
        let o = compare(&ctx, "text");
        let err = o.stderr.as_str();
        assert_eq!(o.code, Some(2), "{needle}: {err}");
        assert!(
            err.contains("protocol mismatch: b.jsonl and c.jsonl were not measured the same way"),
            "{err}"
        );
        assert!(err.contains(needle), "{needle} not in: {err}");
    }
}

#[test]
fn files_without_a_fingerprint_work_with_a_note_unless_required() {
    let ctx = TestContext::new();
    sim_and_t5(&ctx);
    std::fs::remove_file(ctx.join("c.jsonl.protocol.json")).unwrap();
    let o = compare(&ctx, "json");
    assert_eq!(o.code, Some(0));
    let v = o.json();
    assert_eq!(v["protocol"]["status"], "unchecked");
    let warned = v["warnings"].as_array().unwrap().iter().any(|w| {
        w.as_str()
            .unwrap()
            .starts_with("protocol could not be checked: the candidate has no fingerprint")
    });
    assert!(warned, "{}", v["warnings"]);
    ctx.gate(
        GateFile::new("b.jsonl", "c.jsonl")
            .table("protocol", "require = true")
            .resamples(200)
            .gate("ndcg@10", "max-drop = 0.05"),
    );
    let o = ctx.check(&[]);
    assert_eq!(o.code, Some(2));
    let err = o.stderr.as_str();
    assert!(
        err.contains(
            "[protocol] require = true, but c.jsonl (candidate) carries no protocol fingerprint"
        ),
        "{err}"
    );
}

#[test]
fn a_sidecar_that_no_longer_describes_its_rows_is_refused() {
    let ctx = TestContext::new();
    sim_and_t5(&ctx);
    let rows = ctx.read("c.jsonl");
    ctx.write("c.jsonl", rows.replacen("0.", "0.9", 1));
    let o = compare(&ctx, "text");
    assert_eq!(o.code, Some(2));
    let err = o.stderr.as_str();
    assert!(
        err.contains("c.jsonl.protocol.json: describes other rows than c.jsonl"),
        "{err}"
    );
}

#[test]
fn ir_metadata_of_a_real_looking_run_is_the_run_context() {
    let ctx = TestContext::new();
    let qrels = Path::new(CACM).join("qrels.cacm.txt");
    let run = Path::new(PROTO).join("run.cacm-bm25.ir_metadata.txt");
    eval_to(&ctx, &qrels, &run, &ctx.join("b.jsonl"), &[]);
    let side: serde_json::Value = serde_json::from_str(&ctx.read("b.jsonl.protocol.json")).unwrap();
    let context = &side["run-context"];
    assert_eq!(context["tag"], "cacm-bm25-anserini");
    assert_eq!(context["method.retrieval.0.name"], "bm25");
    assert_eq!(context["method.retrieval.0.k1"], "0.9");
    assert_eq!(context["method.indexing.index_type"], "inverted");
    assert_eq!(context["method.seed"], "42");
    assert_eq!(
        context["implementation.source.commit"],
        "81e3414573a39ad7433d271c5cadc360bc821945"
    );
    assert!(
        context.get("actor.team").is_none() && context.get("platform.hardware.cpu.model").is_none()
    );
    // The same run with other BM25 parameters: a report line, not a mismatch.
    let tuned = ctx.join("run.tuned.txt");
    let text =
        std::fs::read_to_string(&run)
            .unwrap()
            .replacen("#       k1: 0.9", "#       k1: 1.2", 1);
    std::fs::write(&tuned, text).unwrap();
    eval_to(&ctx, &qrels, &tuned, &ctx.join("c.jsonl"), &[]);
    let o = compare(&ctx, "json");
    let o = o.expect(0);
    let v = o.json();
    assert_eq!(
        v["protocol"]["context_changes"][0],
        "method.retrieval.0.k1: 0.9 → 1.2"
    );
    assert!(v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w == "run context changed: method.retrieval.0.k1: 0.9 → 1.2"));
}

#[test]
fn check_evaluating_both_runs_shares_one_protocol_and_shows_it() {
    let ctx = TestContext::new();
    ctx.gate(
        GateFile::default()
            .path("qrels", covid("qrels.covid-round2.txt"))
            .input(
                "baseline",
                format!("{{ run = {} }}", toml_path(covid("run.covidex-sim.txt"))),
            )
            .input(
                "candidate",
                format!("{{ run = {} }}", toml_path(covid("run.covidex-t5.txt"))),
            )
            .table("protocol", "require = true")
            .table("judged", "on-unreliable = \"warn\"")
            .resamples(200)
            .table("slices", "min-queries = 10")
            .gate("ndcg@10", "max-drop = 0.05"),
    );
    let v = ctx.check_json(&[]).expect(0).json();
    assert_eq!(v["protocol"]["status"], "shared");
    let fields = v["protocol"]["fields"].as_array().unwrap();
    assert!(fields.iter().any(|f| f["field"] == "ndcg@10.tie-rule"));
    let md = ctx.check(&["--format", "markdown"]).stdout;
    assert!(md.contains("<details><summary>Protocol: shared (check evaluated both runs)</summary>"));
    assert!(md.contains("<sub>protocol shared: sha256 "));
}
