//! Parquet columns through the binary, read by their meaning: unsigned integers as unsigned
//! (ids past 2^31 and 2^63, scores past 2^31), and every type that is not a plain number or
//! string refused by name (fixtures: tests/data/eval/parquet/types, written by pyarrow with
//! `make.py` there). Each test is a row of docs/hostile.md, listed in `hostile_cases.rs`.

use crate::support;

use std::path::{Path, PathBuf};
use std::time::Duration;

use support::output::assert_input_error;
use support::{GateFile, Out, TestContext};

fn types() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/eval/parquet/types")
}

/// Runs from the fixtures' folder (the messages name the files as the tests give them), killed
/// after a minute.
fn in_types() -> TestContext {
    TestContext::new()
        .cwd(types())
        .timeout(Duration::from_secs(60))
}

fn eval(run: &str, metrics: &str) -> Out {
    in_types().run(&[
        "eval",
        "--qrels",
        "qrels.trec",
        "--run",
        run,
        "--metrics",
        metrics,
    ])
}

/// `parquet-unsigned`: uint32 query ids 4,000,000,000 and up, uint64 doc ids from 2^63, a uint32
/// score of 4,000,000,000 on the relevant document and uint16 ranks give exactly the numbers of
/// the same run as a TREC file (read as signed, the score would be −294,967,296 and the
/// relevant document last; the ids would turn negative and match no qrels).
#[test]
fn parquet_unsigned_columns_are_read_as_unsigned() {
    let metrics = "p@1,ndcg@10,map,mrr";
    let parquet = eval("unsigned.parquet", metrics);
    let trec = eval("unsigned.trec", metrics);
    assert_eq!(parquet.code, Some(0), "{}", parquet.stderr);
    assert_eq!(trec.code, Some(0), "{}", trec.stderr);
    assert_eq!(parquet.stdout, trec.stdout);
    assert!(
        parquet
            .stdout
            .contains("{\"query_id\":\"4000000000\",\"p@1\":1.0,"),
        "{}",
        parquet.stdout
    );
    assert!(!parquet.stdout.contains('-'), "{}", parquet.stdout);
    // Ordered by rank (uint16) instead of score: the same numbers.
    let by_rank = in_types().run(&[
        "eval",
        "--qrels",
        "qrels.trec",
        "--run",
        "unsigned.parquet",
        "--metrics",
        metrics,
        "--order",
        "rank",
    ]);
    assert_eq!(by_rank.code, Some(0), "{}", by_rank.stderr);
    assert_eq!(by_rank.stdout, trec.stdout);
}

/// `parquet-types-by-meaning`: a score stored as a date, a decimal, a timestamp, a float16, a
/// time or a boolean, and a rank stored as uint64, are refused naming the type: never read as
/// the integers or bytes they are stored in.
#[test]
fn parquet_types_that_are_not_numbers_are_refused_by_name() {
    for (file, kind) in [
        ("score_date.parquet", "date"),
        ("score_decimal.parquet", "decimal"),
        ("score_timestamp.parquet", "timestamp"),
        ("score_float16.parquet", "float16"),
        ("score_time.parquet", "time"),
        ("score_boolean.parquet", "boolean"),
    ] {
        let o = eval(file, "p@1");
        assert_input_error(
            &o,
            &[
                &format!("{file}: column \"score\" (the score) holds {kind} values"),
                "expected float or integer",
            ],
        );
    }
    let o = eval("rank_uint64.parquet", "p@1");
    assert_input_error(
        &o,
        &["column \"rank\" (the rank) holds unsigned 64-bit integer values; expected integer"],
    );
    let o = in_types().run(&[
        "eval",
        "--qrels",
        "qrels.trec",
        "--run",
        "rank_uint64.parquet",
        "--metrics",
        "p@1",
        "--order",
        "rank",
    ]);
    assert_input_error(
        &o,
        &["column \"rank\" (the rank) holds unsigned 64-bit integer values; expected integer"],
    );
}

/// `parquet-bomb`: 1,100 distinct doc ids of 64 KiB (72 MB decoded) in 13 KB. No id repeats, so
/// only the decoded-bytes bound stops it: counted like gzip's (200-fold the file, at least
/// 64 MiB) as the batches are read, refused at the bound with exit 2, never decoded whole
/// (bench/hostile/parquet_bomb.sh measures peak memory and time).
#[test]
fn a_parquet_decompression_bomb_is_refused_while_it_is_read() {
    let o = eval("bomb_unique.parquet", "p@1");
    assert_input_error(
        &o,
        &[
            "bomb_unique.parquet: row group 1: the Parquet data expands more than 200-fold",
            "refused as a decompression bomb",
        ],
    );
}

/// `parquet-repeated-id`: 5,000,000 rows of one query and one doc id in 50 KB (a run), and a
/// per-query metric table whose one query id fills 5,000,000 rows: the second row is already a
/// duplicate, and the read stops there, with the error naming both rows, before the rows pile
/// up or the decoded-bytes bound is reached (the table took 25 s and 820 MB to reach the bound,
/// debug build).
#[test]
fn a_repeated_id_stops_the_parquet_read_at_once() {
    let o = eval("bomb.parquet", "p@1");
    assert_input_error(
        &o,
        &[
            r#"bomb.parquet:2: doc "d1" appears twice in the ranking of query "q1" (rows 1 and 2 of the table)"#,
        ],
    );
    assert!(!o.stderr.contains("decompression bomb"), "{}", o.stderr);
    let ctx = TestContext::new().timeout(Duration::from_secs(60));
    ctx.copy(types().join("table_repeated_id.parquet"), "t.parquet");
    ctx.gate(GateFile::new("t.parquet", "t.parquet").gate("ndcg@10", "max-drop = 0.05"));
    let o = ctx.check(&[]);
    assert_input_error(
        &o,
        &[r#"t.parquet: row 2: duplicate query id "q1" (first at row 1)"#],
    );
    assert!(!o.stderr.contains("decompression bomb"), "{}", o.stderr);
}
