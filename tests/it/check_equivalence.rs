//! Equivalence gates through the binary: `max-change = m` passes a change that changes nothing, fails a
//! real change in either direction and an interval too wide to prove equivalence, per slice,
//! beside other rules (Holm), for a median gate and with replicate runs; bad values are refused.

use crate::support;

use serde_json::Value;
use support::output::assert_contains;
use support::TestContext;

/// b.jsonl / c.jsonl with `n` queries, every second one tagged risk=compliance; the candidate is
/// the baseline plus `shift` plus a symmetric wobble of amplitude `wobble`.
fn data(ctx: &TestContext, n: usize, shift: f64, wobble: f64) {
    let (mut b, mut c) = (String::new(), String::new());
    for q in 0..n {
        let x = 0.3 + 0.4 * ((q * 37 % 101) as f64 / 101.0);
        let w = wobble * ((q * 13 % 7) as f64 - 3.0) / 3.0;
        let risk = if q % 2 == 0 { "compliance" } else { "none" };
        let tags = format!("\"slices\": {{\"risk\": \"{risk}\"}}");
        b.push_str(&format!(
            "{{\"query_id\": \"q{q}\", {tags}, \"ndcg@10\": {x}}}\n"
        ));
        c.push_str(&format!(
            "{{\"query_id\": \"q{q}\", {tags}, \"ndcg@10\": {}}}\n",
            x + shift + w
        ));
    }
    ctx.write("b.jsonl", b);
    ctx.write("c.jsonl", c);
}

const HEAD: &str = "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n[bootstrap]\nresamples = 2000\n\
                    [slices]\nby = [\"risk\"]\ncritical = [\"risk=compliance\"]\nmin-queries = 10\n";

fn result<'a>(r: &'a Value, rule: &str, slice: &str) -> &'a Value {
    r["gates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["rule"] == rule && g["slice"] == slice)
        .unwrap_or_else(|| panic!("no {rule} on {slice}: {}", r["gates"]))
}

fn detail(g: &Value) -> &str {
    g["detail"].as_str().unwrap()
}

const EQUIVALENCE: &str =
    "[[gate]]\nmetric = \"ndcg@10\"\nmax-change = 0.01\nslices = \"critical\"\n";

#[test]
fn a_change_that_changes_nothing_is_equivalent_on_every_slice() {
    let ctx = TestContext::new();
    data(&ctx, 400, 0.0, 0.01);
    ctx.gate(format!("{HEAD}{}", EQUIVALENCE));
    let (code, r) = ctx.check_json(&[]).verdict_json();
    assert_eq!(code, 0, "{}", r["headline"]);
    for slice in ["all", "risk=compliance"] {
        let g = result(&r, "max-change", slice);
        assert_eq!(g["status"], "pass", "{g}");
        assert_eq!(g["decided_by"], "equivalence (max-change)");
        assert!(
            detail(g).starts_with("equivalent within ±0.0100: the CI ["),
            "{g}"
        );
        assert_eq!(g["threshold"], 0.01);
        assert!(g["value"].as_f64().unwrap().abs() < 0.01, "{g}");
    }
}

#[test]
fn a_real_change_fails_in_either_direction_and_says_which_side() {
    let ctx = TestContext::new();
    data(&ctx, 400, 0.05, 0.01);
    ctx.gate(format!("{HEAD}{}", EQUIVALENCE));
    let (code, r) = ctx.check_json(&[]).verdict_json();
    assert_eq!(code, 1);
    let g = result(&r, "max-change", "all");
    assert_eq!(g["status"], "fail");
    assert!(
        detail(g).ends_with("cannot rule out an improvement of 0.0100 or more"),
        "{g}"
    );
    let headline = r["headline"].as_str().unwrap();
    assert_contains(
        headline,
        "FAIL: ndcg@10 not shown equivalent within ±0.0100 on ",
    );
    assert_contains(headline, ": changed by +0.0500 [");

    data(&ctx, 400, -0.05, 0.01);
    ctx.gate(format!("{HEAD}{}", EQUIVALENCE));
    let (code, r) = ctx.check_json(&[]).verdict_json();
    assert_eq!(code, 1);
    let g = result(&r, "max-change", "risk=compliance");
    assert!(
        detail(g).ends_with("cannot rule out a regression of 0.0100 or more"),
        "{g}"
    );
    // max-drop alone would pass the improvement; max-change is the one that fails it.
    data(&ctx, 400, 0.05, 0.01);
    let both = format!("[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.01\n{EQUIVALENCE}");
    ctx.gate(format!("{HEAD}{}", &both));
    let (_, r) = ctx.check_json(&[]).verdict_json();
    assert_eq!(result(&r, "max-drop", "all")["status"], "pass");
    assert_eq!(result(&r, "max-change", "all")["status"], "fail");
}

#[test]
fn an_interval_too_wide_proves_nothing_either_way() {
    let ctx = TestContext::new();
    // No true change, but 40 noisy queries: the interval reaches past both margins.
    data(&ctx, 40, 0.0, 0.2);
    ctx.gate(format!("{HEAD}{}", EQUIVALENCE));
    let (code, r) = ctx.check_json(&[]).verdict_json();
    assert_eq!(code, 1);
    let g = result(&r, "max-change", "all");
    assert_eq!(g["status"], "fail");
    assert!(
        detail(g)
            .ends_with("cannot rule out either a regression or an improvement of 0.0100 or more"),
        "{g}"
    );
    // Not shown different either: the power warning says it may be for want of data.
    let warnings = r["warnings"].to_string();
    assert_contains(&warnings, "max-change");
    assert_contains(&warnings, "it failed, perhaps for want of data");
}

#[test]
fn max_change_works_for_a_median_gate_beside_a_holm_rule() {
    let ctx = TestContext::new();
    data(&ctx, 400, 0.0, 0.01);
    let gates = "[[gate]]\nmetric = \"ndcg@10\"\nstatistic = \"median\"\nmax-change = 0.01\n\
                 fail-if-significant-drop = 0.0\nslices = \"critical\"\n";
    ctx.gate(format!("{HEAD}{}", gates));
    let (code, r) = ctx.check_json(&[]).verdict_json();
    assert_eq!(code, 0, "{}", r["headline"]);
    let g = result(&r, "max-change", "risk=compliance");
    assert_contains(
        detail(g),
        "of the difference median of candidate − median of baseline lies inside (−0.0100, +0.0100)",
    );
    let holm = result(&r, "fail-if-significant-drop", "risk=compliance");
    assert_eq!(holm["family_size"], 2);
    assert_eq!(g["family_size"], 2);
}

#[test]
fn max_change_reads_replicate_runs() {
    let ctx = TestContext::new();
    data(&ctx, 300, 0.0, 0.01);
    ctx.write("b2.jsonl", ctx.read("b.jsonl"));
    let gates = format!(
        "{}[[gate]]\nmetric = \"ndcg@10\"\nmax-change = 0.01\n",
        HEAD.replace(
            "baseline = \"b.jsonl\"",
            "baseline = [\"b.jsonl\", \"b2.jsonl\"]"
        )
    );
    ctx.gate(gates);
    let r = ctx.check_json(&[]).expect(0).json();
    let g = result(&r, "max-change", "all");
    assert_eq!(g["status"], "pass", "{g}");
    let c = support::output::comparison(&r, "ndcg@10", "all");
    assert!(!c["replicates"].is_null(), "{c}");
}

#[test]
fn the_markdown_report_and_the_dump_show_the_rule() {
    let ctx = TestContext::new();
    data(&ctx, 400, 0.0, 0.01);
    ctx.gate(format!("{HEAD}{EQUIVALENCE}"));
    let md = ctx.check(&["--format", "markdown"]).expect(0).stdout;
    assert_contains(&md, "| max-change | CI far end ");
    assert_contains(&md, "| inside ±0.0100 | ✅ pass |");
    let dumped = ctx.check(&["--dump-config"]).expect(0).stdout;
    assert_contains(&dumped, "max-change = 0.01");
}

#[test]
fn a_margin_that_is_not_positive_is_refused_at_its_line() {
    let ctx = TestContext::new();
    data(&ctx, 40, 0.0, 0.01);
    for bad in ["0.0", "-0.01", "nan"] {
        ctx.gate(format!(
            "{HEAD}[[gate]]\nmetric = \"ndcg@10\"\nmax-change = {bad}\n"
        ));
        let err = ctx.check_json(&[]).expect(2).stderr;
        assert_contains(&err, "gate.toml:12:");
        assert_contains(
            &err,
            "[[gate]] #1 (ndcg@10): max-change must be a finite number > 0",
        );
    }
}
