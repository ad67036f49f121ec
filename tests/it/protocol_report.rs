//! The protocol and judged-coverage parts of the rendered reports: a folded Markdown section,
//! the hash in the footer (Markdown) and on the last line (text), and the JSON fields.

use crate::support;

use std::collections::BTreeMap;

use rag_gate::model::{DeltaAtBound, GateBounds, JudgedBounds, Report};
use rag_gate::protocol::verify::{Field, ProtocolReport, Status};
use support::report::passing_report;

fn with_protocol() -> Report {
    let mut r = passing_report();
    r.protocol = Some(ProtocolReport {
        status: Status::Shared,
        hash: Some("ab".repeat(32)),
        fields: vec![
            Field {
                field: "qrels-sha256".into(),
                value: "cd".repeat(32),
            },
            Field {
                field: "ndcg@10.tie-rule".into(),
                value: "docid descending (byte order)".into(),
            },
        ],
        baseline_context: BTreeMap::from([("method.retrieval.0.model".into(), "bm25".into())]),
        candidate_context: BTreeMap::from([(
            "method.retrieval.0.model".into(),
            "BAAI/bge-base-en-v1.5".into(),
        )]),
        context_changes: vec!["method.retrieval.0.model: bm25 → BAAI/bge-base-en-v1.5".into()],
        note: None,
    });
    let c = &mut r.comparisons[0];
    c.judged = Some(JudgedBounds {
        k: Some(10),
        baseline_judged: Some(0.95),
        candidate_judged: Some(0.875),
        delta: c.delta,
        lower: Some(DeltaAtBound {
            delta: c.delta - 0.01,
            ci: [c.ci[0] - 0.01, c.ci[1] - 0.01],
        }),
        upper: Some(DeltaAtBound {
            delta: c.delta + 0.02,
            ci: [c.ci[0] + 0.02, c.ci[1] + 0.02],
        }),
        exact: true,
        not_computed: None,
        condensed: None,
        baseline_unjudged: Some(12),
        candidate_unjudged: Some(31),
    });
    let (metric, slice) = (c.metric.clone(), c.slice.clone());
    let g = r
        .gates
        .iter_mut()
        .find(|g| g.metric == metric && g.slice == slice)
        .unwrap();
    g.judged = Some(GateBounds {
        lower: "fail".into(),
        upper: "pass".into(),
        unreliable: true,
        judge_first: Some("q1 (candidate d7@2)".into()),
    });
    r
}

#[test]
fn markdown_folds_the_protocol_and_the_judged_bounds() {
    insta::assert_snapshot!(
        "protocol_sections",
        rag_gate::report::markdown::render(&with_protocol())
    );
}

#[test]
fn text_ends_with_the_protocol_hash_and_json_carries_it() {
    let r = with_protocol();
    let text = rag_gate::report::text::render(&r);
    assert!(
        text.ends_with(&format!(
            "protocol shared: sha256 {} (2 fields: --details or [report] details = true)\n",
            "ab".repeat(32)
        )),
        "{text}"
    );
    assert!(text.contains("Judged coverage (one shared judgment per unjudged document"));
    // Each bound with its interval and the gate's decision there, in every format.
    let lower = format!(
        "{:+.4} [{:+.4}, {:+.4}]",
        r.comparisons[0].delta - 0.01,
        r.comparisons[0].ci[0] - 0.01,
        r.comparisons[0].ci[1] - 0.01
    )
    .replace('-', "\u{2212}"); // the reports' minus sign, as everywhere else
    let md = rag_gate::report::markdown::render(&r);
    let html = rag_gate::report::html::render(&r);
    // Markdown escapes brackets and `#` (no issue links).
    let md_plain = md.replace('\\', "").replace("#&#8288;", "#");
    for (name, out) in [("text", &text), ("markdown", &md_plain), ("html", &html)] {
        assert!(out.contains(&lower), "{name}: {out}");
        assert!(
            out.contains("#3 max-drop: fail / pass (unreliable)"),
            "{name}: {out}"
        );
    }
    assert!(html.contains("<h2>Judged coverage</h2>"));
    let v: serde_json::Value = serde_json::from_str(&rag_gate::report::json::render(&r)).unwrap();
    assert_eq!(v["protocol"]["status"], "shared");
    assert_eq!(v["comparisons"][0]["judged"]["candidate_unjudged"], 31);
    // Reports without them keep their old JSON: no null fields appear.
    let plain: serde_json::Value =
        serde_json::from_str(&rag_gate::report::json::render(&passing_report())).unwrap();
    assert!(plain.get("protocol").is_none() && plain["comparisons"][0].get("judged").is_none());
}
