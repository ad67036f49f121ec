//! The stable-toolchain stand-in for fuzz/ (libFuzzer needs nightly): random bytes, and random
//! sequences of syntax fragments that reach deeper than bytes do, fed to every reader and to the
//! gate file. Each must return a table or an error — never panic — and a table must keep its
//! metric columns aligned with its rows. `scripts/fuzz.sh` runs the real fuzzers.

use proptest::prelude::*;
use rag_gate::load::{parse_metrics_bytes, parse_queries_bytes, Format};

const FRAGMENTS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    "\"",
    "\n",
    "\r\n",
    "\r",
    "\t",
    " ",
    "\u{feff}",
    "\0",
    "\\",
    "\"query_id\"",
    "\"q1\"",
    "\"q2\"",
    "\"\"",
    "\" \"",
    "1",
    "0.5",
    "-0.25",
    "1.5",
    "1e999",
    "-1e999",
    "NaN",
    "Infinity",
    "null",
    "true",
    "\"0.5\"",
    "\"ndcg@10\"",
    "\"ndcg_cut_10\"",
    "\"latency_ms\"",
    "\"group\"",
    "\"g1\"",
    "\"slices\"",
    "{\"lang\":\"ko\"}",
    "\"metrics\"",
    "{\"ndcg@10\":1}",
    "query_id",
    "qid",
    "group",
    "slice:lang",
    "ndcg@10",
    "recall_5",
    "P_5",
    "nDCG@10",
    "R@5",
    "runid",
    "all",
    "map",
    "x",
    "é",
    "🦀",
    "\u{202e}",
    "[inputs]",
    "baseline = \"b.jsonl\"",
    "candidate = { path = \"c.csv\", format = \"csv\" }",
    "[bootstrap]",
    "resamples = 1000000000000",
    "resamples = 0",
    "seed = -1",
    "confidence = 1.5",
    "unit = \"group\"",
    "[slices]",
    "by = [\"lang\"]",
    "critical = [\"lang=ko\"]",
    "min-queries = 0",
    "[[gate]]",
    "metric = \"ndcg@10\"",
    "max-drop = 0.01",
    "max-loss-rate = 2",
    "slices = \"critical\"",
    "slices = []",
    "id = \"../x\"",
    "[eval]",
    "=",
    "#",
    // Keys twice, runs and qrels, names that are commands or escapes.
    "{\"query_id\":\"q1\",\"query_id\":\"q2\"}",
    "\"ndcg@10\":0.1,\"ndcg@10\":0.9",
    "{\"lang\":\"ko\",\"lang\":\"en\"}",
    "\"gold\"",
    "{\"D1\":1,\"D1\":2}",
    "\"ranked\"",
    "[\"D1\",\"D2\"]",
    "q1 Q0 D1 1 0.5 run",
    "q2 Q0 D2 1 0.5 run",
    "q1 0 D1 1",
    "q1 0 D2 2000",
    "\n::error::x",
    "\u{1b}[2J",
    "\u{2066}",
];

fn fragments() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..80)
        .prop_map(|v| v.concat().into_bytes())
}

fn any_input() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![prop::collection::vec(any::<u8>(), 0..400), fragments()]
}

fn check_metrics(bytes: &[u8]) {
    let formats = [
        None,
        Some(Format::Jsonl),
        Some(Format::Csv),
        Some(Format::Tsv),
        Some(Format::TrecEval),
        Some(Format::IrMeasures),
    ];
    for format in formats {
        for id_column in ["query_id", "qid"] {
            if let Ok(t) = parse_metrics_bytes(bytes.to_vec(), "f", format, id_column) {
                for (name, col) in &t.metrics {
                    assert_eq!(
                        col.len(),
                        t.rows.len(),
                        "{format:?}: column {name} misaligned"
                    );
                    assert!(
                        col.iter().flatten().all(|v| v.is_finite()),
                        "{format:?}: non-finite value kept"
                    );
                }
                assert!(
                    t.rows.iter().all(|r| !r.query_id.trim().is_empty()),
                    "empty id kept"
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn metric_readers_never_panic(bytes in any_input()) {
        check_metrics(&bytes);
    }

    #[test]
    fn queries_reader_never_panics(bytes in any_input()) {
        if let Ok(rows) = parse_queries_bytes(bytes, "q.jsonl") {
            prop_assert!(rows.iter().all(|r| !r.query_id.trim().is_empty()));
        }
    }
}

proptest! {
    // Each case writes a file: fewer cases.
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn gate_file_never_panics(bytes in any_input()) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gate.toml");
        std::fs::write(&path, &bytes).unwrap();
        match rag_gate::config::load(&path) {
            Ok(cfg) => {
                let dumped = rag_gate::config::dump(&cfg, None);
                prop_assert!(!dumped.is_empty());
            }
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(msg.contains("gate.toml"), "error does not name the file: {}", msg);
            }
        }
    }
}

/// Writes `qrels` and `run` and evaluates them, in every format pairing.
fn check_eval(qrels: &[u8], run: &[u8]) {
    use rag_gate::eval::{evaluate_to_table, EvalOptions, Format as EvalFormat, Gain};
    let dir = tempfile::tempdir().unwrap();
    let (q, r) = (dir.path().join("qrels"), dir.path().join("run"));
    std::fs::write(&q, qrels).unwrap();
    std::fs::write(&r, run).unwrap();
    let metrics = [
        "ndcg@10".to_string(),
        "recall@5".to_string(),
        "mrr@10".to_string(),
    ];
    for qf in [EvalFormat::Trec, EvalFormat::Jsonl] {
        for rf in [EvalFormat::Trec, EvalFormat::Jsonl] {
            for gain in [Gain::Linear, Gain::Exponential] {
                let opts = EvalOptions {
                    qrels_format: Some(qf),
                    run_format: Some(rf),
                    gain,
                    ..EvalOptions::default()
                };
                if let Ok((t, _)) = evaluate_to_table(&q, "qrels", &r, "run", &metrics, &opts) {
                    for col in t.metrics.values() {
                        assert!(
                            col.iter().flatten().all(|v| v.is_finite()),
                            "non-finite metric"
                        );
                    }
                }
            }
        }
    }
}

/// JSON lines whose ids and doc ids are random strings (white space, `all`, escapes included).
fn id_text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "all", "q 1", "q\t1", "q\u{a0}1", " q", "q1", "ALL", "\u{202e}"
        ])
        .prop_map(String::from),
        "[a-z \\t\\n]{1,6}",
        any::<String>(),
    ]
}

proptest! {
    // Each case writes files: fewer cases.
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn eval_readers_never_panic(qrels in any_input(), run in any_input()) {
        check_eval(&qrels, &run);
    }

    /// Whatever eval writes as trec_eval text reads back as written (or eval refuses the id).
    #[test]
    fn eval_trec_output_reads_back(ids in prop::collection::btree_set(id_text(), 1..5)) {
        use rag_gate::eval::output::{render_rows, RowFormat};
        use rag_gate::eval::{evaluate, EvalOptions, Metric};
        let dir = tempfile::tempdir().unwrap();
        let (q, r) = (dir.path().join("q.jsonl"), dir.path().join("r.jsonl"));
        let line = |id: &String, key: &str, v: &str| format!(
            "{{\"query_id\":{},\"{key}\":{v}}}\n", serde_json::Value::from(id.as_str()));
        std::fs::write(&q, ids.iter().map(|i| line(i, "gold", "[\"A\"]")).collect::<String>()).unwrap();
        std::fs::write(&r, ids.iter().map(|i| line(i, "ranked", "[\"A\",\"B\"]")).collect::<String>()).unwrap();
        let ms = Metric::parse_list("recall@1").unwrap();
        let Ok(ev) = evaluate(&q, "q.jsonl", &r, "r.jsonl", &ms, &EvalOptions::default()) else {
            return Ok(());
        };
        if let Ok(text) = render_rows(&ev, RowFormat::Trec) {
            let t = parse_metrics_bytes(text.into_bytes(), "e.te", Some(Format::TrecEval), "query_id")
                .expect("eval's trec output reads back");
            let back: std::collections::BTreeSet<String> = t.rows.iter().map(|r| r.query_id.to_string()).collect();
            let written: std::collections::BTreeSet<String> = ev.rows.iter().map(|r| r.qid.clone()).collect();
            prop_assert_eq!(back, written);
        }
    }

    /// A shown name is one visible line of bounded length, whatever it was.
    #[test]
    fn names_are_shown_safely(s in any::<String>(), n in 0usize..200) {
        let s = s.repeat(n % 7 + 1);
        for out in [rag_gate::safe_text::shown(&s), rag_gate::safe_text::quoted(&s)] {
            prop_assert!(!out.chars().any(|c| c.is_control() || rag_gate::safe_text::is_bidi_control(c)), "{:?}", out);
            prop_assert!(out.chars().count() <= 80 * 10 + 40, "{}", out.len());
        }
    }
}
