//! `[inputs] group-from-id`: multi-turn ids such as `conv3<::>t1` carry their group; the gate
//! file's regex (one capture) gives it without a queries file, and the report equals the one
//! with the same groups from a queries file. A pattern without exactly one capture is an error
//! at the key.

use crate::support;

use support::cli::{code_and_stderr, exit, json, rag_gate, write};

fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let (mut b, mut c, mut q) = (String::new(), String::new(), String::new());
    for conv in 0..20 {
        for turn in 0..3 {
            let id = format!("conv{conv}<::>t{turn}");
            let v = f64::from((conv * 3 + turn) % 7) / 7.0;
            b.push_str(&format!("{{\"query_id\":\"{id}\",\"ndcg@10\":{v}}}\n"));
            c.push_str(&format!(
                "{{\"query_id\":\"{id}\",\"ndcg@10\":{}}}\n",
                (v - 0.03).max(0.0)
            ));
            q.push_str(&format!(
                "{{\"query_id\":\"{id}\",\"group\":\"conv{conv}\"}}\n"
            ));
        }
    }
    write(dir.path(), "b.jsonl", b);
    write(dir.path(), "c.jsonl", c);
    write(dir.path(), "q.jsonl", q);
    dir
}

const TAIL: &str = "[bootstrap]\nresamples = 500\nunit = \"group\"\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.1\n";

#[test]
fn groups_from_ids_equal_groups_from_a_queries_file() {
    let dir = setup();
    let report = |inputs: &str| {
        let g = write(
            dir.path(),
            "gate.toml",
            format!("[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n{inputs}\n{TAIL}"),
        );
        let out = exit(rag_gate().arg("check").arg(g).args(["--format", "json"]), 0);
        let mut r = json(&out.stdout);
        r["inputs"] = serde_json::Value::Null;
        r
    };
    let from_ids = report("group-from-id = \"^(.*)<::>\"");
    assert_eq!(from_ids, report("queries = \"q.jsonl\""));
    assert!(from_ids.to_string().contains("\"group\""), "{from_ids}");
}

#[test]
fn a_pattern_without_one_capture_is_an_error_at_the_key() {
    let dir = setup();
    for (pattern, want) in [
        (
            "^.*<::>",
            "expected exactly one capture group, the group, e.g. \"^(.*)<::>\"; found 0",
        ),
        ("^(.*)<::>(.*)$", "found 2"),
        ("^(.*<::>", "not a valid regex"),
    ] {
        let g = write(
            dir.path(),
            "gate.toml",
            format!("[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\ngroup-from-id = {pattern:?}\n{TAIL}"),
        );
        let (code, err) = code_and_stderr(rag_gate().arg("check").arg(g));
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.contains("gate.toml:4:") && err.contains("[inputs] group-from-id"),
            "{err}"
        );
        assert!(err.contains(want), "{pattern}: {err}");
    }
}
