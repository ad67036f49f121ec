//! Column mapping of table inputs (`load/columns.rs`) through the binary: a ragas-style CSV and
//! a LangSmith-style JSONL export with their own column names give the report of the same data
//! in rag-gate's own names, from the gate file's long form and from `compare --column`; a
//! mapping to a column the file lacks exits 2 naming the column, the key and the file.

use crate::support;

use support::{GateFile, TestContext};

const N: usize = 40;

/// rag-gate's own JSONL and the same rows in a ragas-style CSV and a JSONL export.
fn files(ctx: &TestContext, side: &str, shift: f64) {
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
    ctx.write(format!("{side}.jsonl"), own);
    ctx.write(format!("{side}.ragas.csv"), csv);
    ctx.write(format!("{side}.export.jsonl"), export);
}

/// The baseline (`b.*`) and the candidate 0.05 lower (`c.*`), each in the three layouts.
fn both_sides() -> TestContext {
    let ctx = TestContext::new();
    files(&ctx, "b", 0.0);
    files(&ctx, "c", -0.05);
    ctx
}

/// `inputs` (the `[inputs]` lines), by lang and by group, recall@5 gated on a 0.2 drop.
fn by_lang(inputs: &str) -> GateFile {
    GateFile::default()
        .inputs_raw(inputs)
        .table("slices", "by = [\"lang\"]")
        .table("bootstrap", "resamples = 500\nunit = \"group\"")
        .gate("recall@5", "max-drop = 0.2")
}

fn report(ctx: &TestContext, inputs: &str) -> serde_json::Value {
    ctx.gate(by_lang(inputs));
    let mut r = ctx.check_json(&[]).expect(0).json();
    // The inputs' names differ by construction; everything else must not.
    r["inputs"] = serde_json::Value::Null;
    r
}

#[test]
fn mapped_csv_and_jsonl_give_the_report_of_the_own_format() {
    let ctx = both_sides();
    let own = report(&ctx, "baseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"");
    let ragas = "{ path = \"SIDE.ragas.csv\", id = \"sample_id\", group = \"conversation_id\", slices = { lang = \"language\" }, metrics = { \"recall@5\" = \"id_based_context_recall\" } }";
    let csv = report(
        &ctx,
        &format!(
            "baseline = {}\ncandidate = {}",
            ragas.replace("SIDE", "b"),
            ragas.replace("SIDE", "c")
        ),
    );
    assert_eq!(csv, own);
    let export = "{ path = \"SIDE.export.jsonl\", id = \"example_id\", group = \"thread\", slices = { lang = \"language\" }, metrics = { \"recall@5\" = \"ctx_recall\" } }";
    let jsonl = report(
        &ctx,
        &format!(
            "baseline = {}\ncandidate = {}",
            export.replace("SIDE", "b"),
            export.replace("SIDE", "c")
        ),
    );
    assert_eq!(jsonl, own);
}

#[test]
fn compare_column_flags_map_the_same() {
    let ctx = both_sides();
    let run = |args: &[&str]| {
        let flags = [
            "--by",
            "lang",
            "--resamples",
            "300",
            "--unit",
            "group",
            "--format",
            "json",
        ];
        let args: Vec<&str> = ["compare"]
            .iter()
            .chain(args)
            .chain(&flags)
            .copied()
            .collect();
        let mut r = ctx.run(&args).expect(0).json();
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
    let ctx = both_sides();
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
        ctx.gate(by_lang(gate));
        let err = ctx.check(&[]).expect(2).stderr;
        assert!(err.contains(want), "{gate}\n{err}");
    }
    let err = ctx
        .run(&[
            "compare",
            "b.ragas.csv",
            "c.ragas.csv",
            "--column",
            "recall@5",
        ])
        .expect(2)
        .stderr;
    assert!(
        err.contains("--column recall@5: expected ROLE=COLUMN"),
        "{err}"
    );
}
