//! `[inputs] group-from-id`: multi-turn ids such as `conv3<::>t1` carry their group; the gate
//! file's regex (one capture) gives it without a queries file, and the report equals the one
//! with the same groups from a queries file. A pattern without exactly one capture is an error
//! at the key.

use crate::support;

use support::{GateFile, TestContext};

/// 20 conversations of 3 turns, ids `conv3<::>t1`; the candidate 0.03 lower; q.jsonl gives the
/// same groups.
fn multi_turn() -> TestContext {
    let ctx = TestContext::new();
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
    ctx.write("b.jsonl", b);
    ctx.write("c.jsonl", c);
    ctx.write("q.jsonl", q);
    ctx
}

/// b.jsonl vs c.jsonl by group, `inputs` (one line) added to `[inputs]` as its fourth line.
fn by_group(inputs: &str) -> GateFile {
    GateFile::new("b.jsonl", "c.jsonl")
        .inputs_raw(inputs)
        .table("bootstrap", "resamples = 500\nunit = \"group\"")
        .gate("ndcg@10", "max-drop = 0.1")
}

#[test]
fn groups_from_ids_equal_groups_from_a_queries_file() {
    let ctx = multi_turn();
    let report = |inputs: &str| {
        ctx.gate(by_group(inputs));
        let mut r = ctx.check_json(&[]).expect(0).json();
        r["inputs"] = serde_json::Value::Null;
        r
    };
    let from_ids = report("group-from-id = \"^(.*)<::>\"");
    assert_eq!(from_ids, report("queries = \"q.jsonl\""));
    assert!(from_ids.to_string().contains("\"group\""), "{from_ids}");
}

#[test]
fn a_pattern_without_one_capture_is_an_error_at_the_key() {
    let ctx = multi_turn();
    for (pattern, want) in [
        (
            "^.*<::>",
            "expected exactly one capture group, the group, e.g. \"^(.*)<::>\"; found 0",
        ),
        ("^(.*)<::>(.*)$", "found 2"),
        ("^(.*<::>", "not a valid regex"),
    ] {
        ctx.gate(by_group(&format!("group-from-id = {pattern:?}")));
        let err = ctx.check(&[]).expect(2).stderr;
        assert!(
            err.contains("gate.toml:4:") && err.contains("[inputs] group-from-id"),
            "{err}"
        );
        assert!(err.contains(want), "{pattern}: {err}");
    }
}
