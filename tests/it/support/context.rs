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

use super::output::Out;

/// The name [`TestContext::gate`] writes and [`TestContext::check`] reads.
pub const GATE: &str = "gate.toml";

/// A temporary folder (removed when the context is dropped) and the binary run inside it.
pub struct TestContext {
    dir: tempfile::TempDir,
    env: Vec<(OsString, OsString)>,
    timeout: Option<Duration>,
    cwd: Option<PathBuf>,
    binary: Option<PathBuf>,
    env_clear: bool,
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
            cwd: None,
            binary: None,
            env_clear: false,
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

    /// Runs every command from `dir` (committed fixtures whose relative paths the report must
    /// print, the repository) instead of the context's own folder, which still holds what the
    /// test writes.
    pub fn cwd(mut self, dir: impl AsRef<Path>) -> Self {
        self.cwd = Some(dir.as_ref().to_owned());
        self
    }

    /// Runs `bin` (another build of rag-gate: the core build) instead of the suite's binary.
    pub fn binary(mut self, bin: impl AsRef<Path>) -> Self {
        self.binary = Some(bin.as_ref().to_owned());
        self
    }

    /// Runs every command in an empty environment (then this context's [`env`](Self::env)).
    pub fn env_clear(mut self) -> Self {
        self.env_clear = true;
        self
    }

    /// `rag-gate`, run from the folder, without the runner's CI, forge and colour variables (so
    /// the machine the tests run on cannot change what the binary does), with this context's
    /// [`env`](Self::env). Add arguments and run it, or use [`run`](Self::run).
    pub fn command(&self) -> Command {
        let mut cmd = Command::from_std(self.process());
        if let Some(limit) = self.timeout {
            cmd.timeout(limit);
        }
        cmd
    }

    /// The binary this context runs (for a test that must start it through a shell: a umask).
    pub fn bin(&self) -> PathBuf {
        match &self.binary {
            Some(bin) => bin.clone(),
            None => assert_cmd::cargo::cargo_bin("rag-gate"),
        }
    }

    /// [`command`](Self::command) as a `std::process::Command`, for a run the test starts and
    /// stops itself (a kill mid-write); no timeout.
    pub fn process(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(self.bin());
        if self.env_clear {
            cmd.env_clear();
        } else {
            for (key, _) in std::env::vars_os() {
                if key.to_str().is_some_and(ambient) {
                    cmd.env_remove(&key);
                }
            }
        }
        cmd.current_dir(self.cwd.as_deref().unwrap_or(self.path()));
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        cmd
    }

    /// `rag-gate ARGS`, run: its exit code, stdout and stderr.
    pub fn run(&self, args: &[&str]) -> Out {
        self.command().args(args).output().unwrap().into()
    }

    /// `rag-gate ARGS` for arguments that are not all text (paths), run.
    pub fn run_os<I, S>(&self, args: I) -> Out
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
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

    /// `rag-gate check gates/prod.toml ARGS`: the shipped example (its `recall@5` gate fails
    /// on the `risk=compliance` slice), run from the folder.
    pub fn check_example(&self, args: &[&str]) -> Out {
        self.check_file(example_gate(), args)
    }
}

/// `rag-gate` without the runner's CI, forge and colour variables (so the machine the tests
/// run on cannot change what it does); a context sets the ones a test needs.
fn clean_command() -> Command {
    let mut cmd = Command::cargo_bin("rag-gate").unwrap();
    for (key, _) in std::env::vars_os() {
        if key.to_str().is_some_and(ambient) {
            cmd.env_remove(&key);
        }
    }
    cmd
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
fn ambient(key: &str) -> bool {
    ["GITHUB_", "GITLAB_", "CI_", "RAG_GATE_"]
        .iter()
        .any(|p| key.starts_with(p))
        || ["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE"].contains(&key)
}

/// The shipped example gate file, `gates/prod.toml`.
pub fn example_gate() -> PathBuf {
    repo("gates/prod.toml")
}

/// `rel` in the repository (the crate's folder): `repo("examples/baseline.jsonl")`.
pub fn repo(rel: impl AsRef<Path>) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}
