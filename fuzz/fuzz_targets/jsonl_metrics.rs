//! JSONL per-query metrics: any bytes give a table or an error, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use rag_gate::load::{parse_metrics_bytes, Format};

fuzz_target!(|data: &[u8]| {
    if let Ok(t) = parse_metrics_bytes(data.to_vec(), "f.jsonl", Some(Format::Jsonl), "query_id") {
        for col in t.metrics.values() {
            assert_eq!(
                col.len(),
                t.rows.len(),
                "metric columns stay aligned with rows"
            );
        }
    }
});
