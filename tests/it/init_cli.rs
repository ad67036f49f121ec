//! `rag-gate init`: a gate file from the user's own files that `check` runs without edits (on
//! the shipped examples, and on multi-turn ids without a queries file), never overwriting a
//! file, with bad input an error naming the file and line.

use crate::support;

use std::path::Path;

use support::cli::{assert_contains, rag_gate, run_in, write};

/// A folder holding a copy of the shipped examples (so the written paths are stable).
fn examples() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    for f in ["baseline.jsonl", "candidate.jsonl", "queries.jsonl"] {
        std::fs::copy(root.join(f), dir.path().join(f)).unwrap();
    }
    dir
}

fn init_examples(dir: &Path) -> support::cli::Out {
    run_in(
        rag_gate().args([
            "init",
            "--baseline",
            "baseline.jsonl",
            "--candidate",
            "candidate.jsonl",
            "--queries",
            "queries.jsonl",
            "-o",
            "gates/gate.toml",
        ]),
        dir,
    )
}

/// `check` on the written file ends with a verdict (0 or 1), never a gate-file error (2).
fn check_runs(dir: &Path, gate: &str) -> support::cli::Out {
    let out = run_in(rag_gate().args(["check", gate]), dir);
    assert!(
        matches!(out.code, Some(0 | 1)),
        "exit {:?}: {}",
        out.code,
        out.stderr
    );
    out
}

#[test]
fn on_the_examples_the_written_file_is_checked_as_is() {
    let dir = examples();
    std::fs::create_dir(dir.path().join("gates")).unwrap();
    let out = init_examples(dir.path());
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(out.stdout, "");
    assert_contains(&out.stderr, "init: unit = \"group\"");
    assert_contains(&out.stderr, "init: ndcg@10: max-drop = ");
    let text = std::fs::read_to_string(dir.path().join("gates/gate.toml")).unwrap();
    assert_contains(&text, "baseline  = \"../baseline.jsonl\"");
    insta::assert_snapshot!("examples_gate_file", text);
    let report = check_runs(dir.path(), "gates/gate.toml");
    assert_contains(&report.stdout, "unit group");
}

#[test]
fn without_o_it_prints_the_file_and_multi_turn_ids_give_the_groups() {
    let dir = tempfile::tempdir().unwrap();
    let (mut b, mut c) = (String::new(), String::new());
    for conv in 0..40 {
        for turn in 0..3 {
            let id = format!("conv{conv}<::>t{turn}");
            let v = f64::from((conv * 7 + turn * 3) % 11) / 10.0;
            b.push_str(&format!("{{\"query_id\":\"{id}\",\"ndcg@10\":{v}}}\n"));
            let w = if (conv + turn) % 4 == 0 {
                (v - 0.2).max(0.0)
            } else {
                v
            };
            c.push_str(&format!("{{\"query_id\":\"{id}\",\"ndcg@10\":{w}}}\n"));
        }
    }
    write(dir.path(), "b.jsonl", b);
    write(dir.path(), "c.jsonl", c);
    let out = run_in(
        rag_gate().args(["init", "--baseline", "b.jsonl", "--candidate", "c.jsonl"]),
        dir.path(),
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_contains(&out.stderr, "guessed the groups from the ids");
    assert_contains(&out.stdout, "group-from-id = \"^(.*)<::>\"");
    assert_contains(&out.stdout, "unit = \"group\"");
    write(dir.path(), "gate.toml", &out.stdout);
    let report = check_runs(dir.path(), "gate.toml");
    assert_contains(&report.stdout, "unit group");
}

#[test]
fn it_never_overwrites_a_file() {
    let dir = examples();
    std::fs::create_dir(dir.path().join("gates")).unwrap();
    write(&dir.path().join("gates"), "gate.toml", "keep me\n");
    let out = init_examples(dir.path());
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert_contains(&out.stderr, "init never overwrites a file");
    let kept = std::fs::read_to_string(dir.path().join("gates/gate.toml")).unwrap();
    assert_eq!(kept, "keep me\n");
    let out = run_in(
        rag_gate().args([
            "init",
            "--baseline",
            "baseline.jsonl",
            "--candidate",
            "candidate.jsonl",
            "-o",
            "baseline.jsonl",
        ]),
        dir.path(),
    );
    assert_eq!(out.code, Some(2), "{}", out.stderr);
}

#[test]
fn bad_input_is_exit_2_naming_the_file_and_line() {
    let dir = examples();
    let mut text = std::fs::read_to_string(dir.path().join("candidate.jsonl")).unwrap();
    text = text.replacen("\n", "\n{\"query_id\": \"conv-000-t9\", \"ndcg@10\": \n", 1);
    write(dir.path(), "broken.jsonl", text);
    let out = run_in(
        rag_gate().args([
            "init",
            "--baseline",
            "baseline.jsonl",
            "--candidate",
            "broken.jsonl",
        ]),
        dir.path(),
    );
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert_contains(&out.stderr, "broken.jsonl:2");
    assert_eq!(out.stdout, "");
}

#[test]
fn a_metric_too_few_queries_moved_on_is_written_commented_out_and_the_file_passes_its_own_check() {
    // TREC-COVID round 2, pytrec_eval's rows (`measure<TAB>qid<TAB>value`, named .tsv): hit@10
    // moved on 5 of 35 queries, under check's min-moved = 8, so its gate would be "not judged"
    // and fail the first check of an unchanged pair; it is written commented out with why.
    let dir = tempfile::tempdir().unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/eval/fixtures/trec-covid-r2");
    for f in ["run.covidex-sim.pte.tsv", "run.covidex-t5.pte.tsv"] {
        std::fs::copy(data.join(f), dir.path().join(f)).unwrap();
    }
    let out = run_in(
        rag_gate().args([
            "init",
            "--baseline",
            "run.covidex-sim.pte.tsv",
            "--candidate",
            "run.covidex-t5.pte.tsv",
            "-o",
            "gate.toml",
        ]),
        dir.path(),
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_contains(&out.stderr, "init: hit@10: max-drop = ");
    assert_contains(&out.stderr, "written commented out: only 5 moved");
    let text = std::fs::read_to_string(dir.path().join("gate.toml")).unwrap();
    assert_contains(&text, "# Not written as a gate: only 5 queries moved");
    assert_contains(&text, "# [[gate]]\n# metric   = \"hit@10\"");
    assert_contains(&text, "[[gate]]\nmetric   = \"ndcg@10\"");
    let check = check_runs(dir.path(), "gate.toml");
    assert_eq!(check.code, Some(0), "{}", check.stdout);
    assert_contains(&check.stdout, "PASS: 15 of 15 checks passed");
}
