//! Thresholds that can fail and directions that are right: a margin written as a
//! percentage on a [0, 1] metric, a loss rate over 1 and an absolute bar outside the metric's
//! range are exit 2 with "did you mean"; `compare` refuses a column whose direction it does not
//! know; a `fail-if-significant-drop` too small for its test says so in the headline's words;
//! flags and `[noise]` files that cannot apply are warnings.

use crate::support;

use support::output::assert_contains;
use support::{GateFile, TestContext};

/// 40 queries with ndcg@10, recall@5 and latency_ms; the candidate is a little better (+0.02,
/// give or take 0.004) and 9× slower.
fn data(ctx: &TestContext) {
    let (mut b, mut c) = (String::new(), String::new());
    for i in 0..40 {
        let x = 0.4 + 0.01 * (i % 7) as f64;
        b.push_str(&format!(
            "{{\"query_id\": \"q{i}\", \"ndcg@10\": {x}, \"recall@5\": {x}, \"latency_ms\": {}}}\n",
            100 + i
        ));
        c.push_str(&format!(
            "{{\"query_id\": \"q{i}\", \"ndcg@10\": {}, \"recall@5\": {x}, \"latency_ms\": {}}}\n",
            x + 0.02 + 0.002 * ((i * 3 % 5) as f64 - 2.0),
            900 + 9 * i
        ));
    }
    ctx.write("b.jsonl", b);
    ctx.write("c.jsonl", c);
}

/// b.jsonl vs c.jsonl at 200 resamples, then `rest` (tables and gates).
fn b_vs_c(rest: &str) -> GateFile {
    GateFile::new("b.jsonl", "c.jsonl").resamples(200).raw(rest)
}

#[test]
fn a_margin_or_bar_a_bounded_metric_cannot_reach_is_refused_with_a_hint() {
    let ctx = TestContext::new();
    data(&ctx);
    let cases = [
        (
            "[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 1\n",
            "gate.toml:8:12: [[gate]] #1 (ndcg@10): max-drop = 1 can never fail: ndcg@10 lies in [0, 1]",
            "did you mean 0.01?",
        ),
        (
            "[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 5\n",
            "max-drop = 5 can never fail",
            "did you mean 0.05?",
        ),
        (
            "[[gate]]\nmetric = \"recall@5\"\nfail-if-significant-drop = 0.5\n",
            "fail-if-significant-drop = 0.5 can never fail: recall@5 lies in [0, 1]",
            "did you mean 0.005?",
        ),
        (
            "[[gate]]\nmetric = \"ndcg@10\"\nmax-change = 2\n",
            "max-change = 2 can never fail: ndcg@10 lies in [0, 1], so a margin of 0.5 or more lets almost any change pass",
            "did you mean 0.02?",
        ),
        (
            "[[gate]]\nmetric = \"ndcg@10\"\nmax-loss-rate = 25\n",
            "max-loss-rate must be a share of queries between 0 and 1, not 25",
            "did you mean 0.25?",
        ),
        (
            "[[gate]]\nmetric = \"recall@5\"\nmin-mean = 70\n",
            "min-mean = 70 is outside the range of recall@5, which lies in [0, 1]",
            "did you mean 0.7?",
        ),
        (
            "[[gate]]\nmetric = \"recall@5\"\nmax-mean = -0.1\n",
            "max-mean = -0.1 is outside the range of recall@5",
            "",
        ),
    ];
    for (gate, want, hint) in cases {
        ctx.gate(b_vs_c(gate));
        let out = ctx.check(&[]);
        assert_eq!(out.code, Some(2), "{gate}: {}", out.stderr);
        assert_contains(&out.stderr, want);
        assert_contains(&out.stderr, hint);
    }
    // What a margin on an unbounded metric or a sensible one on a bounded metric is, passes
    // validation.
    for gate in [
        "[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.4\nmin-mean = 0\nmax-mean = 1\n",
        "[[gate]]\nmetric = \"latency_ms\"\nhigher-is-better = false\nmax-drop = 10\nmax-mean = 5000\n",
    ] {
        ctx.gate(b_vs_c(gate));
        let out = ctx.check(&["--dump-config"]);
        assert_eq!(out.code, Some(0), "{gate}: {}", out.stderr);
    }
}

#[test]
fn compare_leaves_out_a_column_whose_direction_it_does_not_know() {
    let ctx = TestContext::new();
    data(&ctx);
    let compare = [
        "compare",
        "b.jsonl",
        "c.jsonl",
        "--resamples",
        "200",
        "--format",
        "json",
    ];
    // Not guessed: latency_ms is left out with a warning; ndcg@10 and recall@5 are compared.
    let out = ctx.run(&compare);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let r: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let metrics: Vec<&str> = r["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["metric"].as_str().unwrap())
        .collect();
    assert_eq!(metrics, ["ndcg@10", "recall@5"]);
    assert_contains(
        &r["warnings"].to_string(),
        "latency_ms: is a higher latency_ms better or worse? rag-gate knows the direction of IR metrics only; pass --lower-is-better latency_ms (latency, cost) or --higher-is-better latency_ms",
    );
    // A file whose only metric has no known direction is still refused: nothing to compare.
    let only: String = (0..40)
        .map(|i| format!("{{\"query_id\": \"q{i}\", \"latency_ms\": {i}}}\n"))
        .collect();
    ctx.write("lb.jsonl", &only);
    ctx.write("lc.jsonl", &only);
    let out = ctx.run(&["compare", "lb.jsonl", "lc.jsonl"]);
    assert_eq!(out.code, Some(2), "{}", out.stdout);
    assert_contains(&out.stderr, "or leave it out with --metric");
    // Told, the 9× rise is worse.
    let out = ctx.run(&[&compare[..], &["--lower-is-better", "latency_ms"][..]].concat());
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let r: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let latency = support::output::comparison(&r, "latency_ms", "all");
    assert_eq!(latency["label"], "worse");
    assert_eq!(latency["losses"], 40);
    // Said to be higher-is-better, it is compared as such; leaving it out works too.
    for extra in [
        &["--higher-is-better", "latency_ms"][..],
        &["--metric", "ndcg@10"],
    ] {
        let out = ctx.run(&[&compare[..], extra].concat());
        assert_eq!(out.code, Some(0), "{extra:?}: {}", out.stderr);
    }
    let out = ctx.run(
        &[
            &compare[..],
            &[
                "--lower-is-better",
                "latency_ms",
                "--higher-is-better",
                "latency_ms",
            ][..],
        ]
        .concat(),
    );
    assert_eq!(out.code, Some(2));
    assert_contains(&out.stderr, "a metric has one direction");
}

#[test]
fn a_sign_flip_rule_too_small_to_fire_says_why_and_the_rules_that_passed_show_as_passed() {
    let ctx = TestContext::new();
    // 8 queries, the candidate better on 5, tied on 3.
    let (mut b, mut c) = (String::new(), String::new());
    for (i, d) in [0.1, 0.2, 0.05, 0.15, 0.1, 0.0, 0.0, 0.0]
        .iter()
        .enumerate()
    {
        b.push_str(&format!("{{\"query_id\": \"q{i}\", \"ndcg@10\": 0.5}}\n"));
        c.push_str(&format!(
            "{{\"query_id\": \"q{i}\", \"ndcg@10\": {}}}\n",
            0.5 + d
        ));
    }
    ctx.write("b.jsonl", b);
    ctx.write("c.jsonl", c);
    let gate = |min_moved: &str| {
        format!("[slices]\nmin-queries = 5\n{min_moved}[[gate]]\nmetric = \"ndcg@10\"\nmin-mean = 0.3\nmax-drop = 0.2\nfail-if-significant-drop = 0.01\n")
    };
    // The max-drop on 5 moved queries is judged on its interval (min-moved decides nothing);
    // the sign-flip rule cannot fire on 5 units: undecided on this sample, and the candidate is
    // better, so it is inconclusive (amber, exit 0), with the reason.
    for min_moved in ["", "min-moved = 1\n"] {
        ctx.gate(b_vs_c(&gate(min_moved)));
        let out = ctx.check(&["--format", "json"]);
        assert_eq!(out.code, Some(0), "{}", out.stderr);
        let r: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(r["verdict"], "inconclusive");
        assert_contains(
            r["headline"].as_str().unwrap(),
            "INCONCLUSIVE: gate #1 fail-if-significant-drop, ndcg@10 on all: fail-if-significant-drop cannot fire, the sign-flip test has 5 units with a non-zero delta and needs at least 6; add queries, or gate with max-drop instead (min-mean, max-drop passed); inconclusive: the observed mean delta +0.0750 is above −m/2 = −0.0050",
        );
    }
    ctx.gate(b_vs_c(&gate("")));
    let out = ctx.check(&["--format", "json"]);
    let r: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let status: Vec<(&str, &str)> = r["gates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["rule"].as_str().unwrap(), g["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        status,
        [
            ("min-mean", "pass"),
            ("max-drop", "pass"),
            ("fail-if-significant-drop", "inconclusive")
        ]
    );
}

#[test]
fn flags_and_noise_files_that_cannot_apply_are_warnings() {
    let ctx = TestContext::new();
    data(&ctx);
    let gate = "[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.05\n";
    ctx.gate(b_vs_c(gate));
    let out = ctx.check(&["--comment-mode", "on-change", "--pr", "7"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_contains(
        &out.stderr,
        "warning: --comment-mode on-change has no effect without --comment: no PR comment is posted (add --comment)",
    );
    assert_contains(
        &out.stderr,
        "warning: --pr 7 has no effect without --comment",
    );
    // A noise file measured on another metric: its floors apply to nothing.
    let aa = ctx.run(&[
        "aa",
        "b.jsonl",
        "b.jsonl",
        "--metric",
        "recall@5",
        "--resamples",
        "100",
        "-o",
        "noise.json",
    ]);
    assert_eq!(aa.code, Some(0), "{}", aa.stderr);
    ctx.gate(b_vs_c(&format!(
        "[noise]\nfile = \"noise.json\"\n[report]\nmetrics = [\"ndcg@10\"]\n{gate}"
    )));
    let out = ctx.check(&["--format", "json"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let r: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let warnings = r["warnings"].to_string();
    assert_contains(
        &warnings,
        "[noise] file noise.json: it measured none of the compared metric × slices, so its noise floors apply to nothing here",
    );
}

#[test]
fn the_max_k_error_suggests_a_metric_that_exists() {
    let ctx = TestContext::new();
    data(&ctx);
    for (metric, want) in [
        ("map", "(e.g. ap@5)"),
        ("ndcg", "(e.g. ndcg@5)"),
        ("rprec", "(e.g. p@5)"),
    ] {
        ctx.gate(b_vs_c(&format!(
            "[policy]\nmax-k = 5\n[[gate]]\nmetric = \"{metric}\"\nmin-mean = 0.1\n"
        )));
        let out = ctx.check(&[]);
        assert_eq!(out.code, Some(2), "{}", out.stderr);
        assert_contains(&out.stderr, want);
    }
}

#[test]
fn a_compare_report_in_markdown_claims_no_pass() {
    // compare judges nothing: its Markdown head says "comparison", never a ✅ pass.
    let ctx = TestContext::new();
    data(&ctx);
    let args = [
        "compare", "b.jsonl", "c.jsonl", "--metric", "ndcg@10", "--format", "markdown",
    ];
    let out = ctx.run(&args);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(!out.stdout.contains("✅"), "{}", out.stdout);
    assert_contains(&out.stdout, "### 📊 rag-gate comparison:");
}
