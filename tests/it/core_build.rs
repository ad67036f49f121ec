//! What differs between the default build and the core build (`--no-default-features`): the
//! entry points of the `parquet` and `github` features. Each test runs in both builds and asserts
//! the outcome of the build it is compiled in: with the feature the input is read or the client
//! is tried; without it the same flags parse and the run stops with exit 2 and a message naming
//! the missing cargo feature. The rest of the core is the same source in both builds, so the
//! core's CI job runs only this module (`cargo nextest run --no-default-features -E
//! 'test(/^core_build::/)'`, see docs/development.md).

use crate::support;

use std::path::{Path, PathBuf};

use support::cli::{example_gate, rag_isolated, Out};

const NO_PARQUET: &str = "built without Parquet support (cargo feature `parquet`)";
const NO_GITHUB: &str = "built without the GitHub client (cargo feature `github`)";
const NO_FORGE: &str = "built without the forge clients (cargo feature `github`)";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn parquet(rel: &str) -> PathBuf {
    root().join("tests/data/eval/parquet").join(rel)
}

fn run(args: &[&std::ffi::OsStr]) -> Out {
    let mut cmd = rag_isolated(std::time::Duration::from_secs(120));
    cmd.current_dir(root()).args(args);
    cmd.output().unwrap().into()
}

/// Exit 2, nothing on stdout, `want` in the one error.
#[track_caller]
fn assert_not_built(out: &Out, want: &str) {
    assert_eq!(out.code, Some(2), "stderr: {}", out.stderr);
    assert!(out.stdout.is_empty(), "printed: {}", out.stdout);
    assert!(out.stderr.contains(want), "{}", out.stderr);
}

#[test]
fn compare_on_parquet_tables_reads_them_or_names_the_missing_feature() {
    let (b, c) = (
        parquet("metrics/baseline.parquet"),
        parquet("metrics/candidate.parquet"),
    );
    let out = run(&["compare".as_ref(), b.as_os_str(), c.as_os_str()]);
    if cfg!(feature = "parquet") {
        assert_eq!(out.code, Some(0), "{}", out.stderr);
        assert!(out.stdout.contains("ndcg@10"), "{}", out.stdout);
    } else {
        assert_not_built(&out, NO_PARQUET);
        assert!(out.stderr.contains("baseline.parquet"), "{}", out.stderr);
    }
}

#[test]
fn eval_on_a_parquet_run_reads_it_or_names_the_missing_feature() {
    let (q, r) = (
        parquet("trec_eval_test/qrels.parquet"),
        parquet("trec_eval_test/run.parquet"),
    );
    let out = run(&[
        "eval".as_ref(),
        "--qrels".as_ref(),
        q.as_os_str(),
        "--run".as_ref(),
        r.as_os_str(),
        "--metrics".as_ref(),
        "ndcg_cut_10".as_ref(),
    ]);
    if cfg!(feature = "parquet") {
        assert_eq!(out.code, Some(0), "{}", out.stderr);
        // One JSONL row per query, the metric under its canonical name.
        assert!(out.stdout.contains(r#""ndcg@10":"#), "{}", out.stdout);
    } else {
        assert_not_built(&out, NO_PARQUET);
    }
}

#[test]
fn baseline_fetch_tries_github_or_names_the_missing_feature() {
    let dir = tempfile::tempdir().unwrap();
    let to = dir.path().join("baseline");
    let out = run(&[
        "baseline".as_ref(),
        "fetch".as_ref(),
        "--artifact".as_ref(),
        "eval-main".as_ref(),
        "--workflow".as_ref(),
        "eval.yml".as_ref(),
        "--to".as_ref(),
        to.as_os_str(),
    ]);
    // No token and no event in the test's environment: the client stops with its own error.
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    if cfg!(feature = "github") {
        assert!(!out.stderr.contains("built without"), "{}", out.stderr);
    } else {
        assert_not_built(&out, NO_GITHUB);
        assert!(!to.exists(), "the destination was created");
    }
}

#[test]
fn a_required_comment_fails_the_run_and_says_why() {
    let gate = example_gate();
    let out = run(&[
        "check".as_ref(),
        gate.as_os_str(),
        "--comment=required".as_ref(),
    ]);
    // Outside a pull request (the test's environment has none) no build can post.
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    if cfg!(feature = "github") {
        assert!(!out.stderr.contains("built without"), "{}", out.stderr);
    } else {
        assert!(out.stderr.contains(NO_FORGE), "{}", out.stderr);
    }
}

#[test]
fn a_best_effort_comment_leaves_the_verdict_standing() {
    let gate = example_gate();
    let out = run(&["check".as_ref(), gate.as_os_str(), "--comment".as_ref()]);
    // The shipped example fails one gate: exit 1 in both builds, the comment only warned about.
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert!(out.stderr.contains("the verdict stands"), "{}", out.stderr);
    assert_eq!(
        out.stderr.contains(NO_FORGE),
        !cfg!(feature = "github"),
        "{}",
        out.stderr
    );
}
