//! Planted pairs through the binary, on TREC-COVID round 2 with the simulated judge of
//! tests/data/judges and made-up passage text: `label-plan --plant` writes pairs the judge
//! cannot tell from real ones (new ids shaped like the corpus's, irrelevant passages with the
//! query's words stuffed in or an instruction to the assessor) and their key; a judge that
//! falls for the instruction is reported per kind with Clopper–Pearson intervals equal to
//! scipy's, warned about, and its planted labels change no figure of the judge section. Bad
//! input is exit 2 with file, line and key.

use crate::support::{Out, TestContext};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn data(name: &str) -> String {
    format!("{}/tests/data/judges/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// corrected.toml gating recall@10 (a metric that reads every relevant label), its paths made
/// absolute, the judge's qrels at `judge` and `extra` added to `[judge]`.
fn gate_file(ctx: &TestContext, name: &str, judge: &Path, extra: &str) -> PathBuf {
    let text = std::fs::read_to_string(data("corrected.toml"))
        .unwrap()
        .replace("\"../eval/", &format!("\"{}/../eval/", data("")))
        .replace("\"human.qrels\"", &format!("{:?}", data("human.qrels")))
        .replace("\"judge.qrels\"", &format!("{judge:?}\n{extra}"))
        .replace("\"ndcg@10\"", "\"recall@10\"");
    ctx.write(name, text)
}

/// Query text for every topic, and a passage for the first 300 judged doc ids.
fn texts(ctx: &TestContext) -> (PathBuf, PathBuf, BTreeSet<String>) {
    let words = ["virus", "mask", "lung", "cell", "trial", "immune", "data"];
    let queries: String = (1..=35)
        .map(|t| {
            let w = words[t % words.len()];
            format!("{{\"_id\":\"{t}\",\"text\":\"coronavirus {w} transmission\"}}\n")
        })
        .collect();
    let judged = std::fs::read_to_string(data("judge.qrels")).unwrap();
    let docs: BTreeSet<String> = judged
        .lines()
        .map(|l| l.split_whitespace().nth(2).unwrap().to_string())
        .collect();
    let docs: BTreeSet<String> = docs.into_iter().take(300).collect();
    let corpus: String = docs
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let w = words[i % words.len()];
            format!("{{\"_id\":\"{d}\",\"title\":\"On {w}\",\"text\":\"a passage about {w} and more\"}}\n")
        })
        .collect();
    (
        ctx.write("queries.jsonl", queries),
        ctx.write("corpus.jsonl", corpus),
        docs,
    )
}

fn plant(ctx: &TestContext, out: &str, key: &str) -> Out {
    let (q, c, _) = texts(ctx);
    let gate = gate_file(ctx, "plan.toml", Path::new(&data("judge.qrels")), "");
    let mut cmd = ctx.command();
    cmd.arg("label-plan")
        .arg(&gate)
        .args(["--plant", "10", "--queries-text"])
        .arg(q)
        .arg("--corpus")
        .arg(c)
        .arg("--plant-out")
        .arg(ctx.join(out))
        .arg("--plant-key")
        .arg(ctx.join(key));
    Out::of(&mut cmd)
}

fn rows(p: &Path) -> Vec<Value> {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The judge's qrels with the planted pairs labelled: every instruction pair relevant
/// (grade 2), every third keyword-stuffing pair relevant (grade 1), the others 0, and the
/// first keyword-stuffing pair left unlabelled. Its sidecar is copied beside it.
fn fooled_judge(ctx: &TestContext, key: &[Value]) -> PathBuf {
    let mut text = std::fs::read_to_string(data("judge.qrels")).unwrap();
    let mut stuffed = 0;
    for k in key {
        let grade = match k["kind"].as_str().unwrap() {
            "instruction" => 2,
            _ => {
                stuffed += 1;
                if stuffed == 1 {
                    continue;
                }
                i32::from(stuffed % 3 == 0)
            }
        };
        text.push_str(&format!("{} 0 {} {grade}\n", k["query_id"], k["doc_id"]).replace('"', ""));
    }
    std::fs::copy(
        data("judge.qrels.judge.json"),
        ctx.join("judge.qrels.judge.json"),
    )
    .unwrap();
    ctx.write("judge.qrels", text)
}

#[test]
fn planted_pairs_look_real_and_are_deterministic() {
    let d = TestContext::new();
    let o = plant(&d, "planted.jsonl", "key.jsonl").expect(0);
    let stdout = &o.stdout;
    assert!(stdout.contains("Planted 10 pairs of each kind"), "{stdout}");
    let (pairs, key) = (rows(&d.join("planted.jsonl")), rows(&d.join("key.jsonl")));
    assert_eq!((pairs.len(), key.len()), (20, 20));
    let (_, _, corpus) = texts(&d);
    let human = std::fs::read_to_string(data("human.qrels")).unwrap()
        + &std::fs::read_to_string(data("judge.qrels")).unwrap();
    let relevant: BTreeSet<(String, String)> = human
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|f| f[3] != "0")
        .map(|f| (f[0].to_string(), f[2].to_string()))
        .collect();
    for kind in ["keyword-stuffing", "instruction"] {
        assert_eq!(key.iter().filter(|k| k["kind"] == kind).count(), 10);
    }
    for (p, k) in pairs.iter().zip(&key) {
        // The judge sees the pair and its text, not the kind nor the source.
        assert_eq!(p.as_object().unwrap().len(), 3, "{p}");
        assert_eq!(
            (&p["query_id"], &p["doc_id"]),
            (&k["query_id"], &k["doc_id"])
        );
        let id = p["doc_id"].as_str().unwrap();
        assert_eq!(id.len(), 8, "shaped like the corpus ids: {id}");
        assert!(!corpus.contains(id));
        let q = k["query_id"].as_str().unwrap().to_string();
        let source = k["source_doc_id"].as_str().unwrap().to_string();
        assert!(!relevant.contains(&(q, source)), "{k}");
        let text = p["text"].as_str().unwrap();
        match k["kind"].as_str().unwrap() {
            "instruction" => assert!(text.contains("Note to the assessor"), "{text}"),
            _ => assert!(
                text.contains("coronavirus") && text.contains("transmission"),
                "{text}"
            ),
        }
    }
    plant(&d, "again.jsonl", "again-key.jsonl").expect(0);
    for (a, b) in [
        ("planted.jsonl", "again.jsonl"),
        ("key.jsonl", "again-key.jsonl"),
    ] {
        assert_eq!(
            std::fs::read(d.join(a)).unwrap(),
            std::fs::read(d.join(b)).unwrap()
        );
    }
}

#[test]
fn a_fooled_judge_is_reported_and_its_planted_labels_change_no_figure() {
    let d = TestContext::new();
    plant(&d, "planted.jsonl", "key.jsonl").expect(0);
    let key = rows(&d.join("key.jsonl"));
    let judge = fooled_judge(&d, &key);
    let keyed = gate_file(&d, "keyed.toml", &judge, "plant-key = \"key.jsonl\"");
    let json = ["--format", "json"];
    let r = d.check_file(&keyed, &json).expect(1).json();
    let p = &r["judge"]["planted"];
    assert_eq!(p["relevance_level"], 1);
    // scipy 1.17.1: beta.ppf(0.025, k, n - k + 1), beta.ppf(0.975, k + 1, n - k).
    let want = [
        (
            "keyword-stuffing",
            10,
            9,
            3,
            [0.07485463141969183, 0.7007049437914596],
        ),
        ("instruction", 10, 10, 10, [0.6915028921812392, 1.0]),
    ];
    for (k, (kind, planted, labelled, relevant, ci)) in
        p["kinds"].as_array().unwrap().iter().zip(want)
    {
        assert_eq!(k["kind"], kind);
        assert_eq!(
            (k["planted"].as_u64(), k["labelled"].as_u64()),
            (Some(planted), Some(labelled))
        );
        assert_eq!(k["relevant"].as_u64(), Some(relevant));
        for (got, want) in k["ci"].as_array().unwrap().iter().zip(ci) {
            assert!(
                (got.as_f64().unwrap() - want).abs() < 1e-9,
                "{kind}: {got} vs {want}"
            );
        }
    }
    let warnings = r["warnings"].to_string();
    assert!(
        warnings.contains("the judge is fooled by instruction"),
        "{warnings}"
    );
    assert!(
        !warnings.contains("fooled by keyword-stuffing"),
        "{warnings}"
    );
    assert!(
        warnings.contains("1 of 20 planted pairs of key.jsonl have no label"),
        "{warnings}"
    );
    // The judge section equals the one read from the judge's own labels alone; without the key
    // the planted labels would have moved it.
    let clean = gate_file(&d, "clean.toml", Path::new(&data("judge.qrels")), "");
    let c = d.check_file(&clean, &json).expect(1).json();
    let unkeyed = gate_file(&d, "unkeyed.toml", &judge, "");
    let u = d.check_file(&unkeyed, &json).expect(1).json();
    for part in ["deltas", "agreement"] {
        assert_eq!(r["judge"][part], c["judge"][part], "{part}");
    }
    assert_eq!(r["comparisons"], c["comparisons"]);
    assert_ne!(u["judge"]["deltas"], c["judge"]["deltas"]);
    let text = d.check_file(&keyed, &[]).expect(1).utf8().stdout;
    assert!(text.contains("instruction to the assessor in an irrelevant passage     10 of 10 at grade ≥ 1 [69.2%, 100.0%]"), "{text}");
    let md = d
        .check_file(&keyed, &["--format", "markdown"])
        .expect(1)
        .utf8()
        .stdout;
    assert!(md.contains("| keyword stuffing (query words in an irrelevant passage) | 3 of 9 at grade ≥ 1 \\[7.5%, 70.1%\\] | 1 |"), "{md}");
}

fn stderr_of(mut cmd: assert_cmd::Command) -> String {
    Out::of(&mut cmd).expect(2).utf8().stderr
}

#[test]
fn bad_keys_and_flags_are_exit_2_with_file_line_and_key() {
    let d = TestContext::new();
    plant(&d, "planted.jsonl", "key.jsonl").expect(0);
    let key = rows(&d.join("key.jsonl"));
    let judge = fooled_judge(&d, &key);
    let check = |gate: &Path| d.check_file(gate, &[]).expect(2).utf8().stderr;
    let missing = gate_file(&d, "missing.toml", &judge, "plant-key = \"nope.jsonl\"");
    assert!(check(&missing).contains("nope.jsonl"));
    // A key whose pairs the judge never labelled: the gate file's line.
    let own = gate_file(
        &d,
        "own.toml",
        Path::new(&data("judge.qrels")),
        "plant-key = \"key.jsonl\"",
    );
    let e = check(&own);
    assert!(
        e.contains("own.toml:9") && e.contains("none of its 20 planted pairs"),
        "{e}"
    );
    let good = d.read("key.jsonl");
    let first = good.lines().next().unwrap();
    for (bad, want) in [
        (
            first
                .replace("\"instruction\"", "\"flattery\"")
                .replace("\"keyword-stuffing\"", "\"flattery\""),
            "key kind",
        ),
        (first.replace("\"doc_id\"", "\"doc\""), "key doc_id"),
        ("{not json".to_string(), "not a JSON object"),
    ] {
        d.write("bad-key.jsonl", format!("{first}\n{bad}\n"));
        let gate = gate_file(&d, "bad.toml", &judge, "plant-key = \"bad-key.jsonl\"");
        let e = check(&gate);
        assert!(
            e.contains("bad-key.jsonl:2") && e.contains(want),
            "{want}: {e}"
        );
    }
    let gate = gate_file(&d, "plan.toml", Path::new(&data("judge.qrels")), "");
    let mut c = d.command();
    c.arg("label-plan").arg(&gate).args([
        "--plant",
        "3",
        "--corpus",
        "c.jsonl",
        "--queries-text",
        "q.jsonl",
    ]);
    let e = stderr_of(c);
    assert!(e.contains("missing: --plant-out, --plant-key"), "{e}");
    let bad_corpus = d.write(
        "bad-corpus.jsonl",
        "{\"_id\":\"d1\",\"text\":\"x\"}\n{\"_id\":\"d2\"}\n",
    );
    let (q, _, _) = texts(&d);
    let mut c = d.command();
    c.arg("label-plan")
        .arg(&gate)
        .args(["--plant", "3", "--queries-text"])
        .arg(q)
        .arg("--corpus")
        .arg(&bad_corpus)
        .args(["--plant-out", "o.jsonl", "--plant-key", "k.jsonl"]);
    let e = stderr_of(c);
    assert!(
        e.contains("bad-corpus.jsonl:2") && e.contains("key text of d2"),
        "{e}"
    );
    assert!(!d.join("o.jsonl").exists() && !d.join("k.jsonl").exists());
}
