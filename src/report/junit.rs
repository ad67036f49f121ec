//! JUnit XML renderer, for the CI systems that read test reports rather than comments (GitLab's
//! `artifacts:reports:junit`, Jenkins, Azure Pipelines, CircleCI, Buildkite).
//!
//! One `<testsuite>` per gate file (named by its gate id), one `<testcase>` per gate × slice ×
//! rule (`#1 max-drop ndcg@10 on all`). A check that failed is a `<failure>` whose message is
//! that check's headline (the line the report's headline gives when it is the reason); a check
//! that was not judged (too small, too few judgments) is `<skipped>` with its reason, or a
//! `<failure>` when it fails the build (a gate never passes on nothing). Every gate case, passing
//! too, carries its value, threshold and result in `<system-out>` (what CI widgets show beside
//! the name; junit-10.xsd has no per-case properties). The run-level gates of
//! `[efficiency]` follow as one case each (`#4 max-increase index-bytes (run level)`). The seed,
//! resamples, confidence, interval method and the baseline's provenance are the suite's
//! `<properties>`.
//!
//! The layout follows the Jenkins xUnit plugin's `junit-10.xsd` (checked in CI with xmllint) and
//! is read back by junitparser in the tests. No `time` or `timestamp`: same report, same bytes.

use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;

use crate::model::{GateResult, GateStatus, Report, RunGateStatus};
use crate::safe_text::{one_line, shown};
use crate::verdict::check_line;

/// The report of one gate file as a JUnit document with one suite.
pub fn render(report: &Report) -> String {
    render_all(&[report])
}

/// Several gate files' reports as one JUnit document: a suite per report, in the given order.
pub fn render_all(reports: &[&Report]) -> String {
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    put(
        &mut w,
        Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)),
    );
    let all: Vec<Vec<Case>> = reports.iter().map(|r| cases(r)).collect();
    let totals = all
        .iter()
        .map(|c| counts(c))
        .fold([0; 3], |a, c| [a[0] + c[0], a[1] + c[1], a[2] + c[2]]);
    let mut root = BytesStart::new("testsuites");
    root.push_attribute(("name", "rag-gate"));
    push_counts(&mut root, totals, false);
    put(&mut w, Event::Start(root));
    for (r, c) in reports.iter().zip(&all) {
        suite(&mut w, r, c);
    }
    put(&mut w, Event::End(BytesEnd::new("testsuites")));
    let mut xml = String::from_utf8(w.into_inner()).expect("the writer is given UTF-8 only");
    xml.push('\n');
    xml
}

/// Writing into a `Vec` cannot fail.
fn put(w: &mut Writer<Vec<u8>>, event: Event<'_>) {
    w.write_event(event).expect("writing XML into memory");
}

/// Text fit for an XML attribute or element: one visible line (control characters, which XML
/// 1.0 cannot hold, escaped as `\u{..}`).
fn clean(s: &str) -> String {
    one_line(s)
}

/// One test case: its name, its figures (`<system-out>`, which CI widgets show beside the
/// name) and, unless it passed, how it did not.
struct Case {
    name: String,
    figures: Option<String>,
    /// `failure` or `skipped`, its message, its type and its text.
    outcome: Option<(&'static str, String, String, String)>,
}

/// The test cases of one report: the gates on per-query metrics (gate × slice × rule), then the
/// run-level gates of `[efficiency]`.
fn cases(r: &Report) -> Vec<Case> {
    let alpha = 1.0 - r.confidence;
    let mut out: Vec<Case> = r
        .gates
        .iter()
        .map(|g| {
            let tag = if g.fails_build {
                Some("failure")
            } else if matches!(g.status, GateStatus::TooSmall | GateStatus::Inconclusive) {
                Some("skipped")
            } else {
                None
            };
            Case {
                name: case_name(g),
                figures: Some(figures(g)),
                outcome: tag.map(|t| {
                    let message = check_line(g, &r.gates, &r.comparisons, alpha);
                    (t, message, g.decided_by.clone(), g.detail.clone())
                }),
            }
        })
        .collect();
    for g in r.efficiency.iter().flat_map(|e| &e.gates) {
        let name = format!("#{} {} {} (run level)", g.gate, g.rule, shown(&g.metric));
        let outcome = g.fails_build.then(|| {
            let verb = match g.status {
                RunGateStatus::NotJudged => "not judged",
                _ => "failed",
            };
            let message = format!("{} {verb}: {}", shown(&g.metric), g.detail);
            ("failure", message, g.decided_by.clone(), g.detail.clone())
        });
        let figures = None;
        out.push(Case {
            name,
            figures,
            outcome,
        });
    }
    out
}

/// `value -0.0061 · threshold -0.0100 · pass (decided by …)`: what the gate compared.
fn figures(g: &GateResult) -> String {
    let result = match g.status {
        GateStatus::Pass => "pass",
        GateStatus::Fail => "fail",
        GateStatus::TooSmall => "not judged",
        GateStatus::Untouched => "untouched",
        GateStatus::Inconclusive => "inconclusive",
    };
    format!(
        "value {} · threshold {} · {result} (decided by {})",
        crate::numbers::plain(g.value),
        crate::numbers::plain(g.threshold),
        g.decided_by
    )
}

/// [tests, failures, skipped] of some cases.
fn counts(cases: &[Case]) -> [usize; 3] {
    let of = |tag: &str| {
        cases
            .iter()
            .filter(|c| c.outcome.as_ref().is_some_and(|o| o.0 == tag))
            .count()
    };
    [cases.len(), of("failure"), of("skipped")]
}

/// The counts of a `<testsuite>`, or of `<testsuites>` (which has no `skipped` in junit-10.xsd).
fn push_counts(el: &mut BytesStart<'_>, [tests, failures, skipped]: [usize; 3], suite: bool) {
    el.push_attribute(("tests", tests.to_string().as_str()));
    el.push_attribute(("failures", failures.to_string().as_str()));
    el.push_attribute(("errors", "0"));
    if suite {
        el.push_attribute(("skipped", skipped.to_string().as_str()));
    }
}

fn suite(w: &mut Writer<Vec<u8>>, r: &Report, cases: &[Case]) {
    let mut el = BytesStart::new("testsuite");
    el.push_attribute(("name", clean(&r.gate_id).as_str()));
    push_counts(&mut el, counts(cases), true);
    put(w, Event::Start(el));
    properties(w, r);
    let class = clean(&format!("rag-gate.{}", r.gate_id));
    for c in cases {
        case(w, &class, c);
    }
    put(w, Event::End(BytesEnd::new("testsuite")));
}

/// The suite's provenance: how the numbers were made and where the baseline came from.
fn properties(w: &mut Writer<Vec<u8>>, r: &Report) {
    let mut props: Vec<(&str, String)> = vec![
        ("verdict", r.verdict.as_str().to_string()),
        ("headline", r.headline.clone()),
        ("seed", r.seed.to_string()),
        ("resamples", r.resamples.to_string()),
        ("confidence", r.confidence.to_string()),
        ("unit", r.unit.clone()),
        ("method", r.method.clone()),
        ("baseline.input", r.inputs.baseline.clone()),
        ("candidate.input", r.inputs.candidate.clone()),
    ];
    if let Some(b) = &r.baseline {
        props.push(("baseline", b.line.clone()));
        props.push(("baseline.source", b.source.clone()));
        let optional = [
            ("baseline.commit", b.commit.clone()),
            ("baseline.branch", b.branch.clone()),
            ("baseline.run-id", b.run_id.map(|n| n.to_string())),
            ("baseline.run-url", b.run_url.clone()),
            ("baseline.age-days", b.age_days.map(|n| n.to_string())),
            ("baseline.merge-base", b.merge_base.clone()),
        ];
        props.extend(optional.into_iter().filter_map(|(k, v)| Some((k, v?))));
    }
    if let Some(line) = super::probe::header_line(r) {
        props.push(("probe", line));
    }
    props.push(("rag-gate.version", r.rag_gate_version.clone()));
    put(w, Event::Start(BytesStart::new("properties")));
    for (name, value) in props {
        let mut p = BytesStart::new("property");
        p.push_attribute(("name", name));
        p.push_attribute(("value", clean(&value).as_str()));
        put(w, Event::Empty(p));
    }
    put(w, Event::End(BytesEnd::new("properties")));
}

/// `#1 max-drop ndcg@10 on all`: the gate's position, its rule, the metric and the slice.
pub fn case_name(g: &GateResult) -> String {
    format!(
        "#{} {} {} on {}",
        g.gate,
        g.rule,
        shown(&g.name()),
        shown(&g.slice)
    )
}

fn case(w: &mut Writer<Vec<u8>>, class: &str, c: &Case) {
    let mut el = BytesStart::new("testcase");
    el.push_attribute(("name", clean(&c.name).as_str()));
    el.push_attribute(("classname", class));
    if c.outcome.is_none() && c.figures.is_none() {
        put(w, Event::Empty(el));
        return;
    }
    put(w, Event::Start(el));
    if let Some((tag, message, kind, detail)) = &c.outcome {
        let mut inner = BytesStart::new(*tag);
        inner.push_attribute(("message", clean(message).as_str()));
        inner.push_attribute(("type", clean(kind).as_str()));
        put(w, Event::Start(inner));
        put(w, Event::Text(BytesText::new(&clean(detail))));
        put(w, Event::End(BytesEnd::new(*tag)));
    }
    // junit-10.xsd: system-out follows skipped / error / failure.
    if let Some(f) = &c.figures {
        put(w, Event::Start(BytesStart::new("system-out")));
        put(w, Event::Text(BytesText::new(&clean(f))));
        put(w, Event::End(BytesEnd::new("system-out")));
    }
    put(w, Event::End(BytesEnd::new("testcase")));
}
