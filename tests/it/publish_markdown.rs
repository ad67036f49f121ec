//! The Markdown report: whole-report snapshots, escaping of everything user-supplied, and the
//! size limit.

use crate::support;

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
fn first_line_is_the_marker_and_then_the_verdict_with_the_worst_reason() {
    let r = failing_report();
    let md = render(&r);
    let mut lines = md.lines();
    let state = rag_gate::report::markdown::state_digest(&r);
    assert_eq!(
        lines.next(),
        Some(format!("<!-- rag-gate:v1 id=prod state={state} -->").as_str())
    );
    assert_eq!(
        lines.next(),
        Some("### ❌ rag-gate fail: ndcg@10 dropped 0.0310 \\[−0.0480, −0.0150\\] on risk=compliance (allowed drop 0.0100); 1 of 4 checks failed (2 gates)")
    );
    assert_eq!(lines.next(), Some(""));
    assert_eq!(
        lines.next(),
        Some("gate **prod** · 1 check not judged (too small), never passed · 412 queries paired")
    );
}

#[test]
fn the_heading_says_the_headline_without_its_prefix() {
    let mut r = failing_report();
    r.headline = "FAIL: recall fell off a cliff".into();
    assert!(render(&r).contains("\n### ❌ rag-gate fail: recall fell off a cliff\n"));
}

#[test]
fn metric_names_are_code_spans_that_never_wrap_at_the_at_sign() {
    let md = render(&failing_report());
    // A zero-width space is a line-break opportunity ("ndcg@ / 10"); none is left anywhere.
    assert!(!md.contains("&#8203;") && !md.contains('\u{200B}'));
    assert!(md.contains("| `ndcg@10` | risk=compliance | max-drop | CI low −0.0480 | ≥ −0.0100 | ❌ **fail** | worse |"), "{md}");
}

#[test]
fn gated_values_say_what_they_are() {
    let md = render(&failing_report());
    assert!(md.contains("| `recall@5` | all | min-mean | mean 0.9650 | ≥ 0.9500 | ✅ pass |"));
    assert!(
        md.contains(
            "| `ndcg@10` | risk=legal | max-drop | — | too few queries | ⚠️ not judged (too small) |"
        ),
        "{md}"
    );
}

#[test]
fn the_first_screen_is_gated_rows_and_changes_the_rest_is_folded() {
    let md = render(&failing_report());
    let folded = md.find("<details>").unwrap();
    let (screen, rest) = md.split_at(folded);
    assert!(screen.contains("**Changed beyond the margin** (2 of 3)"));
    assert!(
        screen.contains(
            "| `ndcg@10` | risk=compliance | 64 | −0.0310 [−0.0480, −0.0150] | ±0.0100 | ▼ worse |"
        ),
        "{screen}"
    );
    assert!(
        !screen.contains("recall@5` | all | 412"),
        "unchanged rows are folded"
    );
    for part in [
        "All 3 comparisons",
        "Forest plot",
        "Worst per-query regressions",
        "Protocol",
        "Warnings (1)",
    ] {
        assert!(rest.contains(part), "{part}");
    }
}

#[test]
fn a_query_regressed_on_several_slices_is_listed_once() {
    let md = render(&failing_report());
    assert_eq!(md.matches("| q\\_0192 |").count(), 1, "{md}");
    assert!(md.contains("| q\\_0192 | 0.9100 → 0.3300 | −0.5800 | all, risk=compliance |"));
}

#[test]
fn the_forest_plot_always_shows_the_zero_line() {
    let md = render(&failing_report());
    let plots = md
        .split("```text\n")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    let plot = plots.split("\n\n").next().unwrap();
    assert!(plot.starts_with("ndcg@10 "), "{plots}");
    let rows: Vec<&str> = plot
        .lines()
        .filter(|l| l.contains('[') && !l.trim().is_empty())
        .collect();
    assert_eq!(rows.len(), 2, "{plot}");
    // Every row has its zero mark in the same column, whatever its interval covers.
    let zero_col = |l: &str| l.chars().position(|c| c == '|').unwrap();
    let col = zero_col(rows[0]);
    assert!(rows.iter().all(|r| zero_col(r) == col), "{plot}");
    assert!(rows[1].contains('!'), "the failing row is marked: {plot}");
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
    // The row of the all-comparisons table (it has the most cells).
    let row = md
        .lines()
        .find(|l| l.contains("lang=en") && l.contains('→'))
        .unwrap();
    assert!(row.contains("lang=en\\|fr"), "{row}");
    // As many cells as the header of its table: the escaped pipe did not split the row.
    let header = md
        .lines()
        .find(|l| l.starts_with("| metric | slice | n | baseline → candidate |"))
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
    assert!(md
        .lines()
        .next()
        .unwrap()
        .starts_with("<!-- rag-gate:v1 id=prod_--___b_ state="));
    assert_eq!(
        md.matches("-->").count(),
        1,
        "only the marker closes a comment"
    );
    assert!(!md.contains("<script>") && !md.contains("<b>"));
}

#[test]
fn mentions_and_issue_references_are_defused() {
    assert_eq!(escape("@octocat"), "@&#8288;octocat");
    assert_eq!(escape("#42"), "#&#8288;42");
    // A metric's cutoff is no mention: copied from the comment, it is the metric.
    assert_eq!(escape("recall@5"), "recall@5");
    assert_eq!(escape("hit@10 and @5"), "hit@10 and @&#8288;5");
    assert_eq!(escape("a@b"), "a@&#8288;b");
    let mut r = failing_report();
    r.warnings = vec!["ping @org/team about #12".into()];
    r.comparisons[2].metric = "@here".into();
    r.gates[0].metric = "@here".into();
    let md = render(&r);
    // Mentions inside code (the forest plot's fenced block, a metric's code span) are not
    // processed by GitHub.
    let md: String = md.split("```").step_by(2).collect();
    assert!(md.contains("`@here`"));
    let md: String = md.split('`').step_by(2).collect();
    assert!(!md.contains("@org") && !md.contains("#12") && !md.contains("@here"));
    assert!(md.contains("@&#8288;org/team about #&#8288;12"));
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
    let r = huge_report(250);
    assert!(render(&r).len() > GITHUB_COMMENT_LIMIT);
    let t = render_trimmed(&r, GITHUB_COMMENT_LIMIT);
    assert!(t.len() <= GITHUB_COMMENT_LIMIT, "{}", t.len());
    assert!(t.starts_with("<!-- rag-gate:v1 id=prod state="));
    assert!(t.contains(
        "> Left out to fit the size limit: the per-query regressions, the forest plot. The full report: the job summary"
    ), "{}", &t[..600]);
    assert!(!t.contains("query-0000-000"), "per-query rows are gone");
    assert!(t.contains("domain=d0249"), "all comparison rows still fit");
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
        t.contains("| `ndcg@10` | risk=compliance | max-drop | CI low −0.0480 |"),
        "the failed gate is kept"
    );
    assert!(t.ends_with("</sub>\n"), "the footer stays");
}

#[test]
fn tiny_limit_cuts_on_a_char_boundary_and_says_so() {
    let t = render_trimmed(&failing_report(), 300);
    assert!(t.len() <= 300, "{}", t.len());
    assert!(
        t.contains("(cut to fit the size limit; the full report: the job summary"),
        "{t}"
    );
    assert!(t.ends_with("unit: group</sub>\n"), "the footer stays: {t}");
}
