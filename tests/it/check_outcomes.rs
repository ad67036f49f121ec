//! The verdict's four outcomes through the binary on metric files: a change touching a few
//! queries passes when its interval allows (no min-moved cliff, no nothing-moved reach), more
//! evidence of change never makes passing easier, a drop carried by a few queries fails under
//! both guarantees, a check undecided on the sample is inconclusive (amber, exit 0; exit 1
//! under `on-inconclusive = "fail"`) or fails when the observed drop reaches half the margin,
//! and the `[verdict]` keys are checked like every other key.

use crate::support;

use support::output::assert_contains;
use support::{GateFile, TestContext};

/// `n` queries on a spread of values in [0.62, 0.92]; `moves[i]` is added to query i's
/// candidate value.
fn data(ctx: &TestContext, n: usize, moves: &[(usize, f64)]) {
    let (mut b, mut c) = (String::new(), String::new());
    for i in 0..n {
        let x = 0.62 + 0.3 * ((i * 37) % 101) as f64 / 100.0;
        let y = x + moves
            .iter()
            .filter(|(q, _)| *q == i)
            .map(|(_, d)| d)
            .sum::<f64>();
        b.push_str(&format!("{{\"query_id\": \"q{i}\", \"ndcg@10\": {x}}}\n"));
        c.push_str(&format!("{{\"query_id\": \"q{i}\", \"ndcg@10\": {y}}}\n"));
    }
    ctx.write("b.jsonl", b);
    ctx.write("c.jsonl", c);
}

/// ndcg@10 gated by `rules`, with `verdict` in `[verdict]`.
fn verdict(verdict: &str, rules: &str) -> GateFile {
    GateFile::new("b.jsonl", "c.jsonl")
        .resamples(1000)
        .table("verdict", verdict)
        .gate("ndcg@10", rules)
}

const GUARANTEES: [&str; 2] = [
    "guarantee = \"regular\"",
    "guarantee = \"distribution-free\"",
];

#[test]
fn three_of_477_improved_passes() {
    let ctx = TestContext::new();
    data(&ctx, 477, &[(5, 0.05), (100, 0.05), (300, 0.05)]);
    for g in GUARANTEES {
        ctx.gate(verdict(g, "max-drop = 0.01"));
        let o = ctx.check_json(&[]);
        assert_eq!(o.code, Some(0), "{g}: {}{}", o.stdout, o.stderr);
        let r = o.json();
        assert_eq!(r["verdict"], "pass", "{g}");
    }
}

#[test]
fn three_of_1000_moved_by_two_hundredths_pass_at_a_margin_of_one_hundredth() {
    // Every sign pattern: about 5% of the resamples draw none of the three moved queries, and
    // those are not read as the worst delta (it used to fail the patterns whose mean is below
    // the tie, with [−0.0200, +0.0001]).
    let ctx = TestContext::new();
    for signs in [
        [1.0, -1.0, 1.0],
        [1.0, -1.0, -1.0],
        [-1.0, -1.0, 1.0],
        [-1.0, -1.0, -1.0],
        [1.0, 1.0, 1.0],
    ] {
        let moves: Vec<(usize, f64)> = (0..3).map(|i| (i + 1, 0.02 * signs[i])).collect();
        data(&ctx, 1000, &moves);
        for g in GUARANTEES {
            ctx.gate(verdict(g, "max-drop = 0.01"));
            let o = ctx.check_json(&[]);
            assert_eq!(o.code, Some(0), "{g} {signs:?}: {}{}", o.stdout, o.stderr);
            let r = o.json();
            assert_eq!(r["verdict"], "pass", "{g} {signs:?}");
            let low = r["comparisons"][0]["ci"][0].as_f64().unwrap();
            assert!(low > -0.01, "{g} {signs:?}: {low}");
            if g.contains("distribution-free") {
                // The unseen query at −1 among 1,000: about −0.004.
                assert!((-0.006..-0.003).contains(&low), "{signs:?}: {low}");
            } else {
                // Within a few standard errors (about 3.5e-5) of the mean, not at −0.02.
                assert!(low > -0.001, "{signs:?}: {low}");
            }
        }
    }
}

#[test]
fn two_of_200_moved_pass_at_a_margin_of_one_hundredth_under_the_regular_guarantee() {
    // −0.035 and +0.012 among 200 queries: the mean is −0.000115; the resamples that draw
    // neither moved query (about 13%) used to put the low bound at −0.035.
    let ctx = TestContext::new();
    for moves in [[(1, -0.035), (2, 0.012)], [(1, 0.035), (2, -0.012)]] {
        data(&ctx, 200, &moves);
        ctx.gate(verdict(GUARANTEES[0], "max-drop = 0.01"));
        let o = ctx.check_json(&[]);
        assert_eq!(o.code, Some(0), "{moves:?}: {}{}", o.stdout, o.stderr);
        let r = o.json();
        assert_eq!(r["verdict"], "pass", "{moves:?}");
        let [low, high] = [0, 1].map(|k| r["comparisons"][0]["ci"][k].as_f64().unwrap());
        assert!(
            low > -0.01 && low < -0.000115 && high > -0.000115,
            "{moves:?}: [{low}, {high}]"
        );
        assert!(low > -0.005, "{moves:?}: {low}");
    }
}

#[test]
fn refactors_moving_one_to_five_of_100_queries_by_at_most_half_a_hundredth_never_block() {
    let ctx = TestContext::new();
    for k in 1..=5 {
        for sign in [-1.0, 1.0] {
            let moves: Vec<(usize, f64)> = (0..k)
                .map(|i| (i * 17 + 3, sign * 0.001 * (i + 1) as f64))
                .collect();
            data(&ctx, 100, &moves);
            ctx.gate(verdict(GUARANTEES[0], "max-drop = 0.02"));
            let o = ctx.check_json(&[]);
            assert_eq!(o.code, Some(0), "{k} moved: {}{}", o.stdout, o.stderr);
            assert_eq!(o.json()["verdict"], "pass");
        }
    }
}

#[test]
fn more_evidence_of_change_never_makes_passing_easier() {
    // Identical: untouched. Every query jittered by ±1e-6 (beyond tie-epsilon): a pass. Both
    // exit 0: the jitter neither blocks nor is needed.
    let ctx = TestContext::new();
    data(&ctx, 100, &[]);
    ctx.gate(verdict(GUARANTEES[0], "max-drop = 0.02"));
    let o = ctx.check_json(&[]);
    assert_eq!(o.code, Some(0), "{}", o.stdout);
    assert_eq!(o.json()["verdict"], "untouched");
    let jitter: Vec<(usize, f64)> = (0..100)
        .map(|i| (i, if i % 2 == 0 { 1e-6 } else { -1e-6 }))
        .collect();
    data(&ctx, 100, &jitter);
    ctx.gate(verdict(GUARANTEES[0], "max-drop = 0.02"));
    let o = ctx.check_json(&[]);
    assert_eq!(o.code, Some(0), "{}", o.stdout);
    assert_eq!(o.json()["verdict"], "pass");
}

#[test]
fn a_drop_carried_by_four_percent_of_queries_fails_under_both_guarantees() {
    // 4 of 100 queries lose 0.6: −0.024 on the set, margin 0.01.
    let ctx = TestContext::new();
    let moves: Vec<(usize, f64)> = [2, 30, 61, 90].iter().map(|&i| (i, -0.6)).collect();
    data(&ctx, 100, &moves);
    for g in GUARANTEES {
        ctx.gate(verdict(g, "max-drop = 0.01"));
        let o = ctx.check_json(&[]);
        assert_eq!(o.code, Some(1), "{g}: {}{}", o.stdout, o.stderr);
        let r = o.json();
        assert_eq!(r["verdict"], "fail", "{g}");
        assert!((r["comparisons"][0]["delta"].as_f64().unwrap() + 0.024).abs() < 1e-9);
    }
}

#[test]
fn distribution_free_reaches_the_unseen_worst_loss_where_regular_states_its_resolution() {
    // One query of 43 moved by −0.001: regular passes at 0.05 (its resolution says a change
    // touching fewer than 8.2% can hide); distribution-free puts an unseen query at −1 and
    // fails at the same margin (about −0.083 < −0.05).
    let ctx = TestContext::new();
    data(&ctx, 43, &[(7, -0.001)]);
    ctx.gate(verdict(GUARANTEES[0], "max-drop = 0.05"));
    let o = ctx.check_json(&[]);
    assert_eq!(o.code, Some(0), "{}{}", o.stdout, o.stderr);
    let r = o.json();
    assert!((r["resolution"][0]["share"].as_f64().unwrap() - 0.0822).abs() < 1e-4);
    assert!(support::output::warnings(&r)
        .iter()
        .any(|w| w.contains("fewer than 8.2% of the 43 queries can hide")
            && w.contains("72 queries would close it")));
    ctx.gate(verdict(
        &format!("{}\naccept-blind-spot = true", GUARANTEES[0]),
        "max-drop = 0.05",
    ));
    let o = ctx.check_json(&[]);
    let r = o.json();
    assert!(!support::output::warnings(&r)
        .iter()
        .any(|w| w.contains("accept-blind-spot")));
    ctx.gate(verdict(GUARANTEES[1], "max-drop = 0.05"));
    let o = ctx.check_json(&[]);
    assert_eq!(o.code, Some(1), "{}{}", o.stdout, o.stderr);
    let low = o.json()["comparisons"][0]["ci"][0].as_f64().unwrap();
    assert!((-0.095..-0.075).contains(&low), "{low}");
}

#[test]
fn the_header_states_a_blind_spot_under_regular_and_none_under_distribution_free() {
    // The same share, 8.2% of 43, hides under regular and is bounded under distribution-free.
    let ctx = TestContext::new();
    data(&ctx, 43, &[(7, -0.001)]);
    ctx.gate(verdict(GUARANTEES[0], "max-drop = 0.05"));
    let o = ctx.check(&[]);
    assert_contains(
        &o.stdout,
        "guarantee regular · resolution on all: a change touching fewer than 8.2% of the 43 queries can hide, at a worst cost of 0.0822 on ndcg@10 (margin 0.0500)",
    );
    ctx.gate(verdict(GUARANTEES[1], "max-drop = 0.05"));
    let o = ctx.check(&[]);
    assert_contains(
        &o.stdout,
        "guarantee distribution-free · resolution on all: no blind spot: a change touching fewer than 8.2% of the 43 queries is bounded too; where none moved, the bound sits 0.0822 below the mean on ndcg@10 (margin 0.0500)",
    );
    assert!(!o.stdout.contains("can hide"), "{}", o.stdout);
}

#[test]
fn an_undecided_check_is_inconclusive_above_half_the_margin_and_fails_at_it() {
    let ctx = TestContext::new();
    // Three queries improved: the sign-flip test cannot fire on 3 moved units (p ≥ 0.25).
    data(&ctx, 100, &[(1, 0.01), (2, 0.01), (3, 0.01)]);
    ctx.gate(verdict("", "fail-if-significant-drop = 0.02"));
    let o = ctx.check_json(&[]);
    assert_eq!(o.code, Some(0), "{}{}", o.stdout, o.stderr);
    let r = o.json();
    assert_eq!(r["verdict"], "inconclusive");
    assert_eq!(r["gates"][0]["status"], "inconclusive");
    assert_eq!(r["gates"][0]["fails_build"], false);
    assert_contains(r["headline"].as_str().unwrap(), "INCONCLUSIVE: gate #1 ");
    // on-inconclusive = "fail": the same verdict exits 1.
    ctx.gate(verdict(
        "on-inconclusive = \"fail\"",
        "fail-if-significant-drop = 0.02",
    ));
    let o = ctx.check_json(&[]);
    assert_eq!(o.code, Some(1), "{}{}", o.stdout, o.stderr);
    assert_eq!(o.json()["verdict"], "inconclusive");
    // JUnit: inconclusive is skipped with the reason, not failed.
    let o = ctx.check(&["--format", "junit"]);
    assert_contains(&o.stdout, "<skipped");
    assert!(!o.stdout.contains("<failure"), "{}", o.stdout);
    // Three queries dropped by 0.5: observed −0.015 ≤ −0.02/2: the undecided check fails.
    data(&ctx, 100, &[(1, -0.5), (2, -0.5), (3, -0.5)]);
    ctx.gate(verdict("", "fail-if-significant-drop = 0.02"));
    let o = ctx.check_json(&[]);
    assert_eq!(o.code, Some(1), "{}{}", o.stdout, o.stderr);
    let r = o.json();
    assert_eq!(r["verdict"], "fail");
    assert_eq!(r["gates"][0]["status"], "fail");
    assert_contains(
        r["gates"][0]["detail"].as_str().unwrap(),
        "at or below −m/2",
    );
}

#[test]
fn verdict_keys_are_strict_and_distribution_free_needs_the_worst_loss_of_an_unbounded_metric() {
    let ctx = TestContext::new();
    data(&ctx, 50, &[]);
    ctx.gate(verdict("guarantee = \"exact\"", "max-drop = 0.01"));
    let o = ctx.check_json(&[]);
    assert_eq!(o.code, Some(2), "{}", o.stderr);
    assert_contains(&o.stderr, "gate.toml");
    assert_contains(&o.stderr, "distribution-free");
    ctx.gate(verdict("on-inconclusive = \"maybe\"", "max-drop = 0.01"));
    let o = ctx.check_json(&[]);
    assert_eq!(o.code, Some(2), "{}", o.stderr);
    ctx.gate(verdict("accept-blind-spots = true", "max-drop = 0.01"));
    let o = ctx.check_json(&[]);
    assert_eq!(o.code, Some(2), "{}", o.stderr);
    assert_contains(&o.stderr, "accept-blind-spots");
    // An unbounded metric under distribution-free: max-unit-loss is required, with line and key.
    let mut b = String::new();
    for i in 0..50 {
        b.push_str(&format!(
            "{{\"query_id\": \"q{i}\", \"latency_ms\": {}}}\n",
            100 + i
        ));
    }
    ctx.write("b.jsonl", &b);
    ctx.write("c.jsonl", &b);
    let latency = |rules: &str| {
        GateFile::new("b.jsonl", "c.jsonl")
            .table("verdict", "guarantee = \"distribution-free\"")
            .gate(
                "latency_ms",
                &format!("higher-is-better = false\nmax-drop = 5\n{rules}"),
            )
    };
    ctx.gate(latency(""));
    let o = ctx.check(&[]);
    assert_eq!(o.code, Some(2), "{}", o.stderr);
    assert_contains(&o.stderr, "gate.toml:7");
    assert_contains(&o.stderr, "max-unit-loss");
    // With it: identical latencies are untouched where zero moves among 50 queries bound an
    // unseen rise within the margin (0.071 × 50 ms ≈ 3.6 ms ≤ 5 ms), and fail where they cannot
    // (0.071 × 5,000 ms): anything not proven fails.
    for (loss, code, word) in [(50, 0, "UNTOUCHED"), (5000, 1, "FAIL")] {
        ctx.gate(latency(&format!("max-unit-loss = {loss}")));
        let o = ctx.check(&[]);
        assert_eq!(o.code, Some(code), "{}{}", o.stdout, o.stderr);
        assert_contains(&o.stdout, word);
    }
    // A bounded metric's max-unit-loss above 1 is refused.
    data(&ctx, 50, &[]);
    ctx.gate(verdict("", "max-drop = 0.01\nmax-unit-loss = 2"));
    let o = ctx.check_json(&[]);
    assert_eq!(o.code, Some(2), "{}", o.stderr);
    assert_contains(&o.stderr, "max-unit-loss");
}

/// TREC qrels and runs of 40 queries for P@10: each query has relevant documents `r0..r9` and
/// judged non-relevant ones `n0..n9`. The baseline ranks 5 relevant then 5 judged non-relevant
/// documents; the candidate ranks `rel` relevant ones then `10 − rel` others, judged (`n…`) or
/// unjudged (`u…`).
fn runs(ctx: &TestContext, unjudged: bool) {
    let (mut qrels, mut base, mut cand) = (String::new(), String::new(), String::new());
    for q in 0..40 {
        for d in 0..10 {
            qrels.push_str(&format!("q{q} 0 r{d} 1\nq{q} 0 n{d} 0\n"));
        }
        let line = |run: &mut String, docs: Vec<String>| {
            for (k, d) in docs.iter().enumerate() {
                run.push_str(&format!("q{q} Q0 {d} {} {} x\n", k + 1, 100 - k));
            }
        };
        line(
            &mut base,
            (0..5)
                .map(|d| format!("r{d}"))
                .chain((0..5).map(|d| format!("n{d}")))
                .collect(),
        );
        // Half the queries gain 0.3, half lose 0.4: mean −0.05, a wide interval.
        let rel = if q % 2 == 0 { 8 } else { 1 };
        let other = if unjudged { "u" } else { "n" };
        line(
            &mut cand,
            (0..rel)
                .map(|d| format!("r{d}"))
                .chain((0..10 - rel).map(|d| format!("{other}{d}")))
                .collect(),
        );
    }
    ctx.write("qrels.txt", qrels);
    ctx.write("base.run", base);
    ctx.write("cand.run", cand);
}

#[test]
fn fork_cannot_turn_a_failure_inconclusive() {
    // The candidate's P@10 interval reaches past the margin 0.12 (a failure), while its observed
    // mean, −0.05, is above −m/2. Filling its rankings with unjudged documents (judged@10 below
    // min-judged, a check undecided on this sample) must not turn the failure amber.
    let ctx = TestContext::new();
    ctx.gate(
        GateFile::default()
            .path("qrels", "qrels.txt")
            .input("baseline", "{ run = \"base.run\" }")
            .input("candidate", "{ run = \"cand.run\" }")
            .resamples(1000)
            .table("judged", "min-judged = 0.9")
            .gate("P@10", "max-drop = 0.12"),
    );
    for unjudged in [false, true] {
        runs(&ctx, unjudged);
        let o = ctx.check_json(&[]);
        assert_eq!(
            o.code,
            Some(1),
            "unjudged {unjudged}: {}{}",
            o.stdout,
            o.stderr
        );
        let r = o.json();
        assert_eq!(r["verdict"], "fail", "unjudged {unjudged}");
        let g = &r["gates"][0];
        assert_eq!(g["status"], "fail", "{g}");
        assert!((r["comparisons"][0]["delta"].as_f64().unwrap() + 0.05).abs() < 1e-9);
        if unjudged {
            assert_contains(
                g["detail"].as_str().unwrap(),
                "also undecided on this sample",
            );
        }
    }
}
