//! One metric gated by two statistics: each `[[gate]]` is its own (metric, statistic)
//! comparison in every report. Latency gated on its mean and its p95 (lower is better), nDCG on
//! its mean and its median; the p95 fails while the mean passes, and every format says which.

use crate::support;

use support::output::assert_contains;
use support::TestContext;

const GATES: &str = "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n\
[bootstrap]\nresamples = 2000\n\
[[gate]]\nmetric = \"latency_ms\"\nhigher-is-better = false\nmax-mean = 200\nmax-drop = 20\n\
[[gate]]\nmetric = \"latency_ms\"\nstatistic = \"p95\"\nhigher-is-better = false\nmax-mean = 230\nmax-drop = 20\n\
[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.05\n\
[[gate]]\nmetric = \"ndcg@10\"\nstatistic = \"median\"\nmax-drop = 0.05\n";

/// 120 queries: the slowest sixth of the baseline gets 80 ms slower, the rest 10 ms faster (the
/// mean barely moves, the p95 jumps); nDCG rises by 0.01 everywhere.
fn fixture() -> TestContext {
    let ctx = TestContext::new();
    let (mut b, mut c) = (String::new(), String::new());
    for i in 0..120 {
        let lat = 100.0 + (i * 37 % 120) as f64;
        let cand = if lat >= 200.0 { lat + 80.0 } else { lat - 10.0 };
        let ndcg = ((i * 13) % 100) as f64 / 100.0;
        b.push_str(&format!(
            "{{\"query_id\": \"q{i}\", \"latency_ms\": {lat}, \"ndcg@10\": {ndcg}}}\n"
        ));
        c.push_str(&format!(
            "{{\"query_id\": \"q{i}\", \"latency_ms\": {cand}, \"ndcg@10\": {}}}\n",
            ndcg + 0.01
        ));
    }
    ctx.write("b.jsonl", b);
    ctx.write("c.jsonl", c);
    ctx.gate(GATES);
    ctx
}

#[test]
fn each_statistic_is_its_own_comparison_in_the_json() {
    let ctx = fixture();
    let r = ctx.check_json(&[]).expect(1).json();
    let keys: Vec<(String, String)> = r["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["metric"].as_str().unwrap().to_string(),
                c["statistic"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let want = [
        ("latency_ms", "mean"),
        ("latency_ms", "p95"),
        ("ndcg@10", "mean"),
        ("ndcg@10", "median"),
    ];
    assert_eq!(
        keys,
        want.map(|(m, s)| (m.to_string(), s.to_string())),
        "{r:#}"
    );
    let c = &r["comparisons"];
    // Each has its own numbers: the p95s are the tail, the means the body.
    assert!(c[1]["baseline_value"].as_f64().unwrap() > c[0]["baseline_value"].as_f64().unwrap());
    assert!(c[1]["estimate"].as_f64().unwrap() > 50.0, "{}", c[1]);
    assert!(c[0]["estimate"].as_f64().unwrap() < 10.0, "{}", c[0]);
    // Every gate result names its statistic; the p95's fail, the mean's pass.
    for g in r["gates"].as_array().unwrap() {
        let stat = g["statistic"].as_str().unwrap();
        let want_pass = !(g["metric"] == "latency_ms" && stat == "p95");
        assert_eq!(g["passed"].as_bool(), Some(want_pass), "{g}");
        // Holm counts each (metric, statistic, slice) once: four comparisons.
        assert_eq!(g["family_size"], 4, "{g}");
    }
    let headline = r["headline"].as_str().unwrap();
    assert!(headline.starts_with("FAIL: latency_ms p95"), "{headline}");
    assert!(!headline.contains("latency_ms mean"), "{headline}");
}

#[test]
fn text_markdown_and_html_name_the_statistic_beside_the_metric() {
    let ctx = fixture();
    let text = ctx.check(&[]).expect(1).stdout;
    for want in [
        "latency_ms mean",
        "latency_ms p95",
        "ndcg@10 mean",
        "ndcg@10 median",
    ] {
        assert_contains(&text, want);
    }
    assert_contains(text.lines().next().unwrap(), "FAIL: latency_ms p95 rose");
    let md = ctx.check(&["--format", "markdown"]).expect(1).stdout;
    for want in [
        "`latency_ms` mean",
        "`latency_ms` p95",
        "`ndcg@10` median",
        "All 4 comparisons (metric × statistic × slice)",
    ] {
        assert_contains(&md, want);
    }
    ctx.check(&["--export-html", "r.html"]).expect(1);
    let html = ctx.read("r.html");
    for want in [
        "<code>latency_ms</code> mean",
        "<code>latency_ms</code> p95",
        "<code>ndcg@10</code> median",
    ] {
        assert_contains(&html, want);
    }
}

#[test]
fn the_mean_can_fail_while_the_p95_passes() {
    let ctx = fixture();
    // A tight bar on the mean, a loose one on the p95.
    ctx.gate(
        "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n[bootstrap]\nresamples = 2000\n\
         [[gate]]\nmetric = \"latency_ms\"\nhigher-is-better = false\nmax-mean = 100\n\
         [[gate]]\nmetric = \"latency_ms\"\nstatistic = \"p95\"\nhigher-is-better = false\nmax-mean = 1000\n",
    );
    let (code, r) = ctx.check_json(&[]).verdict_json();
    assert_eq!(code, 1);
    let passed: Vec<(&str, bool)> = r["gates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["statistic"].as_str().unwrap(),
                g["passed"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(passed, [("mean", false), ("p95", true)]);
    let headline = r["headline"].as_str().unwrap();
    assert!(headline.starts_with("FAIL: latency_ms mean "), "{headline}");
}

#[test]
fn dump_config_round_trips_two_statistics_on_one_metric() {
    let ctx = fixture();
    let dump = |gate: &str| ctx.check_file(gate, &["--dump-config"]).expect(0).stdout;
    let first = dump(support::GATE);
    assert_eq!(first.matches("statistic = \"p95\"").count(), 1, "{first}");
    assert_eq!(
        first.matches("statistic = \"median\"").count(),
        1,
        "{first}"
    );
    ctx.write("dumped.toml", &first);
    assert_eq!(dump("dumped.toml"), first);
}

#[test]
fn two_gates_on_one_statistic_are_one_comparison() {
    let ctx = fixture();
    ctx.gate(
        "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n[bootstrap]\nresamples = 2000\n\
         [[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.05\n\
         [[gate]]\nmetric = \"ndcg@10\"\nmin-mean = 0.1\n\
         [[gate]]\nmetric = \"latency_ms\"\nhigher-is-better = false\nmax-mean = 1000\n",
    );
    let (code, r) = ctx.check_json(&[]).verdict_json();
    assert_eq!(code, 0, "{}", r["headline"]);
    assert_eq!(r["comparisons"].as_array().unwrap().len(), 2);
    assert!(r["gates"]
        .as_array()
        .unwrap()
        .iter()
        .all(|g| g["family_size"] == 2 && g["statistic"] == "mean"));
    // One statistic per metric: names stay as they were, without the statistic.
    let text = ctx.check(&[]).expect(0).stdout;
    assert!(!text.contains("ndcg@10 mean"), "{text}");
}

#[test]
fn two_directions_on_one_metric_are_refused() {
    let ctx = fixture();
    ctx.gate(
        "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n\
         [[gate]]\nmetric = \"latency_ms\"\nhigher-is-better = false\nmax-mean = 200\n\
         [[gate]]\nmetric = \"latency_ms\"\nstatistic = \"p95\"\nhigher-is-better = true\nmax-mean = 230\n",
    );
    let err = ctx.check(&[]).expect(2).stderr;
    assert_contains(&err, "gate.toml:8:1");
    assert_contains(
        &err,
        "[[gate]] #2 (latency_ms): higher-is-better must match gate #1",
    );
}
