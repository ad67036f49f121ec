//! Pairing: strict by default, intersect on request, tags merged from the trusted sources (the
//! baseline and the queries file); the candidate may only repeat them.

use super::*;

type Row<'a> = (&'a str, f64, Option<&'a str>, &'a [(&'a str, &'a str)]);

fn table(src: &str, rows: &[Row]) -> MetricTable {
    let mut t = MetricTable::new(src);
    let mut col = Vec::new();
    for (i, (id, v, g, tags)) in rows.iter().enumerate() {
        let tags = tags.iter().map(|(a, b)| (a.to_string(), b.to_string()));
        t.rows.push(id, i + 1, *g, tags.collect());
        col.push(Some(*v));
    }
    t.metrics.insert("m".into(), col.into());
    t
}

#[test]
fn pairs_by_id_in_byte_order_with_tags_and_groups() {
    let b = table(
        "b",
        &[
            ("q2", 0.5, Some("g2"), &[("lang", "ko")]),
            ("q1", 0.1, Some("g1"), &[("lang", "en")]),
        ],
    );
    let c = table(
        "c",
        &[
            ("q1", 0.2, None, &[("lang", "en")]),
            ("q2", 0.4, Some("g2"), &[]),
        ],
    );
    let p = pair(&b, &c, None, Missing::Error, &["m".into()]).unwrap();
    assert_eq!(p.ids, vec!["q1", "q2"]);
    assert_eq!(
        p.metrics["m"],
        MetricPair {
            baseline: vec![0.1, 0.5],
            candidate: vec![0.2, 0.4]
        }
    );
    assert_eq!(p.tags["lang"]["en"], vec![0]);
    assert_eq!(p.tags["lang"]["ko"], vec![1]);
    assert_eq!(p.group_of, vec![Some(0), Some(1)]);
    assert_eq!(p.group_names, vec!["g1", "g2"]);
}

#[test]
fn mismatched_query_sets_are_an_error_or_dropped_on_request() {
    let b = table(
        "b.jsonl",
        &[
            ("q1", 0.1, None, &[]),
            ("q2", 0.5, None, &[]),
            ("q3", 0.5, None, &[]),
        ],
    );
    let c = table("c.jsonl", &[("q1", 0.2, None, &[]), ("q4", 0.4, None, &[])]);
    let e = pair(&b, &c, None, Missing::Error, &["m".into()])
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "c.jsonl: lacks 2 queries that b.jsonl has: \"q2\" (line 2), \"q3\" (line 3); pair them, or set missing = \"intersect\" in [inputs]"
    );
    let p = pair(&b, &c, None, Missing::Intersect, &["m".into()]).unwrap();
    assert_eq!(p.ids, vec!["q1"]);
    assert_eq!(
        (p.info.dropped_baseline_only, p.info.dropped_candidate_only),
        (2, 1)
    );
    assert_eq!(p.info.dropped_examples, vec!["q2", "q3", "q4"]);
    assert_eq!(p.warnings.len(), 1);
}

#[test]
fn conflicting_tags_and_missing_values_are_errors() {
    let b = table("b", &[("q1", 0.1, None, &[("lang", "ko")])]);
    let c = table("c", &[("q1", 0.2, None, &[("lang", "en")])]);
    let e = pair(&b, &c, None, Missing::Error, &["m".into()])
        .unwrap_err()
        .to_string();
    assert_eq!(e, "c:1: query \"q1\": slice tag \"lang\" is \"en\" here but \"ko\" in b:1; slice tags and groups come from the queries file or the baseline, never the candidate; drop it from the candidate or give it there");

    // A tag or a group the trusted side does not give: the candidate cannot add it.
    let b = table("b", &[("q1", 0.1, None, &[])]);
    let c = table("c", &[("q1", 0.2, None, &[("risk", "compliance")])]);
    let e = pair(&b, &c, None, Missing::Error, &["m".into()])
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("c:1: query \"q1\": slice tag \"risk\" is \"compliance\" here but b leaves it untagged;"),
        "{e}"
    );
    let c = table("c", &[("q1", 0.2, Some("g9"), &[])]);
    let e = pair(&b, &c, None, Missing::Error, &["m".into()])
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("c:1: query \"q1\": group is \"g9\" here but b gives it no group;"),
        "{e}"
    );

    let b = table("b", &[("q1", 0.1, Some("g1"), &[])]);
    let mut q = Rows::default();
    q.push("q1", 7, Some("g2"), Default::default());
    let e = pair(
        &b,
        &b.clone(),
        Some((&q, "q.jsonl")),
        Missing::Error,
        &["m".into()],
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with("q.jsonl:7: query \"q1\": group is \"g2\" here but \"g1\""),
        "{e}"
    );

    let mut c = table("c", &[("q1", 0.2, None, &[]), ("q2", 0.2, None, &[])]);
    let b = table("b", &[("q1", 0.2, None, &[]), ("q2", 0.2, None, &[])]);
    c.metrics.get_mut("m").unwrap().set(1, None);
    let e = pair(&b, &c, None, Missing::Error, &["m".into()])
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "c:2: metric \"m\" is missing for 1 query: \"q2\" (line 2)"
    );
}
