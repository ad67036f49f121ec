//! What a run printed and the checks on it: [`Out`] (exit code, stdout, stderr) with its
//! exit-code checks, the JSON report's readers, text assertions that print the whole text when
//! they fail, and the files a run left behind.

use std::path::Path;
use std::process::Output;

use assert_cmd::Command;
use serde_json::Value;

/// What a run printed, as text, and how it exited (`None`: killed by a signal).
pub struct Out {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// Whether both streams were valid UTF-8 (see [`Out::utf8`]).
    pub valid_utf8: bool,
}

impl From<Output> for Out {
    fn from(o: Output) -> Out {
        Out {
            code: o.status.code(),
            stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
            valid_utf8: std::str::from_utf8(&o.stdout).is_ok()
                && std::str::from_utf8(&o.stderr).is_ok(),
        }
    }
}

impl Out {
    /// Runs `cmd` (a [`TestContext::command`](super::TestContext::command) with arguments
    /// added, stdin given): what it printed.
    pub fn of(cmd: &mut Command) -> Out {
        cmd.output().unwrap().into()
    }

    /// Asserts that stdout and stderr were valid UTF-8 (the text fields are read lossily).
    #[track_caller]
    pub fn utf8(self) -> Self {
        assert!(
            self.valid_utf8,
            "not UTF-8:\n{}\n{}",
            self.stdout, self.stderr
        );
        self
    }

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

/// Asserts that `text` contains `want`; the failure message is the whole text.
#[track_caller]
pub fn assert_contains(text: &str, want: &str) {
    assert!(text.contains(want), "{text}");
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

/// The first line of an error message as a Markdown table cell: `|` escaped, `error: ` cut.
pub fn first_line_cell(stderr: &str) -> String {
    let first = stderr.lines().next().unwrap_or("").replace('|', "\\|");
    first.trim_start_matches("error: ").to_string()
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
