//! ir_metadata (Breuer et al., SIGIR 2022, <https://www.ir-metadata.org>): YAML in a TREC run's
//! leading `#` comment lines, between `# ir_metadata.start` and `# ir_metadata.end`. We keep the
//! fields that describe the run — `tag`, everything under `method` (indexing, retrieval models
//! and their parameters), `implementation.source` (repository, commit), and any field whose name
//! mentions a model, revision, index, seed or top-k (outside `platform.hardware`) — flattened to dotted paths
//! (`method.retrieval.0.name`). They become the run context: shown, and compared as a report
//! line, never as a protocol mismatch (they are what a pull request changes).

use std::collections::BTreeMap;
use std::path::Path;

use serde_norway::Value;

use super::lines::Lines;
use crate::error::{Error, Result};

const START: &str = "ir_metadata.start";
const END: &str = "ir_metadata.end";
/// The largest ir_metadata block read (real headers are a few KiB).
pub const MAX_HEADER_BYTES: usize = 256 << 10;
/// The most flow-collection openings (`[`, `{`, quoted or not) in one block: the YAML parser's
/// cost grows with the square of flow nesting, and no real header nests more than a few deep.
pub const MAX_FLOW_OPENS: usize = 1024;

/// Both limits, checked line by line as the block is read, so any header costs linear time
/// before the YAML parser sees it (at most [`MAX_HEADER_BYTES`] and [`MAX_FLOW_OPENS`]).
#[derive(Default)]
struct Budget {
    bytes: usize,
    opens: usize,
}

impl Budget {
    fn take(&mut self, body: &str, shown: &str, line: usize) -> Result<()> {
        self.bytes += body.len() + 1;
        self.opens += body.bytes().filter(|b| matches!(b, b'[' | b'{')).count();
        let over = if self.bytes > MAX_HEADER_BYTES {
            format!(
                "the ir_metadata block is over {} KiB",
                MAX_HEADER_BYTES >> 10
            )
        } else if self.opens > MAX_FLOW_OPENS {
            format!(
                "the ir_metadata block opens more than {MAX_FLOW_OPENS} flow collections (`[` or `{{`); nested flow collections cost the YAML parser quadratic time"
            )
        } else {
            return Ok(());
        };
        Err(Error::input(
            shown,
            line,
            format!("{over}; a run's header describes the run in a few KiB (tag, method, implementation): shorten it, or drop the block"),
        ))
    }
}

/// The run context of a TREC run: empty when its head has no ir_metadata block.
pub fn read_run_context(path: &Path, shown: &str) -> Result<BTreeMap<String, String>> {
    let mut lines = Lines::open(path, shown)?;
    let mut yaml = String::new();
    let mut start = None;
    let mut budget = Budget::default();
    while let Some(l) = lines.next_line()? {
        let Some(comment) = l.strip_prefix(b"#") else {
            break;
        };
        let text = String::from_utf8_lossy(comment).into_owned();
        let body = text.strip_prefix(' ').unwrap_or(&text);
        match (start, body.trim()) {
            (None, START) => start = Some(lines.line),
            (Some(_), END) => return parse(&yaml, shown, start.unwrap_or(0)),
            (Some(_), _) => {
                budget.take(body, shown, lines.line)?;
                yaml.push_str(body);
                yaml.push('\n');
            }
            (None, _) => {}
        }
    }
    match start {
        Some(line) => Err(Error::input(
            shown,
            line,
            format!("`# {START}` without a `# {END}` line in the run's leading comment lines"),
        )),
        None => Ok(BTreeMap::new()),
    }
}

fn parse(yaml: &str, shown: &str, line: usize) -> Result<BTreeMap<String, String>> {
    let v: Value = serde_norway::from_str(yaml).map_err(|e| {
        Error::input(
            shown,
            line,
            format!("ir_metadata block is not valid YAML: {e}"),
        )
    })?;
    let mut all = BTreeMap::new();
    flatten(&v, String::new(), &mut all);
    Ok(all.into_iter().filter(|(k, _)| describes_run(k)).collect())
}

fn flatten(v: &Value, path: String, out: &mut BTreeMap<String, String>) {
    let join = |k: &str| {
        if path.is_empty() {
            k.to_string()
        } else {
            format!("{path}.{k}")
        }
    };
    match v {
        Value::Mapping(m) => {
            for (k, v) in m {
                flatten(v, join(&scalar(k)), out);
            }
        }
        Value::Sequence(s) => {
            for (i, v) in s.iter().enumerate() {
                flatten(v, join(&i.to_string()), out);
            }
        }
        Value::Tagged(t) => flatten(&t.value, path, out),
        other => {
            out.insert(path, scalar(other));
        }
    }
}

fn scalar(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        other => serde_norway::to_string(other)
            .unwrap_or_default()
            .trim()
            .to_string(),
    }
}

fn describes_run(path: &str) -> bool {
    const WORDS: [&str; 7] = [
        "model", "revision", "index", "seed", "top_k", "topk", "top-k",
    ];
    let low = path.to_ascii_lowercase();
    // A CPU or GPU "model" describes the machine, not the run.
    if low.starts_with("platform.hardware.") {
        return false;
    }
    low == "tag"
        || low.starts_with("method.")
        || low.starts_with("implementation.source.")
        || WORDS.iter().any(|w| low.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx(content: &str) -> Result<BTreeMap<String, String>> {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("run.txt");
        std::fs::write(&p, content).unwrap();
        read_run_context(&p, "run.txt")
    }

    #[test]
    fn keeps_run_describing_fields() {
        let got = ctx(
            "# ir_metadata.start\n# tag: dense-v2\n# actor:\n#   team: ir-lab\n\
             # platform:\n#   hardware:\n#     gpu: A100\n# method:\n#   retrieval:\n\
             #     - name: dense\n#       model: BAAI/bge-base-en-v1.5\n#       top_k: 100\n\
             # ir_metadata.end\nq1 Q0 D1 1 0.5 t\n",
        )
        .unwrap();
        assert_eq!(got["tag"], "dense-v2");
        assert_eq!(got["method.retrieval.0.model"], "BAAI/bge-base-en-v1.5");
        assert_eq!(got["method.retrieval.0.top_k"], "100");
        assert!(!got.contains_key("actor.team") && !got.contains_key("platform.hardware.gpu"));
    }

    #[test]
    fn no_block_is_an_empty_context_and_a_broken_one_an_error() {
        assert!(ctx("q1 Q0 D1 1 0.5 t\n").unwrap().is_empty());
        assert!(ctx("# just a comment\nq1 Q0 D1 1 0.5 t\n")
            .unwrap()
            .is_empty());
        let e = ctx("# ir_metadata.start\n# tag: x\nq1 Q0 D1 1 0.5 t\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("run.txt:1: `# ir_metadata.start` without"),
            "{e}"
        );
        let e = ctx("# ir_metadata.start\n# tag: [x\n# ir_metadata.end\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("run.txt:1: ir_metadata block is not valid YAML"),
            "{e}"
        );
    }
}
