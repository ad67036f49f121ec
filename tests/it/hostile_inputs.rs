//! Hostile inputs through the binary: every bad input exits 2 with one `error:` message naming
//! the file, the line (and column or key) and what was expected — never a panic (101), never a
//! verdict (0/1). What is tolerated on purpose (BOM, CRLF, blank lines …) is checked to give the
//! same report as the clean file.
//!
//! Every case id below heads a table row of docs/bad-input.md; `every_case_is_documented` keeps
//! the two in step.

use crate::support;
use support::{Out, TestContext};

use std::path::Path;

use support::output::{append_to, first_line_cell, missing_in_order};

const N: usize = 12;

/// One well-formed JSONL metric line.
fn jl(i: usize, ndcg: f64) -> String {
    format!("{{\"query_id\":\"q{i:02}\",\"ndcg@10\":{ndcg},\"recall@5\":1}}\n")
}

fn ndcg(i: usize, cand: bool) -> f64 {
    let b = ((i * 37) % 10) as f64 / 20.0 + 0.2;
    if cand {
        // Better by 0.05, give or take 0.01.
        b + 0.05 + 0.005 * ((i * 3 % 5) as f64 - 2.0)
    } else {
        b
    }
}

fn jsonl(cand: bool) -> String {
    (1..=N).map(|i| jl(i, ndcg(i, cand))).collect()
}

fn csv(cand: bool, sep: &str) -> String {
    let mut s = format!("query_id{sep}ndcg@10{sep}recall@5\n");
    for i in 1..=N {
        s.push_str(&format!("q{i:02}{sep}{}{sep}1\n", ndcg(i, cand)));
    }
    s
}

fn trec_eval(cand: bool) -> String {
    let mut s = String::new();
    for i in 1..=N {
        s.push_str(&format!(
            "ndcg_cut_10           \tq{i:02}\t{:.4}\n",
            ndcg(i, cand)
        ));
        s.push_str(&format!("recall_5              \tq{i:02}\t1.0000\n"));
    }
    s.push_str("ndcg_cut_10           \tall\t0.5\n");
    s
}

fn ir_measures(cand: bool) -> String {
    (1..=N)
        .map(|i| format!("q{i:02}\tnDCG@10\t{}\nq{i:02}\tR@5\t1\n", ndcg(i, cand)))
        .collect()
}

/// A TREC run: 12 queries × 5 documents, `qid Q0 docid rank score tag`.
fn trec_run() -> String {
    let mut s = String::new();
    for i in 1..=N {
        for j in 1..=5 {
            s.push_str(&format!(
                "q{i:02} Q0 D{j} {j} {:.4} bm25\n",
                1.0 / f64::from(j)
            ));
        }
    }
    s
}

/// TREC qrels: D1 and D2 relevant for every query, `qid 0 docid rel`.
fn trec_qrels() -> String {
    (1..=N)
        .flat_map(|i| (1..=5).map(move |j| format!("q{i:02} 0 D{j} {}\n", u8::from(j < 3))))
        .collect()
}

fn jsonl_run() -> String {
    (1..=N)
        .map(|i| format!("{{\"query_id\":\"q{i:02}\",\"ranked\":[\"D1\",\"D3\",\"D2\"]}}\n"))
        .collect()
}

fn jsonl_qrels() -> String {
    (1..=N)
        .map(|i| format!("{{\"query_id\":\"q{i:02}\",\"gold\":{{\"D1\":1,\"D2\":2}}}}\n"))
        .collect()
}

/// `rag-gate eval` on `run` and `qrels` (the args of an `eval-*` case).
const EVAL_TREC: &[&str] = &[
    "--run",
    "run.trec",
    "--qrels",
    "qrels.trec",
    "--metrics",
    "ndcg@10,recall@5",
];
const EVAL_GZ: &[&str] = &[
    "--run",
    "run.trec.gz",
    "--qrels",
    "qrels.trec",
    "--metrics",
    "ndcg@10",
];
const EVAL_RUN_JSON: &[&str] = &[
    "--run",
    "run.json",
    "--qrels",
    "qrels.trec",
    "--metrics",
    "ndcg@10",
];
const EVAL_QRELS_JSON: &[&str] = &[
    "--run",
    "run.trec",
    "--qrels",
    "qrels.json",
    "--metrics",
    "ndcg@10",
];
const EVAL_BEIR: &[&str] = &[
    "--run",
    "run.trec",
    "--qrels",
    "qrels.tsv",
    "--metrics",
    "ndcg@10",
];
const EVAL_MSMARCO: &[&str] = &[
    "--run",
    "run.tsv",
    "--qrels",
    "qrels.trec",
    "--metrics",
    "ndcg@10",
];
const EVAL_LLAMAINDEX: &[&str] = &[
    "--run",
    "run.jsonl",
    "--qrels",
    "run.jsonl",
    "--run-format",
    "llamaindex",
    "--metrics",
    "ndcg@10",
];

/// `data` gzip-compressed (flate2, as gzip(1) would).
fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

const EVAL_JSONL: &[&str] = &[
    "--run",
    "run.jsonl",
    "--qrels",
    "qrels.jsonl",
    "--metrics",
    "ndcg@10,recall@5",
];

fn queries() -> String {
    (1..=N)
        .map(|i| {
            let lang = if i % 3 == 0 { "ko" } else { "en" };
            format!("{{\"query_id\":\"q{i:02}\",\"group\":\"g{}\",\"slices\":{{\"lang\":\"{lang}\"}}}}\n", i / 2)
        })
        .collect()
}

/// A gate file comparing `b` with `c` (plus `extra` lines appended to [inputs]), as text: the
/// cases below name its lines and columns.
fn gate_text(b: &str, c: &str, extra: &str) -> String {
    format!(
        "[inputs]\nbaseline = \"{b}\"\ncandidate = \"{c}\"\nqueries = \"q.jsonl\"\n{extra}\n\
         [bootstrap]\nresamples = 200\n\n[slices]\nby = [\"lang\"]\nmin-queries = 1\non-small-slice = \"warn\"\n\
         [[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.4\nslices = [\"all\", \"lang=ko\"]\n"
    )
}

fn default_gate() -> String {
    gate_text("b.jsonl", "c.jsonl", "")
}

/// The clean data set (every format, both sides) and the default gate file.
fn clean_inputs() -> TestContext {
    let ctx = TestContext::new();
    let files: [(&str, String); 15] = [
        ("run.trec", trec_run()),
        ("qrels.trec", trec_qrels()),
        ("run.jsonl", jsonl_run()),
        ("qrels.jsonl", jsonl_qrels()),
        ("b.jsonl", jsonl(false)),
        ("c.jsonl", jsonl(true)),
        ("b.csv", csv(false, ",")),
        ("c.csv", csv(true, ",")),
        ("b.tsv", csv(false, "\t")),
        ("c.tsv", csv(true, "\t")),
        ("b.te", trec_eval(false)),
        ("c.te", trec_eval(true)),
        ("b.irm", ir_measures(false)),
        ("c.irm", ir_measures(true)),
        ("q.jsonl", queries()),
    ];
    for (name, text) in files {
        ctx.write(name, text);
    }
    ctx.gate(default_gate());
    ctx
}

enum Content {
    Text(String),
    Bytes(Vec<u8>),
    Dir,
    Absent,
}

struct Case {
    /// Row id in docs/bad-input.md.
    id: &'static str,
    files: Vec<(&'static str, Content)>,
    /// Extra command-line arguments after `check gate.toml`.
    args: &'static [&'static str],
    /// Fragments the one error message must contain, in this order.
    want: &'static [&'static str],
}

fn case(
    id: &'static str,
    file: &'static str,
    content: Content,
    want: &'static [&'static str],
) -> Case {
    Case {
        id,
        files: vec![(file, content)],
        args: &[],
        want,
    }
}

fn eval_case(
    id: &'static str,
    file: &'static str,
    content: Content,
    args: &'static [&'static str],
    want: &'static [&'static str],
) -> Case {
    Case {
        id,
        files: vec![(file, content)],
        args,
        want,
    }
}

fn with_gate(id: &'static str, gate_text: String, want: &'static [&'static str]) -> Case {
    Case {
        id,
        files: vec![("gate.toml", Content::Text(gate_text))],
        args: &[],
        want,
    }
}

fn text(s: impl Into<String>) -> Content {
    Content::Text(s.into())
}

/// The clean JSONL file with line `line` (1-based) replaced.
fn jsonl_with(cand: bool, line: usize, new: &str) -> Content {
    let mut lines: Vec<String> = jsonl(cand).lines().map(str::to_string).collect();
    lines[line - 1] = new.to_string();
    text(lines.join("\n") + "\n")
}

fn cases() -> Vec<Case> {
    let big = "x".repeat(10 << 20);
    let mut v = vec![
        // ---- any input file ----
        case("empty-file", "c.jsonl", text(""), &["c.jsonl: the file is empty; expected per-query metrics"]),
        case("blank-file", "c.jsonl", text("\n  \n\t\n"), &["c.jsonl: the file is empty"]),
        case("missing-file", "c.jsonl", Content::Absent, &["c.jsonl: opening: No such file"]),
        case("directory", "c.jsonl", Content::Dir, &["c.jsonl: is a directory; expected a file of per-query metrics"]),
        case(
            "not-utf8",
            "b.jsonl",
            Content::Bytes([jsonl(false).as_bytes(), b"{\"query_id\":\"q\xff\"}\n"].concat()),
            &["b.jsonl:13: not UTF-8 text (byte ", "expected per-query metrics"],
        ),
        case(
            "utf16",
            "b.jsonl",
            Content::Bytes(
                [&[0xFFu8, 0xFE][..], &jsonl(false).encode_utf16().flat_map(u16::to_le_bytes).collect::<Vec<u8>>()].concat(),
            ),
            &["b.jsonl:1: not UTF-8 text (byte 0); it is UTF-16: convert it to UTF-8"],
        ),
        case(
            "nul-byte",
            "c.jsonl",
            text(jsonl(true).replacen("q03", "q\u{0}3", 1)),
            &["c.jsonl:3: a NUL byte (byte ", "binary data, not text; expected per-query metrics"],
        ),
        case(
            "gzip-file",
            "c.jsonl",
            Content::Bytes(vec![0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x4b, 0x04, 0x00]),
            // A gzip file is decoded as it is read; this one is cut before its CRC trailer.
            &["c.jsonl: reading: gzip data truncated or corrupt near byte "],
        ),
        with_gate("dev-zero", gate_text("/dev/zero", "c.jsonl", ""), &["/dev/zero:1: a NUL byte (byte 0): binary data, not text"]),
        with_gate("dev-urandom", gate_text("b.jsonl", "/dev/urandom", ""), &["/dev/urandom:", "binary data, not text"]),
        // ---- JSONL metrics ----
        case(
            "jsonl-truncated-last-line",
            "c.jsonl",
            text(jsonl(true) + "{\"query_id\":\"q13\",\"ndcg@1"),
            &["c.jsonl:13: not valid JSON at column ", "EOF", "expected one JSON object per line"],
        ),
        case("jsonl-not-an-object", "c.jsonl", jsonl_with(true, 2, "[\"q02\", 0.5]"), &["c.jsonl:2: ", "expected one JSON object per line"]),
        case("jsonl-nan", "c.jsonl", jsonl_with(true, 3, "{\"query_id\":\"q03\",\"ndcg@10\":NaN}"), &["c.jsonl:3: NaN is not a JSON number (Python's json.dumps writes it", "a metric must be a finite number"]),
        case("jsonl-infinity", "c.jsonl", jsonl_with(true, 3, "{\"query_id\":\"q03\",\"ndcg@10\":Infinity}"), &["c.jsonl:3: Infinity is not a JSON number"]),
        case(
            "jsonl-1e999",
            "c.jsonl",
            jsonl_with(true, 4, "{\"query_id\":\"q04\",\"ndcg@10\":1e999,\"recall@5\":1}"),
            &["c.jsonl:4: not valid JSON at column ", "number out of range"],
        ),
        case(
            "jsonl-quoted-number",
            "c.jsonl",
            jsonl_with(true, 5, "{\"query_id\":\"q05\",\"ndcg@10\":\"0.5\",\"recall@5\":1}"),
            &["c.jsonl:5: metric \"ndcg@10\" is the string \"0.5\"; write the number without quotes"],
        ),
        case(
            "jsonl-null-metric",
            "c.jsonl",
            jsonl_with(true, 5, "{\"query_id\":\"q05\",\"ndcg@10\":null,\"recall@5\":1}"),
            &["c.jsonl:5: metric \"ndcg@10\" is null; expected a finite number"],
        ),
        case(
            "jsonl-negative-bounded",
            "c.jsonl",
            jsonl_with(true, 6, "{\"query_id\":\"q06\",\"ndcg@10\":0.5,\"recall@5\":-0.25}"),
            &["c.jsonl:6: metric \"recall@5\" is -0.25; expected a value in [0, 1]"],
        ),
        case(
            "jsonl-above-one-bounded",
            "c.jsonl",
            jsonl_with(true, 6, "{\"query_id\":\"q06\",\"ndcg@10\":1.0000001,\"recall@5\":1}"),
            &["c.jsonl:6: metric \"ndcg@10\" is 1.0000001; expected a value in [0, 1]"],
        ),
        case(
            "jsonl-duplicate-id",
            "c.jsonl",
            jsonl_with(true, 9, &jl(2, 0.5).replace('\n', "")),
            &["c.jsonl:9: duplicate query_id \"q02\" (first on line 2)"],
        ),
        case("jsonl-empty-id", "c.jsonl", jsonl_with(true, 7, "{\"query_id\":\"\",\"ndcg@10\":0.5}"), &["c.jsonl:7: \"query_id\" is empty; expected a non-empty id"]),
        case("jsonl-space-id", "c.jsonl", jsonl_with(true, 7, "{\"query_id\":\" \\t \",\"ndcg@10\":0.5}"), &["c.jsonl:7: \"query_id\" is empty; expected a non-empty id"]),
        case("jsonl-no-id", "c.jsonl", jsonl_with(true, 8, "{\"qid\":\"q08\",\"ndcg@10\":0.5}"), &["c.jsonl:8: no \"query_id\"; expected {\"query_id\""]),
        case("jsonl-float-id", "c.jsonl", jsonl_with(true, 8, "{\"query_id\":8.5,\"ndcg@10\":0.5}"), &["c.jsonl:8: \"query_id\" must be a string or an integer"]),
        case(
            "jsonl-metrics-not-object",
            "c.jsonl",
            jsonl_with(true, 8, "{\"query_id\":\"q08\",\"metrics\":0.5}"),
            &["c.jsonl:8: \"metrics\" must be an object of name → number"],
        ),
        case(
            "jsonl-metric-twice",
            "c.jsonl",
            jsonl_with(true, 8, "{\"query_id\":\"q08\",\"ndcg@10\":0.5,\"ndcg_cut_10\":0.5}"),
            &["c.jsonl:8: metric \"ndcg@10\" given twice (under two spellings)"],
        ),
        case(
            "jsonl-metric-missing-on-some-rows",
            "c.jsonl",
            jsonl_with(true, 10, "{\"query_id\":\"q10\",\"recall@5\":1}"),
            &["c.jsonl:10: metric \"ndcg@10\" is missing for 1 query: \"q10\" (line 10)"],
        ),
        case(
            "jsonl-metric-missing-on-last-row",
            "b.jsonl",
            jsonl_with(false, 12, "{\"query_id\":\"q12\",\"recall@5\":1}"),
            &["b.jsonl:12: metric \"ndcg@10\" is missing for 1 query: \"q12\" (line 12)"],
        ),
        case(
            "mismatched-query-sets",
            "c.jsonl",
            text(jsonl(true).replace("\"q11\"", "\"q99\"")),
            &["c.jsonl: lacks 1 query that b.jsonl has: \"q11\" (line 11)", "missing = \"intersect\""],
        ),
        case("no-common-metric", "c.jsonl", text(jsonl(true).replace("ndcg@10", "map").replace("recall@5", "mrr")), &["gate.toml:14:10: [[gate]] #1: unknown metric \"ndcg@10\": only b.jsonl has it; metrics in both: none"]),
        case(
            "jsonl-10mb-bad-line",
            "c.jsonl",
            text(format!("{}{{\"query_id\":\"q13\",\"ndcg@10\":{big}}}\n", jsonl(true))),
            &["c.jsonl:13: not valid JSON at column 29", "expected one JSON object per line"],
        ),
        case(
            "jsonl-10mb-id-duplicated",
            "c.jsonl",
            text(format!("{}{{\"query_id\":\"{big}\"}}\n{{\"query_id\":\"{big}\"}}\n", jsonl(true))),
            &["c.jsonl:14: duplicate query_id \"xxxxxxxx", "…\" (10485760 bytes) (first on line 13)"],
        ),
        case(
            "jsonl-huge-finite",
            "c.jsonl",
            text(jsonl(true).replacen("\"recall@5\":1}", "\"recall@5\":1,\"latency_ms\":1.7e308}", 1)),
            &["c.jsonl:1: metric \"latency_ms\" is 1.7e308; expected a magnitude below 1e300"],
        ),
        // ---- CSV / TSV ----
        case("csv-no-id-column", "c.csv", text(csv(true, ",").replacen("query_id", "qid", 1)), &["c.csv:1: the header has no \"query_id\" column (columns: \"qid\", \"ndcg@10\", \"recall@5\"); set id-column in the gate file"]),
        case("csv-wrong-column-count", "c.csv", text(csv(true, ",").replace("q04,", "q04,0.1,")), &["c.csv:5: 4 fields, but the header has 3"]),
        case("csv-nan", "c.csv", text(csv(true, ",").replacen(",1\n", ",NaN\n", 2)), &["c.csv:2: metric \"recall@5\" is NaN; expected a finite number"]),
        case("csv-inf", "c.csv", text(csv(true, ",").replacen(",1\n", ",-inf\n", 1)), &["c.csv:2: metric \"recall@5\" is -inf; expected a finite number"]),
        case("csv-1e999", "c.csv", text(csv(true, ",").replacen(",1\n", ",1e999\n", 1)), &["c.csv:2: metric \"recall@5\" is inf; expected a finite number"]),
        case("csv-not-a-number", "c.csv", text(csv(true, ",").replacen(",1\n", ",one\n", 1)), &["c.csv:2: metric \"recall@5\" is \"one\"; expected a number"]),
        case("csv-above-one", "c.csv", text(csv(true, ",").replacen(",1\n", ",2\n", 1)), &["c.csv:2: metric \"recall@5\" is 2; expected a value in [0, 1]"]),
        case("csv-duplicate-id", "c.csv", text(csv(true, ",").replace("q07,", "q03,")), &["c.csv:8: duplicate query id \"q03\" (first on line 4)"]),
        case("csv-empty-id", "c.csv", text(csv(true, ",").replace("q07,", " ,")), &["c.csv:8: query_id is empty; expected a non-empty id"]),
        case("csv-empty-cell", "c.csv", text(csv(true, ",").replacen(",1\n", ",\n", 1)), &["c.csv:2: metric \"recall@5\" is missing for 1 query: \"q01\" (line 2)"]),
        case("csv-same-metric-twice", "c.csv", text(csv(true, ",").replacen("recall@5", "ndcg_cut_10", 1)), &["c.csv:1: columns \"ndcg@10\" and \"ndcg_cut_10\" are the same metric \"ndcg@10\""]),
        case("csv-header-only", "c.csv", text("query_id,ndcg@10,recall@5\n"), &["c.csv: no rows after the header; expected one row per query"]),
        case("csv-unclosed-quote", "c.csv", text(csv(true, ",") + "\"q13,0.5,1\n"), &["c.csv:14: "]),
        case("csv-10mb-cell", "c.csv", text(csv(true, ",").replacen(",1\n", &format!(",{big}\n"), 1)), &["c.csv:2: metric \"recall@5\" is \"xxxxx", "…\" (10485760 bytes); expected a number"]),
        case("tsv-wrong-delimiter", "c.tsv", text(csv(true, ",")), &["c.tsv:1: the header has no \"query_id\" column (columns: \"query_id,ndcg@10,recall@5\"); the header is one column: expected fields separated by tabs"]),
        // ---- trec_eval / ir_measures -q ----
        case("trec-eval-two-fields", "c.te", text(trec_eval(true).replacen("\tq02\t", "\tq02", 1)), &["c.te:3: 2 fields; expected 3: measure, query id and value (trec_eval -q)"]),
        case("trec-eval-not-a-number", "c.te", text(trec_eval(true).replacen("1.0000", "one", 1)), &["c.te:2: metric \"recall@5\" is \"one\"; expected a number"]),
        case("trec-eval-nan", "c.te", text(trec_eval(true).replacen("1.0000", "nan", 1)), &["c.te:2: metric \"recall@5\" is NaN; expected a finite number"]),
        case("trec-eval-measure-twice", "c.te", text(trec_eval(true) + "recall_5\tq01\t1\n"), &["c.te:26: query \"q01\" has measure \"recall_5\" twice (first on line 2)"]),
        case("trec-eval-only-all-rows", "c.te", text("map\tall\t0.5\nrunid\tall\tbm25\n"), &["c.te: no per-query rows (only `all` rows?); expected the output of -q"]),
        case("ir-measures-above-one", "c.irm", text(ir_measures(true).replacen("\t1\n", "\t1.5\n", 1)), &["c.irm:2: metric \"recall@5\" is 1.5; expected a value in [0, 1]"]),
        case("unknown-format", "c.txt", text("hello world\n"), &["c.txt: cannot tell the format from the extension or the first line; set format = "]),
        // ---- queries file ----
        case("queries-duplicate-id", "q.jsonl", text(queries() + "{\"query_id\":\"q01\"}\n"), &["q.jsonl:13: duplicate query_id \"q01\" (first on line 1)"]),
        case("queries-not-json", "q.jsonl", text("query_id,group\nq01,g1\n"), &["q.jsonl:1: not valid JSON at column 1", "expected one JSON object per line: {\"query_id\", \"group\", \"slices\"}"]),
        case("queries-empty-group", "q.jsonl", text(queries().replace("\"g1\"", "\"  \"")), &["q.jsonl:2: \"group\" is empty; expected a non-empty id"]),
        case("queries-slices-not-object", "q.jsonl", text(queries().replacen("{\"lang\":\"en\"}", "[\"en\"]", 1)), &["q.jsonl:1: \"slices\" must be an object of tag → value"]),
        case(
            "conflicting-slice-tags",
            "c.jsonl",
            jsonl_with(true, 3, "{\"query_id\":\"q03\",\"ndcg@10\":0.5,\"recall@5\":1,\"slices\":{\"lang\":\"en\"}}"),
            &["c.jsonl:3: query \"q03\": slice tag \"lang\" is \"en\" here but \"ko\" in q.jsonl:3; slice tags and groups come from the queries file or the baseline, never the candidate"],
        ),
        case(
            "conflicting-groups",
            "c.jsonl",
            jsonl_with(true, 3, "{\"query_id\":\"q03\",\"ndcg@10\":0.5,\"recall@5\":1,\"group\":\"other\"}"),
            &["c.jsonl:3: query \"q03\": group is \"other\" here but \"g1\" in q.jsonl:3; slice tags and groups come from the queries file or the baseline, never the candidate"],
        ),
        case(
            "queries-tag-name-with-equals",
            "q.jsonl",
            text(queries().replacen("{\"lang\":\"en\"}", "{\"lang=x\":\"en\"}", 1)),
            &["q.jsonl:1: slice tag name \"lang=x\" is empty or contains '='; expected a name like \"language\""],
        ),
        case(
            "csv-empty-slice-tag",
            "c.csv",
            text(csv(true, ",").replacen("recall@5", "recall@5,slice:", 1).replace(",1\n", ",1,x\n")),
            &["c.csv:1: slice tag name \"\" is empty or contains '='"],
        ),
        // ---- rag-gate eval: TREC and JSONL runs and qrels ----
        eval_case("eval-run-empty", "run.trec", text(""), EVAL_TREC, &["run.trec: empty run file: expected `qid Q0 docid rank score tag` lines"]),
        eval_case("eval-run-missing", "run.trec", Content::Absent, EVAL_TREC, &["run.trec: opening: No such file"]),
        eval_case("eval-run-directory", "run.trec", Content::Dir, EVAL_TREC, &["run.trec: is a directory; expected a file"]),
        eval_case("eval-run-too-few-fields", "run.trec", text(trec_run().replacen("q02 Q0 D3 3", "q02 Q0 D3", 1)), EVAL_TREC, &["run.trec:8: expected 6 fields `qid Q0 docid rank score tag`, found 5"]),
        eval_case("eval-run-truncated-last-line", "run.trec", text(trec_run() + "q12 Q0"), EVAL_TREC, &["run.trec:61: expected 6 fields `qid Q0 docid rank score tag`, found 2"]),
        eval_case("eval-run-score-not-a-number", "run.trec", text(trec_run().replacen("0.3333 bm25", "abc bm25", 1)), EVAL_TREC, &["run.trec:3: expected a number score in field 5, found \"abc\""]),
        eval_case("eval-run-score-nan", "run.trec", text(trec_run().replacen("0.3333 bm25", "NaN bm25", 1)), EVAL_TREC, &["run.trec:3: score is NaN"]),
        eval_case("eval-run-rank-not-an-integer", "run.trec", text(trec_run().replacen("q03 Q0 D2 2", "q03 Q0 D2 x", 1)), EVAL_TREC, &["run.trec:12: expected an integer rank in field 4, found \"x\""]),
        eval_case("eval-run-duplicate-doc", "run.trec", text(trec_run() + "q01 Q0 D1 9 0.01 bm25\n"), EVAL_TREC, &["run.trec:61: doc \"D1\" appears twice in the ranking of query \"q01\" (lines 1 and 61)"]),
        eval_case("eval-run-not-utf8", "run.trec", Content::Bytes([trec_run().as_bytes(), b"q\xff Q0 D1 1 1 x\n"].concat()), EVAL_TREC, &["run.trec:61: query id is not valid UTF-8"]),
        eval_case("eval-qrels-rel-not-an-integer", "qrels.trec", text(trec_qrels().replacen("q02 0 D1 1", "q02 0 D1 0.5", 1)), EVAL_TREC, &["qrels.trec:6: expected an integer rel in field 4, found \"0.5\""]),
        eval_case("eval-qrels-too-few-fields", "qrels.trec", text(trec_qrels().replacen("q02 0 D1 1", "q02 0 D1", 1)), EVAL_TREC, &["qrels.trec:6: expected 4 fields `qid 0 docid rel`, found 3"]),
        eval_case("eval-qrels-conflicting-judgement", "qrels.trec", text(trec_qrels() + "q01 0 D1 2\n"), EVAL_TREC, &["qrels.trec:61: query \"q01\" doc \"D1\" judged again with rel 2, conflicting with rel 1 earlier"]),
        eval_case("eval-qrels-empty", "qrels.trec", text(""), EVAL_TREC, &["qrels.trec: empty qrels file: expected `qid 0 docid rel` lines"]),
        eval_case("eval-jsonl-run-ranked-not-a-list", "run.jsonl", text(jsonl_run().replacen("[\"D1\",\"D3\",\"D2\"]", "\"D1\"", 1)), EVAL_JSONL, &["run.jsonl:1: expected a \"ranked\" list"]),
        eval_case("eval-jsonl-run-duplicate-doc", "run.jsonl", text(jsonl_run().replacen("\"D3\"", "\"D1\"", 1)), EVAL_JSONL, &["run.jsonl:1: doc \"D1\" appears twice in the ranking of query \"q01\" (positions 1 and 2)"]),
        eval_case("eval-jsonl-run-query-twice", "run.jsonl", text(jsonl_run() + "{\"query_id\":\"q01\",\"ranked\":[\"D2\"]}\n"), EVAL_JSONL, &["run.jsonl:13: query \"q01\" already has a ranking at line 1"]),
        eval_case("eval-jsonl-qrels-rel-not-an-integer", "qrels.jsonl", text(jsonl_qrels().replacen("\"D1\":1", "\"D1\":\"high\"", 1)), EVAL_JSONL, &["qrels.jsonl:1: expected an integer rel for gold doc \"D1\", found \"high\""]),
        // ---- the ecosystem's forms (input/ and eval/format.rs) ----
        eval_case("eval-gzip-truncated", "run.trec.gz", Content::Bytes(gzip(trec_run().as_bytes())[..150].to_vec()), EVAL_GZ, &["run.trec.gz: reading: gzip data truncated or corrupt near byte "]),
        eval_case("eval-gzip-bomb", "run.trec.gz", Content::Bytes(gzip(&[b"#".as_slice(), &[b'x'; 4094], b"\n"].concat().repeat(256)).repeat(80)), EVAL_GZ, &["run.trec.gz: reading: gzip data expands more than 200-fold", "refused as a decompression bomb"]),
        eval_case("eval-json-run-duplicate-doc", "run.json", text("{\"q01\": {\"D1\": 1.0,\n  \"D1\": 0.5}}"), EVAL_RUN_JSON, &["run.json:2: query \"q01\" doc \"D1\" given twice"]),
        eval_case("eval-json-run-query-twice", "run.json", text("{\"q01\": {\"D1\": 1.0},\n\"q01\": {}}"), EVAL_RUN_JSON, &["run.json:2: query \"q01\" given twice"]),
        eval_case("eval-json-run-score-not-a-number", "run.json", text("{\"q01\": {\"D1\": \"high\"}}"), EVAL_RUN_JSON, &["run.json:1: query \"q01\" doc \"D1\": expected a number, found \"high\""]),
        eval_case("eval-json-run-truncated", "run.json", text("{\"q01\": {\"D1\": 1.0}"), EVAL_RUN_JSON, &["run.json:1: EOF while parsing an object"]),
        eval_case("eval-json-qrels-rel-not-an-integer", "qrels.json", text("{\"q01\": {\"D1\": 0.5}}"), EVAL_QRELS_JSON, &["qrels.json:1: query \"q01\" doc \"D1\": expected an integer rel, found 0.5"]),
        eval_case("eval-beir-qrels-bad-line", "qrels.tsv", text("query-id\tcorpus-id\tscore\nq01\tD1\n"), EVAL_BEIR, &["qrels.tsv:2: expected 3 fields `query-id corpus-id score` (BEIR qrels), found 2"]),
        eval_case("eval-msmarco-run-rank-not-an-integer", "run.tsv", text("q01\tD1\t1\nq01\tD2\tsecond\n"), EVAL_MSMARCO, &["run.tsv:2: expected an integer rank in field 3, found \"second\""]),
        eval_case("eval-llamaindex-no-retrieved-ids", "run.jsonl", text("{\"query_id\": \"q01\", \"expected_ids\": [\"D1\"]}\n"), EVAL_LLAMAINDEX, &["run.jsonl:1: expected a \"retrieved_ids\" list"]),
        Case { id: "eval-unknown-metric", files: vec![], args: &["--run", "run.trec", "--qrels", "qrels.trec", "--metrics", "ndcg@x"], want: &["--metrics: metric \"ndcg@x\": the cutoff after @ must be a positive integer"] },
        with_gate(
            "gate-run-input-with-bad-run",
            default_gate().replace("baseline = \"b.jsonl\"", "baseline = { run = \"bad.trec\" }\nqrels = \"qrels.trec\"").replace("candidate = \"c.jsonl\"", "candidate = { run = \"run.trec\" }"),
            &["bad.trec: opening: No such file"],
        ),
        with_gate(
            "mapping-missing-column",
            default_gate().replace("baseline = \"b.jsonl\"", "baseline = { path = \"b.csv\", metrics = { \"ndcg@10\" = \"ndcg_cut_10\" } }"),
            &["b.csv:1: no column \"ndcg_cut_10\" (mapped by metrics.\"ndcg@10\" in the gate file); columns: \"query_id\", \"ndcg@10\", \"recall@5\""],
        ),
        with_gate(
            "mapping-missing-id-jsonl",
            default_gate().replace("baseline = \"b.jsonl\"", "baseline = { path = \"b.jsonl\", id = \"sample_id\" }"),
            &["b.jsonl:1: no column \"sample_id\" (mapped by id in the gate file)"],
        ),
        Case {
            id: "run-card-deterministic-not-a-boolean",
            files: vec![
                ("gate.toml", text(default_gate() + "[efficiency]\nbaseline = \"b.card.json\"\ncandidate = \"c.card.json\"\n")),
                ("b.card.json", text("{\"conditions\": {\"deterministic\": false}, \"metrics\": {\"query-latency-ms\": 12}}")),
                ("c.card.json", text("{\"conditions\": {\"deterministic\": \"no\"}, \"metrics\": {\"query-latency-ms\": 12}}")),
            ],
            args: &[],
            want: &["c.card.json: conditions.deterministic: expected true or false (whether the retriever gives the same results on every run), found a string"],
        },
        // ---- the gate file ----
        case("gate-empty", "gate.toml", text(""), &["gate.toml: the file is empty; expected a TOML gate file"]),
        case("gate-missing", "gate.toml", Content::Absent, &["gate.toml: opening: No such file"]),
        case("gate-not-utf8", "gate.toml", Content::Bytes(b"[inputs]\nbaseline = \"b\xe9.jsonl\"\n".to_vec()), &["gate.toml:2: not UTF-8 text (byte 22); expected a TOML gate file"]),
        with_gate("gate-syntax-error", default_gate().replace("max-drop = 0.4", "max-drop = "), &["gate.toml:15:12: ", "\n15 | max-drop = "]),
        with_gate("gate-unknown-key", default_gate().replace("[bootstrap]\n", "[bootstrap]\nresampels = 10\n"), &["gate.toml:7:1: unknown field `resampels`, expected one of", "^^^^^^^^^"]),
        with_gate("gate-unknown-table", default_gate() + "[include]\npath = \"other.toml\"\n", &["gate.toml:17:2: unknown field `include`, expected one of"]),
        with_gate("gate-wrong-type", default_gate().replace("resamples = 200", "resamples = \"many\""), &["gate.toml:7:13: invalid type: string \"many\", expected i64"]),
        with_gate("gate-resamples-zero", default_gate().replace("resamples = 200", "resamples = 0"), &["gate.toml:7:13: [bootstrap] resamples = 0: expected 1 to 10000000"]),
        with_gate("gate-resamples-1e12", default_gate().replace("resamples = 200", "resamples = 1000000000000"), &["gate.toml:7:13: [bootstrap] resamples = 1000000000000: expected 1 to 10000000"]),
        with_gate("gate-resamples-negative", default_gate().replace("resamples = 200", "resamples = -5"), &["gate.toml:7:13: [bootstrap] resamples = -5: expected 1 to 10000000"]),
        with_gate("gate-confidence-out-of-range", default_gate().replace("resamples = 200", "resamples = 200\nconfidence = 1.5"), &["gate.toml:8:14: [bootstrap] confidence = 1.5: expected a number strictly between 0 and 1"]),
        with_gate("gate-max-loss-rate-out-of-range", default_gate().replace("max-drop = 0.4", "max-loss-rate = 2"), &["gate.toml:15:17: [[gate]] #1 (ndcg@10): max-loss-rate must be a share of queries between 0 and 1"]),
        with_gate("gate-unknown-enum", default_gate().replace("resamples = 200", "resamples = 200\nunit = \"conversation\""), &["gate.toml:8:8: unknown variant `conversation`, expected `query` or `group`"]),
        with_gate("gate-unknown-metric", default_gate().replace("metric = \"ndcg@10\"", "metric = \"ndcg@100\""), &["gate.toml:14:10: [[gate]] #1: unknown metric \"ndcg@100\": neither input has it; metrics in both: ndcg@10, recall@5"]),
        with_gate("gate-unknown-slice", default_gate().replace("lang=ko", "lang=fr"), &["gate.toml:16:10: [[gate]] #1 (ndcg@10): no slice \"lang=fr\""]),
        with_gate("gate-by-unknown-tag", default_gate().replace("by = [\"lang\"]", "by = [\"lang\", \"risk\"]"), &["gate.toml:10:15: [slices] by: no query has the tag \"risk\" (tags seen: lang)"]),
        with_gate("gate-critical-slice-unknown-tag", default_gate().replace("min-queries = 1", "min-queries = 1\ncritical = [\"risk=high\"]"), &["gate.toml:12:13: critical slice \"risk=high\": no query has the tag \"risk\" (tags seen: lang)"]),
        with_gate("gate-rule-missing", default_gate().replace("max-drop = 0.4\n", ""), &["gate.toml:13:1: [[gate]] #1 (ndcg@10) has no rule"]),
        with_gate("gate-group-unit-without-groups", gate_text("b.jsonl", "c.jsonl", "").replace("queries = \"q.jsonl\"\n", "").replace("by = [\"lang\"]\n", "").replace(", \"lang=ko\"", "").replace("resamples = 200", "resamples = 200\nunit = \"group\""), &["gate.toml:7:8: [bootstrap] unit = \"group\", but 12 queries have no group: \"q01\""]),
        with_gate("gate-input-not-a-path", default_gate().replace("baseline = \"b.jsonl\"", "baseline = 3"), &["gate.toml:2:12: [inputs] baseline: expected a path string or a table"]),
        Case { id: "cli-seed-overflow", files: vec![], args: &["--seed", "18446744073709551616"], want: &["invalid value '18446744073709551616' for '--seed <SEED>'", "number too large"] },
        Case { id: "cli-unknown-format", files: vec![], args: &["--format", "xml"], want: &["invalid value 'xml' for '--format <FORMAT>'", "[possible values: text, markdown, json, junit]"] },
        Case { id: "cli-resamples-zero", files: vec![], args: &["--resamples", "0"], want: &["--resamples 0: expected 1 to 10000000"] },
        Case { id: "cli-resamples-1e12", files: vec![], args: &["--resamples", "1000000000000"], want: &["--resamples 1000000000000: expected 1 to 10000000"] },
    ];
    // Cases on other readers need the gate file pointed at them.
    for c in v.iter_mut() {
        let point = |b: &str, cc: &str| ("gate.toml", text(gate_text(b, cc, "")));
        let (_, first) = (&c.id, c.files.first().map(|f| f.0));
        match first {
            Some("c.csv") => c.files.push(point("b.csv", "c.csv")),
            Some("c.tsv") => c.files.push(point("b.tsv", "c.tsv")),
            Some("c.te") => c.files.push(point("b.te", "c.te")),
            Some("c.irm") => c.files.push(point("b.irm", "c.irm")),
            Some("c.txt") => c.files.push(point("b.jsonl", "c.txt")),
            _ => {}
        }
    }
    v
}

fn run_case(ctx: &TestContext, c: &Case) -> Out {
    for (name, content) in &c.files {
        let p = ctx.join(name);
        match content {
            Content::Text(t) => std::fs::write(&p, t).unwrap(),
            Content::Bytes(b) => std::fs::write(&p, b).unwrap(),
            Content::Dir => {
                let _ = std::fs::remove_file(&p);
                std::fs::create_dir(&p).unwrap();
            }
            Content::Absent => {
                let _ = std::fs::remove_file(&p);
            }
        }
    }
    Out::of(
        ctx.command()
            .args(if c.id.starts_with("eval-") {
                &["eval"][..]
            } else {
                &["check", "gate.toml"][..]
            })
            .args(c.args),
    )
}

#[test]
fn bad_inputs_exit_2_with_one_message_naming_the_place() {
    let mut failures = Vec::new();
    let all = cases();
    assert!(all.len() >= 30, "only {} cases", all.len());
    for c in &all {
        let ctx = clean_inputs();
        let r = run_case(&ctx, c);
        let mut problems = Vec::new();
        if r.code != Some(2) {
            problems.push(format!("exit {:?}, expected 2", r.code));
        }
        if !r.stdout.is_empty() {
            problems.push("printed a report on stdout".to_string());
        }
        if !r.stderr.starts_with("error: ")
            || r.stderr.lines().filter(|l| l.starts_with("error")).count() != 1
        {
            problems.push("stderr is not exactly one `error:` message".to_string());
        }
        if r.stderr.len() > 2000 {
            problems.push(format!("message is {} bytes long", r.stderr.len()));
        }
        if r.stderr.contains("panicked") || r.stderr.contains("RUST_BACKTRACE") {
            problems.push("panicked".to_string());
        }
        if r.stderr.contains(&ctx.path().display().to_string()) {
            problems.push(
                "the message shows the absolute temp path instead of the path as given".to_string(),
            );
        }
        for w in missing_in_order(&r.stderr, c.want) {
            problems.push(format!("no {w:?} (in order)"));
        }
        if let Ok(dump) = std::env::var("HOSTILE_DUMP") {
            // Regenerates the rows of docs/bad-input.md: id, first line of the message, exit.
            let line = format!(
                "| `{}` | `{}` | {} |\n",
                c.id,
                first_line_cell(&r.stderr),
                r.code.unwrap_or(-1)
            );
            append_to(&dump, &line);
        }
        if !problems.is_empty() {
            let shown: String = r.stderr.chars().take(600).collect();
            failures.push(format!(
                "[{}] {}\n  stderr: {shown}",
                c.id,
                problems.join("; ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}

/// Inputs that are odd but unambiguous, tolerated on purpose: the report is the clean one's.
#[test]
fn tolerated_inputs_give_the_clean_report() {
    let big = "y".repeat(10 << 20);
    let crlf = |s: String| s.replace('\n', "\r\n");
    let bom = |s: String| format!("\u{feff}{s}");
    let tolerated: Vec<(&str, &str, String)> = vec![
        ("bom", "c.jsonl", bom(jsonl(true))),
        ("crlf", "c.jsonl", crlf(jsonl(true))),
        ("bom-crlf-csv", "c.csv", bom(crlf(csv(true, ",")))),
        ("crlf-trec-eval", "c.te", crlf(trec_eval(true))),
        (
            "blank-lines",
            "c.jsonl",
            jsonl(true).replace('\n', "\n\n  \n"),
        ),
        (
            "no-final-newline",
            "c.jsonl",
            jsonl(true).trim_end().to_string(),
        ),
        (
            "jsonl-10mb-text-field",
            "c.jsonl",
            jsonl(true).replacen(
                "\"recall@5\":1}",
                &format!("\"recall@5\":1,\"text\":\"{big}\"}}"),
                1,
            ),
        ),
        (
            "csv-quoted-cells",
            "c.csv",
            csv(true, ",")
                .replace("q05,", "\"q05\",")
                .replace(",1\n", ",\"1\"\n"),
        ),
        (
            "csv-padded-cells",
            "c.csv",
            csv(true, ",").replace(",", " , "),
        ),
        ("bom-gate-file", "gate.toml", bom(default_gate())),
    ];
    let reference = |ctx: &TestContext, b: &str, c: &str| {
        ctx.gate(gate_text(b, c, ""));
        report(ctx)
    };
    for (id, file, content) in tolerated {
        let ctx = clean_inputs();
        let (b, c) = match file {
            "c.csv" => ("b.csv", "c.csv"),
            "c.te" => ("b.te", "c.te"),
            _ => ("b.jsonl", "c.jsonl"),
        };
        let want = reference(&ctx, b, c);
        ctx.write(file, &content);
        if file == "gate.toml" {
            // the gate file itself is the one under test
        } else {
            ctx.gate(gate_text(b, c, ""));
        }
        let got = report(&ctx);
        assert_eq!(got, want, "[{id}] tolerated input changed the report");
        assert!(id_in_docs(id), "[{id}] not in docs/bad-input.md");
    }
}

/// The JSON report's comparisons and verdict (inputs paths differ per format, so left out).
fn report(ctx: &TestContext) -> serde_json::Value {
    let v = ctx.check_json(&[]).expect(0).json();
    serde_json::json!({"verdict": v["verdict"], "comparisons": v["comparisons"], "gates": v["gates"]})
}

/// Whether `id` heads a table row of docs/bad-input.md (the hostile-input reference).
fn id_in_docs(id: &str) -> bool {
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/bad-input.md"))
            .expect("reading docs/bad-input.md");
    docs.lines().any(|l| l.starts_with(&format!("| `{id}` |")))
}

#[test]
fn every_case_is_documented() {
    let missing: Vec<&str> = cases()
        .iter()
        .map(|c| c.id)
        .filter(|id| !id_in_docs(id))
        .collect();
    assert!(missing.is_empty(), "not in docs/bad-input.md: {missing:?}");
}

/// `rag-gate eval` tolerates the same things: a BOM and CRLF line ends in runs and qrels.
#[test]
fn eval_tolerates_bom_and_crlf() {
    let ctx = clean_inputs();
    let eval = |run: &str, qrels: &str| {
        ctx.run(&[
            "eval",
            "--run",
            run,
            "--qrels",
            qrels,
            "--metrics",
            "ndcg@10,recall@5",
        ])
        .expect(0)
        .stdout
    };
    let clean = eval("run.trec", "qrels.trec");
    assert!(!clean.is_empty());
    let odd = |s: String| format!("\u{feff}{}", s.replace('\n', "\r\n"));
    ctx.write("run2.trec", odd(trec_run()));
    ctx.write("qrels2.trec", odd(trec_qrels()));
    assert_eq!(eval("run2.trec", "qrels2.trec"), clean, "eval-bom-crlf");
    assert!(id_in_docs("eval-bom-crlf"));
}
