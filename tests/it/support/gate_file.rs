//! Gate files for the tests, built from their parts instead of formatted by hand in each test
//! file: the `[inputs]` keys, then the other tables in the order given, then the `[[gate]]`
//! tables. `GateFile::new("b.jsonl", "c.jsonl").resamples(200).gate("ndcg@10", "max-drop = 0.05")`
//! is
//!
//! ```toml
//! [inputs]
//! baseline = "b.jsonl"
//! candidate = "c.jsonl"
//! [bootstrap]
//! resamples = 200
//! [[gate]]
//! metric = "ndcg@10"
//! max-drop = 0.05
//! ```
//!
//! A test that asserts an error's line and column writes its gate file as text, so the line it
//! names stays in sight.

use std::fmt;
use std::path::Path;

/// A gate file being built; its `Display` is the TOML text.
#[derive(Clone, Debug, Default)]
pub struct GateFile {
    id: Option<String>,
    inputs: Vec<String>,
    tables: Vec<String>,
    gates: Vec<String>,
}

/// `path` as a TOML basic string: `"` and `\` escaped, control characters as `\uXXXX`.
pub fn toml_path(path: impl AsRef<Path>) -> String {
    let mut out = String::from("\"");
    for c in path.as_ref().display().to_string().chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl GateFile {
    /// `[inputs]` with `baseline` and `candidate` (paths, relative to the gate file's folder or
    /// absolute).
    pub fn new(baseline: impl AsRef<Path>, candidate: impl AsRef<Path>) -> Self {
        GateFile::default()
            .path("baseline", baseline)
            .path("candidate", candidate)
    }

    /// The gate file's top-level `id` (before `[inputs]`).
    pub fn id(mut self, id: &str) -> Self {
        self.id = Some(id.to_string());
        self
    }

    /// An `[inputs]` key with a path value.
    pub fn path(self, key: &str, path: impl AsRef<Path>) -> Self {
        let value = toml_path(path);
        self.input(key, value)
    }

    /// `[inputs] queries = PATH`.
    pub fn queries(self, path: impl AsRef<Path>) -> Self {
        self.path("queries", path)
    }

    /// An `[inputs]` key with a TOML value written as is (`"{ run = \"b.trec\" }"`, `"5"`).
    pub fn input(mut self, key: &str, toml_value: impl fmt::Display) -> Self {
        self.inputs.push(format!("{key} = {toml_value}"));
        self
    }

    /// Lines added to `[inputs]` as they are (several keys, or a sub-table's keys).
    pub fn inputs_raw(mut self, lines: &str) -> Self {
        if !lines.trim().is_empty() {
            self.inputs.push(lines.trim_end().to_string());
        }
        self
    }

    /// `[bootstrap] resamples = N`.
    pub fn resamples(self, n: usize) -> Self {
        self.table("bootstrap", &format!("resamples = {n}"))
    }

    /// A table `[name]` with `body` (TOML lines).
    pub fn table(mut self, name: &str, body: &str) -> Self {
        self.tables.push(format!("[{name}]\n{}", body.trim_end()));
        self
    }

    /// TOML text added after the tables, before the gates, as it is (empty: nothing).
    pub fn raw(mut self, text: &str) -> Self {
        if !text.trim().is_empty() {
            self.tables.push(text.trim_end().to_string());
        }
        self
    }

    /// A `[[gate]]` on `metric` with `rule` (its other keys, TOML lines: `"max-drop = 0.05"`).
    pub fn gate(mut self, metric: &str, rule: &str) -> Self {
        self.gates.push(format!(
            "[[gate]]\nmetric = {}\n{}",
            toml_path(metric),
            rule.trim_end()
        ));
        self
    }

    /// `[[gate]]` tables (or any TOML) written as they are, after the gates before.
    pub fn gates_raw(mut self, text: &str) -> Self {
        if !text.trim().is_empty() {
            self.gates.push(text.trim_end().to_string());
        }
        self
    }
}

/// The shipped example's per-query files (their quality gate, `recall@5` `min-mean = 0.5`,
/// passes) at 200 resamples, with the run cards `b.card.json` and `c.card.json` as
/// `[efficiency]`: add the run-level gates.
pub fn example_with_cards() -> GateFile {
    GateFile::new(
        super::repo("examples/baseline.jsonl"),
        super::repo("examples/candidate.jsonl"),
    )
    .resamples(200)
    .table(
        "efficiency",
        "baseline = \"b.card.json\"\ncandidate = \"c.card.json\"",
    )
    .gate("recall@5", "min-mean = 0.5")
}

impl fmt::Display for GateFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(id) = &self.id {
            writeln!(f, "id = {}", toml_path(id))?;
        }
        writeln!(f, "[inputs]")?;
        for line in self.inputs.iter().chain(&self.tables).chain(&self.gates) {
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

#[test]
fn a_gate_file_is_inputs_then_tables_then_gates() {
    let g = GateFile::new("b.jsonl", "c.jsonl")
        .gate("ndcg@10", "max-drop = 0.05")
        .resamples(200)
        .queries("q.jsonl");
    assert_eq!(
        g.to_string(),
        "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\nqueries = \"q.jsonl\"\n\
         [bootstrap]\nresamples = 200\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.05\n"
    );
    let parsed: toml::Table = g.to_string().parse().unwrap();
    assert_eq!(parsed["gate"][0]["max-drop"].as_float(), Some(0.05));
    let odd = "a \"b\"\\c\u{1b}é.jsonl";
    let parsed: toml::Table = GateFile::new(odd, "c").to_string().parse().unwrap();
    assert_eq!(parsed["inputs"]["baseline"].as_str(), Some(odd));
}
