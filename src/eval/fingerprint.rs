//! The protocol fingerprint of one evaluation (see `crate::protocol` and docs/protocol.md): the
//! canonical hashes of the qrels as read (after the reader's normalisation: JSONL lists are rel 1,
//! repeated pairs merged), of the evaluated query ids, of the corpus and the chunk map, and each
//! metric's definition under the evaluation's policies.

use std::collections::BTreeMap;

use super::chunks::ChunkMap;
use super::metrics::{Kind, Metric};
use super::qrels::{Corpus, Qrels};
use super::{EmptyGold, Gain, Order};

/// The evaluation's policies that shape a metric's value.
pub struct Rules {
    pub rel_level: i32,
    pub gain: Gain,
    pub order: Order,
    pub empty_gold: EmptyGold,
    /// A chunk map turned chunks into documents before the cutoffs.
    pub chunked: bool,
    /// Unjudged documents were removed before scoring (condensed lists, trec_eval -J).
    pub judged_only: bool,
}
use crate::protocol::{
    query_set_hash, sorted_records_hash, CanonicalHash, MetricDefinition, Protocol, METRIC_VERSION,
    PROTOCOL_FORMAT,
};

/// `qid\tdoc\trel\n` per judgement, by query id then doc id (bytes). Queries are already in id
/// order; only each query's docs are sorted, so the cost stays linear in practice.
pub fn qrels_hash(qrels: &Qrels) -> String {
    let mut h = CanonicalHash::default();
    let mut docs: Vec<(&[u8], i32)> = Vec::new();
    for (qid, q) in &qrels.queries {
        docs.clear();
        docs.extend(q.judged.iter().map(|(d, &r)| (d.as_slice(), r)));
        docs.sort_unstable();
        for (d, r) in &docs {
            h.record(&[qid.as_bytes(), d, r.to_string().as_bytes()]);
        }
    }
    h.finish()
}

fn corpus_hash(c: &Corpus) -> String {
    sorted_records_hash(c.ids.iter().map(|d| vec![d.as_slice()]).collect())
}

fn chunk_map_hash(c: &ChunkMap) -> String {
    sorted_records_hash(
        c.map
            .iter()
            .map(|(k, v)| vec![k.as_slice(), v.as_slice()])
            .collect(),
    )
}

/// The definition of `m` under `p`.
pub fn definition(m: &Metric, p: &Rules) -> MetricDefinition {
    let lower = |s: String| s.to_ascii_lowercase();
    MetricDefinition {
        cutoff: m.k,
        cutoff_unit: if p.chunked {
            "documents, after mapping chunks to documents (first occurrence kept)".into()
        } else {
            "ranked documents".into()
        },
        rel_level: p.rel_level,
        gain: if m.kind == Kind::Ndcg {
            lower(format!("{:?}", p.gain))
        } else {
            "binary".into()
        },
        ordering: lower(format!("{:?}", p.order)),
        tie_rule: match p.order {
            Order::Score | Order::Rank => "docid descending (byte order)".into(),
            Order::Given => "file order".into(),
        },
        empty_gold: lower(format!("{:?}", p.empty_gold)),
        unjudged: match p.judged_only {
            false => "non-relevant (grade 0)".into(),
            true => "removed before scoring (condensed list, trec_eval -J)".into(),
        },
    }
}

/// The whole fingerprint; `evaluated` are the ids of the evaluated queries, sorted.
pub fn protocol<'a>(
    qrels: &Qrels,
    evaluated: impl ExactSizeIterator<Item = &'a String>,
    corpus: Option<&Corpus>,
    chunks: Option<&ChunkMap>,
    ms: &[Metric],
    p: &Rules,
) -> Protocol {
    let queries = evaluated.len();
    Protocol {
        protocol_format: PROTOCOL_FORMAT,
        metric_version: METRIC_VERSION,
        qrels_sha256: qrels_hash(qrels),
        query_set_sha256: query_set_hash(evaluated),
        queries,
        corpus_sha256: corpus.map(corpus_hash),
        chunk_map_sha256: chunks.map(chunk_map_hash),
        metrics: ms
            .iter()
            .map(|m| (m.to_string(), definition(m, p)))
            .collect::<BTreeMap<_, _>>(),
        run_context: BTreeMap::new(),
        rows_sha256: None,
        judged_bounds: None,
        judge: None,
    }
}
