//! Every shared fixture (tests/data/eval/fixtures, see tests/data/SOURCES.tsv) against its
//! external oracle: per-query values within 1e-12 of the full-precision `*.pte.tsv` and within
//! 5e-5 of every trec_eval `*.te*.txt` (4 decimals), including `-l 2`, `-M k`, map_cut and the
//! given-order variant. trec_eval keeps queries without a relevant doc, so we compare with
//! `--empty-gold zero`; queries missing from the run are scored 0 as with trec_eval -c.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use rag_gate::eval::{evaluate, EmptyGold, EvalOptions, Evaluation, Format, Metric, Order};

const STANDARD: &str =
    "map,rprec,mrr,p@5,p@10,recall@5,recall@10,recall@100,ndcg@5,ndcg@10,hit@1,hit@5,hit@10";
const PTE: &str = "map,rprec,mrr,p@5,p@10,recall@5,recall@10,recall@100,ndcg@5,ndcg@10,hit@1,hit@5,hit@10,ap@5,ap@10,ap@100";

/// (folder, qrels, run, oracle prefix, graded qrels?)
const CASES: &[(&str, &str, &str, &str, bool)] = &[
    (
        "trec_eval_test",
        "qrels.test",
        "results.test",
        "results.test.qrels_test",
        false,
    ),
    (
        "trec_eval_test",
        "qrels.rel_level",
        "results.test",
        "results.test.qrels_rel_level",
        true,
    ),
    (
        "trec_eval_test",
        "qrels.test",
        "results.trunc",
        "results.trunc.qrels_test",
        false,
    ),
    (
        "cacm",
        "qrels.cacm.txt",
        "run.cacm-bm25.txt",
        "run.cacm-bm25",
        false,
    ),
    (
        "trec-covid-r2",
        "qrels.covid-round2.txt",
        "run.covidex-sim.txt",
        "run.covidex-sim",
        true,
    ),
    (
        "trec-covid-r2",
        "qrels.covid-round2.txt",
        "run.covidex-t5.txt",
        "run.covidex-t5",
        true,
    ),
];

fn dir(folder: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/eval/fixtures")
        .join(folder)
}

/// measure → qid → value, from a `measure\tqid\tvalue` file.
fn oracle(path: &Path) -> BTreeMap<String, BTreeMap<String, f64>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out: BTreeMap<String, BTreeMap<String, f64>> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').map(str::trim).collect();
        assert_eq!(f.len(), 3, "{}: {line:?}", path.display());
        out.entry(f[0].to_string())
            .or_default()
            .insert(f[1].to_string(), f[2].parse().unwrap());
    }
    out
}

fn eval(folder: &str, qrels: &str, run: &Path, metrics: &str, opts: &EvalOptions) -> Evaluation {
    let ms = Metric::parse_list(metrics).unwrap();
    let q = dir(folder).join(qrels);
    evaluate(&q, qrels, run, &run.display().to_string(), &ms, opts)
        .unwrap_or_else(|e| panic!("{e}"))
}

fn trec_opts() -> EvalOptions {
    EvalOptions {
        empty_gold: EmptyGold::Zero,
        ..Default::default()
    }
}

/// Compares every (measure, qid) of the oracle, `all` against the mean; returns the count.
fn compare(ev: &Evaluation, oracle_path: &Path, tol: f64) -> usize {
    let want = oracle(oracle_path);
    let by_trec: BTreeMap<String, usize> = ev
        .metrics
        .iter()
        .enumerate()
        .map(|(j, m)| (m.trec_name(), j))
        .collect();
    let ours: BTreeSet<&str> = ev.rows.iter().map(|r| r.qid.as_str()).collect();
    let mut n = 0;
    for (measure, per_q) in &want {
        let j = *by_trec
            .get(measure)
            .unwrap_or_else(|| panic!("{}: measure {measure} not computed", oracle_path.display()));
        let theirs: BTreeSet<&str> = per_q
            .keys()
            .map(String::as_str)
            .filter(|q| *q != "all")
            .collect();
        assert_eq!(
            ours,
            theirs,
            "{}: {measure}: query sets differ",
            oracle_path.display()
        );
        for (qid, &v) in per_q {
            let got = if qid == "all" {
                ev.summary.means[&ev.metrics[j].to_string()].unwrap()
            } else {
                ev.rows.iter().find(|r| &r.qid == qid).unwrap().values[j]
            };
            // trec_eval prints 4 decimals: 0.03125 shows as 0.0312, exactly 5e-5 away, so allow
            // the representation error of that half-unit.
            assert!(
                (got - v).abs() <= tol * (1.0 + 1e-9),
                "{}: {measure} {qid}: ours {got} oracle {v}",
                oracle_path.display()
            );
            n += 1;
        }
    }
    n
}

#[test]
fn full_precision_pte_within_1e12() {
    let mut n = 0;
    for &(folder, qrels, run, prefix, _) in CASES {
        let ev = eval(folder, qrels, &dir(folder).join(run), PTE, &trec_opts());
        n += compare(&ev, &dir(folder).join(format!("{prefix}.pte.tsv")), 1e-12);
    }
    assert!(n > 1500, "only {n} values compared");
}

#[test]
fn trec_eval_standard_set_within_5e5() {
    for &(folder, qrels, run, prefix, _) in CASES {
        let ev = eval(
            folder,
            qrels,
            &dir(folder).join(run),
            STANDARD,
            &trec_opts(),
        );
        assert!(compare(&ev, &dir(folder).join(format!("{prefix}.te.txt")), 5e-5) > 40);
    }
}

#[test]
fn judged_only_equals_trec_eval_minus_j_within_5e5() {
    // Condensed lists (trec_eval -J): every unjudged doc leaves the ranking before scoring.
    for &(folder, qrels, run, prefix, _) in CASES {
        let opts = EvalOptions {
            judged_only: true,
            ..trec_opts()
        };
        let ev = eval(folder, qrels, &dir(folder).join(run), STANDARD, &opts);
        let n = compare(&ev, &dir(folder).join(format!("{prefix}.te.J.txt")), 5e-5);
        assert!(n > 40, "{prefix}: only {n} values compared");
    }
}

#[test]
fn trec_eval_rel_level_2_within_5e5() {
    let mut cases = 0;
    for &(folder, qrels, run, prefix, graded) in CASES.iter().filter(|c| c.4) {
        assert!(graded);
        let opts = EvalOptions {
            rel_level: 2,
            ..trec_opts()
        };
        let ev = eval(folder, qrels, &dir(folder).join(run), STANDARD, &opts);
        compare(&ev, &dir(folder).join(format!("{prefix}.te.l2.txt")), 5e-5);
        cases += 1;
    }
    assert_eq!(cases, 3);
}

#[test]
fn trec_eval_mrr_at_k_and_map_cut_within_5e5() {
    for &(folder, qrels, run, prefix, _) in CASES {
        let r = dir(folder).join(run);
        for k in [5, 10] {
            let ev = eval(folder, qrels, &r, &format!("mrr@{k}"), &trec_opts());
            // trec_eval -M k names the measure recip_rank; ours is recip_rank_cut_k.
            let want = oracle(&dir(folder).join(format!("{prefix}.te.M{k}.rr.txt")));
            for (qid, v) in &want["recip_rank"] {
                let got = match ev.rows.iter().find(|x| &x.qid == qid) {
                    Some(row) => row.values[0],
                    None => ev.summary.means[&format!("mrr@{k}")].unwrap(),
                };
                assert!(
                    qid == "all" || ev.rows.iter().any(|x| &x.qid == qid),
                    "{qid} missing"
                );
                assert!((got - v).abs() <= 5e-5, "{prefix} M{k} {qid}: {got} vs {v}");
            }
        }
        let ev = eval(folder, qrels, &r, "ap@5,ap@10,ap@100", &trec_opts());
        compare(
            &ev,
            &dir(folder).join(format!("{prefix}.te.map_cut.txt")),
            5e-5,
        );
    }
}

/// The rankorder oracle replaced every score by −rank: trusting the list order. We check it
/// twice: `--order rank` on the TREC file, and JSONL ranked lists (given order by default).
#[test]
fn given_order_matches_rankorder_oracle() {
    let tmp = tempfile::tempdir().unwrap();
    for &(folder, qrels, run, prefix, _) in CASES {
        let src = dir(folder).join(run);
        let want = dir(folder).join(format!("{prefix}.te.rankorder.txt"));
        let by_rank = EvalOptions {
            order: Some(Order::Rank),
            ..trec_opts()
        };
        compare(&eval(folder, qrels, &src, STANDARD, &by_rank), &want, 5e-5);

        let jsonl = tmp.path().join(format!("{prefix}.jsonl"));
        std::fs::write(&jsonl, to_jsonl(&std::fs::read_to_string(&src).unwrap())).unwrap();
        let ev = eval(folder, qrels, &jsonl, STANDARD, &trec_opts());
        assert_eq!(ev.summary.policies.run_format, Format::Jsonl);
        assert_eq!(ev.summary.policies.order, Order::Given);
        compare(&ev, &want, 5e-5);
    }
}

/// A TREC run as JSONL ranked lists in rank-column order.
fn to_jsonl(trec: &str) -> String {
    let mut by_q: BTreeMap<&str, Vec<(i64, &str)>> = BTreeMap::new();
    for l in trec.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        by_q.entry(f[0])
            .or_default()
            .push((f[3].parse().unwrap(), f[2]));
    }
    let mut out = String::new();
    for (q, mut docs) in by_q {
        docs.sort();
        let ranked: Vec<&str> = docs.iter().map(|d| d.1).collect();
        out.push_str(&serde_json::json!({"query_id": q, "ranked": ranked}).to_string());
        out.push('\n');
    }
    out
}

/// cacm's run has 64 queries, 12 not in the qrels: ignored and counted.
#[test]
fn cacm_run_only_queries_are_ignored_and_counted() {
    let ev = eval(
        "cacm",
        "qrels.cacm.txt",
        &dir("cacm").join("run.cacm-bm25.txt"),
        "map",
        &trec_opts(),
    );
    assert_eq!(ev.summary.evaluated, 52);
    assert_eq!(ev.summary.run_only_ignored, 12);
}

/// results.trunc lacks query 302: scored 0 and listed, like trec_eval -c.
#[test]
fn trunc_missing_query_is_scored_zero_and_listed() {
    let ev = eval(
        "trec_eval_test",
        "qrels.test",
        &dir("trec_eval_test").join("results.trunc"),
        "map,ndcg@10",
        &trec_opts(),
    );
    assert_eq!(ev.summary.missing_from_run, vec!["302".to_string()]);
    let row = ev.rows.iter().find(|r| r.qid == "302").unwrap();
    assert_eq!(row.values, vec![0.0, 0.0]);
}
