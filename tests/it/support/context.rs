//! The one harness every CLI test runs through (uv's `TestContext`, ruff's `CliTest`): a temporary
//! folder the test writes its inputs and gate file into, the binary run from that folder in an
//! environment without the runner's CI variables, and what it printed ([`Out`]) with the checks
//! on its exit code. A test asks it for a folder, inputs, a gate file and a run; no test file
//! builds its own `rag-gate check` command.

use std::ffi::{OsStr, OsString};
use std::fmt::Display;
use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;

use super::cli::{rag_gate, Out};

/// The name [`TestContext::gate`] writes and [`TestContext::check`] reads.
pub const GATE: &str = "gate.toml";

/// A temporary folder (removed when the context is dropped) and the binary run inside it.
pub struct TestContext {
    dir: tempfile::TempDir,
    env: Vec<(OsString, OsString)>,
    timeout: Option<Duration>,
}

impl Default for TestContext {
    fn default() -> Self {
        Self::new()
    }
}

impl TestContext {
    /// A new empty folder.
    pub fn new() -> Self {
        TestContext {
            dir: tempfile::tempdir().unwrap(),
            env: Vec::new(),
            timeout: None,
        }
    }

    /// The folder: inputs are written here and the binary runs here.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `rel` inside the folder.
    pub fn join(&self, rel: impl AsRef<Path>) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Writes `text` to `rel` (its parent folders made) and returns the path.
    pub fn write(&self, rel: impl AsRef<Path>, text: impl AsRef<[u8]>) -> PathBuf {
        let p = self.join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&p, text).unwrap();
        p
    }

    /// The file at `rel`, as text.
    pub fn read(&self, rel: impl AsRef<Path>) -> String {
        let p = self.join(rel);
        std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }

    /// Copies `from` (any path, e.g. [`repo`]`("examples/baseline.jsonl")`) to `rel`.
    pub fn copy(&self, from: impl AsRef<Path>, rel: impl AsRef<Path>) -> PathBuf {
        let to = self.join(rel);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::copy(from.as_ref(), &to)
            .unwrap_or_else(|e| panic!("{}: {e}", from.as_ref().display()));
        to
    }

    /// Writes the gate file [`GATE`] (a [`GateFile`](super::gate_file::GateFile) or its text).
    pub fn gate(&self, text: impl Display) -> PathBuf {
        self.write(GATE, text.to_string())
    }

    /// Sets `key` to `value` in every command this context runs from now on.
    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Self {
        self.env
            .push((key.as_ref().to_owned(), value.as_ref().to_owned()));
        self
    }

    /// Kills every command this context runs after `limit` (a hang fails the test instead of
    /// hanging CI).
    pub fn timeout(mut self, limit: Duration) -> Self {
        self.timeout = Some(limit);
        self
    }

    /// `rag-gate`, run from the folder, without the runner's CI, forge and colour variables (so
    /// the machine the tests run on cannot change what the binary does), with this context's
    /// [`env`](Self::env). Add arguments and run it, or use [`run`](Self::run).
    pub fn command(&self) -> Command {
        let mut cmd = clean_command();
        cmd.current_dir(self.path());
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        if let Some(limit) = self.timeout {
            cmd.timeout(limit);
        }
        cmd
    }

    /// `rag-gate ARGS`, run: its exit code, stdout and stderr.
    pub fn run(&self, args: &[&str]) -> Out {
        self.command().args(args).output().unwrap().into()
    }

    /// `rag-gate check gate.toml ARGS`, run.
    pub fn check(&self, args: &[&str]) -> Out {
        self.command()
            .args(["check", GATE])
            .args(args)
            .output()
            .unwrap()
            .into()
    }

    /// `rag-gate check GATE ARGS` for another gate file than [`GATE`] (a shipped example, a
    /// second gate file in the folder), run from the folder.
    pub fn check_file(&self, gate: impl AsRef<Path>, args: &[&str]) -> Out {
        self.command()
            .arg("check")
            .arg(gate.as_ref())
            .args(args)
            .output()
            .unwrap()
            .into()
    }

    /// `rag-gate check gate.toml --format json ARGS`, run.
    pub fn check_json(&self, args: &[&str]) -> Out {
        self.command()
            .args(["check", GATE, "--format", "json"])
            .args(args)
            .output()
            .unwrap()
            .into()
    }
}

/// `rag-gate` without the runner's CI, forge and colour variables.
fn clean_command() -> Command {
    rag_gate()
}

/// `rag-gate`, run from `dir`, without the runner's variables: for fixtures that keep their own
/// folder (a history built once and shared by several tests); a test's own folder is a
/// [`TestContext`].
pub fn command_in(dir: &Path) -> Command {
    let mut cmd = clean_command();
    cmd.current_dir(dir);
    cmd
}

/// `rag-gate ARGS` run from the repository root (so the shipped examples' relative paths, as
/// the README gives them, are what the reports print), without the runner's variables.
pub fn in_repo(args: &[&str]) -> Out {
    clean_command()
        .current_dir(repo(""))
        .args(args)
        .output()
        .unwrap()
        .into()
}

/// A variable of the runner that the binary reads (the forges' CI variables, rag-gate's own,
/// colour switches): never passed through from the machine the tests run on.
pub(super) fn ambient(key: &str) -> bool {
    ["GITHUB_", "GITLAB_", "CI_", "RAG_GATE_"]
        .iter()
        .any(|p| key.starts_with(p))
        || ["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE"].contains(&key)
}

/// `rel` in the repository (the crate's folder): `repo("examples/baseline.jsonl")`.
pub fn repo(rel: impl AsRef<Path>) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

impl Out {
    /// Asserts that the run exited with `code` (the failure message has stdout and stderr).
    #[track_caller]
    pub fn expect(self, code: i32) -> Self {
        assert_eq!(
            self.code,
            Some(code),
            "stdout:\n{}\nstderr:\n{}",
            self.stdout,
            self.stderr
        );
        self
    }

    /// Asserts that the run ended with a verdict (0 pass, 1 fail), not an error, and returns it.
    #[track_caller]
    pub fn verdict(&self) -> i32 {
        match self.code {
            Some(c @ (0 | 1)) => c,
            c => panic!("exit {c:?}: {}", self.stderr),
        }
    }

    /// [`verdict`](Self::verdict) and [`json`](Self::json): the exit code (0 or 1) and the report.
    #[track_caller]
    pub fn verdict_json(&self) -> (i32, serde_json::Value) {
        (self.verdict(), self.json())
    }

    /// Stdout parsed as JSON (a report printed with `--format json`).
    #[track_caller]
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("{e}: stdout:\n{}\nstderr:\n{}", self.stdout, self.stderr))
    }
}
