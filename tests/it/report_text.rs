//! The default text report of a runs-based check reads in a reviewer's order: the verdict, the
//! gates, the deltas, the worst regressions, the warnings, then the details; the protocol table
//! only with `--details` or `[report] details = true`. A slice smaller than min-queries shows
//! no interval and no MDE; the tie table names each gate's rule. On the TREC-COVID fixtures.

use crate::support;
use support::{GateFile, TestContext};

const COVID: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/eval/fixtures/trec-covid-r2"
);

/// sim vs t5 with a 4-query slice and a gate with two rules on ndcg@10; `report` is appended
/// as the gate file's `[report]` table.
fn sim_vs_t5(report: &str) -> TestContext {
    let ctx = TestContext::new();
    let queries: String = (1..=35)
        .map(|q| {
            let kind = if q <= 4 { "when" } else { "what" };
            format!("{{\"query_id\":\"{q}\",\"slices\":{{\"qtype\":\"{kind}\"}}}}\n")
        })
        .collect();
    ctx.write("queries.jsonl", queries);
    ctx.gate(
        GateFile::default()
            .path("qrels", format!("{COVID}/qrels.covid-round2.txt"))
            .queries("queries.jsonl")
            .input(
                "baseline",
                format!("{{ run = \"{COVID}/run.covidex-sim.txt\" }}"),
            )
            .input(
                "candidate",
                format!("{{ run = \"{COVID}/run.covidex-t5.txt\" }}"),
            )
            .resamples(300)
            .table(
                "slices",
                "by = [\"qtype\"]\nmin-queries = 30\non-small-slice = \"warn\"",
            )
            .gate("ndcg@10", "max-drop = 0.05\nmin-mean = 0.2")
            .gates_raw(report),
    );
    ctx
}

/// The text report (exit 0 or 1).
fn text(ctx: &TestContext, more: &[&str]) -> String {
    let out = ctx.check(more);
    out.verdict();
    out.stdout
}

/// Where each of `heads` starts in `s`, asserting each is there.
fn at(s: &str, heads: &[&str]) -> Vec<usize> {
    heads
        .iter()
        .map(|h| s.find(h).unwrap_or_else(|| panic!("{h:?} not in\n{s}")))
        .collect()
}

#[test]
fn the_default_text_report_puts_gates_and_warnings_before_the_details() {
    let s = text(&sim_vs_t5(""), &[]);
    assert!(s.starts_with("rag-gate gate: "), "{s}");
    let order = at(
        &s,
        &[
            "\nGates\n",
            "\nDeltas (",
            "\nWorst regressions",
            "\nWarnings\n",
            "\nTie sensitivity",
            "\nNotes\n",
        ],
    );
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}\n{s}");
    // The protocol: its status line only, last, saying how to see the table.
    assert!(!s.contains("\nProtocol ("), "{s}");
    assert!(!s.contains("ndcg@10.rel-level"), "{s}");
    let last = s.lines().last().unwrap();
    assert!(last.starts_with("protocol shared: sha256 "), "{last}");
    assert!(
        last.ends_with("fields: --details or [report] details = true)"),
        "{last}"
    );
}

#[test]
fn the_protocol_table_appears_only_when_asked_for() {
    let plain = sim_vs_t5("");
    for s in [
        text(&plain, &["--details"]),
        text(&sim_vs_t5("[report]\ndetails = true\n"), &[]),
    ] {
        let [table, tail] = at(&s, &["\nProtocol (shared)\n", "\nprotocol shared: sha256 "])[..]
        else {
            unreachable!()
        };
        assert!(table < tail, "{s}");
        assert!(s.contains("ndcg@10.rel-level"), "{s}");
        assert!(!s.contains("--details or [report] details"), "{s}");
    }
    // JSON carries the protocol's fields whatever the flag.
    let (_, v) = plain.check_json(&[]).verdict_json();
    assert!(v["protocol"]["fields"].as_array().unwrap().len() > 5, "{v}");
}

#[test]
fn a_slice_below_min_queries_shows_no_interval_and_ties_name_the_rule() {
    let s = text(&sim_vs_t5(""), &[]);
    let row = s
        .lines()
        .find(|l| l.contains("ndcg@10") && l.contains("qtype=when"))
        .unwrap_or_else(|| panic!("{s}"));
    assert!(row.contains("too small: 4 < min-queries 30"), "{row}");
    assert!(!row.contains(" [") && !row.contains("0.0000  "), "{row}");
    assert!(s.contains("#1 ndcg@10 on all (max-drop)"), "{s}");
    assert!(s.contains("#1 ndcg@10 on all (min-mean)"), "{s}");
}
