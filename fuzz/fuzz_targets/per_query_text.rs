//! trec_eval -q and ir_measures -q output, and the sniffing between them (first byte picks).
#![no_main]
use libfuzzer_sys::fuzz_target;
use rag_gate::load::{parse_metrics_bytes, Format};

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let format = match first % 3 {
        0 => Some(Format::TrecEval),
        1 => Some(Format::IrMeasures),
        _ => None, // sniffed from the first line
    };
    if let Ok(t) = parse_metrics_bytes(rest.to_vec(), "f.txt", format, "query_id") {
        assert!(!t.rows.is_empty());
        for col in t.metrics.values() {
            assert_eq!(col.len(), t.rows.len());
        }
    }
});
