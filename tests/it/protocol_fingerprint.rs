//! The protocol fingerprint through the binary: `eval -o FILE` writes `FILE.protocol.json`;
//! `compare` and `check` refuse (exit 2, naming each field with both values) two sides measured
//! differently — other qrels, relevance level, cutoff meaning, tie rule, corpus — and pass
//! identical protocols through, showing the hash. Files without a fingerprint still work with a
//! note, unless `[protocol] require = true`. ir_metadata in a run becomes the run context.

use crate::support;

use std::path::{Path, PathBuf};

use support::cli::{assert_exit, check_json, json_exit, rag_gate};
use support::output::json;

const COVID: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/eval/fixtures/trec-covid-r2"
);
const PROTO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/eval/protocol");
const CACM: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/eval/fixtures/cacm");

/// `rag-gate eval` of `run` against `qrels` into `out` (with its sidecar), plus `extra` flags.
fn eval_to(qrels: &Path, run: &Path, out: &Path, extra: &[&str]) {
    let o = rag_gate()
        .args(["eval", "--metrics", "ndcg@10,recall@100", "--qrels"])
        .arg(qrels)
        .arg("--run")
        .arg(run)
        .arg("-o")
        .arg(out)
        .args(extra)
        .output()
        .unwrap();
    assert_exit(&o, 0);
}

fn compare(dir: &Path, format: &str) -> std::process::Output {
    rag_gate()
        .current_dir(dir)
        .args(["compare", "b.jsonl", "c.jsonl", "--resamples", "200"])
        .args(["--format", format])
        .output()
        .unwrap()
}

fn covid(name: &str) -> PathBuf {
    Path::new(COVID).join(name)
}

/// Every doc id of the covid qrels and the sim run, one per line (a corpus both sides fit).
fn corpus(dir: &Path, extra: &str) -> PathBuf {
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
    let p = dir.join(format!("corpus{}.txt", extra.len()));
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn identical_protocols_pass_and_show_the_hash() {
    let d = tempfile::tempdir().unwrap();
    eval_to(
        &covid("qrels.covid-round2.txt"),
        &covid("run.covidex-sim.txt"),
        &d.path().join("b.jsonl"),
        &[],
    );
    eval_to(
        &covid("qrels.covid-round2.txt"),
        &covid("run.covidex-t5.txt"),
        &d.path().join("c.jsonl"),
        &[],
    );
    assert!(d.path().join("b.jsonl.protocol.json").is_file());
    let o = compare(d.path(), "json");
    assert_exit(&o, 0);
    let v = json(&o.stdout);
    assert_eq!(v["protocol"]["status"], "checked");
    let hash = v["protocol"]["hash"].as_str().unwrap();
    assert_eq!(hash.len(), 64);
    let text = String::from_utf8(compare(d.path(), "text").stdout).unwrap();
    assert!(
        text.ends_with(&format!(
            "protocol checked: sha256 {hash} (21 fields: --details or [report] details = true)\n"
        )),
        "{text}"
    );
    let md = String::from_utf8(compare(d.path(), "markdown").stdout).unwrap();
    assert!(md.contains("<details><summary>Protocol: checked, both sides match</summary>"));
    assert!(md.contains(&format!("<sub>protocol checked: sha256 {hash}</sub>")));
}

#[test]
fn each_protocol_mismatch_exits_2_naming_the_field() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    let qrels = covid("qrels.covid-round2.txt");
    // Other qrels: one judgment changed.
    let text = std::fs::read_to_string(&qrels).unwrap();
    let first = text.lines().next().unwrap().to_string();
    let mut f: Vec<&str> = first.split_whitespace().collect();
    let flipped = if f[3] == "0" { "1" } else { "0" };
    f[3] = flipped;
    let other = dir.join("qrels.other.txt");
    std::fs::write(&other, text.replacen(&first, &f.join(" "), 1)).unwrap();
    // An identity chunk map: same docs, but the cutoff now counts documents after mapping chunks.
    let run = covid("run.covidex-sim.txt");
    let ids: std::collections::BTreeSet<String> = std::fs::read_to_string(&run)
        .unwrap()
        .lines()
        .map(|l| l.split_whitespace().nth(2).unwrap().to_string())
        .collect();
    let chunks = dir.join("chunks.tsv");
    std::fs::write(
        &chunks,
        ids.iter()
            .map(|d| format!("{d}\t{d}\n"))
            .collect::<String>(),
    )
    .unwrap();
    let (c1, c2) = (corpus(dir, ""), corpus(dir, "extra-doc\n"));
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
        eval_to(&qrels, &run, &dir.join("b.jsonl"), &base_extra);
        eval_to(&cand_qrels, &run, &dir.join("c.jsonl"), &cand_extra);
        let o = compare(dir, "text");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{needle}: {err}");
        assert!(
            err.contains("protocol mismatch: b.jsonl and c.jsonl were not measured the same way"),
            "{err}"
        );
        assert!(err.contains(needle), "{needle} not in: {err}");
    }
}

#[test]
fn files_without_a_fingerprint_work_with_a_note_unless_required() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    let q = covid("qrels.covid-round2.txt");
    eval_to(&q, &covid("run.covidex-sim.txt"), &dir.join("b.jsonl"), &[]);
    eval_to(&q, &covid("run.covidex-t5.txt"), &dir.join("c.jsonl"), &[]);
    std::fs::remove_file(dir.join("c.jsonl.protocol.json")).unwrap();
    let o = compare(dir, "json");
    assert_eq!(o.status.code(), Some(0));
    let v = json(&o.stdout);
    assert_eq!(v["protocol"]["status"], "unchecked");
    let warned = v["warnings"].as_array().unwrap().iter().any(|w| {
        w.as_str()
            .unwrap()
            .starts_with("protocol could not be checked: the candidate has no fingerprint")
    });
    assert!(warned, "{}", v["warnings"]);
    let gate = dir.join("gate.toml");
    std::fs::write(
        &gate,
        "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n[protocol]\nrequire = true\n\
         [bootstrap]\nresamples = 200\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.05\n",
    )
    .unwrap();
    let o = rag_gate().arg("check").arg(&gate).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            "[protocol] require = true, but c.jsonl (candidate) carries no protocol fingerprint"
        ),
        "{err}"
    );
}

#[test]
fn a_sidecar_that_no_longer_describes_its_rows_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    let q = covid("qrels.covid-round2.txt");
    eval_to(&q, &covid("run.covidex-sim.txt"), &dir.join("b.jsonl"), &[]);
    eval_to(&q, &covid("run.covidex-t5.txt"), &dir.join("c.jsonl"), &[]);
    let rows = std::fs::read_to_string(dir.join("c.jsonl")).unwrap();
    std::fs::write(dir.join("c.jsonl"), rows.replacen("0.", "0.9", 1)).unwrap();
    let o = compare(dir, "text");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("c.jsonl.protocol.json: describes other rows than c.jsonl"),
        "{err}"
    );
}

#[test]
fn ir_metadata_of_a_real_looking_run_is_the_run_context() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    let qrels = Path::new(CACM).join("qrels.cacm.txt");
    let run = Path::new(PROTO).join("run.cacm-bm25.ir_metadata.txt");
    eval_to(&qrels, &run, &dir.join("b.jsonl"), &[]);
    let side: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("b.jsonl.protocol.json")).unwrap())
            .unwrap();
    let ctx = &side["run-context"];
    assert_eq!(ctx["tag"], "cacm-bm25-anserini");
    assert_eq!(ctx["method.retrieval.0.name"], "bm25");
    assert_eq!(ctx["method.retrieval.0.k1"], "0.9");
    assert_eq!(ctx["method.indexing.index_type"], "inverted");
    assert_eq!(ctx["method.seed"], "42");
    assert_eq!(
        ctx["implementation.source.commit"],
        "81e3414573a39ad7433d271c5cadc360bc821945"
    );
    assert!(ctx.get("actor.team").is_none() && ctx.get("platform.hardware.cpu.model").is_none());
    // The same run with other BM25 parameters: a report line, not a mismatch.
    let tuned = dir.join("run.tuned.txt");
    let text =
        std::fs::read_to_string(&run)
            .unwrap()
            .replacen("#       k1: 0.9", "#       k1: 1.2", 1);
    std::fs::write(&tuned, text).unwrap();
    eval_to(&qrels, &tuned, &dir.join("c.jsonl"), &[]);
    let o = compare(dir, "json");
    assert_exit(&o, 0);
    let v = json(&o.stdout);
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
    let d = tempfile::tempdir().unwrap();
    let gate = d.path().join("gate.toml");
    std::fs::write(
        &gate,
        format!(
            "[inputs]\nqrels = \"{COVID}/qrels.covid-round2.txt\"\nbaseline = {{ run = \"{COVID}/run.covidex-sim.txt\" }}\n\
             candidate = {{ run = \"{COVID}/run.covidex-t5.txt\" }}\n[protocol]\nrequire = true\n[judged]\non-unreliable = \"warn\"\n\
             [bootstrap]\nresamples = 200\n[slices]\nmin-queries = 10\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.05\n"
        ),
    )
    .unwrap();
    let v = json_exit(&mut check_json(&gate), 0);
    assert_eq!(v["protocol"]["status"], "shared");
    let fields = v["protocol"]["fields"].as_array().unwrap();
    assert!(fields.iter().any(|f| f["field"] == "ndcg@10.tie-rule"));
    let md = rag_gate()
        .arg("check")
        .arg(&gate)
        .args(["--format", "markdown"])
        .output()
        .unwrap();
    let md = String::from_utf8(md.stdout).unwrap();
    assert!(md.contains("<details><summary>Protocol: shared (check evaluated both runs)</summary>"));
    assert!(md.contains("<sub>protocol shared: sha256 "));
}
