//! What differs between the default build and the core build (`--no-default-features`): the
//! entry points of the `parquet` and `github` features. Each test runs the same scenario on every
//! build it can reach and asserts that build's outcome: with the feature the input is read or the
//! client is tried; without it the same flags parse and the run stops with exit 2 and a message
//! naming the missing cargo feature. The builds: the binary this test suite was built with (its
//! features are the suite's own), and the core binary `RAG_GATE_CORE_BIN` names, which the core
//! step of `.ci/run` and the workflow's core job build (`cargo build --no-default-features --bin
//! rag-gate`) and hand to the default suite, so the core costs one build of the crate and no test
//! build of its own. The rest of the core is the same source in both builds. The module also runs
//! as before in a suite built with `--no-default-features` (docs/development.md).

use crate::support;

use std::path::PathBuf;

use support::{example_gate, repo, Out, TestContext};

const NO_PARQUET: &str = "built without Parquet support (cargo feature `parquet`)";
const NO_GITHUB: &str = "built without the GitHub client (cargo feature `github`)";
const NO_FORGE: &str = "built without the forge clients (cargo feature `github`)";

fn parquet(rel: &str) -> PathBuf {
    repo("tests/data/eval/parquet").join(rel)
}

/// A build of the binary and the features it was built with.
struct Build {
    bin: Option<PathBuf>,
    parquet: bool,
    github: bool,
}

/// The suite's own binary, then the core binary when `RAG_GATE_CORE_BIN` names one.
fn builds() -> Vec<Build> {
    let mut all = vec![Build {
        bin: None,
        parquet: cfg!(feature = "parquet"),
        github: cfg!(feature = "github"),
    }];
    match std::env::var_os("RAG_GATE_CORE_BIN") {
        Some(bin) => all.push(Build {
            bin: Some(PathBuf::from(bin)),
            parquet: false,
            github: false,
        }),
        None => eprintln!("RAG_GATE_CORE_BIN is not set: the core build is not run here"),
    }
    all
}

/// `build` run with `args` from the repository, killed after two minutes.
fn run(build: &Build, args: &[&std::ffi::OsStr]) -> Out {
    let mut ctx = TestContext::new()
        .cwd(repo(""))
        .timeout(std::time::Duration::from_secs(120));
    if let Some(bin) = &build.bin {
        ctx = ctx.binary(bin);
    }
    ctx.run_os(args)
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
    for build in builds() {
        let out = run(&build, &["compare".as_ref(), b.as_os_str(), c.as_os_str()]);
        if build.parquet {
            assert_eq!(out.code, Some(0), "{}", out.stderr);
            assert!(out.stdout.contains("ndcg@10"), "{}", out.stdout);
        } else {
            assert_not_built(&out, NO_PARQUET);
            assert!(out.stderr.contains("baseline.parquet"), "{}", out.stderr);
        }
    }
}

#[test]
fn eval_on_a_parquet_run_reads_it_or_names_the_missing_feature() {
    let (q, r) = (
        parquet("trec_eval_test/qrels.parquet"),
        parquet("trec_eval_test/run.parquet"),
    );
    for build in builds() {
        let out = run(
            &build,
            &[
                "eval".as_ref(),
                "--qrels".as_ref(),
                q.as_os_str(),
                "--run".as_ref(),
                r.as_os_str(),
                "--metrics".as_ref(),
                "ndcg_cut_10".as_ref(),
            ],
        );
        if build.parquet {
            assert_eq!(out.code, Some(0), "{}", out.stderr);
            // One JSONL row per query, the metric under its canonical name.
            assert!(out.stdout.contains(r#""ndcg@10":"#), "{}", out.stdout);
        } else {
            assert_not_built(&out, NO_PARQUET);
        }
    }
}

#[test]
fn baseline_fetch_tries_github_or_names_the_missing_feature() {
    for build in builds() {
        let dir = tempfile::tempdir().unwrap();
        let to = dir.path().join("baseline");
        let out = run(
            &build,
            &[
                "baseline".as_ref(),
                "fetch".as_ref(),
                "--artifact".as_ref(),
                "eval-main".as_ref(),
                "--workflow".as_ref(),
                "eval.yml".as_ref(),
                "--to".as_ref(),
                to.as_os_str(),
            ],
        );
        // No token and no event in the test's environment: the client stops with its own error.
        assert_eq!(out.code, Some(2), "{}", out.stderr);
        if build.github {
            assert!(!out.stderr.contains("built without"), "{}", out.stderr);
        } else {
            assert_not_built(&out, NO_GITHUB);
            assert!(!to.exists(), "the destination was created");
        }
    }
}

#[test]
fn a_required_comment_fails_the_run_and_says_why() {
    let gate = example_gate();
    for build in builds() {
        let args = [
            "check".as_ref(),
            gate.as_os_str(),
            "--comment=required".as_ref(),
        ];
        let out = run(&build, &args);
        // Outside a pull request (the test's environment has none) no build can post.
        assert_eq!(out.code, Some(2), "{}", out.stderr);
        if build.github {
            assert!(!out.stderr.contains("built without"), "{}", out.stderr);
        } else {
            assert!(out.stderr.contains(NO_FORGE), "{}", out.stderr);
        }
    }
}

#[test]
fn a_best_effort_comment_leaves_the_verdict_standing() {
    let gate = example_gate();
    for build in builds() {
        let out = run(
            &build,
            &["check".as_ref(), gate.as_os_str(), "--comment".as_ref()],
        );
        // The shipped example fails one gate: exit 1 in both builds, the comment only warned about.
        assert_eq!(out.code, Some(1), "{}", out.stderr);
        assert!(out.stderr.contains("the verdict stands"), "{}", out.stderr);
        assert_eq!(
            out.stderr.contains(NO_FORGE),
            !build.github,
            "{}",
            out.stderr
        );
    }
}
