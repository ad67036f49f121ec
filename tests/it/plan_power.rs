//! `rag-gate plan`'s size holds its power on average over the pilot it is planned from, through
//! the binary: on long-tailed deltas it asks for more than the plug-in paired-t size of the same
//! spread (the pilot's own uncertainty and the gate's interval, which is at least Student t's
//! and wider on a long tail of losses), and the more the pilot holds, the closer it comes to it.
//! And under `guarantee = "distribution-free"`, a set too small for a margin is said by `plan`,
//! `init` and `check` in the user's words with the queries it needs.

use crate::support;
use support::{GateFile, Out, TestContext};

use std::path::Path;

use serde_json::Value;
use support::output::{assert_contains, warnings};

/// The deltas of one block of 20 queries: 12 untouched, 6 small gains, 2 large losses (mean
/// −0.0055, a long tail of losses).
const BLOCK: [f64; 20] = [
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.02, 0.03, 0.01, 0.04, 0.02, 0.03,
    -0.15, -0.11,
];

/// Baseline and candidate files with `blocks` copies of the block, and a gate file.
fn pilot(ctx: &TestContext, blocks: usize, verdict: &str, margin: f64) -> std::path::PathBuf {
    let (mut b, mut c) = (String::new(), String::new());
    for k in 0..blocks {
        for (i, d) in BLOCK.iter().enumerate() {
            let base = 0.3 + 0.02 * i as f64;
            let id = format!("q{k:03}-{i:02}");
            b.push_str(&format!(
                "{{\"query_id\": \"{id}\", \"ndcg@10\": {base:.4}}}\n"
            ));
            c.push_str(&format!(
                "{{\"query_id\": \"{id}\", \"ndcg@10\": {:.4}}}\n",
                base + d
            ));
        }
    }
    ctx.write("b.jsonl", b);
    ctx.write("c.jsonl", c);
    ctx.gate(GateFile::new("b.jsonl", "c.jsonl").raw(verdict).gate(
        "ndcg@10",
        &format!("max-drop = {margin}\nfail-if-significant-drop = 0.01"),
    ))
}

fn plan_json(ctx: &TestContext, gate: &Path) -> Value {
    let out = Out::of(
        ctx.command()
            .args(["plan", "--pull-requests", "0", "--format", "json"])
            .arg(gate),
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    serde_json::from_str(&out.stdout).unwrap()
}

/// The plug-in paired-t size of `rule` on the pilot's spread (what `plan` used to say).
fn plug_in(row: &Value) -> u64 {
    use rag_gate::stats::sample_size::{units_for, units_to_catch};
    let sd = row["sd"].as_f64().unwrap();
    let m = row["margin"].as_f64().unwrap();
    let n = match row["rule"].as_str().unwrap() {
        "max-drop" => units_for(sd, m, 0.95, 0.8),
        _ => units_to_catch(sd, row["drop"].as_f64().unwrap(), m, 0.95, 0.8, 1),
    };
    n.unwrap() as u64
}

#[test]
fn the_size_carries_the_pilots_uncertainty_and_the_intervals_width() {
    let (small, large) = (TestContext::new(), TestContext::new());
    let a = plan_json(&small, &pilot(&small, 3, "", 0.02));
    let b = plan_json(&large, &pilot(&large, 50, "", 0.02));
    for rule in ["max-drop", "fail-if-significant-drop"] {
        let row = |v: &Value| -> Value {
            v["rows"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["rule"] == rule)
                .cloned()
                .unwrap()
        };
        let (ra, rb) = (row(&a), row(&b));
        let (na, nb) = (
            ra["needed"].as_u64().unwrap(),
            rb["needed"].as_u64().unwrap(),
        );
        let (pa, pb) = (plug_in(&ra), plug_in(&rb));
        if rule == "max-drop" {
            // Well above the plug-in size on 60 queries (the small pilot's spread is uncertain,
            // and the tail of losses widens the low side the rule reads); never below it on
            // 1,000 of the same shape (the interval is at least Student t's).
            assert!(na as f64 > 1.1 * pa as f64, "{rule}: {na} vs plug-in {pa}");
            assert!(nb >= pb, "{rule}: {nb} vs plug-in {pb}");
        } else {
            // The high side the rule reads is not widened by a tail of losses: the drawn
            // studentized mean puts the size near the plug-in one, on either side of it.
            for (n, p) in [(na, pa), (nb, pb)] {
                assert!(
                    (0.8..=1.5).contains(&(n as f64 / p as f64)),
                    "{rule}: {n} vs {p}"
                );
            }
        }
    }
    // The same gate file plans the same size, byte for byte.
    let again = plan_json(&small, &small.join("gate.toml"));
    assert_eq!(a, again);
}

#[test]
fn a_set_too_small_for_the_distribution_free_guarantee_is_said_with_the_queries_it_needs() {
    let ctx = TestContext::new();
    let verdict = "[verdict]\nguarantee = \"distribution-free\"\n";
    // 60 queries at max-drop 0.02: the bound at zero moved is 1 − 0.025^(1/60) = 0.0597 below
    // the mean, and 183 queries bring it within 0.02.
    let gate = pilot(&ctx, 3, verdict, 0.02);
    let v = plan_json(&ctx, &gate);
    let w = v["warnings"].as_array().unwrap();
    let said = w
        .iter()
        .filter_map(Value::as_str)
        .find(|w| w.contains("distribution-free"))
        .unwrap_or_else(|| panic!("{w:?}"));
    assert_contains(said, "needs 183 queries for a margin of 0.0200");
    assert_contains(said, "use guarantee = \"regular\"");
    let row = &v["rows"][0];
    assert_eq!(row["rule"], "max-drop");
    assert!(row["needed"].as_u64().unwrap() >= 183, "{row}");
    // check says it in the header's warnings, as the setup's, not as the pull request's state.
    let report = Out::of(ctx.command().args(["check", "--format", "json"]).arg(&gate))
        .expect(1)
        .json();
    let w = warnings(&report).join("\n");
    assert_contains(
        &w,
        "this set is too small for guarantee = \"distribution-free\"",
    );
    assert_contains(&w, "183 queries would let an unchanged pull request pass");
    // Under the regular guarantee neither says it.
    let regular = pilot(&ctx, 3, "", 0.02);
    let v = plan_json(&ctx, &regular);
    assert!(!v["warnings"].to_string().contains("distribution-free"));
}

#[test]
fn init_steers_a_small_set_away_from_the_distribution_free_guarantee() {
    let ctx = TestContext::new();
    pilot(&ctx, 3, "", 0.02);
    let out = ctx.run(&["init", "--baseline", "b.jsonl", "--candidate", "c.jsonl"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_contains(&out.stdout, "guarantee = \"regular\"");
    assert_contains(&out.stdout, "# Not distribution-free on this set");
    // 60 queries: p* = 6.0%, above the margin 0.02 init writes; 183 queries close it.
    assert_contains(
        &out.stdout,
        "at a worst cost of 0.060, above the margin 0.02",
    );
    assert_contains(&out.stdout, "it needs\n# 183 queries for the margin 0.02");
}
