//! CSV and TSV per-query metrics (the first byte picks the delimiter and the id column).
#![no_main]
use libfuzzer_sys::fuzz_target;
use rag_gate::load::{parse_metrics_bytes, Format};

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let format = if first & 1 == 0 {
        Format::Csv
    } else {
        Format::Tsv
    };
    let id_column = if first & 2 == 0 { "query_id" } else { "qid" };
    if let Ok(t) = parse_metrics_bytes(rest.to_vec(), "f.csv", Some(format), id_column) {
        for col in t.metrics.values() {
            assert_eq!(col.len(), t.rows.len());
        }
    }
});
