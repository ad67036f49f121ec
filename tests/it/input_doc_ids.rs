//! Document ids that never meet the qrels, through the binary on the TREC-COVID round-2
//! fixtures: a run whose doc ids lack the qrels' prefix (or differ in case) is exit 2 naming the
//! pairs, for `eval` and for a gate file's runs; a metric file whose judged@k is 0 on every
//! query is exit 2; a side with far less judged than the other is a warning naming the share.

use std::path::{Path, PathBuf};

use crate::support;
use support::output::warnings;
use support::{toml_path, GateFile, TestContext};

const COVID: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/eval/fixtures/trec-covid-r2"
);

/// Each line of `file` with its third field (the doc id) passed through `f(query, doc)`.
fn with_docs(file: &str, f: impl Fn(&str, &str) -> String) -> String {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: Vec<String> = l.split_whitespace().map(String::from).collect();
            v[2] = f(&v[0], &v[2]);
            v.join(" ") + "\n"
        })
        .collect()
}

/// The qrels with every doc id prefixed `cord19_` (as MS MARCO's `msmarco_passage_`), and the
/// runs as they are: their ids lack the prefix.
fn prefixed_qrels(ctx: &TestContext) -> PathBuf {
    let text = with_docs(&format!("{COVID}/qrels.covid-round2.txt"), |_, d| {
        format!("cord19_{d}")
    });
    ctx.write("qrels.txt", text)
}

#[test]
fn eval_of_a_run_without_the_qrels_prefix_is_exit_2_naming_the_pairs() {
    let ctx = TestContext::new();
    prefixed_qrels(&ctx);
    let err = ctx
        .run(&[
            "eval",
            "--qrels",
            "qrels.txt",
            "--run",
            &format!("{COVID}/run.covidex-sim.txt"),
            "--metrics",
            "ndcg@10",
            "--summary",
        ])
        .expect(2)
        .stderr;
    for want in [
        "no retrieved document of the run is in the qrels",
        "every metric would be 0",
        "the qrels' ids start with \"cord19_\" and the run's do not",
        "write the run's doc ids as the qrels do",
    ] {
        assert!(err.contains(want), "{want:?} not in {err}");
    }
    // A pair: a qrels id and the same id as the run writes it.
    let pair = err.split("qrels.txt is \"").nth(1).expect(&err);
    let run_id = &pair[..pair.find('"').unwrap()];
    assert!(err.contains(&format!("\"cord19_{run_id}\" in ")), "{err}");
}

#[test]
fn eval_names_case_when_only_case_differs() {
    let ctx = TestContext::new();
    ctx.write(
        "run.txt",
        with_docs(&format!("{COVID}/run.covidex-sim.txt"), |_, d| {
            d.to_uppercase()
        }),
    );
    let err = ctx
        .run(&[
            "eval",
            "--qrels",
            &format!("{COVID}/qrels.covid-round2.txt"),
            "--metrics",
            "p@10",
            "--run",
            "run.txt",
        ])
        .expect(2)
        .stderr;
    assert!(
        err.contains("case, surrounding whitespace or leading zeros differ"),
        "{err}"
    );
    assert!(!err.contains("start with"), "{err}");
}

/// A gate file over two runs and `qrels`, with a gate on ndcg@10.
fn runs(qrels: &Path, base: &Path, cand: &Path) -> GateFile {
    GateFile::default()
        .path("qrels", qrels)
        .input("baseline", format!("{{ run = {} }}", toml_path(base)))
        .input("candidate", format!("{{ run = {} }}", toml_path(cand)))
        .resamples(200)
        .gate("ndcg@10", "max-drop = 0.05")
}

#[test]
fn check_of_runs_without_the_qrels_prefix_is_exit_2_not_a_pass() {
    let ctx = TestContext::new();
    let qrels = prefixed_qrels(&ctx);
    let (b, c) = (
        PathBuf::from(format!("{COVID}/run.covidex-sim.txt")),
        PathBuf::from(format!("{COVID}/run.covidex-t5.txt")),
    );
    ctx.gate(runs(&qrels, &b, &c));
    let err = ctx.check(&[]).expect(2).stderr;
    assert!(
        err.contains("no retrieved document of the run is in the qrels"),
        "{err}"
    );
    assert!(err.contains("run.covidex-sim.txt"), "{err}");
}

#[test]
fn metric_files_whose_judged_at_k_is_0_everywhere_never_pass() {
    let ctx = TestContext::new();
    let rows = |judged: f64| -> String {
        (0..40)
            .map(|i| {
                format!(
                    "{{\"query_id\":\"q{i}\",\"ndcg@10\":0.0,\"judged@10\":{}}}\n",
                    if judged > 0.0 {
                        judged + (i % 3) as f64 * 0.1
                    } else {
                        0.0
                    }
                )
            })
            .collect()
    };
    ctx.write("b.jsonl", rows(0.0));
    ctx.write("c.jsonl", rows(0.0));
    ctx.gate(GateFile::new("b.jsonl", "c.jsonl").gate("ndcg@10", "max-drop = 0.05"));
    let err = ctx.check(&[]).expect(2).stderr;
    assert!(err.contains("b.jsonl"), "{err}");
    assert!(
        err.contains("judged@10 is 0 on every one of the 40 paired queries"),
        "{err}"
    );
}

#[test]
fn a_side_with_far_less_judged_is_a_warning_naming_the_share() {
    let ctx = TestContext::new();
    // The candidate writes the doc ids of 25 of its 35 queries another way: those meet nothing
    // (its mean judged@10 is then 0.27 against the baseline's 0.50: not below half, but 25
    // queries have nothing judged where the baseline's top 10 has some).
    let cand = ctx.write(
        "cand.txt",
        with_docs(&format!("{COVID}/run.covidex-t5.txt"), |q, d| {
            match q.parse::<u32>().unwrap() <= 25 {
                true => format!("x_{d}"),
                false => d.to_string(),
            }
        }),
    );
    let base = PathBuf::from(format!("{COVID}/run.covidex-sim.txt"));
    ctx.gate(runs(
        Path::new(&format!("{COVID}/qrels.covid-round2.txt")),
        &base,
        &cand,
    ));
    let out = ctx.check_json(&[]);
    let (code, report) = (out.verdict(), out.json());
    assert_eq!(code, 1, "{report}");
    let w = warnings(&report);
    let found = w
        .iter()
        .find(|w| w.contains("the candidate's judged@10 is"))
        .unwrap_or_else(|| panic!("{w:#?}"));
    assert!(
        found.contains("25 of 35 queries have nothing judged in the candidate's top k"),
        "{found}"
    );
    assert!(found.contains("against the baseline's"), "{found}");
}
