//! Two JSONL tables (split at the first 0xFF byte) paired both ways: whatever parses must pair
//! or fail cleanly, with every metric aligned with the paired ids and the counts adding up.
#![no_main]
use libfuzzer_sys::fuzz_target;
use rag_gate::config::Missing;
use rag_gate::load::{parse_metrics_bytes, Format};

fuzz_target!(|data: &[u8]| {
    let Some(cut) = data.iter().position(|&b| b == 0xFF) else {
        return;
    };
    let (a, b) = (&data[..cut], &data[cut + 1..]);
    let Ok(base) = parse_metrics_bytes(a.to_vec(), "b.jsonl", Some(Format::Jsonl), "query_id")
    else {
        return;
    };
    let Ok(cand) = parse_metrics_bytes(b.to_vec(), "c.jsonl", Some(Format::Jsonl), "query_id")
    else {
        return;
    };
    let metrics = rag_gate::pair::shared_metrics(&base, &cand);
    for missing in [Missing::Error, Missing::Intersect] {
        let Ok(p) = rag_gate::pair::pair(&base, &cand, None, missing, &metrics) else {
            continue;
        };
        assert_eq!(p.ids.len(), p.group_of.len());
        assert!(
            (1..p.ids.len()).all(|i| p.ids[i - 1] < p.ids[i]),
            "ids sorted and unique"
        );
        for m in p.metrics.values() {
            assert_eq!(m.baseline.len(), p.ids.len());
            assert_eq!(m.candidate.len(), p.ids.len());
            assert!(m.baseline.iter().chain(&m.candidate).all(|v| v.is_finite()));
        }
        let i = &p.info;
        assert_eq!(i.paired + i.dropped_baseline_only, i.baseline_queries);
        assert_eq!(i.paired + i.dropped_candidate_only, i.candidate_queries);
    }
});
