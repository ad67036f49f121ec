//! Judged coverage: `judged@k` against ir_measures' Judged@k on the shared fixtures (reference
//! made by tests/data/eval/judged/judged_ir_measures.py), and the judged bounds of `check`:
//! removing judgments makes a passing gate unreliable (it fails by default, warns with
//! `on-unreliable = "warn"`), adding them back makes it pass, and with every top-k document
//! judged the bounds are today's delta. `min-judged` and `--holes` too.

mod support;

use std::collections::BTreeMap;
use std::path::Path;

use support::cli::{assert_exit, check_json, json_verdict, rag_gate};

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
    let mut compared = 0;
    for run in runs {
        let folder = run.split('/').next().unwrap();
        let qrels = match folder {
            "cacm" => "cacm/qrels.cacm.txt",
            "trec-covid-r2" => "trec-covid-r2/qrels.covid-round2.txt",
            _ => "trec_eval_test/qrels.rel_level",
        };
        let out = rag_gate()
            .args([
                "eval",
                "--metrics",
                "judged@5,judged@10,judged@100",
                "--empty-gold",
                "zero",
            ])
            .arg("--qrels")
            .arg(format!("{DATA}/fixtures/{qrels}"))
            .arg("--run")
            .arg(format!("{DATA}/fixtures/{run}"))
            .output()
            .unwrap();
        assert_exit(&out, 0);
        for line in String::from_utf8(out.stdout).unwrap().lines() {
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

/// 40 queries. Each has two relevant docs: `a` (ranked) and `z` (never retrieved), and nine
/// judged non-relevant ones. The candidate ranks `a` first, the baseline second: a clear gain.
/// `unjudge` queries have no judgment for `a`.
fn write_case(dir: &Path, unjudge: usize) {
    let (mut qrels, mut base, mut cand) = (String::new(), String::new(), String::new());
    for q in 0..40 {
        let qid = format!("q{q:02}");
        if q >= unjudge {
            qrels.push_str(&format!("{qid} 0 a 1\n"));
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
        let mut c = vec!["a".to_string()];
        c.extend(ns.iter().cloned());
        let mut b = vec![ns[0].clone(), "a".to_string()];
        b.extend(ns[1..].iter().cloned());
        put(&mut cand, &c);
        put(&mut base, &b);
    }
    std::fs::write(dir.join("qrels.txt"), qrels).unwrap();
    std::fs::write(dir.join("base.txt"), base).unwrap();
    std::fs::write(dir.join("cand.txt"), cand).unwrap();
}

fn gate(dir: &Path, extra: &str) -> std::path::PathBuf {
    let p = dir.join("gate.toml");
    std::fs::write(
        &p,
        format!(
            "[inputs]\nqrels = \"qrels.txt\"\nbaseline = {{ run = \"base.txt\" }}\ncandidate = {{ run = \"cand.txt\" }}\n\
             [bootstrap]\nresamples = 1000\n[slices]\nmin-queries = 10\n{extra}\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.02\n"
        ),
    )
    .unwrap();
    p
}

fn check(gate: &Path, extra: &[&str]) -> (i32, serde_json::Value) {
    json_verdict(check_json(gate).args(extra))
}

#[test]
fn removing_judgments_makes_a_passing_gate_unreliable_and_adding_them_back_makes_it_pass() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    let g = gate(dir, "");
    // Fully judged: passes, and both bounds are today's delta.
    write_case(dir, 0);
    let (code, v) = check(&g, &[]);
    assert_eq!(code, 0, "{}", v["headline"]);
    let c = &v["comparisons"][0];
    let j = &c["judged"];
    assert_eq!(j["delta"], c["delta"]);
    assert_eq!(j["delta_candidate_optimistic"], c["delta"]);
    assert_eq!(j["delta_baseline_optimistic"], c["delta"]);
    assert_eq!(
        (
            j["baseline_unjudged"].as_u64(),
            j["candidate_unjudged"].as_u64()
        ),
        (Some(0), Some(0))
    );
    assert_eq!(j["candidate_judged"], 1.0);
    // Half the judgments of `a` removed: today's figures still pass, but if the baseline's
    // unjudged `a` were relevant the candidate would lose: unreliable, a failure by default.
    write_case(dir, 20);
    let (code, v) = check(&g, &["--holes", dir.join("holes.txt").to_str().unwrap()]);
    assert_eq!(code, 1);
    let r = &v["gates"][0];
    assert_eq!(
        r["decided_by"],
        "unreliable: unjudged documents could flip it (judged bounds)"
    );
    assert_eq!(r["status"], "fail");
    let j = &v["comparisons"][0]["judged"];
    let (delta, up, down) = (
        j["delta"].as_f64().unwrap(),
        j["delta_candidate_optimistic"].as_f64().unwrap(),
        j["delta_baseline_optimistic"].as_f64().unwrap(),
    );
    assert!(
        down < -0.02 && delta > 0.0 && up > delta,
        "{down} {delta} {up}"
    );
    assert_eq!(
        (
            j["baseline_unjudged"].as_u64(),
            j["candidate_unjudged"].as_u64()
        ),
        (Some(20), Some(20))
    );
    assert!(v["headline"]
        .as_str()
        .unwrap()
        .contains("unreliable, unjudged documents could flip it"));
    let named = v["warnings"].as_array().unwrap().iter().any(|w| {
        let w = w.as_str().unwrap();
        w.contains("judge these first: q00 (candidate a@1; baseline a@2)")
    });
    assert!(named, "{}", v["warnings"]);
    let holes = std::fs::read_to_string(dir.join("holes.txt")).unwrap();
    let lines: Vec<&str> = holes.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 20);
    assert_eq!(lines[0], "q00 0 a ? # baseline rank 2, candidate rank 1");
    // Warn instead of fail.
    let (code, v) = check(&gate(dir, "[judged]\non-unreliable = \"warn\""), &[]);
    assert_eq!(code, 0);
    assert!(v["warnings"].as_array().unwrap().iter().any(|w| w
        .as_str()
        .unwrap()
        .contains("unreliable: unjudged documents could flip it (a warning")));
    // The judgments back: passes again.
    write_case(dir, 0);
    let (code, _) = check(&gate(dir, ""), &[]);
    assert_eq!(code, 0);
}

#[test]
fn a_slice_below_min_judged_is_not_judged() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    write_case(dir, 20);
    // Mean judged@10: the 20 queries without `a` judged have 9 of 10, so 0.95 on each side.
    // The gate is on `all`: not judged there is never a pass, so the build fails (issue 11).
    let (code, v) = check(&gate(dir, "[judged]\nmin-judged = 0.97"), &[]);
    assert_eq!(code, 1);
    let r = &v["gates"][0];
    assert_eq!(r["status"], "too-small");
    assert_eq!(r["decided_by"], "too few judgments (min-judged)");
    assert!(r["detail"]
        .as_str()
        .unwrap()
        .starts_with("mean judged@10 0.950 < min-judged 0.97"));
    let (code, _) = check(
        &gate(
            dir,
            "on-small-slice = \"fail\"\n[judged]\nmin-judged = 0.97",
        ),
        &[],
    );
    assert_eq!(code, 1);
    let e = rag_gate()
        .arg("check")
        .arg(gate(dir, "[judged]\nmin-judged = 1.5"))
        .output()
        .unwrap();
    assert_eq!(e.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&e.stderr)
        .contains("[judged] min-judged = 1.5: expected a share between 0 and 1"));
}
