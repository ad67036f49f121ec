//! Column mapping of table inputs (`load/columns.rs`) through the binary: a ragas-style CSV and
//! a LangSmith-style JSONL export with their own column names give the report of the same data
//! in rag-gate's own names, from the gate file's long form and from `compare --column`; a
//! mapping to a column the file lacks exits 2 naming the column, the key and the file.

use crate::support;

use std::path::Path;

use support::cli::{code_and_stderr, exit, json, rag_gate, write};

const N: usize = 40;

/// rag-gate's own JSONL and the same rows in a ragas-style CSV and a JSONL export.
fn files(dir: &Path, side: &str, shift: f64) {
    let mut own = String::new();
    let mut csv = String::from(
        "sample_id,user_input,language,conversation_id,id_based_context_recall,faithfulness\n",
    );
    let mut export = String::new();
    for i in 0..N {
        let lang = if i % 3 == 0 { "ko" } else { "en" };
        let v = ((i % 7) as f64 / 7.0 + shift).clamp(0.0, 1.0);
        own.push_str(&format!(
            "{{\"query_id\":\"s{i}\",\"group\":\"c{}\",\"slices\":{{\"lang\":\"{lang}\"}},\"recall@5\":{v}}}\n",
            i / 2
        ));
        csv.push_str(&format!("s{i},\"why, {i}?\",{lang},c{},{v},0.5\n", i / 2));
        export.push_str(&format!(
            "{{\"example_id\":\"s{i}\",\"inputs\":\"why?\",\"language\":\"{lang}\",\"thread\":\"c{}\",\"ctx_recall\":{v},\"latency\":3}}\n",
            i / 2
        ));
    }
    write(dir, &format!("{side}.jsonl"), own);
    write(dir, &format!("{side}.ragas.csv"), csv);
    write(dir, &format!("{side}.export.jsonl"), export);
}

fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    files(dir.path(), "b", 0.0);
    files(dir.path(), "c", -0.05);
    dir
}

const GATE_TAIL: &str = "[slices]\nby = [\"lang\"]\n[bootstrap]\nresamples = 500\nunit = \"group\"\n[[gate]]\nmetric = \"recall@5\"\nmax-drop = 0.2\n";

fn report(dir: &Path, gate: &str) -> serde_json::Value {
    let g = write(dir, "gate.toml", gate);
    let out = exit(rag_gate().arg("check").arg(g).args(["--format", "json"]), 0);
    let mut r = json(&out.stdout);
    // The inputs' names differ by construction; everything else must not.
    r["inputs"] = serde_json::Value::Null;
    r
}

#[test]
fn mapped_csv_and_jsonl_give_the_report_of_the_own_format() {
    let dir = setup();
    let own = report(
        dir.path(),
        &format!("[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n{GATE_TAIL}"),
    );
    let ragas = "{ path = \"SIDE.ragas.csv\", id = \"sample_id\", group = \"conversation_id\", slices = { lang = \"language\" }, metrics = { \"recall@5\" = \"id_based_context_recall\" } }";
    let csv = report(
        dir.path(),
        &format!(
            "[inputs]\nbaseline = {}\ncandidate = {}\n{GATE_TAIL}",
            ragas.replace("SIDE", "b"),
            ragas.replace("SIDE", "c")
        ),
    );
    assert_eq!(csv, own);
    let export = "{ path = \"SIDE.export.jsonl\", id = \"example_id\", group = \"thread\", slices = { lang = \"language\" }, metrics = { \"recall@5\" = \"ctx_recall\" } }";
    let jsonl = report(
        dir.path(),
        &format!(
            "[inputs]\nbaseline = {}\ncandidate = {}\n{GATE_TAIL}",
            export.replace("SIDE", "b"),
            export.replace("SIDE", "c")
        ),
    );
    assert_eq!(jsonl, own);
}

#[test]
fn compare_column_flags_map_the_same() {
    let dir = setup();
    let run = |args: &[&str]| {
        let out = exit(
            rag_gate()
                .current_dir(dir.path())
                .arg("compare")
                .args(args)
                .args([
                    "--by",
                    "lang",
                    "--resamples",
                    "300",
                    "--unit",
                    "group",
                    "--format",
                    "json",
                ]),
            0,
        );
        let mut r = json(&out.stdout);
        r["inputs"] = serde_json::Value::Null;
        r
    };
    let own = run(&["b.jsonl", "c.jsonl"]);
    let mapped = run(&[
        "b.ragas.csv",
        "c.ragas.csv",
        "--column",
        "id=sample_id",
        "--column",
        "group=conversation_id",
        "--column",
        "slice:lang=language",
        "--column",
        "recall@5=id_based_context_recall",
    ]);
    assert_eq!(mapped, own);
}

#[test]
fn a_mapping_to_a_missing_column_names_it_the_key_and_the_file() {
    let dir = setup();
    for (gate, want) in [
        (
            "baseline = { path = \"b.ragas.csv\", id = \"sample_id\", metrics = { \"recall@5\" = \"context_recall\" } }\ncandidate = \"c.jsonl\"",
            "b.ragas.csv:1: no column \"context_recall\" (mapped by metrics.\"recall@5\" in the gate file); columns: \"sample_id\"",
        ),
        (
            "baseline = { path = \"b.export.jsonl\", id = \"sample_id\" }\ncandidate = \"c.jsonl\"",
            "b.export.jsonl:1: no column \"sample_id\" (mapped by id in the gate file)",
        ),
        (
            "baseline = { path = \"b.export.jsonl\", id = \"example_id\", slices = { lang = \"lang\" }, metrics = { \"recall@5\" = \"ctx_recall\" } }\ncandidate = \"c.jsonl\"",
            "b.export.jsonl: no row has column \"lang\" (mapped by slices.lang in the gate file)",
        ),
        (
            "baseline = { run = \"b.trec\", id = \"x\" }\ncandidate = \"c.jsonl\"",
            "a column mapping (id, group, slices, metrics) applies to `path` tables, not to runs",
        ),
    ] {
        let g = write(dir.path(), "gate.toml", format!("[inputs]\n{gate}\n{GATE_TAIL}"));
        let (code, err) = code_and_stderr(rag_gate().arg("check").arg(g));
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains(want), "{gate}\n{err}");
    }
    let (code, err) = code_and_stderr(rag_gate().current_dir(dir.path()).args([
        "compare",
        "b.ragas.csv",
        "c.ragas.csv",
        "--column",
        "recall@5",
    ]));
    assert_eq!(code, Some(2));
    assert!(
        err.contains("--column recall@5: expected ROLE=COLUMN"),
        "{err}"
    );
}
