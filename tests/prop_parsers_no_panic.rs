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
