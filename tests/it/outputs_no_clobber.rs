//! No output of any command may be a file the command reads, nor another output:
//! every output flag of check, compare, eval and aa aimed at every kind of input (run, qrels,
//! corpus, chunk map, gate file, queries, replicates, noise file, quarantine, protocol sidecars),
//! directly, through a symlink and through a hard link, is exit 2 naming both paths, and the
//! folder is byte for byte as it was.

use crate::support;

use std::collections::BTreeMap;
use std::path::Path;

use support::Out;
use support::{GateFile, TestContext};

/// Every file under `dir` (name → bytes), to show that a refused command wrote nothing.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect()
}

const QUARANTINE: &str =
    "[[query]]\nid = \"q0\"\nreason = \"tie at rank 10\"\nowner = \"alice\"\nexpires = 2099-12-31\n";

/// 40 queries with two relevant docs each; two runs that rank them differently; the corpus and
/// a chunk map; per-query files with their protocol sidecars (from `eval -o`); a noise file (from
/// `aa`); a quarantine list; a gate file over the metric files and one over the runs.
/// Every input the commands below read (runs, qrels, corpus, chunk map, queries, per-query
/// files with their sidecars, a noise file, a quarantine file) and two gate files: `gate.toml`
/// on the metric files, `runs.toml` on the runs.
fn every_input() -> TestContext {
    let ctx = TestContext::new();
    let dir = ctx.path();
    let mut qrels = String::new();
    let (mut b, mut c, mut corpus, mut map, mut queries) = Default::default();
    for i in 0..40 {
        for d in ["a", "b", "x"] {
            let rel = if d == "x" { 0 } else { 1 };
            qrels.push_str(&format!("q{i} 0 d{i}{d} {rel}\n"));
            corpus_line(&mut corpus, &format!("d{i}{d}"));
            map_line(&mut map, &format!("d{i}{d}"));
        }
        let (first, second) = if i % 3 == 0 { ("x", "a") } else { ("a", "x") };
        push_run(&mut b, i, &["a", "x", "b"]);
        push_run(&mut c, i, &[first, second, "b"]);
        queries_line(&mut queries, i);
    }
    ctx.write("q.txt", qrels);
    ctx.write("b.trec", b);
    ctx.write("c.trec", c);
    ctx.write("corpus.txt", corpus);
    ctx.write("map.tsv", map);
    ctx.write("queries.jsonl", queries);
    for side in ["b", "c"] {
        let (run, out) = (format!("{side}.trec"), format!("{side}.jsonl"));
        ctx.run(&[
            "eval",
            "--run",
            &run,
            "--qrels",
            "q.txt",
            "--metrics",
            "ndcg@10",
            "-o",
            &out,
        ])
        .expect(0);
    }
    assert!(dir.join("b.jsonl.protocol.json").exists());
    ctx.run(&[
        "aa",
        "b.jsonl",
        "b.jsonl",
        "--resamples",
        "100",
        "-o",
        "noise.json",
    ])
    .expect(0);
    ctx.write("flaky.toml", QUARANTINE);
    ctx.gate(
        GateFile::new("b.jsonl", "c.jsonl")
            .queries("queries.jsonl")
            .resamples(200)
            .table(
                "noise",
                "file = \"noise.json\"\nquarantine = \"flaky.toml\"",
            )
            .gate("ndcg@10", "max-drop = 0.05"),
    );
    ctx.write(
        "runs.toml",
        GateFile::default()
            .input("baseline", "{ run = \"b.trec\" }")
            .input("candidate", "{ run = \"c.trec\" }")
            .path("qrels", "q.txt")
            .resamples(200)
            .table("eval", "corpus = \"corpus.txt\"\nchunk-map = \"map.tsv\"")
            .gate("ndcg@10", "max-drop = 0.05")
            .to_string(),
    );
    ctx
}

fn push_run(out: &mut String, i: usize, docs: &[&str]) {
    for (r, d) in docs.iter().enumerate() {
        out.push_str(&format!("q{i} Q0 d{i}{d} {} {} t\n", r + 1, 10 - r));
    }
}

fn corpus_line(out: &mut String, doc: &str) {
    out.push_str(doc);
    out.push('\n');
}

fn map_line(out: &mut String, doc: &str) {
    out.push_str(&format!("{doc}\t{doc}\n"));
}

fn queries_line(out: &mut String, i: usize) {
    out.push_str(&format!(
        "{{\"query_id\": \"q{i}\", \"slices\": {{\"lang\": \"en\"}}}}\n"
    ));
}

/// Runs `args` in a fresh copy of the fixture; asserts exit 2 with every fragment of `want` in
/// stderr and no file written, changed or removed.
fn refused(args: &[&str], want: &[&str]) {
    let ctx = every_input();
    links(ctx.path());
    let before = snapshot(ctx.path());
    let out: Out = ctx.run(args);
    assert_eq!(
        out.code,
        Some(2),
        "{args:?}\nstdout: {}\nstderr: {}",
        out.stdout,
        out.stderr
    );
    for w in want {
        assert!(
            out.stderr.contains(w),
            "{args:?}: wanted {w:?} in\n{}",
            out.stderr
        );
    }
    assert!(out.stderr.contains("nothing was written"), "{}", out.stderr);
    assert_eq!(snapshot(ctx.path()), before, "{args:?} changed the folder");
}

/// A symlink and a hard link to some of the inputs.
fn links(dir: &Path) {
    std::os::unix::fs::symlink("flaky.toml", dir.join("soft.toml")).unwrap();
    std::fs::hard_link(dir.join("noise.json"), dir.join("hard.json")).unwrap();
    std::fs::hard_link(dir.join("q.txt"), dir.join("hard-qrels.txt")).unwrap();
}

const CHECK: &[&str] = &["check", "gate.toml", "--today", "2026-12-01"];
const CHECK_RUNS: &[&str] = &["check", "runs.toml"];

#[test]
fn check_outputs_never_overwrite_what_check_reads() {
    let cases: &[(&[&str], &str, &str, &str)] = &[
        (
            CHECK,
            "--export-json",
            "noise.json",
            "that is the [noise] file",
        ),
        (
            CHECK,
            "--export-html",
            "flaky.toml",
            "that is the [noise] quarantine list",
        ),
        (
            CHECK,
            "--export-json",
            "b.jsonl.protocol.json",
            "that is the protocol sidecar of the baseline",
        ),
        (
            CHECK,
            "--export-markdown",
            "c.jsonl.protocol.json",
            "that is the protocol sidecar of the candidate",
        ),
        (
            CHECK,
            "--output",
            "queries.jsonl",
            "that is the queries file",
        ),
        (
            CHECK,
            "--export-markdown",
            "gate.toml",
            "that is the gate file",
        ),
        (
            CHECK,
            "--export-json",
            "hard.json",
            "that is the [noise] file",
        ),
        (
            CHECK,
            "--export-html",
            "soft.toml",
            "that is the [noise] quarantine list",
        ),
        (CHECK_RUNS, "--holes", "q.txt", "that is the qrels file"),
        (CHECK_RUNS, "--holes", "b.trec", "that is the baseline"),
        (
            CHECK_RUNS,
            "--holes",
            "hard-qrels.txt",
            "that is the qrels file",
        ),
        (
            CHECK_RUNS,
            "--export-json",
            "corpus.txt",
            "that is the [eval] corpus",
        ),
        (
            CHECK_RUNS,
            "--export-html",
            "map.tsv",
            "that is the [eval] chunk-map",
        ),
        (CHECK_RUNS, "--holes", "runs.toml", "that is the gate file"),
    ];
    for (cmd, flag, path, what) in cases {
        let args = [*cmd, &[*flag, *path]].concat();
        refused(
            &args,
            &[
                &format!("{flag} {path}: {what}"),
                "refusing to overwrite it",
            ],
        );
    }
}

#[test]
fn check_outputs_never_name_one_file_twice() {
    refused(
        &[CHECK_RUNS, &["-o", "out.txt", "--holes", "out.txt"]].concat(),
        &["--output out.txt and --holes out.txt name the same file"],
    );
    refused(
        &[
            CHECK,
            &["--export-json", "r.json", "--export-html", "./r.json"],
        ]
        .concat(),
        &["--export-json r.json and --export-html ./r.json name the same file"],
    );
    // Even --dump-config, which writes nothing, says so before printing.
    refused(
        &[CHECK, &["--dump-config", "--export-json", "noise.json"]].concat(),
        &["--export-json noise.json: that is the [noise] file"],
    );
}

const EVAL: &[&str] = &[
    "eval",
    "--run",
    "b.trec",
    "--qrels",
    "q.txt",
    "--metrics",
    "ndcg@10",
];

#[test]
fn eval_holes_and_output_never_overwrite_inputs_or_each_other() {
    let corpus = [EVAL, &["--corpus", "corpus.txt", "--chunk-map", "map.tsv"]].concat();
    let cases: Vec<(Vec<&str>, String)> = vec![
        ([EVAL, &["--holes", "q.txt"]].concat(), "--holes q.txt: that is the --qrels file q.txt".into()),
        ([EVAL, &["--holes", "b.trec"]].concat(), "--holes b.trec: that is the --run file b.trec".into()),
        ([EVAL, &["--holes", "hard-qrels.txt"]].concat(), "--holes hard-qrels.txt: that is the --qrels file q.txt".into()),
        ([&corpus[..], &["--holes", "corpus.txt"]].concat(), "--holes corpus.txt: that is the --corpus file".into()),
        ([&corpus[..], &["-o", "map.tsv"]].concat(), "-o map.tsv: that is the --chunk-map file".into()),
        (
            [EVAL, &["-o", "out.jsonl", "--holes", "out.jsonl"]].concat(),
            "-o out.jsonl and --holes out.jsonl name the same file".into(),
        ),
        (
            [EVAL, &["-o", "out.jsonl", "--holes", "out.jsonl.protocol.json"]].concat(),
            "-o's protocol sidecar out.jsonl.protocol.json and --holes out.jsonl.protocol.json name the same file".into(),
        ),
    ];
    for (args, want) in cases {
        refused(&args, &[&want]);
    }
    // The output's sidecar may not be an input either: `-o q` would write `q.protocol.json`.
    let ctx = every_input();
    std::fs::rename(ctx.path().join("q.txt"), ctx.path().join("x.protocol.json")).unwrap();
    let before = snapshot(ctx.path());
    let out = ctx.run(&[
        "eval",
        "--run",
        "b.trec",
        "--qrels",
        "x.protocol.json",
        "--metrics",
        "ndcg@10",
        "-o",
        "x",
    ]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        out.stderr.contains(
            "-o's protocol sidecar x.protocol.json: that is the --qrels file x.protocol.json"
        ),
        "{}",
        out.stderr
    );
    assert_eq!(snapshot(ctx.path()), before);
}

#[test]
fn compare_and_aa_outputs_never_overwrite_their_inputs() {
    let compare = [
        "compare",
        "b.jsonl",
        "c.jsonl",
        "--queries",
        "queries.jsonl",
        "--resamples",
        "100",
    ];
    refused(
        &[&compare[..], &["-o", "b.jsonl.protocol.json"]].concat(),
        &["--output b.jsonl.protocol.json: that is the protocol sidecar of the baseline b.jsonl.protocol.json"],
    );
    refused(
        &[&compare[..], &["--export-html", "queries.jsonl"]].concat(),
        &["--export-html queries.jsonl: that is the queries file queries.jsonl"],
    );
    refused(
        &[
            &compare[..],
            &[
                "--candidate-replicate",
                "b.jsonl",
                "--export-json",
                "hard.json",
                "--export-markdown",
                "hard.json",
            ],
        ]
        .concat(),
        &["--export-json hard.json and --export-markdown hard.json name the same file"],
    );
    let aa = [
        "aa",
        "b.jsonl",
        "c.jsonl",
        "--queries",
        "queries.jsonl",
        "--resamples",
        "100",
    ];
    refused(
        &[&aa[..], &["-o", "c.jsonl.protocol.json"]].concat(),
        &["--output c.jsonl.protocol.json: that is the protocol sidecar of the replicate"],
    );
    refused(
        &[&aa[..], &["-o", "queries.jsonl"]].concat(),
        &["--output queries.jsonl: that is the queries file"],
    );
}

#[test]
fn outputs_that_are_not_inputs_are_written() {
    let ctx = every_input();
    let out = ctx.run(
        &[
            CHECK_RUNS,
            &[
                "--holes",
                "holes.txt",
                "--export-json",
                "r.json",
                "--export-html",
                "/dev/null",
                "--export-markdown",
                "/dev/null",
            ][..],
        ]
        .concat(),
    );
    assert!(matches!(out.code, Some(0 | 1)), "{}", out.stderr);
    assert!(ctx.path().join("holes.txt").exists() && ctx.path().join("r.json").exists());
}
