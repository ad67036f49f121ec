//! `check --format junit` and `--export-junit` on the shipped example: a failing run, a passing
//! one and one with checks not judged, snapshotted whole; the structure checked with an XML
//! parser (one suite, a case per gate × slice × rule and per run-level gate, counts that add up,
//! the provenance as properties); the same bytes from `--format junit` and `--export-junit`.
//! CI also validates these reports against junit-10.xsd and reads them back with junitparser
//! (scripts/validate-junit.sh).

use crate::support;
use support::{Out, TestContext};

use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `rag-gate check GATE --format junit` from the repository root, asserting the exit code.
fn junit(gate: &str, code: i32) -> String {
    let out = Out::of(
        TestContext::new()
            .cwd(root())
            .command()
            .args(["check", gate, "--format", "junit"]),
    )
    .expect(code);
    out.stdout
}

/// The attribute `name` of `node`, parsed as a number.
fn number(node: roxmltree::Node, name: &str) -> usize {
    node.attribute(name)
        .unwrap_or_else(|| panic!("<{}> has no {name}", node.tag_name().name()))
        .parse()
        .unwrap()
}

/// Checks the document's shape and returns (tests, failures, skipped) of its one suite.
fn shape(xml: &str) -> (usize, usize, usize) {
    let doc = roxmltree::Document::parse(xml).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let suites: Vec<_> = root.children().filter(|n| n.is_element()).collect();
    assert_eq!(suites.len(), 1, "one suite per gate file");
    let suite = suites[0];
    let cases: Vec<_> = suite
        .children()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    let with = |tag: &str| {
        cases
            .iter()
            .filter(|c| c.children().any(|n| n.has_tag_name(tag)))
            .count()
    };
    let counts = (cases.len(), with("failure"), with("skipped"));
    assert_eq!(
        (
            number(suite, "tests"),
            number(suite, "failures"),
            number(suite, "skipped")
        ),
        counts
    );
    // junit-10.xsd allows no `skipped` on <testsuites>.
    assert_eq!(
        (number(root, "tests"), number(root, "failures")),
        (counts.0, counts.1)
    );
    assert_eq!(number(suite, "errors"), 0);
    let props: Vec<&str> = suite
        .descendants()
        .filter(|n| n.has_tag_name("property"))
        .filter_map(|n| n.attribute("name"))
        .collect();
    for p in [
        "seed",
        "resamples",
        "confidence",
        "verdict",
        "headline",
        "baseline",
    ] {
        assert!(props.contains(&p), "no property {p}: {props:?}");
    }
    for c in &cases {
        // `<system-out>` holds the case's figures; every other child is how it did not pass.
        let outcomes = c
            .children()
            .filter(|n| n.is_element() && !n.has_tag_name("system-out"));
        for outcome in outcomes {
            let message = outcome.attribute("message").unwrap_or("");
            assert!(
                !message.is_empty(),
                "a {} without a message",
                outcome.tag_name().name()
            );
        }
    }
    counts
}

#[test]
fn the_failing_example_has_a_failure_per_failed_check() {
    let xml = junit("gates/prod.toml", 1);
    // 6 checks on per-query metrics (2 failed) and 3 run-level gates (all passed).
    assert_eq!(shape(&xml), (9, 2, 0));
    assert!(xml.contains(
        r##"<testcase name="#3 max-drop ndcg@10 on risk=compliance" classname="rag-gate.prod">"##
    ));
    // The failure's message is the check's headline, the line the report's headline leads with.
    assert!(xml.contains(
        r#"<failure message="ndcg@10 dropped 0.0639 [−0.0932, −0.0353] on risk=compliance (allowed drop 0.0100)""#
    ));
    assert!(xml.contains(r#"<property name="seed" value="17"/>"#));
    assert!(xml.contains(r#"<property name="resamples" value="10000"/>"#));
    insta::assert_snapshot!("example_fail", xml);
}

#[test]
fn a_passing_run_has_no_failure() {
    let xml = junit("tests/data/junit/pass.toml", 0);
    assert_eq!(shape(&xml), (2, 0, 0));
    insta::assert_snapshot!("example_pass", xml);
}

#[test]
fn passing_cases_carry_their_value_and_threshold() {
    let xml = junit("tests/data/junit/pass.toml", 0);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let cases: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    assert!(!cases.is_empty());
    for c in cases {
        let out = c
            .children()
            .find(|n| n.has_tag_name("system-out"))
            .and_then(|n| n.text())
            .unwrap_or_else(|| panic!("{:?} has no system-out", c.attribute("name")));
        assert!(out.starts_with("value "), "{out}");
        assert!(out.contains(" · threshold "), "{out}");
        assert!(out.contains(" · pass (decided by "), "{out}");
    }
}

#[test]
fn checks_not_judged_that_warn_are_skipped_with_their_reason() {
    let xml = junit("tests/data/junit/not-judged.toml", 0);
    let (tests, failures, skipped) = shape(&xml);
    assert_eq!(tests, 4, "{xml}");
    // min-mean and max-drop on `all` (480 queries) are judged; max-drop on language=de and =ko
    // (fewer than 200 queries) is not: a warning (on-small-slice = "warn"), so skipped, with
    // its reason; the build passes, and the report says "not passed".
    assert_eq!((failures, skipped), (0, 2), "{xml}");
    assert!(
        xml.contains("<skipped message=\"ndcg@10 on language=de not judged"),
        "{xml}"
    );
    insta::assert_snapshot!("example_not_judged", xml);
}

#[test]
fn checks_not_judged_that_fail_the_build_are_failures() {
    let ctx = TestContext::new();
    let text = std::fs::read_to_string(root().join("tests/data/junit/not-judged.toml")).unwrap();
    let examples = root().join("examples").display().to_string();
    let gate = ctx.path().join("small-fails.toml");
    let text = text
        .replace("../../../examples", &examples)
        .replace("on-small-slice = \"warn\"", "on-small-slice = \"fail\"");
    std::fs::write(&gate, text).unwrap();
    let out = Out::of(
        ctx.command()
            .arg("check")
            .arg(&gate)
            .args(["--format", "junit"]),
    )
    .expect(1);
    let xml = out.stdout;
    assert_eq!(shape(&xml), (4, 2, 0), "{xml}");
    assert!(
        xml.contains("<failure message=\"ndcg@10 on language=de not judged"),
        "{xml}"
    );
}

#[test]
fn export_junit_writes_the_same_bytes_beside_the_other_reports() {
    let ctx = TestContext::new();
    let file = ctx.path().join("junit.xml");
    let json = ctx.path().join("report.json");
    Out::of(
        TestContext::new()
            .cwd(root())
            .command()
            .args(["check", "gates/prod.toml", "--format", "text"])
            .arg("--export-junit")
            .arg(&file)
            .arg("--export-json")
            .arg(&json),
    )
    .expect(1);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        junit("gates/prod.toml", 1)
    );
    assert!(json.exists());
}

#[test]
fn an_export_junit_path_that_is_an_input_is_refused() {
    let out = Out::of(TestContext::new().cwd(root()).command().args([
        "check",
        "gates/prod.toml",
        "--export-junit",
        "examples/baseline.jsonl",
    ]))
    .expect(2);
    let err = out.stderr.as_str();
    assert!(err.contains("--export-junit"), "{err}");
}
