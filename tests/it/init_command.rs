//! `rag-gate init`: a gate file from the user's own files that `check` runs without edits (on
//! the shipped examples, and on multi-turn ids without a queries file), never overwriting a
//! file, with bad input an error naming the file and line.

use crate::support;
use support::{Out, TestContext};

use std::path::Path;

use support::output::assert_contains;

/// A folder holding a copy of the shipped examples (so the written paths are stable).
fn examples() -> TestContext {
    let ctx = TestContext::new();
    for f in ["baseline.jsonl", "candidate.jsonl", "queries.jsonl"] {
        ctx.copy(support::repo("examples").join(f), f);
    }
    ctx
}

fn init_examples(ctx: &TestContext) -> support::Out {
    ctx.run(&[
        "init",
        "--baseline",
        "baseline.jsonl",
        "--candidate",
        "candidate.jsonl",
        "--queries",
        "queries.jsonl",
        "-o",
        "gates/gate.toml",
    ])
}

/// `check` on the written file ends with a verdict (0 or 1), never a gate-file error (2).
fn check_runs(ctx: &TestContext, gate: &str) -> support::Out {
    let out = ctx.run(&["check", gate]);
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
    let ctx = examples();
    std::fs::create_dir(ctx.path().join("gates")).unwrap();
    let out = init_examples(&ctx);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(out.stdout, "");
    assert_contains(&out.stderr, "init: unit = \"group\"");
    assert_contains(&out.stderr, "init: ndcg@10: max-drop = ");
    let text = ctx.read("gates/gate.toml");
    assert_contains(&text, "baseline  = \"../baseline.jsonl\"");
    insta::assert_snapshot!("examples_gate_file", text);
    let report = check_runs(&ctx, "gates/gate.toml");
    assert_contains(&report.stdout, "unit group");
}

#[test]
fn without_o_it_prints_the_file_and_multi_turn_ids_give_the_groups() {
    let ctx = TestContext::new();
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
    ctx.write("b.jsonl", b);
    ctx.write("c.jsonl", c);
    let out = ctx.run(&["init", "--baseline", "b.jsonl", "--candidate", "c.jsonl"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_contains(&out.stderr, "guessed the groups from the ids");
    assert_contains(&out.stdout, "group-from-id = \"^(.*)<::>\"");
    assert_contains(&out.stdout, "unit = \"group\"");
    ctx.write("gate.toml", &out.stdout);
    let report = check_runs(&ctx, "gate.toml");
    assert_contains(&report.stdout, "unit group");
}

#[test]
fn it_never_overwrites_a_file() {
    let ctx = examples();
    ctx.write("gates/gate.toml", "keep me\n");
    let out = init_examples(&ctx);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert_contains(&out.stderr, "init never overwrites a file");
    let kept = ctx.read("gates/gate.toml");
    assert_eq!(kept, "keep me\n");
    let out = ctx.run(&[
        "init",
        "--baseline",
        "baseline.jsonl",
        "--candidate",
        "candidate.jsonl",
        "-o",
        "baseline.jsonl",
    ]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
}

#[test]
fn bad_input_is_exit_2_naming_the_file_and_line() {
    let ctx = examples();
    let mut text = ctx.read("candidate.jsonl");
    text = text.replacen("\n", "\n{\"query_id\": \"conv-000-t9\", \"ndcg@10\": \n", 1);
    ctx.write("broken.jsonl", text);
    let out = ctx.run(&[
        "init",
        "--baseline",
        "baseline.jsonl",
        "--candidate",
        "broken.jsonl",
    ]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert_contains(&out.stderr, "broken.jsonl:2");
    assert_eq!(out.stdout, "");
}

/// A folder with a fixture's per-query file (pytrec_eval rows) copied in as `name`.
fn fixture(ctx: &TestContext, collection: &str, file: &str, name: &str) {
    let data = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/eval/fixtures")
        .join(collection);
    std::fs::copy(data.join(file), ctx.join(name)).unwrap();
}

/// `init` on `base` and `cand` (plus `extra` flags) into gate.toml, then `check` on it.
fn init_then_check(
    ctx: &TestContext,
    base: &str,
    cand: &str,
    extra: &[&str],
) -> (String, support::Out) {
    let mut args = vec![
        "init",
        "--baseline",
        base,
        "--candidate",
        cand,
        "-o",
        "gate.toml",
    ];
    args.extend(extra);
    let out = Out::of(ctx.command().args(&args));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let text = ctx.read("gate.toml");
    (text, ctx.run(&["check", "gate.toml"]))
}

#[test]
fn on_identical_files_of_35_and_52_topics_the_first_check_passes_as_untouched() {
    // TREC-COVID round 2 (35 topics, 15 measures) and CACM (52 judged topics), the same run on
    // both sides: every gate init writes is judged, none fails, and the report says nothing
    // changed and states the resolution.
    for (collection, file) in [
        ("trec-covid-r2", "run.covidex-sim.pte.tsv"),
        ("cacm", "run.cacm-bm25.pte.tsv"),
    ] {
        let ctx = TestContext::new();
        fixture(&ctx, collection, file, "main.tsv");
        fixture(&ctx, collection, file, "pr.tsv");
        let (text, check) = init_then_check(&ctx, "main.tsv", "pr.tsv", &[]);
        assert!(!text.contains("# [[gate]]"), "{text}");
        assert_contains(&text, "[[gate]]\nmetric   = \"ndcg@10\"");
        assert_contains(&text, "max-drop = 0.02\n");
        assert_contains(&text, "nothing moved between these files");
        assert_contains(&text, "resolution: a change touching fewer than");
        assert_eq!(check.code, Some(0), "{collection}: {}", check.stdout);
        assert_contains(&check.stdout.to_lowercase(), "untouched");
        assert!(!check.stdout.contains("FAIL"), "{}", check.stdout);
        assert_contains(&check.stdout, "resolution");
    }
}

#[test]
fn the_margins_are_what_a_team_writes_with_the_queries_they_need_beside_them() {
    // TREC-COVID round 2, pytrec_eval's rows of two real systems over 35 topics: the set detects
    // only drops of several points, yet the margins are 0.02 (teams write 0.01-0.02 on [0, 1]
    // metrics), each with the queries 80% power needs and the resolution (8.1% of 35 topics:
    // a worst cost of 0.100 > 0.02, so [verdict] names the blind spot).
    let ctx = TestContext::new();
    fixture(&ctx, "trec-covid-r2", "run.covidex-sim.pte.tsv", "sim.tsv");
    fixture(&ctx, "trec-covid-r2", "run.covidex-t5.pte.tsv", "t5.tsv");
    let (text, check) = init_then_check(&ctx, "sim.tsv", "t5.tsv", &[]);
    assert!(!text.contains("# [[gate]]"), "{text}");
    for metric in ["ndcg@10", "hit@10", "map"] {
        assert_contains(&text, &format!("[[gate]]\nmetric   = \"{metric}\""));
    }
    assert_eq!(
        text.matches("max-drop = 0.02\n").count(),
        text.matches("max-drop = ").count()
    );
    assert_contains(&text, "needs\n# about ");
    assert_contains(&text, "queries on all (today 35)");
    assert_contains(
        &text,
        "resolution: a change touching fewer than 10.0% of the 35 queries on all",
    );
    assert_contains(&text, "guarantee = \"regular\"");
    assert_contains(&text, "# accept-blind-spot = true");
    // The file runs: a verdict (0 or 1), never a gate-file error.
    assert!(matches!(check.code, Some(0 | 1)), "{}", check.stderr);
}

#[test]
fn a_topics_file_listing_unjudged_topics_is_read_as_check_reads_it() {
    // CACM: the run ranks 64 topics, the qrels judge 52, so the per-query file has 52 and the
    // topics file 64: init does not refuse the 12 unjudged rows, and check on the file it
    // writes notes them and passes the unchanged pair.
    let ctx = TestContext::new();
    fixture(&ctx, "cacm", "run.cacm-bm25.pte.tsv", "main.tsv");
    fixture(&ctx, "cacm", "run.cacm-bm25.pte.tsv", "pr.tsv");
    let run = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/eval/fixtures/cacm/run.cacm-bm25.txt");
    let ids: std::collections::BTreeSet<String> = std::fs::read_to_string(run)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .collect();
    assert_eq!(ids.len(), 64);
    let topics: String = ids
        .iter()
        .map(|q| format!("{{\"query_id\": \"{q}\"}}\n"))
        .collect();
    ctx.write("topics.jsonl", topics);
    let (text, check) = init_then_check(&ctx, "main.tsv", "pr.tsv", &["--queries", "topics.jsonl"]);
    assert_contains(&text, "queries   = \"topics.jsonl\"");
    assert_eq!(check.code, Some(0), "{}\n{}", check.stdout, check.stderr);
    assert_contains(&check.stdout, "12 rows naming a query neither side has");
}
