//! The protocol fingerprint: what two per-query metric files must share to be compared — the
//! qrels, the evaluated query set, the corpus and chunk map, and each metric's definition — as
//! canonical SHA-256 hashes and plain fields, and the judge when the qrels are a model's labels
//! (model, prompt hash, settings), plus the run context (ir_metadata) that is allowed
//! to differ because it is what a pull request changes. Data and pure functions only: `eval`
//! builds it, `load` reads the sidecar, `check` compares the two sides. Layout: docs/protocol.md.

pub mod verify;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Layout version of the fingerprint itself (`docs/protocol.md`); bump when a field changes
/// meaning or disappears.
pub const PROTOCOL_FORMAT: u32 = 1;

/// Version of rag-gate's metric maths; bump when any metric's value could change for the same
/// qrels and run (two files from different versions are then refused, not compared).
pub const METRIC_VERSION: u32 = 1;

/// Where `eval -o FILE` puts the fingerprint: `FILE.protocol.json`, next to the rows.
pub fn sidecar_path(rows: &std::path::Path) -> std::path::PathBuf {
    let mut s = rows.as_os_str().to_owned();
    s.push(".protocol.json");
    s.into()
}

/// One metric's definition: everything besides the qrels and the run that shapes its value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct MetricDefinition {
    /// The k of `@k`; none for whole-ranking metrics.
    pub cutoff: Option<usize>,
    /// What the k counts: ranked documents, or chunks mapped to documents before the cut.
    pub cutoff_unit: String,
    /// Relevant means rel >= this.
    pub rel_level: i32,
    /// "linear" (rel) or "exponential" (2^rel − 1); only nDCG uses grades.
    pub gain: String,
    /// "score", "rank" or "given".
    pub ordering: String,
    /// How equal keys are ordered.
    pub tie_rule: String,
    /// "exclude", "zero" or "error": queries without a relevant document.
    pub empty_gold: String,
    /// How an unjudged ranked document counts.
    pub unjudged: String,
}

/// The fingerprint of one per-query metric file (or of one evaluated run).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Protocol {
    pub protocol_format: u32,
    pub metric_version: u32,
    /// SHA-256 of the qrels as `qid\tdoc\trel\n` lines, sorted by query then doc (bytes).
    pub qrels_sha256: String,
    /// SHA-256 of the evaluated query ids, `qid\n` each, sorted.
    pub query_set_sha256: String,
    pub queries: usize,
    /// SHA-256 of the corpus doc ids, `id\n` each, sorted and de-duplicated.
    pub corpus_sha256: Option<String>,
    /// SHA-256 of the chunk map, `chunk\tdoc\n` each, sorted.
    pub chunk_map_sha256: Option<String>,
    /// By canonical metric name.
    pub metrics: BTreeMap<String, MetricDefinition>,
    /// Run-describing ir_metadata fields (dotted paths → values); allowed to differ.
    #[serde(default)]
    pub run_context: BTreeMap<String, String>,
    /// SHA-256 of the rows file the sidecar describes (set when written next to one).
    #[serde(default)]
    pub rows_sha256: Option<String>,
    /// Whether `check` can compute judged bounds from the file this describes, and why not
    /// (written by `rag-gate eval`; absent from older sidecars). Not compared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judged_bounds: Option<String>,
    /// The judge whose labels the qrels are (its sidecar beside them, `<qrels>.judge.json`);
    /// none for labels without one (human labels). Compared: both sides must be labelled by
    /// the same judge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<Judge>,
}

/// A relevance judge (a model) as the fingerprint compares it: what shapes its labels. The
/// sidecar's date is provenance, not protocol: the same judge on another day is the same judge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Judge {
    pub model: String,
    pub prompt_hash: String,
    /// The sidecar's `settings` as canonical JSON (keys sorted), `{}` when it has none.
    pub settings: String,
}

/// What a side without a judge shows on the judge's fields.
const NO_JUDGE: &str = "none (labels without a judge sidecar)";

/// `judged_bounds` of an evaluation over qrels that list only relevant documents.
pub const BOUNDS_POSITIVE_ONLY: &str = "not needed: the qrels list only relevant documents (no judgment ≤ 0), so unjudged = non-relevant is the collection's own protocol";
/// `judged_bounds` of an evaluation on condensed lists.
pub const BOUNDS_CONDENSED: &str =
    "not needed: condensed lists (judged-only) hold no unjudged document";
/// `judged_bounds` of any other evaluation written to a file.
pub const BOUNDS_NEED_RUNS: &str = "not computable from this file: the bounds need both sides' rankings; give the runs as { run = \"…\" } inputs";

/// Hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(Sha256::digest(bytes).as_slice())
}

fn hex(d: &[u8]) -> String {
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// A SHA-256 fed one canonical record at a time (fields joined by tabs, one record a line).
#[derive(Default)]
pub struct CanonicalHash(Sha256);

impl CanonicalHash {
    pub fn record(&mut self, fields: &[&[u8]]) {
        for (i, f) in fields.iter().enumerate() {
            if i > 0 {
                self.0.update(b"\t");
            }
            self.0.update(f);
        }
        self.0.update(b"\n");
    }

    pub fn finish(self) -> String {
        hex(self.0.finalize().as_slice())
    }
}

/// `qid\n` per evaluated query, sorted (the ids must come sorted).
pub fn query_set_hash<S: AsRef<str>>(ids: impl Iterator<Item = S>) -> String {
    let mut h = CanonicalHash::default();
    for id in ids {
        h.record(&[id.as_ref().as_bytes()]);
    }
    h.finish()
}

/// Hash of sorted records; `items` may come in any order.
pub fn sorted_records_hash(mut items: Vec<Vec<&[u8]>>) -> String {
    items.sort_unstable();
    let mut h = CanonicalHash::default();
    for r in &items {
        h.record(r);
    }
    h.finish()
}

impl Protocol {
    /// The comparable part restricted to `metrics` (every metric when empty), without the run
    /// context and the rows hash: what both sides of a comparison must share.
    pub fn comparable(&self, metrics: &[String]) -> Protocol {
        Protocol {
            metrics: self
                .metrics
                .iter()
                .filter(|(m, _)| metrics.is_empty() || metrics.contains(m))
                .map(|(m, d)| (m.clone(), d.clone()))
                .collect(),
            run_context: BTreeMap::new(),
            rows_sha256: None,
            judged_bounds: None,
            ..self.clone()
        }
    }

    /// SHA-256 of the comparable part's canonical JSON (struct order, sorted maps).
    pub fn hash(&self, metrics: &[String]) -> String {
        let json =
            serde_json::to_vec(&self.comparable(metrics)).expect("the protocol always serialises");
        sha256_hex(&json)
    }

    /// The comparable fields as `(name, value)` lines, for reports and error messages.
    pub fn fields(&self, metrics: &[String]) -> Vec<(String, String)> {
        let p = self.comparable(metrics);
        let opt = |o: &Option<String>| o.clone().unwrap_or_else(|| "none".into());
        let mut out = vec![
            ("metric-version".to_string(), p.metric_version.to_string()),
            ("qrels-sha256".into(), p.qrels_sha256.clone()),
            (
                "query-set-sha256".into(),
                format!(
                    "{} ({})",
                    p.query_set_sha256,
                    crate::numbers::count(p.queries, "query", "queries")
                ),
            ),
            ("corpus-sha256".into(), opt(&p.corpus_sha256)),
            ("chunk-map-sha256".into(), opt(&p.chunk_map_sha256)),
        ];
        if let Some(j) = &p.judge {
            out.push(("judge-model".into(), j.model.clone()));
            out.push(("judge-prompt-hash".into(), j.prompt_hash.clone()));
            out.push(("judge-settings".into(), j.settings.clone()));
        }
        for (m, d) in &p.metrics {
            for (k, v) in d.fields() {
                out.push((format!("{m}.{k}"), v));
            }
        }
        out
    }
}

impl MetricDefinition {
    fn fields(&self) -> Vec<(&'static str, String)> {
        vec![
            (
                "cutoff",
                self.cutoff.map_or("none".into(), |k| k.to_string()),
            ),
            ("cutoff-unit", self.cutoff_unit.clone()),
            ("rel-level", self.rel_level.to_string()),
            ("gain", self.gain.clone()),
            ("ordering", self.ordering.clone()),
            ("tie-rule", self.tie_rule.clone()),
            ("empty-gold", self.empty_gold.clone()),
            ("unjudged", self.unjudged.clone()),
        ]
    }
}

/// One field on which the two sides differ.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Difference {
    pub field: String,
    pub baseline: String,
    pub candidate: String,
}

/// Where the comparable protocols of the two sides differ, for the compared `metrics`. A metric
/// absent from one side's fingerprint is a difference too (its definition is unknown there).
pub fn differences(base: &Protocol, cand: &Protocol, metrics: &[String]) -> Vec<Difference> {
    let b: BTreeMap<String, String> = base.fields(metrics).into_iter().collect();
    let c: BTreeMap<String, String> = cand.fields(metrics).into_iter().collect();
    let mut out = Vec::new();
    let absent = |f: &str| match f.starts_with("judge-") {
        true => NO_JUDGE.to_string(),
        false => "absent from the fingerprint".to_string(),
    };
    let mut names: Vec<&String> = b.keys().chain(c.keys()).collect();
    names.sort_by_key(|n| field_order(n));
    names.dedup();
    for f in names {
        let (bv, cv) = (b.get(f).cloned(), c.get(f).cloned());
        if bv != cv && !grades_only(f, &b) {
            out.push(Difference {
                field: f.clone(),
                baseline: bv.unwrap_or_else(|| absent(f)),
                candidate: cv.unwrap_or_else(|| absent(f)),
            });
        }
    }
    out
}

/// True for the relevance level of a metric that reads the grades (nDCG: its gain is the grade
/// at every level, as trec_eval's `-l` leaves nDCG alone), whose values do not depend on it.
fn grades_only(field: &str, fields: &BTreeMap<String, String>) -> bool {
    let Some(metric) = field.strip_suffix(".rel-level") else {
        return false;
    };
    fields
        .get(&format!("{metric}.gain"))
        .is_some_and(|g| g != "binary")
}

/// Global fields first (in their fixed order), then metric fields by name.
fn field_order(name: &str) -> (usize, String) {
    const GLOBAL: [&str; 8] = [
        "metric-version",
        "qrels-sha256",
        "judge-model",
        "judge-prompt-hash",
        "judge-settings",
        "query-set-sha256",
        "corpus-sha256",
        "chunk-map-sha256",
    ];
    match GLOBAL.iter().position(|g| *g == name) {
        Some(i) => (i, String::new()),
        None => (GLOBAL.len(), name.to_string()),
    }
}

/// Run-context fields that differ, as `key: baseline → candidate` lines ("—" when absent).
pub fn context_differences(base: &Protocol, cand: &Protocol) -> Vec<String> {
    let keys: std::collections::BTreeSet<&String> = base
        .run_context
        .keys()
        .chain(cand.run_context.keys())
        .collect();
    let dash = "—".to_string();
    keys.into_iter()
        .filter(|k| base.run_context.get(*k) != cand.run_context.get(*k))
        .map(|k| {
            format!(
                "{}: {} → {}",
                crate::safe_text::shown(k),
                crate::safe_text::shown(base.run_context.get(k).unwrap_or(&dash)),
                crate::safe_text::shown(cand.run_context.get(k).unwrap_or(&dash))
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def(k: usize) -> MetricDefinition {
        MetricDefinition {
            cutoff: Some(k),
            cutoff_unit: "documents".into(),
            rel_level: 1,
            gain: "linear".into(),
            ordering: "score".into(),
            tie_rule: "docid descending".into(),
            empty_gold: "exclude".into(),
            unjudged: "non-relevant".into(),
        }
    }

    fn proto() -> Protocol {
        Protocol {
            protocol_format: PROTOCOL_FORMAT,
            metric_version: METRIC_VERSION,
            qrels_sha256: "aa".into(),
            query_set_sha256: "bb".into(),
            queries: 2,
            corpus_sha256: None,
            chunk_map_sha256: None,
            metrics: [("ndcg@10".to_string(), def(10))].into(),
            run_context: BTreeMap::new(),
            rows_sha256: None,
            judged_bounds: None,
            judge: None,
        }
    }

    #[test]
    fn sha256_matches_the_standard_test_vector() {
        // FIPS 180-2 appendix B.1.
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn sorted_records_hash_ignores_input_order() {
        let a = sorted_records_hash(vec![vec![b"q2", b"D1"], vec![b"q1", b"D9"]]);
        let b = sorted_records_hash(vec![vec![b"q1", b"D9"], vec![b"q2", b"D1"]]);
        assert_eq!(a, b);
        let mut h = CanonicalHash::default();
        h.record(&[b"q1", b"D9"]);
        h.record(&[b"q2", b"D1"]);
        assert_eq!(a, h.finish());
        assert_eq!(h_of("q1\tD9\nq2\tD1\n"), a);
    }

    fn h_of(s: &str) -> String {
        sha256_hex(s.as_bytes())
    }

    #[test]
    fn differences_name_each_field_with_both_values() {
        let b = proto();
        let mut c = proto();
        c.qrels_sha256 = "cc".into();
        c.metrics.get_mut("ndcg@10").unwrap().tie_rule = "file order".into();
        c.run_context.insert("method.model".into(), "bge".into());
        let d = differences(&b, &c, &["ndcg@10".into()]);
        assert_eq!(d.len(), 2, "{d:?}");
        assert_eq!(d[0].field, "qrels-sha256");
        assert_eq!(
            (d[0].baseline.as_str(), d[0].candidate.as_str()),
            ("aa", "cc")
        );
        assert_eq!(d[1].field, "ndcg@10.tie-rule");
        // The run context is not part of the comparable protocol.
        assert_eq!(b.hash(&[]), proto().hash(&[]));
        assert_eq!(context_differences(&b, &c), ["method.model: — → bge"]);
    }

    #[test]
    fn the_relevance_level_of_a_graded_metric_is_no_difference() {
        let (b, mut c) = (proto(), proto());
        c.metrics.get_mut("ndcg@10").unwrap().rel_level = 2;
        assert!(differences(&b, &c, &["ndcg@10".into()]).is_empty());
        // A binary metric's values do depend on it.
        let (mut b, mut c) = (proto(), proto());
        let binary = MetricDefinition {
            gain: "binary".into(),
            ..def(5)
        };
        b.metrics.insert("recall@5".into(), binary.clone());
        c.metrics.insert(
            "recall@5".into(),
            MetricDefinition {
                rel_level: 2,
                ..binary
            },
        );
        let d = differences(&b, &c, &["recall@5".into()]);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].field, "recall@5.rel-level");
    }

    #[test]
    fn metrics_outside_the_comparison_do_not_count() {
        let b = proto();
        let mut c = proto();
        c.metrics.insert("recall@5".into(), def(5));
        assert!(differences(&b, &c, &["ndcg@10".into()]).is_empty());
        assert_eq!(b.hash(&["ndcg@10".into()]), c.hash(&["ndcg@10".into()]));
        let d = differences(&b, &c, &["recall@5".into()]);
        assert_eq!(d[0].field, "recall@5.cutoff");
        assert_eq!(d[0].baseline, "absent from the fingerprint");
    }

    #[test]
    fn the_judge_is_compared_but_not_its_date() {
        let judge = |model: &str| Judge {
            model: model.into(),
            prompt_hash: "sha256:01".into(),
            settings: "{\"temperature\":0}".into(),
        };
        let (mut b, mut c) = (proto(), proto());
        b.judge = Some(judge("m1"));
        c.judge = Some(judge("m2"));
        let d = differences(&b, &c, &[]);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(
            (
                d[0].field.as_str(),
                d[0].baseline.as_str(),
                d[0].candidate.as_str()
            ),
            ("judge-model", "m1", "m2")
        );
        assert_ne!(b.hash(&[]), c.hash(&[]));
        c.judge = None;
        let d = differences(&b, &c, &[]);
        assert_eq!(d.len(), 3, "{d:?}");
        assert!(d.iter().all(|x| x.candidate == NO_JUDGE), "{d:?}");
        // Human labels: no judge fields, the fingerprint as before.
        assert!(!proto()
            .fields(&[])
            .iter()
            .any(|(f, _)| f.starts_with("judge")));
    }

    #[test]
    fn sidecar_sits_next_to_the_rows() {
        assert_eq!(
            sidecar_path(std::path::Path::new("out/b.jsonl")),
            std::path::PathBuf::from("out/b.jsonl.protocol.json")
        );
    }
}
