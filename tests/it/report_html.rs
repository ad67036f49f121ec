//! `--export-html`: one self-contained page, parsed as XML, with one SVG mark per comparison,
//! a zero line per forest plot, and gated and failing rows marked.

use crate::support;

use support::TestContext;

/// The shipped example exported as HTML and JSON in a new folder: the page and the report.
fn export() -> (String, serde_json::Value) {
    let ctx = TestContext::new().env_clear();
    let out = ctx.check_example(&[
        "--resamples",
        "500",
        "--export-html",
        "report.html",
        "--export-json",
        "report.json",
    ]);
    assert_eq!(out.code, Some(1), "the example fails one gate");
    let report = serde_json::from_str(&ctx.read("report.json")).unwrap();
    (ctx.read("report.html"), report)
}

/// roxmltree refuses a DTD unless asked; the HTML5 doctype declares nothing.
fn parse(html: &str) -> roxmltree::Document<'_> {
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    roxmltree::Document::parse_with_options(html, opts).expect("the page is well-formed")
}

fn class_has(n: &roxmltree::Node<'_, '_>, word: &str) -> bool {
    n.attribute("class")
        .is_some_and(|c| c.split_whitespace().any(|w| w == word))
}

#[test]
fn the_html_report_has_one_mark_per_comparison_and_marks_gated_and_failing_rows() {
    let (html, report) = export();
    let doc = parse(&html);
    let comparisons = report["comparisons"].as_array().unwrap();
    let marks: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("circle") && class_has(n, "mark"))
        .collect();
    assert_eq!(marks.len(), comparisons.len());

    let metrics: std::collections::BTreeSet<&str> = comparisons
        .iter()
        .map(|c| c["metric"].as_str().unwrap())
        .collect();
    let svgs: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("svg"))
        .collect();
    assert_eq!(svgs.len(), metrics.len(), "one forest plot per metric");
    for svg in &svgs {
        let zero = svg
            .descendants()
            .filter(|n| n.has_tag_name("line") && class_has(n, "zero"))
            .count();
        assert_eq!(zero, 1, "each plot has its zero line");
    }

    let failing: Vec<String> = doc
        .descendants()
        .filter(|n| n.has_tag_name("g") && class_has(n, "failing"))
        .map(|g| {
            g.descendants()
                .find(|n| n.has_tag_name("title"))
                .and_then(|t| t.text())
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(failing.len(), 1, "{failing:?}");
    assert!(
        failing[0].starts_with("ndcg@10 risk=compliance: −0.06"),
        "{failing:?}"
    );
    let gated = doc
        .descendants()
        .filter(|n| n.has_tag_name("g") && class_has(n, "gated"))
        .count();
    assert_eq!(gated, 3, "recall@5, mrr@5 and ndcg@10 on all");
    // The dashed allowed-drop ticks of the max-drop gate (all and risk=compliance).
    let margins = doc
        .descendants()
        .filter(|n| n.has_tag_name("line") && class_has(n, "margin"))
        .count();
    assert_eq!(margins, 2);
}

#[test]
fn the_html_report_is_self_contained() {
    let (html, _) = export();
    let doc = parse(&html);
    assert!(doc
        .descendants()
        .all(|n| !n.has_tag_name("script") && !n.has_tag_name("link") && !n.has_tag_name("img")));
    assert!(doc
        .descendants()
        .all(|n| n.attribute("src").is_none() && n.attribute("href").is_none()));
    assert!(doc.descendants().any(|n| n.has_tag_name("style")));
    for section in ["Forest plots", "Gates", "Comparisons", "Worst regressions"] {
        assert!(
            doc.descendants()
                .any(|n| n.has_tag_name("h2") && n.text().is_some_and(|t| t.starts_with(section))),
            "{section}"
        );
    }
}

#[test]
fn same_inputs_same_bytes() {
    assert_eq!(export().0, export().0);
}
