//! The Markdown report: whole-report snapshots, escaping of everything user-supplied, and the
//! size limit.

mod support;

use rag_gate::report::markdown::{escape, marker, render, render_trimmed, GITHUB_COMMENT_LIMIT};
use support::report::{failing_report, huge_report, passing_report};

#[test]
fn failing_report_snapshot() {
    insta::assert_snapshot!("failing_report", render(&failing_report()));
}

#[test]
fn passing_report_snapshot() {
    insta::assert_snapshot!("passing_report", render(&passing_report()));
}

#[test]
fn first_line_is_the_marker_and_then_the_worst_reason() {
    let md = render(&failing_report());
    let mut lines = md.lines();
    assert_eq!(lines.next(), Some("<!-- rag-gate:v1 id=prod -->"));
    assert_eq!(lines.next(), Some("### ❌ rag-gate: fail (prod)"));
    let reason = md.lines().find(|l| l.starts_with("**")).unwrap();
    assert_eq!(
        reason,
        "**`ndcg@10` dropped 0.0310 [−0.0480, −0.0150] on risk=compliance** · 1 of 4 checks failed"
    );
}

#[test]
fn a_headline_from_the_report_wins_over_the_derived_reason() {
    let mut r = failing_report();
    r.headline = "recall fell off a cliff".into();
    // The headline carries its own counts ("2 of 6 checks failed (3 gates)").
    assert!(render(&r).contains("**recall fell off a cliff**\n"));
}

#[test]
fn same_report_same_bytes() {
    assert_eq!(render(&failing_report()), render(&failing_report()));
}

#[test]
fn pipes_are_escaped_so_table_rows_stay_whole() {
    assert_eq!(escape("a|b"), "a\\|b");
    let mut r = failing_report();
    r.comparisons[0].slice = "lang=en|fr".into();
    let md = render(&r);
    let row = md.lines().find(|l| l.contains("lang=en")).unwrap();
    assert!(row.contains("lang=en\\|fr"), "{row}");
    // As many cells as the header of its table: the escaped pipe did not split the row.
    let header = md
        .lines()
        .find(|l| l.starts_with("| metric | slice | n |"))
        .unwrap();
    assert_eq!(
        row.matches(" | ").count(),
        header.matches(" | ").count(),
        "{row}"
    );
}

#[test]
fn backticks_are_escaped_so_no_code_span_opens() {
    assert_eq!(escape("q`1`"), "q\\`1\\`");
    let mut r = failing_report();
    r.comparisons[0].worst[0].query_id = "```rm -rf```".into();
    let md = render(&r);
    assert!(md.contains("\\`\\`\\`rm -rf\\`\\`\\`"));
    assert!(!md.contains("```rm"));
}

#[test]
fn angle_brackets_are_escaped_so_the_marker_cannot_be_closed() {
    assert_eq!(escape("<!-- x -->"), "&lt;!-- x --&gt;");
    let mut r = failing_report();
    r.comparisons[0].worst[0].query_id = "--> <script>".into();
    r.gate_id = "prod --> <b>".into();
    let md = render(&r);
    assert_eq!(
        md.lines().next(),
        Some("<!-- rag-gate:v1 id=prod_--___b_ -->")
    );
    assert_eq!(
        md.matches("-->").count(),
        1,
        "only the marker closes a comment"
    );
    assert!(!md.contains("<script>") && !md.contains("<b>"));
}

#[test]
fn mentions_and_issue_references_are_defused() {
    assert_eq!(escape("@octocat"), "@&#8203;octocat");
    assert_eq!(escape("#42"), "#&#8203;42");
    let mut r = failing_report();
    r.warnings = vec!["ping @org/team about #12".into()];
    r.comparisons[2].metric = "@here".into();
    let md = render(&r);
    // Mentions inside the forest plot's fenced code block and inside code spans (metric names,
    // kept copyable) are not processed by GitHub.
    let md: String = md.split("```").step_by(2).collect();
    assert!(md.contains("`@here`"));
    let md: String = md.split('`').step_by(2).collect();
    assert!(!md.contains("@org") && !md.contains("#12") && !md.contains("@here"));
    assert!(md.contains("@&#8203;org/team about #&#8203;12"));
}

#[test]
fn line_breaks_in_names_do_not_split_rows() {
    assert_eq!(escape("a\nb\r\nc"), "a b  c");
}

#[test]
fn marker_ids_cannot_be_prefixes_of_each_other() {
    assert_eq!(marker("prod"), "<!-- rag-gate:v1 id=prod -->");
    assert!(!marker("prod eu").starts_with(&marker("prod")));
    assert_eq!(marker(""), "<!-- rag-gate:v1 id=_ -->");
}

#[test]
fn a_report_that_fits_is_not_trimmed() {
    let r = failing_report();
    assert_eq!(render_trimmed(&r, GITHUB_COMMENT_LIMIT), render(&r));
}

#[test]
fn huge_report_drops_per_query_detail_first_and_says_so() {
    let r = huge_report(150);
    assert!(render(&r).len() > GITHUB_COMMENT_LIMIT);
    let t = render_trimmed(&r, GITHUB_COMMENT_LIMIT);
    assert!(t.len() <= GITHUB_COMMENT_LIMIT, "{}", t.len());
    assert!(t.starts_with("<!-- rag-gate:v1 id=prod -->\n"));
    assert!(t.contains("Per-query detail was left out"));
    assert!(!t.contains("query-0000-000"), "per-query rows are gone");
    assert!(t.contains("domain=d0149"), "all comparison rows still fit");
}

#[test]
fn very_huge_report_drops_rows_but_keeps_failed_gates() {
    let mut r = huge_report(3000);
    let failing = r.gates[2].clone();
    r.gates = (0..2000).map(|_| r.gates[0].clone()).collect();
    r.gates.push(failing);
    let t = render_trimmed(&r, GITHUB_COMMENT_LIMIT);
    assert!(t.len() <= GITHUB_COMMENT_LIMIT, "{}", t.len());
    assert!(t.contains("more comparison rows, left out to fit the size limit"));
    assert!(
        t.contains("| 3 | `ndcg@10` | risk=compliance | max-drop |"),
        "the failed gate is kept"
    );
}

#[test]
fn tiny_limit_cuts_on_a_char_boundary_and_says_so() {
    let t = render_trimmed(&failing_report(), 300);
    assert!(t.len() <= 300, "{}", t.len());
    assert!(t.ends_with("see the job summary or report file)\n"));
}
