//! The headline and the labels say what the numbers say: a `max-drop` failure whose
//! estimate rose says what failed instead of "dropped"; a metric name copied from the comment
//! is the metric (no invisible characters); the header's count says what it counts when a
//! quarantine keeps queries out; the p-value footnote names the test that made it.

use crate::support;
use support::{Out, TestContext};

use support::output::assert_contains;

/// 40 queries: the candidate's recall@5 alternates +0.30 / −0.285 around the baseline's 0.5,
/// a mean rise of +0.0075 with an interval far wider than the 0.01 margin.
fn noisy_rise(ctx: &TestContext, metric: &str) {
    let (mut b, mut c) = (String::new(), String::new());
    for i in 0..40 {
        let d = if i % 2 == 0 { 0.3 } else { -0.285 };
        b.push_str(&format!("{{\"query_id\": \"q{i}\", \"{metric}\": 0.5}}\n"));
        c.push_str(&format!(
            "{{\"query_id\": \"q{i}\", \"{metric}\": {}}}\n",
            0.5 + d
        ));
    }
    ctx.write("b.jsonl", b);
    ctx.write("c.jsonl", c);
    ctx.write("gate.toml",
        format!(
            "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n[bootstrap]\nresamples = 500\n\
             [[gate]]\nmetric = \"{metric}\"\nmax-drop = 0.01\n"
        ),
    );
}

/// Every report of one `check`: text on stdout, JSON, Markdown and HTML beside it.
struct Reports {
    code: Option<i32>,
    text: String,
    json: serde_json::Value,
    markdown: String,
    html: String,
}

fn reports(ctx: &TestContext, extra: &[&str]) -> Reports {
    let out = Out::of(
        ctx.command()
            .args(["check", "gate.toml"])
            .args(extra)
            .args([
                "--export-json",
                "r.json",
                "--export-markdown",
                "r.md",
                "--export-html",
                "r.html",
            ]),
    );
    assert!(matches!(out.code, Some(0 | 1)), "{}", out.stderr);
    let read = |n: &str| ctx.read(n);
    Reports {
        code: out.code,
        text: out.stdout,
        json: serde_json::from_str(&read("r.json")).unwrap(),
        markdown: read("r.md"),
        html: read("r.html"),
    }
}

#[test]
fn a_max_drop_failure_with_a_rising_estimate_says_what_failed() {
    let ctx = TestContext::new();
    noisy_rise(&ctx, "recall@5");
    let r = reports(&ctx, &[]);
    assert_eq!(r.code, Some(1));
    let headline = r.json["headline"].as_str().unwrap();
    let want = "recall@5 +0.0075 [";
    let why = "on all: a drop over 0.0100 is not ruled out";
    let markdown = r.markdown.replace("\\[", "[");
    for (name, text) in [
        ("json", headline),
        ("text", r.text.as_str()),
        ("markdown", markdown.as_str()),
        ("html", r.html.as_str()),
    ] {
        assert_contains(text, want);
        assert_contains(text, why);
        let first = text.lines().find(|l| l.contains(why)).unwrap();
        assert!(!first.contains("dropped"), "{name}: {first}");
    }
    // The PR comment's title is the Markdown heading.
    assert!(markdown
        .lines()
        .any(|l| l.starts_with("### ❌ rag-gate fail: recall@5 +0.0075 [") && l.contains(why)));
}

#[test]
fn a_metric_copied_from_the_comment_is_the_metric() {
    let ctx = TestContext::new();
    noisy_rise(&ctx, "recall@5");
    let r = reports(&ctx, &[]);
    // Every place the name is written (headline, tables, warnings) has it whole: `recall`
    // followed by `@5`, never by an invisible character.
    for (name, text) in [
        ("markdown", &r.markdown),
        ("html", &r.html),
        ("text", &r.text),
    ] {
        let uses: Vec<&str> = text.split("recall").skip(1).collect();
        assert!(uses.len() >= 3, "{name}: {text}");
        for rest in uses {
            let next: String = rest.chars().take(12).collect();
            assert!(rest.starts_with("@5"), "{name}: recall{next}");
        }
        assert!(!text.contains('\u{2060}'), "{name} has a word joiner");
    }
    // What a reviewer selects in the rendered heading: the word with the `@`, as GitHub shows
    // it (Markdown escapes undone). It goes into a gate file as is.
    let heading = r.markdown.lines().find(|l| l.starts_with("### ")).unwrap();
    let copied = heading
        .split_whitespace()
        .find(|w| w.contains('@'))
        .unwrap()
        .trim_matches('`');
    assert_eq!(copied, "recall@5");
    let gate = ctx.read("gate.toml");
    ctx.write(
        "copied.toml",
        gate.replace("\"recall@5\"", &format!("{copied:?}")),
    );
    let out = ctx.run(&["check", "copied.toml", "--format", "json"]);
    assert_eq!(out.code, Some(1), "{}", out.stderr);
}

const QUARANTINE: &str =
    "[[query]]\nid = \"q0\"\nreason = \"tie at rank 5\"\nowner = \"alice\"\nexpires = 2099-12-31\n";

#[test]
fn counts_say_what_they_count_and_footnotes_name_the_test() {
    let ctx = TestContext::new();
    noisy_rise(&ctx, "ndcg@10");
    // A second run of each commit, and one quarantined query.
    for side in ["b", "c"] {
        let text = std::fs::read_to_string(ctx.path().join(format!("{side}.jsonl"))).unwrap();
        ctx.write(format!("{side}2.jsonl"), text.replace(": 0.5", ": 0.51"));
    }
    ctx.write("flaky.toml", QUARANTINE);
    ctx.write("gate.toml",
        "[inputs]\nbaseline = [\"b.jsonl\", \"b2.jsonl\"]\ncandidate = [\"c.jsonl\", \"c2.jsonl\"]\n\
         [bootstrap]\nresamples = 500\n[noise]\nquarantine = \"flaky.toml\"\n\
         [[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n",
    );
    let r = reports(&ctx, &["--today", "2026-12-01"]);
    assert_eq!(r.json["comparisons"][0]["n"], 39);
    let count = "40 queries paired, 1 quarantined: 39 in the comparisons";
    let test = "two-sided t test on the replicate-aware standard error";
    for (name, text) in [
        ("text", &r.text),
        ("markdown", &r.markdown),
        ("html", &r.html),
    ] {
        assert!(text.contains(count), "{name}:\n{text}");
        assert!(text.contains(test), "{name}:\n{text}");
        assert!(
            !text.contains("sign-flip"),
            "{name} names the sign-flip test:\n{text}"
        );
    }
    // One run per side and no quarantine: the plain count, the sign-flip test.
    noisy_rise(&ctx, "ndcg@10");
    let r = reports(&ctx, &[]);
    for text in [&r.text, &r.markdown, &r.html] {
        assert_contains(text, "40 queries paired");
        assert!(!text.contains("quarantined"));
        assert_contains(
            text,
            "two-sided paired sign-flip (randomization) test at the query unit",
        );
    }
}
