//! Parquet inputs (tests/data/eval/parquet, written by pyarrow with `make.py` there): runs and
//! qrels give the same per-query values as the TREC files they came from (exactly), a Spark-style
//! folder of part files reads as one table, metric tables give the report their JSONL twins
//! give, and the hostile cases of docs/bad-input.md's Parquet section exit 2 naming the file and
//! the place.

use crate::support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rag_gate::eval::{evaluate, EvalOptions, Format, Metric};
use support::output::assert_input_error;

use support::{GateFile, Out, TestContext};

const METRICS: &str =
    "map,rprec,mrr,p@5,p@10,recall@5,recall@10,recall@100,ndcg@5,ndcg@10,hit@1,hit@5,hit@10";

/// (TREC qrels, TREC run) under fixtures/, (qrels, run) under parquet/.
const CASES: &[(&str, &str, &str, &str)] = &[
    (
        "cacm/qrels.cacm.txt",
        "cacm/run.cacm-bm25.txt",
        "cacm/qrels.parquet",
        "cacm/run",
    ),
    (
        "trec_eval_test/qrels.test",
        "trec_eval_test/results.test",
        "trec_eval_test/qrels.parquet",
        "trec_eval_test/run.parquet",
    ),
];

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/eval")
        .join(rel)
}

fn rows(qrels: &Path, run: &Path) -> (BTreeMap<String, Vec<f64>>, Format) {
    let ms = Metric::parse_list(METRICS).unwrap();
    let (q, r) = (qrels.display().to_string(), run.display().to_string());
    let ev = evaluate(qrels, &q, run, &r, &ms, &EvalOptions::default())
        .unwrap_or_else(|e| panic!("{r}: {e}"));
    let fmt = ev.summary.policies.run_format;
    let rows = ev.rows.into_iter().map(|r| (r.qid, r.values)).collect();
    (rows, fmt)
}

#[test]
fn parquet_runs_and_qrels_equal_the_trec_route_exactly() {
    for (tq, tr, pq, pr) in CASES {
        let (want, _) = rows(&data("fixtures").join(tq), &data("fixtures").join(tr));
        let (got, fmt) = rows(&data("parquet").join(pq), &data("parquet").join(pr));
        assert_eq!(fmt, Format::Parquet, "{pr}");
        assert!(want.len() >= 3, "{tr}: {} rows", want.len());
        // Exactly: the same f64 scores, the same order, the same arithmetic.
        assert_eq!(got, want, "{pr} against {tr}");
    }
}

fn eval(dir: &Path, qrels: &Path, run: &Path, extra: &[&str]) -> String {
    let out = Out::of(
        TestContext::new()
            .cwd(dir)
            .command()
            .arg("eval")
            .arg("--qrels")
            .arg(qrels)
            .arg("--run")
            .arg(run)
            .args(["--metrics", METRICS])
            .args(extra),
    )
    .expect(0);
    out.utf8().stdout
}

#[test]
fn the_binary_prints_the_trec_rows_for_parquet_files_and_folders() {
    let here = data("");
    for (tq, tr, pq, pr) in CASES {
        let want = eval(
            &here,
            &data("fixtures").join(tq),
            &data("fixtures").join(tr),
            &[],
        );
        let got = eval(
            &here,
            &data("parquet").join(pq),
            &data("parquet").join(pr),
            &[],
        );
        assert_eq!(got, want, "{pr}");
        // Forcing the format the file has changes nothing.
        let forced = ["--run-format", "parquet", "--qrels-format", "parquet"];
        let got = eval(
            &here,
            &data("parquet").join(pq),
            &data("parquet").join(pr),
            &forced,
        );
        assert_eq!(got, want, "{pr} forced");
    }
}

/// A run with its own column names (`query` is one of the usual query-id names; the others are
/// given with `--column`); without them the error lists the columns the table has.
#[test]
fn run_columns_are_mappable() {
    let dir = data("parquet/cacm");
    let qrels = data("parquet/cacm/qrels.parquet");
    let want = eval(&dir, &qrels, &data("fixtures/cacm/run.cacm-bm25.txt"), &[]);
    let cols = ["--column", "doc_id=passage", "--column", "score=similarity"];
    let got = eval(&dir, &qrels, Path::new("renamed.parquet"), &cols);
    assert_eq!(got, want);
    let o = Out::of(
        TestContext::new()
            .cwd(&dir)
            .command()
            .arg("eval")
            .arg("--qrels")
            .arg(&qrels)
            .args(["--run", "renamed.parquet", "--metrics", "map"]),
    );
    assert_input_error(
        &o,
        &[
            "renamed.parquet: no doc_id column (looked for doc_id, docid",
            "name it with --column doc_id=NAME, --qrels-column for qrels); columns: \"query\" (string), \"passage\" (string), \"similarity\" (float)",
        ],
    );
}

fn compare(dir: &Path, b: &Path, c: &Path, extra: &[&str]) -> String {
    let out = Out::of(
        TestContext::new()
            .cwd(dir)
            .command()
            .arg("compare")
            .arg(b)
            .arg(c)
            .args(extra),
    )
    .expect(0);
    out.utf8().stdout
}

#[test]
fn parquet_metric_tables_give_the_jsonl_report() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let pq = data("parquet/metrics");
    let want = compare(
        root,
        &root.join("examples/baseline.jsonl"),
        &root.join("examples/candidate.jsonl"),
        &[],
    );
    let got = compare(
        root,
        &pq.join("baseline.parquet"),
        &pq.join("candidate.parquet"),
        &[],
    );
    assert_eq!(got, want);
    assert!(want.contains("ndcg@10"), "{want}");
}

/// `check` with a gate file: Parquet tables with the long form's mapping (an exporter's own
/// column names, a text column left out) give the report of the
/// JSONL files with a queries file.
#[test]
fn check_reads_mapped_parquet_tables_like_jsonl() {
    let ctx = TestContext::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let gate = |inputs: &str| {
        GateFile::default()
            .inputs_raw(inputs)
            .table("slices", "by = [\"language\"]\non-small-slice = \"warn\"")
            .table("bootstrap", "unit = \"group\"\nresamples = 2000")
            .gate(
                "mrr@5",
                "max-drop = 0.05\nslices = [\"all\", \"language=en\"]",
            )
            .to_string()
    };
    let ex = root.join("examples");
    let jsonl = gate(&format!(
        "baseline = {:?}\ncandidate = {:?}\nqueries = {:?}\n",
        ex.join("baseline.jsonl"),
        ex.join("baseline.jsonl"),
        ex.join("queries.jsonl"),
    ));
    let ragas = data("parquet/metrics/ragas.parquet");
    let long = format!(
        "{{ path = {ragas:?}, id = \"sample_id\", group = \"conversation_id\", slices = {{ language = \"language\" }}, metrics = {{ \"mrr@5\" = \"mrr\" }} }}"
    );
    let parquet = gate(&format!("baseline = {long}\ncandidate = {long}\n"));
    let report = |text: &str| {
        ctx.gate(text);
        let v = ctx.check_json(&[]).expect(0).json();
        // The JSONL files carry two more metrics; the mapping reads only mrr@5.
        let mrr: Vec<&serde_json::Value> = v["comparisons"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["metric"] == "mrr@5")
            .collect();
        assert_eq!(mrr.len(), 4, "all and three languages");
        serde_json::json!({"verdict": v["verdict"], "comparisons": mrr})
    };
    assert_eq!(report(&parquet), report(&jsonl));
}

/// The hostile Parquet files of tests/data/parquet/hostile, the CACM qrels and run, and the
/// damaged copies made here (text, truncated, huge chunk, rows and list), in a new folder.
fn hostile_parquet() -> TestContext {
    let ctx = TestContext::new();
    let dir = ctx.path();
    let copy = |from: &Path, to: &Path| {
        if from.is_dir() {
            std::fs::create_dir_all(to).unwrap();
            for e in std::fs::read_dir(from).unwrap() {
                let e = e.unwrap();
                std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
            }
        } else {
            std::fs::copy(from, to).unwrap();
        }
    };
    let h = data("parquet/hostile");
    for name in [
        "score_string.parquet",
        "null_score.parquet",
        "null_id.parquet",
        "mixed",
        "empty",
    ] {
        copy(&h.join(name), &dir.join(name));
    }
    copy(
        &data("parquet/cacm/qrels.parquet"),
        &dir.join("qrels.parquet"),
    );
    copy(&data("parquet/cacm/run"), &dir.join("run"));
    let good = std::fs::read(data("parquet/trec_eval_test/run.parquet")).unwrap();
    std::fs::write(dir.join("text.parquet"), "qid Q0 doc 1 1.0 tag\n").unwrap();
    std::fs::write(dir.join("truncated.parquet"), &good[..good.len() / 2]).unwrap();
    std::fs::write(dir.join("huge-chunk.parquet"), huge(&good, true)).unwrap();
    std::fs::write(dir.join("huge-rows.parquet"), huge(&good, false)).unwrap();
    std::fs::write(dir.join("huge-list.parquet"), huge_list(&good)).unwrap();
    ctx
}

/// `good` with a footer declaring a column chunk of 2^40 bytes (`chunk`) or a row group of
/// 2^40 rows: neither may be allocated up front.
fn huge(good: &[u8], chunk: bool) -> Vec<u8> {
    use parquet::file::metadata::{ParquetMetaDataReader, ParquetMetaDataWriter};
    let bytes = bytes::Bytes::copy_from_slice(good);
    let meta = ParquetMetaDataReader::new()
        .parse_and_finish(&bytes)
        .unwrap();
    let mut b = meta.clone().into_builder();
    let mut groups = b.take_row_groups();
    let first = groups.remove(0);
    let mut g = first.clone().into_builder();
    if chunk {
        let mut cols = g.take_columns();
        let c = cols.remove(1);
        let c = c
            .into_builder()
            .set_total_compressed_size(1 << 40)
            .build()
            .unwrap();
        cols.insert(1, c);
        g = g.set_column_metadata(cols);
    } else {
        g = g.set_num_rows(1 << 40);
    }
    groups.insert(0, g.build().unwrap());
    let meta = b.set_row_groups(groups).build();
    let footer_len = u32::from_le_bytes(good[good.len() - 8..good.len() - 4].try_into().unwrap());
    let data_end = good.len() - 8 - footer_len as usize;
    let mut out = good[..data_end].to_vec();
    ParquetMetaDataWriter::new(&mut out, &meta)
        .finish()
        .unwrap();
    out
}

/// `good` with a footer whose first field (the schema list) declares 2^31 elements.
fn huge_list(good: &[u8]) -> Vec<u8> {
    let footer_len = u32::from_le_bytes(good[good.len() - 8..good.len() - 4].try_into().unwrap());
    let data_end = good.len() - 8 - footer_len as usize;
    // field 1 (version, i32) = 1; field 2 (schema, list of structs) of 2^31 elements; stop.
    let footer = [0x15, 0x02, 0x19, 0xFC, 0x80, 0x80, 0x80, 0x80, 0x08, 0x00];
    let mut out = good[..data_end].to_vec();
    out.extend_from_slice(&footer);
    out.extend_from_slice(&(footer.len() as u32).to_le_bytes());
    out.extend_from_slice(b"PAR1");
    out
}

/// (id in docs/bad-input.md, run file, extra args, fragments of the one error line).
type Hostile = (
    &'static str,
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
);

const HOSTILE: &[Hostile] = &[
    ("parquet-not-parquet", "text.parquet", &[], &["text.parquet: not a Parquet file: it does not start with the magic bytes PAR1"]),
    ("parquet-truncated", "truncated.parquet", &[], &["truncated.parquet: truncated or damaged Parquet file (", "no valid footer"]),
    ("parquet-score-string", "score_string.parquet", &[], &["score_string.parquet: column \"score\" (the score) holds string values; expected float or integer"]),
    ("parquet-null-score", "null_score.parquet", &[], &["null_score.parquet (row group 2, row 1): column \"score\" is null"]),
    ("parquet-missing-mapped-column", "run", &["--column", "score=similarity"], &["run: no column \"similarity\" (mapped by score=similarity); columns: \"qid\" (string), \"doc_id\" (string), \"score\" (float), \"rank\" (integer)"]),
    ("parquet-empty-folder", "empty", &[], &["empty: is a folder without *.parquet part files"]),
    ("parquet-mixed-schemas", "mixed", &[], &["mixed/part-00001.parquet: its columns (", "\"score\" (string)", ") differ from those of mixed/part-00000.parquet (", "must share one schema"]),
    ("parquet-huge-column-chunk", "huge-chunk.parquet", &[], &["huge-chunk.parquet: row group 1 column \"doc_id\" declares 1099511627776 bytes at byte ", "past the end of the file"]),
    ("parquet-huge-row-group", "huge-rows.parquet", &[], &["huge-rows.parquet: row group 1 declares 1099511627776 rows but its columns hold 300"]),
    ("parquet-huge-footer-list", "huge-list.parquet", &[], &["huge-list.parquet: damaged Parquet footer: a list declares 2147483648 elements"]),
];

#[test]
fn hostile_parquet_runs_exit_2_naming_the_file_and_the_place() {
    let ctx = hostile_parquet();
    let mut undocumented = Vec::new();
    for (id, run, extra, want) in HOSTILE {
        let o: Out = ctx
            .command()
            .timeout(std::time::Duration::from_secs(60))
            .args([
                "eval",
                "--qrels",
                "qrels.parquet",
                "--run",
                run,
                "--metrics",
                "map",
            ])
            .args(*extra)
            .output()
            .unwrap()
            .into();
        eprintln!("[{id}] {}", o.stderr.trim_end());
        assert_input_error(&o, want);
        if !in_docs(id) {
            undocumented.push(*id);
        }
    }
    assert!(
        undocumented.is_empty(),
        "not in docs/bad-input.md: {undocumented:?}"
    );
}

#[test]
fn a_null_id_in_a_metric_table_names_the_row() {
    let ctx = hostile_parquet();
    let o = ctx.run(&["compare", "null_id.parquet", "null_id.parquet"]);
    assert_input_error(
        &o,
        &["null_id.parquet (row group 1, row 2): column \"query_id\" (the query id) is null"],
    );
    assert!(in_docs("parquet-null-id"));
}

fn in_docs(id: &str) -> bool {
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/bad-input.md"))
            .unwrap();
    docs.lines().any(|l| l.starts_with(&format!("| `{id}` |")))
}

/// `compare BASELINE examples/candidate.jsonl --by TAG… --format json` run in the repository,
/// with `extra` flags: the report.
fn compare_by_slices(baseline: &Path, by: &[&str], extra: &[&str]) -> serde_json::Value {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Out::of(
        TestContext::new()
            .cwd(root)
            .command()
            .arg("compare")
            .arg(baseline)
            .arg("examples/candidate.jsonl")
            .args(by.iter().flat_map(|t| ["--by", t]))
            .args(["--format", "json"])
            .args(extra),
    )
    .expect(0);
    out.json()
}

/// Each comparison's (metric, slice, n, delta, interval).
fn slice_figures(report: &serde_json::Value) -> Vec<String> {
    report["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "{} {} n={} {} {}",
                c["metric"], c["slice"], c["n"], c["delta"], c["ci"]
            )
        })
        .collect()
}

#[test]
fn a_hive_partitioned_folder_is_one_table_with_its_keys_as_slices() {
    // DuckDB's PARTITION_BY (risk, language): two folder levels, the keys absent from the files.
    // The same rows as examples/baseline.jsonl with queries.jsonl's tags: the same figures,
    // overall and for every risk and language slice.
    let hive = compare_by_slices(&data("parquet/hive/duckdb"), &["risk", "language"], &[]);
    let jsonl = compare_by_slices(
        Path::new("examples/baseline.jsonl"),
        &["risk", "language"],
        &["--queries", "examples/queries.jsonl"],
    );
    let (h, j) = (slice_figures(&hive), slice_figures(&jsonl));
    assert!(h.iter().any(|c| c.contains("\"risk=compliance\"")), "{h:?}");
    assert!(h.iter().any(|c| c.contains("\"language=ko\"")), "{h:?}");
    assert_eq!(h, j);
}

#[test]
fn a_null_partition_value_leaves_the_row_without_that_slice() {
    // pyarrow's write_to_dataset: the last query's language is null, written under
    // language=__HIVE_DEFAULT_PARTITION__: read, in `all`, in no language slice.
    let r = compare_by_slices(&data("parquet/hive/pyarrow"), &["language"], &[]);
    let n = |slice: &str| {
        r["comparisons"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["metric"] == "ndcg@10" && c["slice"] == slice)
            .map_or(0, |c| c["n"].as_u64().unwrap())
    };
    let languages = n("language=de") + n("language=en") + n("language=ko");
    assert_eq!((n("all"), languages), (480, 479));
    let text = r.to_string();
    assert!(!text.contains("__HIVE_DEFAULT_PARTITION__"), "{text}");
}

#[test]
fn a_folder_mixing_part_files_and_partition_folders_is_refused_naming_it() {
    let o = Out::of(
        TestContext::new()
            .cwd(data("parquet/hive"))
            .command()
            .args(["compare", "mixed", "mixed"]),
    );
    assert_input_error(
        &o,
        &["mixed: holds both *.parquet part files (\"part-0.parquet\") and subfolders (\"language=en\")"],
    );
    assert!(in_docs("parquet-hive-mixed-folder"));
    assert!(in_docs("parquet-hive-folder"));
}

#[test]
fn a_run_partitioned_by_query_id_is_evaluated_like_the_trec_file() {
    // trec_eval's test run written with partition_cols=["qid"]: the query ids are only in the
    // folder names (`qid=301/part-0.parquet`).
    let fixtures = data("fixtures/trec_eval_test");
    let (want, _) = rows(&fixtures.join("qrels.test"), &fixtures.join("results.test"));
    let (got, fmt) = rows(
        &fixtures.join("qrels.test"),
        &data("parquet/hive/run_by_qid"),
    );
    assert_eq!(fmt, Format::Parquet);
    assert_eq!(got, want);
    // Through the binary: the same rows, and a folder is not taken for a pipe.
    let o = Out::of(
        TestContext::new()
            .command()
            .args(["eval", "--metrics", METRICS, "--qrels"])
            .arg(fixtures.join("qrels.test"))
            .arg("--run")
            .arg(data("parquet/hive/run_by_qid")),
    );
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert!(!o.stderr.contains("pipe or device"), "{}", o.stderr);
}

/// Copies the DuckDB Hive folder (risk=…/language=…/data_0.parquet) into `to`.
fn copy_hive(to: &Path) {
    let from = data("parquet/hive/duckdb");
    for risk in std::fs::read_dir(&from).unwrap() {
        let risk = risk.unwrap().path();
        for lang in std::fs::read_dir(&risk).unwrap() {
            let lang = lang.unwrap().path();
            let dest = to
                .join(risk.file_name().unwrap())
                .join(lang.file_name().unwrap());
            std::fs::create_dir_all(&dest).unwrap();
            std::fs::copy(lang.join("data_0.parquet"), dest.join("data_0.parquet")).unwrap();
        }
    }
}

/// Class `hive-symlink-walk`: a Hive-partitioned Parquet folder with a symbolic link beside each
/// level (to a sibling partition: each level doubles the paths) is refused at the first link
/// that leads to a folder already read, and a link out of the dataset is refused too; a link to
/// a place inside the dataset reached no other way is read once.
#[cfg(unix)]
#[test]
fn a_hive_folder_with_a_symlink_beside_each_level_is_walked_once() {
    use std::os::unix::fs::symlink;
    let ctx = TestContext::new();
    let hive = ctx.join("hive");
    copy_hive(&hive);
    // Beside each level, a link to a sibling partition: 2 levels, the read paths would double
    // per level (the walk used to follow every one of them).
    symlink("risk=standard", hive.join("risk=zlink")).unwrap();
    for risk in ["risk=standard", "risk=compliance"] {
        symlink("language=de", hive.join(risk).join("language=zz")).unwrap();
    }
    let o = Out::of(ctx.command().args(["compare", "hive", "hive"]));
    assert_input_error(
        &o,
        &["\"language=zz\" leads to a folder or part file already read (a symbolic link)"],
    );
    // A link out of the dataset folder.
    let out = TestContext::new();
    copy_hive(out.path());
    let clean = ctx.join("clean");
    copy_hive(&clean);
    symlink(out.path().join("risk=standard"), clean.join("risk=zout")).unwrap();
    let o = Out::of(ctx.command().args(["compare", "clean", "clean"]));
    assert_input_error(
        &o,
        &["\"risk=zout\" is a symbolic link out of the dataset folder"],
    );
    // A part reached only through a link inside the dataset is read, once: the same figures as
    // the folder without the link.
    let linked = ctx.join("linked");
    copy_hive(&linked);
    let lang = linked.join("risk=standard/language=ko");
    std::fs::create_dir_all(linked.join("risk=standard/.store")).unwrap();
    std::fs::rename(
        lang.join("data_0.parquet"),
        linked.join("risk=standard/.store/ko.parquet"),
    )
    .unwrap();
    symlink("../.store/ko.parquet", lang.join("data_0.parquet")).unwrap();
    let with = compare_by_slices(&linked, &["risk", "language"], &[]);
    let without = compare_by_slices(&data("parquet/hive/duckdb"), &["risk", "language"], &[]);
    assert_eq!(slice_figures(&with), slice_figures(&without));
    assert!(in_docs("hive-symlink-walk"));
}
