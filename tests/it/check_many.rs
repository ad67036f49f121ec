//! Many gate files, one verdict: `rag-gate check a.toml b.toml c.toml` (or a folder) analyses each
//! file, then gives one exit code (the worst), one report with a combined headline and a section
//! per file in every format, one JUnit file with a suite per file, and on GitHub one sticky
//! comment and one job summary. A bad file is exit 2 naming it, with nothing written or posted.

use crate::support;
use support::{Out, TestContext};

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use support::github::*;
use support::output::assert_contains;
use wiremock::{Mock, ResponseTemplate};

const THREE: [&str; 3] = [
    "gates/prod.toml",
    "tests/data/junit/pass.toml",
    "tests/data/junit/not-judged.toml",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs from the repository root (the gate files' paths as the reports print them).
fn in_root() -> TestContext {
    TestContext::new().cwd(root())
}

/// `rag-gate check` on the three gate files (fewer resamples: the layout is under test).
fn check_three() -> assert_cmd::Command {
    let mut cmd = in_root().command();
    cmd.arg("check").args(THREE).args(["--resamples", "500"]);
    cmd
}

fn stdout(cmd: &mut assert_cmd::Command, code: i32) -> String {
    Out::of(cmd).expect(code).utf8().stdout
}

#[test]
fn three_gate_files_give_one_headline_three_sections_and_the_worst_exit_code() {
    let text = stdout(&mut check_three(), 1);
    let first = text.lines().next().unwrap();
    assert!(
        first.starts_with("rag-gate: FAIL: 1 of 3 gate files failed; prod: ndcg@10 dropped"),
        "{first}"
    );
    for file in THREE {
        assert_eq!(
            text.matches(&format!("\n== {file} ==\n")).count(),
            1,
            "{text}"
        );
    }
    // Each section is that file's own report.
    assert_contains(&text, "rag-gate example-pass: PASS: 2 of 2 checks passed");
    assert_contains(
        &text,
        "rag-gate example-not-judged: PASS: 2 of 4 checks passed",
    );
}

#[test]
fn passing_files_together_pass() {
    let out = stdout(
        in_root().command().args([
            "check",
            "tests/data/junit/pass.toml",
            "tests/data/junit/not-judged.toml",
            "--resamples",
            "500",
        ]),
        0,
    );
    assert!(
        out.starts_with("rag-gate: PASS: 2 of 2 gate files passed\n"),
        "{out}"
    );
}

#[test]
fn the_json_report_holds_each_files_report_under_its_name() {
    let json: Value =
        serde_json::from_str(&stdout(check_three().args(["--format", "json"]), 1)).unwrap();
    assert_eq!(json["verdict"], "fail");
    let files = json["gate_files"].as_array().unwrap();
    let names: Vec<&str> = files.iter().map(|f| f["file"].as_str().unwrap()).collect();
    assert_eq!(names, THREE);
    let ids: Vec<&str> = files
        .iter()
        .map(|f| f["report"]["gate_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["prod", "example-pass", "example-not-judged"]);
    let verdicts: Vec<&str> = files
        .iter()
        .map(|f| f["report"]["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["fail", "pass", "pass"]);
}

#[test]
fn one_junit_file_has_a_suite_per_gate_file() {
    let xml = stdout(check_three().args(["--format", "junit"]), 1);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let suites: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testsuite"))
        .map(|n| n.attribute("name").unwrap())
        .collect();
    assert_eq!(suites, ["prod", "example-pass", "example-not-judged"]);
    let root = doc.root_element();
    assert_eq!(root.attribute("tests"), Some("15"), "9 + 2 + 4 cases");
    assert_eq!(root.attribute("failures"), Some("2"));
}

#[test]
fn a_folder_stands_for_its_gate_files_in_name_order() {
    let json: Value = serde_json::from_str(&stdout(
        in_root().command().args([
            "check",
            "tests/data/junit",
            "--resamples",
            "500",
            "--format",
            "json",
        ]),
        0,
    ))
    .unwrap();
    let names: Vec<&str> = json["gate_files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "tests/data/junit/not-judged.toml",
            "tests/data/junit/pass.toml"
        ]
    );
}

/// A copy of the pass gate file in `dir` with `text` appended, its inputs still found.
fn gate_copy(ctx: &TestContext, name: &str, text: &str) -> PathBuf {
    let src = std::fs::read_to_string(root().join("tests/data/junit/pass.toml")).unwrap();
    let examples = root().join("examples").display().to_string();
    let body = src.replace("../../../examples", &examples) + text;
    ctx.write(name, body)
}

#[test]
fn a_bad_file_is_exit_2_naming_it_and_nothing_is_written() {
    let ctx = TestContext::new();
    let bad = gate_copy(
        &ctx,
        "bad.toml",
        "\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = \"x\"\n",
    );
    let out_file = ctx.path().join("report.json");
    let out = Out::of(
        in_root()
            .command()
            .args(["check", "gates/prod.toml"])
            .arg(&bad)
            .args(["--resamples", "500", "--format", "json", "--output"])
            .arg(&out_file),
    )
    .expect(2);
    let err = &out.stderr;
    assert_contains(err, &bad.display().to_string());
    assert!(
        !out_file.exists(),
        "a report was written despite the bad file"
    );
}

#[test]
fn a_missing_input_of_one_file_is_exit_2_naming_that_gate_file() {
    let ctx = TestContext::new();
    let src = std::fs::read_to_string(root().join("tests/data/junit/pass.toml")).unwrap();
    let broken = ctx.write("broken.toml", src.replace("candidate.jsonl", "gone.jsonl"));
    let out = Out::of(
        in_root()
            .command()
            .args(["check", "gates/prod.toml"])
            .arg(&broken),
    )
    .expect(2);
    let err = &out.stderr;
    assert_contains(err, "broken.toml");
}

#[test]
fn two_files_with_the_same_id_are_refused() {
    let ctx = TestContext::new();
    let a = gate_copy(&ctx, "a.toml", "");
    let b = gate_copy(&ctx, "b.toml", "");
    let out = Out::of(ctx.command().arg("check").arg(&a).arg(&b)).expect(2);
    let err = &out.stderr;
    assert_contains(err, "both have the id example-pass");
}

#[test]
fn the_same_file_twice_or_an_empty_folder_is_a_usage_error() {
    in_root()
        .run(&["check", "gates/prod.toml", "./gates"])
        .expect(2);
    let empty = TestContext::new();
    let out = Out::of(
        in_root()
            .command()
            .args(["check", "gates/prod.toml"])
            .arg(empty.path()),
    )
    .expect(2);
    assert_contains(&out.stderr, "no gate file (*.toml)");
}

#[test]
fn on_github_three_files_make_one_comment_with_three_sections() {
    let gh = Gh::start();
    gh.mount(list(vec![]).expect(1));
    gh.mount(
        create()
            .respond_with(ResponseTemplate::new(201).set_body_json(json!({ "id": 101 })))
            .expect(1),
    );
    gh.mount(
        Mock::given(wiremock::matchers::method("PATCH"))
            .respond_with(ResponseTemplate::new(500))
            .expect(0),
    );
    let ctx = TestContext::new();
    let summary = ctx.path().join("summary.md");
    let outputs = ctx.path().join("output.txt");
    let event = ctx.path().join("event.json");
    ctx.write(
        "event.json",
        json!({ "pull_request": { "number": 7 } }).to_string(),
    );
    let out = Out::of(
        check_three()
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_TOKEN", TOKEN)
            .env("GITHUB_REPOSITORY", "octo/repo")
            .env("GITHUB_API_URL", gh.server.uri())
            .env("GITHUB_EVENT_PATH", &event)
            .env("GITHUB_STEP_SUMMARY", &summary)
            .env("GITHUB_OUTPUT", &outputs)
            .arg("--comment"),
    );
    let stderr = out.stderr.clone();
    assert_eq!(out.code, Some(1), "{stderr}");
    assert_contains(&stderr, "rag-gate: posted the report as PR comment 101");
    let post = gh
        .requests()
        .into_iter()
        .find(|r| r.method.as_str() == "POST")
        .expect("one POST");
    let body: Value = serde_json::from_slice(&post.body).unwrap();
    let body = body["body"].as_str().unwrap();
    // One marker (the set's), one headline, a section per file.
    assert_eq!(body.matches("<!-- rag-gate:v1 ").count(), 1, "{body}");
    assert!(body
        .lines()
        .nth(1)
        .unwrap()
        .starts_with("## ❌ rag-gate fail: 1 of 3 gate files failed"));
    for file in THREE {
        assert_eq!(body.matches(&format!("#### `{file}`")).count(), 1, "{body}");
    }
    let summary = ctx.read("summary.md");
    assert_eq!(summary, body, "the comment is the job summary");
    assert_eq!(ctx.read("output.txt").lines().next(), Some("verdict=fail"));
    // The failed checks' annotations name their gate file (two files can share gate numbers).
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("::error title=rag-gate::"))
        .collect();
    assert!(!errors.is_empty(), "{stderr}");
    assert!(
        errors
            .iter()
            .all(|l| l.starts_with("::error title=rag-gate::gates/prod.toml: gate ")),
        "{errors:#?}"
    );
    assert_no_token(&[out.stdout, stderr]);
    gh.verify();
}
