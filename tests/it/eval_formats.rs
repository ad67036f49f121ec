//! The ecosystem's run and qrels forms (tests/data/eval/formats, written by `make.py` there with
//! ranx's own `save` and scripts following BEIR, MS MARCO and LlamaIndex): recognised without a
//! flag, gzip or not, they give the same per-query values as the TREC files they came from
//! (within 1e-12; in fact equal), through the library and through the binary.

use crate::support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rag_gate::eval::{evaluate, EvalOptions, Format, Metric};
use support::{Out, TestContext};

const METRICS: &str =
    "map,rprec,mrr,p@5,p@10,recall@5,recall@10,recall@100,ndcg@5,ndcg@10,hit@1,hit@5,hit@10";

/// (folder, TREC qrels, TREC run) under tests/data/eval/fixtures.
const CASES: &[(&str, &str, &str)] = &[
    ("cacm", "qrels.cacm.txt", "run.cacm-bm25.txt"),
    ("trec_eval_test", "qrels.test", "results.test"),
];

/// (qrels, run) in tests/data/eval/formats/<folder>, and the run format they are recognised as.
const ROUTES: &[(&str, &str, Format)] = &[
    ("qrels.json", "run.json", Format::Json),
    ("qrels.json", "run.json.gz", Format::Json),
    ("qrels.beir.tsv", "run.msmarco.tsv", Format::Msmarco),
    ("qrels.beir.tsv", "run.msmarco.tsv.gz", Format::Msmarco),
    ("llamaindex.jsonl", "llamaindex.jsonl", Format::Llamaindex),
];

fn data(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/eval")
        .join(dir)
}

fn rows(qrels: &Path, run: &Path) -> (BTreeMap<String, Vec<f64>>, Format) {
    let ms = Metric::parse_list(METRICS).unwrap();
    let (q, r) = (qrels.display().to_string(), run.display().to_string());
    let ev = evaluate(qrels, &q, run, &r, &ms, &EvalOptions::default())
        .unwrap_or_else(|e| panic!("{r}: {e}"));
    let fmt = ev.summary.policies.run_format;
    (
        ev.rows.into_iter().map(|r| (r.qid, r.values)).collect(),
        fmt,
    )
}

#[test]
fn every_route_equals_the_trec_route() {
    for (folder, qrels, run) in CASES {
        let fixtures = data("fixtures").join(folder);
        let (want, _) = rows(&fixtures.join(qrels), &fixtures.join(run));
        assert!(want.len() >= 3, "{folder}: {} rows", want.len());
        for (q, r, format) in ROUTES {
            let dir = data("formats").join(folder);
            let (got, fmt) = rows(&dir.join(q), &dir.join(r));
            assert_eq!(fmt, *format, "{folder}/{r} recognised as {fmt:?}");
            assert_eq!(
                got.keys().collect::<Vec<_>>(),
                want.keys().collect::<Vec<_>>(),
                "{folder}/{q} + {r}: query sets differ"
            );
            for (qid, w) in &want {
                for (j, (a, b)) in w.iter().zip(&got[qid]).enumerate() {
                    assert!(
                        (a - b).abs() <= 1e-12,
                        "{folder}/{r} query {qid} metric {j}: {b} vs TREC {a}"
                    );
                }
            }
        }
    }
}

/// `rag-gate eval` prints the same rows for every route of the cacm run.
#[test]
fn the_binary_prints_the_same_rows_for_every_route() {
    let ctx = TestContext::new();
    let eval = |q: &Path, r: &Path| {
        Out::of(
            ctx.command()
                .arg("eval")
                .arg("--qrels")
                .arg(q)
                .arg("--run")
                .arg(r)
                .args(["--metrics", METRICS])
                // LlamaIndex qrels list relevant ids only: a query with none cannot be written
                // there, so every route leaves such queries out to compare the same set.
                .args(["--empty-gold", "exclude"]),
        )
        .expect(0)
        .utf8()
        .stdout
    };
    let trec = data("fixtures/cacm");
    let want = eval(
        &trec.join("qrels.cacm.txt"),
        &trec.join("run.cacm-bm25.txt"),
    );
    let dir = data("formats/cacm");
    for (q, r, _) in ROUTES {
        assert_eq!(eval(&dir.join(q), &dir.join(r)), want, "{q} + {r}");
    }
}

/// A forced format that does not fit the role, and a forced format that does not fit the file.
#[test]
fn forced_formats_are_checked() {
    let dir = data("formats/cacm");
    let ctx = TestContext::new();
    let Out {
        code, stderr: err, ..
    } = Out::of(
        ctx.command()
            .arg("eval")
            .arg("--qrels")
            .arg(dir.join("qrels.json"))
            .arg("--run")
            .arg(dir.join("run.json"))
            .args(["--run-format", "beir", "--metrics", "ndcg@10"]),
    );
    assert_eq!(code, Some(2));
    assert!(
        err.contains("--run-format beir: beir is a qrels format"),
        "{err}"
    );
    let Out {
        code, stderr: err, ..
    } = Out::of(
        ctx.command()
            .arg("eval")
            .arg("--qrels")
            .arg(dir.join("qrels.json"))
            .arg("--run")
            .arg(dir.join("run.msmarco.tsv"))
            .args(["--run-format", "trec", "--metrics", "ndcg@10"]),
    );
    assert_eq!(code, Some(2));
    assert!(
        err.contains("run.msmarco.tsv:1: expected 6 fields"),
        "{err}"
    );
}

fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// `--run -` reads standard input, gzip included (recognised by its magic bytes, not a name).
#[test]
fn standard_input_and_gzip_without_a_name() {
    let trec = data("fixtures/cacm");
    let run = std::fs::read(trec.join("run.cacm-bm25.txt")).unwrap();
    let ctx = TestContext::new();
    let eval = |stdin: Vec<u8>| {
        Out::of(
            ctx.command()
                .arg("eval")
                .arg("--qrels")
                .arg(trec.join("qrels.cacm.txt"))
                .args(["--run", "-", "--metrics", "ndcg@10,recall@100"])
                .write_stdin(stdin),
        )
        .expect(0)
        .utf8()
        .stdout
    };
    let plain = eval(run.clone());
    assert!(plain.lines().count() > 20, "{plain}");
    assert_eq!(eval(gzip(&run)), plain);
}

/// `compare` reads gzip-compressed metric files (`.jsonl.gz` is JSONL).
#[test]
fn compare_reads_gzip_metric_files() {
    let ctx = TestContext::new();
    let rows = |shift: f64| -> String {
        (0..40)
            .map(|i| {
                format!(
                    "{{\"query_id\":\"q{i}\",\"ndcg@10\":{}}}\n",
                    (f64::from(i % 10) / 10.0 + shift).min(1.0)
                )
            })
            .collect()
    };
    ctx.write("b.jsonl.gz", gzip(rows(0.0).as_bytes()));
    ctx.write("c.jsonl", rows(0.0));
    let text = ctx
        .run(&[
            "compare",
            "b.jsonl.gz",
            "c.jsonl",
            "--metric",
            "ndcg@10",
            "--resamples",
            "200",
        ])
        .expect(0)
        .utf8()
        .stdout;
    assert!(text.contains("40"), "{text}");
}

/// complete@k through the binary on the cacm run equals a direct count written here: sort each
/// query by score descending, ties by doc id descending (trec_eval), and ask whether every doc
/// with rel >= 1 is in the top k.
#[test]
fn complete_at_k_matches_a_direct_count() {
    let dir = data("fixtures/cacm");
    let qrels = std::fs::read_to_string(dir.join("qrels.cacm.txt")).unwrap();
    let run = std::fs::read_to_string(dir.join("run.cacm-bm25.txt")).unwrap();
    let mut relevant: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for l in qrels.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        if f.len() == 4 && f[3].parse::<i32>().unwrap() >= 1 {
            relevant.entry(f[0]).or_default().push(f[2]);
        }
    }
    let mut ranked: BTreeMap<&str, Vec<(f64, &str)>> = BTreeMap::new();
    for l in run.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        ranked
            .entry(f[0])
            .or_default()
            .push((f[4].parse().unwrap(), f[2]));
    }
    let out = Out::of(
        TestContext::new()
            .command()
            .arg("eval")
            .arg("--qrels")
            .arg(dir.join("qrels.cacm.txt"))
            .arg("--run")
            .arg(dir.join("run.cacm-bm25.txt"))
            .args(["--metrics", "complete@10,complete@100"]),
    )
    .expect(0)
    .utf8();
    let mut ones = [0, 0];
    for line in out.stdout.lines() {
        let row: serde_json::Value = serde_json::from_str(line).unwrap();
        let qid = row["query_id"].as_str().unwrap();
        let mut docs = ranked.get(qid).cloned().unwrap_or_default();
        docs.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(a.1)));
        for (i, k) in [10usize, 100].into_iter().enumerate() {
            let top: Vec<&str> = docs.iter().take(k).map(|d| d.1).collect();
            let want = f64::from(relevant[qid].iter().all(|d| top.contains(d)));
            assert_eq!(
                row[format!("complete@{k}")],
                want,
                "query {qid} complete@{k}"
            );
            ones[i] += usize::from(want == 1.0);
        }
    }
    // Both outcomes occur, so the test tells a wrong rule from a right one.
    assert!(ones[0] > 0 && ones[1] > ones[0], "{ones:?}");
}

/// A JSONL list whose scores disagree with its order is scored as listed, with a warning naming
/// the first such query; `--order score` sorts it and says nothing.
#[test]
fn scores_that_disagree_with_the_list_order_are_a_warning() {
    let ctx = TestContext::new();
    let q = ctx.write("q.txt", "a 0 D1 1\nb 0 D2 1\nc 0 D3 1\n");
    let item = |d: &str, s: f64| format!("{{\"doc_id\":\"{d}\",\"score\":{s}}}");
    let run = ctx.write(
        "r.jsonl",
        format!(
            "{{\"query_id\":\"a\",\"ranked\":[{},{}]}}\n{{\"query_id\":\"b\",\"ranked\":[{},{}]}}\n{{\"query_id\":\"c\",\"ranked\":[{},{}]}}\n",
            item("D1", 0.9), item("D9", 0.1),
            item("D8", 0.2), item("D2", 0.7),
            item("D7", 0.1), item("D3", 0.8),
        ),
    );
    let eval = |extra: &[&str]| {
        let out = Out::of(
            ctx.command()
                .arg("eval")
                .arg("--qrels")
                .arg(&q)
                .arg("--run")
                .arg(&run)
                .args(["--metrics", "mrr"])
                .args(extra),
        )
        .expect(0)
        .utf8();
        (out.stdout, out.stderr)
    };
    let (rows, err) = eval(&[]);
    assert!(
        err.contains(
            "2 queries have scores that disagree with their list order (first: query \"b\")"
        ),
        "{err}"
    );
    assert!(rows.contains("\"mrr\":0.5"), "{rows}");
    let (rows, err) = eval(&["--order", "score"]);
    assert!(!err.contains("disagree"), "{err}");
    assert!(!rows.contains("\"mrr\":0.5"), "{rows}");
}
