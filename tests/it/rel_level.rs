//! `--rel-level N` and queries with no document at N: by default `eval` keeps them with 0 on the
//! binary metrics and nDCG by its grades, as trec_eval 10.0 does at every `-l` (its per-query
//! values and `all` means, from pytrec_eval, to 1e-12); `--empty-gold exclude` leaves them out,
//! except a query with graded gold when nDCG is asked for (trec_eval `-l` does not change nDCG).

use std::collections::BTreeMap;
use std::path::Path;

use crate::support;
use support::{Out, TestContext};

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/eval/fixtures/trec-covid-r2"
);

/// The TREC-COVID round-2 qrels with query 1's grade-2 judgments lowered to 1: query 1 then has
/// no doc at rel ≥ 2, and graded gold.
fn lowered_qrels(ctx: &TestContext) -> std::path::PathBuf {
    let text = std::fs::read_to_string(format!("{DATA}/qrels.covid-round2.txt")).unwrap();
    let lowered: String = text
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            match f.as_slice() {
                ["1", z, d, "2"] => format!("1 {z} {d} 1\n"),
                _ => format!("{l}\n"),
            }
        })
        .collect();
    assert_ne!(lowered, text);
    ctx.write("qrels.txt", lowered)
}

/// `eval` of the `sim` run on `qrels`: (stdout rows by query id, stderr).
fn eval(
    qrels: &Path,
    level: &str,
    metrics: &str,
) -> (serde_json::Map<String, serde_json::Value>, String) {
    let out = Out::of(
        TestContext::new()
            .command()
            .arg("eval")
            .arg("--qrels")
            .arg(qrels)
            .args(["--run", &format!("{DATA}/run.covidex-sim.txt")])
            .args(["--rel-level", level, "--metrics", metrics])
            .args(["--empty-gold", "exclude"]),
    )
    .expect(0);
    let out = out.utf8();
    let rows = out
        .stdout
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (v["query_id"].as_str().unwrap().to_string(), v)
        })
        .collect();
    (rows, out.stderr)
}

/// Under `--empty-gold exclude`, a query judged only below the level keeps its nDCG (listed as
/// graded-only) and is left out when no metric reads grades.
#[test]
fn a_query_judged_only_below_the_level_keeps_its_ndcg() {
    let ctx = TestContext::new();
    let qrels = lowered_qrels(&ctx);
    let (l1, _) = eval(&qrels, "1", "ndcg@10,recall@100");
    let (l2, err) = eval(&qrels, "2", "ndcg@10,recall@100");
    // Kept: trec_eval -l 2 gives nDCG by grades (the -l 1 value, checked against trec_eval by
    // eval_fixtures) and recall 0 (R = 0 at rel ≥ 2).
    assert_eq!(l2.len(), 35, "{err}");
    let q1 = &l2["1"];
    assert_eq!(q1["ndcg@10"], l1["1"]["ndcg@10"]);
    assert!(q1["ndcg@10"].as_f64().unwrap() > 0.0, "{q1}");
    assert_eq!(q1["recall@100"].as_f64(), Some(0.0));
    assert!(
        err.contains("note: 1 query with no doc at rel >= 2 but graded judgments kept for nDCG"),
        "{err}"
    );
    // Without nDCG among the metrics, query 1 has no gold for any of them: excluded and listed.
    let (binary, err) = eval(&qrels, "2", "recall@100");
    assert_eq!(binary.len(), 34, "{err}");
    assert!(!binary.contains_key("1"));
    assert!(
        err.contains("without a relevant doc excluded (--empty-gold exclude): \"1\""),
        "{err}"
    );
}

/// trec_eval's measure names and ours, for the reference files of tests/data/eval/rel_level.
const MEASURES: [(&str, &str); 8] = [
    ("map", "map"),
    ("ndcg_cut_10", "ndcg@10"),
    ("ndcg", "ndcg"),
    ("recall_100", "recall@100"),
    ("P_10", "p@10"),
    ("recip_rank", "mrr"),
    ("Rprec", "rprec"),
    ("success_10", "hit@10"),
];

/// A `.pte.tsv` reference (made by tests/data/eval/rel_level/make.py with pytrec_eval):
/// (measure, query id or `all`) → value.
fn reference(name: &str) -> BTreeMap<(String, String), f64> {
    let path = format!(
        "{}/tests/data/eval/rel_level/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            ((f[0].to_string(), f[1].to_string()), f[2].parse().unwrap())
        })
        .collect()
}

/// `eval --summary` with the rows in a file: (summary, rows by query id, stderr).
fn summary_and_rows(
    qrels: &Path,
    run: &str,
    level: &str,
    more: &[&str],
) -> (
    serde_json::Value,
    BTreeMap<String, serde_json::Value>,
    String,
) {
    let ctx = TestContext::new();
    let rows = ctx.path().join("rows.jsonl");
    let all: Vec<&str> = MEASURES.iter().map(|m| m.1).collect();
    let metrics = match more.iter().position(|a| *a == "--metrics") {
        Some(i) => more[i + 1].to_string(),
        None => all.join(","),
    };
    let more: Vec<&str> = match more.iter().position(|a| *a == "--metrics") {
        Some(i) => [&more[..i], &more[i + 2..]].concat(),
        None => more.to_vec(),
    };
    let out = Out::of(
        TestContext::new()
            .command()
            .arg("eval")
            .arg("--qrels")
            .arg(qrels)
            .args(["--run", run, "--rel-level", level, "--summary", "-o"])
            .arg(&rows)
            .args(["--metrics", &metrics])
            .args(&more),
    )
    .expect(0);
    let summary: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let rows = std::fs::read_to_string(&rows)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (v["query_id"].as_str().unwrap().to_string(), v)
        })
        .collect();
    (summary, rows, out.stderr)
}

/// Every per-query value and every mean against the reference, to 1e-12; returns how many
/// values were compared.
fn assert_trec_eval(
    want: &BTreeMap<(String, String), f64>,
    summary: &serde_json::Value,
    rows: &BTreeMap<String, serde_json::Value>,
) -> usize {
    let mut compared = 0;
    for ((measure, qid), &v) in want {
        let ours = MEASURES.iter().find(|m| m.0 == measure).unwrap().1;
        let got = match qid.as_str() {
            "all" => summary["means"][ours].as_f64(),
            _ => rows.get(qid).and_then(|r| r[ours].as_f64()),
        };
        let got = got.unwrap_or_else(|| panic!("{ours} of {qid}: absent"));
        assert!(
            (got - v).abs() <= 1e-12,
            "{ours} of {qid}: {got} against trec_eval's {v}"
        );
        compared += 1;
    }
    compared
}

#[test]
fn means_at_every_level_equal_trec_eval_on_its_own_graded_test_files() {
    let te = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/eval/fixtures/trec_eval_test"
    );
    let qrels = Path::new(te).join("qrels.rel_level");
    let run = format!("{te}/results.test");
    for (level, file, empty) in [
        ("3", "trec_eval_test.l3.pte.tsv", 1),
        ("4", "trec_eval_test.l4.pte.tsv", 2),
    ] {
        let (summary, rows, err) = summary_and_rows(&qrels, &run, level, &[]);
        assert_eq!(summary["evaluated"], 3, "{err}");
        assert_eq!(
            summary["no_relevant"].as_array().unwrap().len(),
            empty,
            "{summary}"
        );
        assert!(
            err.contains("kept (--empty-gold zero, trec_eval's rule)"),
            "{err}"
        );
        assert_eq!(assert_trec_eval(&reference(file), &summary, &rows), 8 * 4);
    }
}

/// The TREC-COVID round-2 qrels with grade 2 raised to 3 on the odd-numbered topics (what
/// make.py does): the 17 even-numbered topics have no grade-3 document.
fn graded3_qrels(ctx: &TestContext) -> std::path::PathBuf {
    let text = std::fs::read_to_string(format!("{DATA}/qrels.covid-round2.txt")).unwrap();
    let raised: String = text
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            match f.as_slice() {
                [q, z, d, "2"] if q.parse::<u32>().unwrap() % 2 == 1 => format!("{q} {z} {d} 3\n"),
                _ => format!("{l}\n"),
            }
        })
        .collect();
    ctx.write("qrels.txt", raised)
}

#[test]
fn rel_level_3_means_equal_trec_eval_l3_with_queries_lacking_grade_3() {
    let ctx = TestContext::new();
    let qrels = graded3_qrels(&ctx);
    let run = format!("{DATA}/run.covidex-sim.txt");
    let (summary, rows, err) = summary_and_rows(&qrels, &run, "3", &[]);
    assert_eq!(summary["evaluated"], 35, "{err}");
    assert_eq!(
        summary["no_relevant"].as_array().unwrap().len(),
        17,
        "{summary}"
    );
    assert_eq!(summary["policies"]["empty_gold"], "zero");
    let want = reference("covid_graded3.l3.pte.tsv");
    assert_eq!(assert_trec_eval(&want, &summary, &rows), 8 * 36);
    // `exclude` stays available by name: the binary metrics then average the 18 queries with a
    // grade-3 document (nDCG keeps all 35: they have graded gold), so map's mean differs.
    let (excl, _, _) = summary_and_rows(&qrels, &run, "3", &["--empty-gold", "exclude"]);
    assert_eq!(excl["evaluated"], 35, "{excl}");
    assert_eq!(excl["graded_only"].as_array().unwrap().len(), 17, "{excl}");
    let (map, _, _) = summary_and_rows(
        &qrels,
        &run,
        "3",
        &["--empty-gold", "exclude", "--metrics", "map"],
    );
    assert_eq!(map["evaluated"], 18, "{map}");
    let all = want[&("map".to_string(), "all".to_string())];
    assert!(
        (map["means"]["map"].as_f64().unwrap() - all * 35.0 / 18.0).abs() < 1e-12,
        "{map}"
    );
}
