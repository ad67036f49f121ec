//! Document ids that never meet the qrels, through the binary on the TREC-COVID round-2
//! fixtures: a run whose doc ids lack the qrels' prefix (or differ in case) is exit 2 naming the
//! pairs, for `eval` and for a gate file's runs; a metric file whose judged@k is 0 on every
//! query is exit 2; a side with far less judged than the other is a warning naming the share.

use std::path::{Path, PathBuf};

use crate::support;
use support::cli::{code_and_stderr, json_verdict, rag_gate, warnings, write};

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
fn prefixed_qrels(dir: &Path) -> PathBuf {
    let text = with_docs(&format!("{COVID}/qrels.covid-round2.txt"), |_, d| {
        format!("cord19_{d}")
    });
    write(dir, "qrels.txt", text)
}

#[test]
fn eval_of_a_run_without_the_qrels_prefix_is_exit_2_naming_the_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let qrels = prefixed_qrels(dir.path());
    let (code, err) = code_and_stderr(rag_gate().arg("eval").arg("--qrels").arg(&qrels).args([
        "--run",
        &format!("{COVID}/run.covidex-sim.txt"),
        "--metrics",
        "ndcg@10",
        "--summary",
    ]));
    assert_eq!(code, Some(2), "{err}");
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
    let dir = tempfile::tempdir().unwrap();
    let run = write(
        dir.path(),
        "run.txt",
        with_docs(&format!("{COVID}/run.covidex-sim.txt"), |_, d| {
            d.to_uppercase()
        }),
    );
    let (code, err) = code_and_stderr(
        rag_gate()
            .args([
                "eval",
                "--qrels",
                &format!("{COVID}/qrels.covid-round2.txt"),
                "--metrics",
                "p@10",
                "--run",
            ])
            .arg(&run),
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("case, surrounding whitespace or leading zeros differ"),
        "{err}"
    );
    assert!(!err.contains("start with"), "{err}");
}

/// A gate file over two runs and `qrels`, with a gate on ndcg@10.
fn gate(dir: &Path, qrels: &Path, base: &Path, cand: &Path) -> PathBuf {
    write(
        dir,
        "gate.toml",
        format!(
            "[inputs]\nqrels = {:?}\nbaseline = {{ run = {:?} }}\ncandidate = {{ run = {:?} }}\n\
             [bootstrap]\nresamples = 200\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.05\n",
            qrels, base, cand
        ),
    )
}

#[test]
fn check_of_runs_without_the_qrels_prefix_is_exit_2_not_a_pass() {
    let dir = tempfile::tempdir().unwrap();
    let qrels = prefixed_qrels(dir.path());
    let (b, c) = (
        PathBuf::from(format!("{COVID}/run.covidex-sim.txt")),
        PathBuf::from(format!("{COVID}/run.covidex-t5.txt")),
    );
    let g = gate(dir.path(), &qrels, &b, &c);
    let (code, err) = code_and_stderr(rag_gate().arg("check").arg(&g));
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("no retrieved document of the run is in the qrels"),
        "{err}"
    );
    assert!(err.contains("run.covidex-sim.txt"), "{err}");
}

#[test]
fn metric_files_whose_judged_at_k_is_0_everywhere_never_pass() {
    let dir = tempfile::tempdir().unwrap();
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
    write(dir.path(), "b.jsonl", rows(0.0));
    write(dir.path(), "c.jsonl", rows(0.0));
    let g = write(
        dir.path(),
        "gate.toml",
        "[inputs]\nbaseline = \"b.jsonl\"\ncandidate = \"c.jsonl\"\n[[gate]]\nmetric = \"ndcg@10\"\nmax-drop = 0.05\n",
    );
    let (code, err) = code_and_stderr(rag_gate().arg("check").arg(&g));
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("b.jsonl"), "{err}");
    assert!(
        err.contains("judged@10 is 0 on every one of the 40 paired queries"),
        "{err}"
    );
}

#[test]
fn a_side_with_far_less_judged_is_a_warning_naming_the_share() {
    let dir = tempfile::tempdir().unwrap();
    // The candidate writes the doc ids of 25 of its 35 queries another way: those meet nothing
    // (its mean judged@10 is then 0.27 against the baseline's 0.50: not below half, but 25
    // queries have nothing judged where the baseline's top 10 has some).
    let cand = write(
        dir.path(),
        "cand.txt",
        with_docs(&format!("{COVID}/run.covidex-t5.txt"), |q, d| {
            match q.parse::<u32>().unwrap() <= 25 {
                true => format!("x_{d}"),
                false => d.to_string(),
            }
        }),
    );
    let base = PathBuf::from(format!("{COVID}/run.covidex-sim.txt"));
    let g = gate(
        dir.path(),
        Path::new(&format!("{COVID}/qrels.covid-round2.txt")),
        &base,
        &cand,
    );
    let (code, report) = json_verdict(rag_gate().arg("check").arg(&g).args(["--format", "json"]));
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
