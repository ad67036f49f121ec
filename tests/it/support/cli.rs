//! Running the `rag-gate` binary and reading what it printed: the exit code is asserted first,
//! with its stderr in the failure message, then stdout is parsed as the JSON report.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use serde_json::Value;

/// The binary under test, without the runner's CI, forge and colour variables (so the machine
/// the tests run on cannot change what it does); a test sets the ones it needs. A CLI test
/// usually runs it through [`TestContext`](super::TestContext).
pub fn rag_gate() -> Command {
    let mut cmd = Command::cargo_bin("rag-gate").unwrap();
    for (key, _) in std::env::vars_os() {
        if key.to_str().is_some_and(super::context::ambient) {
            cmd.env_remove(&key);
        }
    }
    cmd
}

/// `rag-gate check GATE --format json`; add a folder or flags, then run it with [`json_exit`]
/// or [`json_verdict`].
pub fn check_json(gate: impl AsRef<OsStr>) -> Command {
    let mut cmd = rag_gate();
    cmd.arg("check").arg(gate).args(["--format", "json"]);
    cmd
}

/// Asserts that `out` exited with `code`; the failure message is its stderr.
pub fn assert_exit(out: &Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs `cmd` and asserts that it exited with `code`.
pub fn exit(cmd: &mut Command, code: i32) -> Output {
    let out = cmd.output().unwrap();
    assert_exit(&out, code);
    out
}

/// Runs `cmd`, asserts that it exited with `code`, and parses its stdout as JSON.
pub fn json_exit(cmd: &mut Command, code: i32) -> Value {
    json(&exit(cmd, code).stdout)
}

/// Runs `cmd` and asserts that it ended with a verdict (0 pass, 1 fail), not an error.
pub fn verdict(cmd: &mut Command) -> (i32, Output) {
    let out = cmd.output().unwrap();
    let code = out.status.code().unwrap();
    assert!(
        code == 0 || code == 1,
        "exit {code}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (code, out)
}

/// [`verdict`], with stdout parsed as JSON.
pub fn json_verdict(cmd: &mut Command) -> (i32, Value) {
    let (code, out) = verdict(cmd);
    (code, json(&out.stdout))
}

/// Runs `cmd`: its exit code and stderr.
pub fn code_and_stderr(cmd: &mut Command) -> (Option<i32>, String) {
    let out = cmd.output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Asserts that `text` contains `want`; the failure message is the whole text.
#[track_caller]
pub fn assert_contains(text: &str, want: &str) {
    assert!(text.contains(want), "{text}");
}

/// `bytes` (a report printed on stdout) parsed as JSON.
pub fn json(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).unwrap()
}

/// The warnings of a JSON report, as text.
pub fn warnings(report: &Value) -> Vec<String> {
    report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap().to_string())
        .collect()
}

/// The comparisons of a JSON report.
pub fn comparisons(report: &Value) -> &Vec<Value> {
    report["comparisons"].as_array().unwrap()
}

/// The comparison of `metric` on `slice` in a JSON report.
pub fn comparison<'a>(report: &'a Value, metric: &str, slice: &str) -> &'a Value {
    comparisons(report)
        .iter()
        .find(|c| c["metric"] == metric && c["slice"] == slice)
        .unwrap_or_else(|| panic!("no comparison of {metric} on {slice}"))
}

/// Writes `text` to `dir/name` and returns its path.
pub fn write(dir: &Path, name: &str, text: impl AsRef<[u8]>) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// The shipped example gate file, `gates/prod.toml`.
pub fn example_gate() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("gates/prod.toml")
}

/// `rag-gate check gates/prod.toml` (the shipped example, which fails one gate) in an empty
/// environment, so the runner's variables cannot change what it does; add flags, then run it.
pub fn check_example() -> Command {
    let mut cmd = rag_gate();
    cmd.env_clear().arg("check").arg(example_gate());
    cmd
}

/// What a run printed, as text, and how it exited (`None`: killed by a signal).
pub struct Out {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl From<Output> for Out {
    fn from(o: Output) -> Out {
        Out {
            code: o.status.code(),
            stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        }
    }
}

/// Runs `cmd` in `dir`: its exit code, stdout and stderr as text.
pub fn run_in(cmd: &mut Command, dir: &Path) -> Out {
    cmd.current_dir(dir).output().unwrap().into()
}

/// The fragments of `want` that `text` lacks, each looked for after the previous one found
/// (so "in order"); empty when every one is there.
pub fn missing_in_order<'a>(text: &str, want: &[&'a str]) -> Vec<&'a str> {
    let mut rest = text;
    let mut missing = Vec::new();
    for w in want {
        match rest.find(w) {
            Some(at) => rest = &rest[at + w.len()..],
            None => missing.push(*w),
        }
    }
    missing
}

/// The first line of an error message as a Markdown table cell: `|` escaped, `error: ` cut.
pub fn first_line_cell(stderr: &str) -> String {
    let first = stderr.lines().next().unwrap_or("").replace('|', "\\|");
    first.trim_start_matches("error: ").to_string()
}

/// Appends `text` to the file at `path` (created if need be): the `*_DUMP` table rows.
pub fn append_to(path: &str, text: &str) {
    use std::io::Write;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
}

/// The binary with a time limit (a hang fails the test instead of hanging CI) and none of the
/// runner's GitHub variables, which must not leak into the cases.
pub fn rag_isolated(timeout: std::time::Duration) -> Command {
    isolated(rag_gate(), timeout)
}

/// [`rag_isolated`] for another build of the binary (the core build of tests/it/core_build.rs).
pub fn isolated(mut c: Command, timeout: std::time::Duration) -> Command {
    c.timeout(timeout);
    for v in [
        "GITHUB_ACTIONS",
        "GITHUB_TOKEN",
        "GITHUB_STEP_SUMMARY",
        "GITHUB_OUTPUT",
        "GITHUB_EVENT_PATH",
        "GITHUB_API_URL",
        "GITHUB_REPOSITORY",
    ] {
        c.env_remove(v);
    }
    c
}

/// Exit 2, one short `error:` line containing every fragment in order, no report, no panic.
pub fn assert_input_error(o: &Out, want: &[&str]) {
    assert_eq!(
        o.code,
        Some(2),
        "stdout: {}\nstderr: {}",
        o.stdout,
        o.stderr
    );
    assert!(o.stdout.is_empty(), "printed a report: {}", o.stdout);
    assert!(o.stderr.starts_with("error: "), "{}", o.stderr);
    assert!(o.stderr.len() < 2000, "a {}-byte message", o.stderr.len());
    if let Some(w) = missing_in_order(&o.stderr, want).first() {
        panic!("no {w:?} (in order) in {}", o.stderr);
    }
}

/// Every path under `root`, relative, sorted (a symlinked folder listed, not entered).
pub fn tree(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            out.push(p.strip_prefix(root).unwrap().display().to_string());
            if p.is_dir() && !p.is_symlink() {
                stack.push(p);
            }
        }
    }
    out.sort();
    out
}

/// A finished command's stderr as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}
