//! The queries file (JSONL query_id, group, slices).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = rag_gate::load::parse_queries_bytes(data.to_vec(), "q.jsonl");
});
