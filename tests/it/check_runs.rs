//! A gate file that names runs instead of metric files: `check` evaluates both runs against the
//! qrels and compares them. Checked against an independent oracle: the shared fixtures' paired
//! nDCG@10 comparison of two real TREC-COVID round-2 systems (trec_eval per-query values,
//! means and wins/losses/ties computed outside this project).

use crate::support;

use support::output::{comparison, comparisons};
use support::{GateFile, TestContext};

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/eval/fixtures/trec-covid-r2"
);

fn oracle(key: &str) -> String {
    let text = std::fs::read_to_string(format!("{DATA}/pair.sim-vs-t5.ndcg_cut_10.txt")).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{key}\t")))
        .unwrap()
        .to_string()
}

/// sim (baseline) vs t5 (candidate) on their qrels, ndcg@10 gated on a 0.01 drop; `eval` is
/// added before the slices.
fn covid_runs(eval: &str) -> GateFile {
    GateFile::default()
        .path("qrels", format!("{DATA}/qrels.covid-round2.txt"))
        .input(
            "baseline",
            format!("{{ run = \"{DATA}/run.covidex-sim.txt\" }}"),
        )
        .input(
            "candidate",
            format!("{{ run = \"{DATA}/run.covidex-t5.txt\" }}"),
        )
        .resamples(2000)
        .raw(eval)
        .table("slices", "min-queries = 30")
        .gate("ndcg@10", "max-drop = 0.01")
}

#[test]
fn two_real_runs_compare_like_the_independent_oracle() {
    let ctx = TestContext::new();
    // The baseline has judged@10 of 0.50: by default the gate would fail as unreliable
    // (tests/it/judged_bounds.rs); this test is about the figures, so it only warns.
    ctx.gate(covid_runs(
        "[eval]\nmetrics = [\"recall@100\"]\n[judged]\non-unreliable = \"warn\"",
    ));
    let v = ctx.check_json(&[]).expect(0).json();
    let c = comparison(&v, "ndcg@10", "all");
    assert_eq!(c["n"].as_u64().unwrap().to_string(), oracle("queries"));
    let close = |x: &serde_json::Value, key: &str| {
        let want: f64 = oracle(key).parse().unwrap();
        assert!(
            (x.as_f64().unwrap() - want).abs() < 1e-12,
            "{key}: {x} vs {want}"
        );
    };
    close(&c["baseline_mean"], "mean_baseline");
    close(&c["candidate_mean"], "mean_candidate");
    close(&c["delta"], "mean_diff");
    let wlt = format!("{}/{}/{}", c["wins"], c["losses"], c["ties"]);
    assert_eq!(wlt, oracle("wins_losses_ties"));
    // The interval is the bootstrap's own, but must sit around the oracle's paired t interval:
    // mean ± t(0.975, 34) · sd / √35 = 0.2996 ± 0.1130.
    let [lo, hi] = [c["ci"][0].as_f64().unwrap(), c["ci"][1].as_f64().unwrap()];
    assert!(
        lo > 0.17 && lo < 0.21 && hi > 0.39 && hi < 0.43,
        "[{lo}, {hi}]"
    );
    assert!(comparisons(&v).iter().any(|c| c["metric"] == "recall@100"));
    assert!(v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w.as_str().unwrap().contains("evaluated 35 queries")));
}

#[test]
fn bad_eval_policy_is_an_error_naming_the_key() {
    let ctx = TestContext::new();
    ctx.gate(covid_runs("[eval]\ngain = \"quadratic\""));
    let err = ctx.check(&[]).expect(2).stderr;
    assert!(
        err.contains("[eval] gain = \"quadratic\": expected one of \"linear\", \"exponential\""),
        "{err}"
    );
}

/// `eval --format trec` wrote mrr@10 as `recip_rank_cut_10`, which the trec_eval reader of
/// `check` did not map back, so eval output did not feed a gate on mrr@k.
#[test]
fn regression_eval_trec_output_feeds_compare_under_our_names() {
    let ctx = TestContext::new();
    let qrels = format!("{DATA}/qrels.covid-round2.txt");
    for (run, out) in [
        ("run.covidex-sim.txt", "b.te"),
        ("run.covidex-t5.txt", "c.te"),
    ] {
        let run = format!("{DATA}/{run}");
        ctx.run(&[
            "eval",
            "--metrics",
            "mrr@10,ndcg@10",
            "--format",
            "trec",
            "--qrels",
            &qrels,
            "--run",
            &run,
            "-o",
            out,
        ])
        .expect(0);
    }
    let v = ctx
        .run(&[
            "compare",
            "b.te",
            "c.te",
            "--metric",
            "mrr@10",
            "--resamples",
            "200",
            "--format",
            "json",
        ])
        .expect(0)
        .json();
    assert_eq!(v["comparisons"][0]["metric"], "mrr@10");
    assert_eq!(v["comparisons"][0]["n"], 35);
}
