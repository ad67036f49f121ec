//! `rag-gate eval`'s readers: the input split at its first 0xFF byte into qrels and a run,
//! evaluated in every format pairing (runs whose queries come back, JSONL keys twice, grades
//! that overflow the exponential gain).
#![no_main]
use libfuzzer_sys::fuzz_target;
use rag_gate::eval::{evaluate_to_table, EvalOptions, Format, Gain};

fuzz_target!(|data: &[u8]| {
    let at = data.iter().position(|&b| b == 0xFF).unwrap_or(data.len());
    let (qrels, run) = (&data[..at], data.get(at + 1..).unwrap_or(&[]));
    let Ok(dir) = tempfile::tempdir() else { return };
    let (q, r) = (dir.path().join("qrels"), dir.path().join("run"));
    if std::fs::write(&q, qrels).is_err() || std::fs::write(&r, run).is_err() {
        return;
    }
    let metrics = ["ndcg@10".to_string(), "recall@5".to_string()];
    for qf in [Format::Trec, Format::Jsonl] {
        for rf in [Format::Trec, Format::Jsonl] {
            for gain in [Gain::Linear, Gain::Exponential] {
                let opts = EvalOptions { qrels_format: Some(qf), run_format: Some(rf), gain, ..EvalOptions::default() };
                if let Ok((t, _)) = evaluate_to_table(&q, "qrels", &r, "run", &metrics, &opts) {
                    assert!(t.metrics.values().flat_map(|c| c.iter()).flatten().all(|v| v.is_finite()));
                }
            }
        }
    }
});
