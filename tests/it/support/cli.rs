//! Running the `rag-gate` binary and reading what it printed: the exit code is asserted first,
//! with its stderr in the failure message, then stdout is parsed as the JSON report.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use serde_json::Value;

pub use super::output::*;

/// The binary under test, without the runner's CI, forge and colour variables (so the machine
/// the tests run on cannot change what it does); a test sets the ones it needs. A CLI test
/// usually runs it through [`TestContext`](super::TestContext).
pub fn rag_gate() -> Command {
    super::context::clean_command()
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

/// Runs `cmd` in `dir`: its exit code, stdout and stderr as text.
pub fn run_in(cmd: &mut Command, dir: &Path) -> Out {
    cmd.current_dir(dir).output().unwrap().into()
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

/// A finished command's stderr as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}
