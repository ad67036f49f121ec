#!/usr/bin/env python3
"""Writes the Parquet fixtures with pyarrow (an independent writer; pyarrow 26.0.1), from the
shared TREC fixtures (tests/data/eval/fixtures) and the example metric files (examples/).

- cacm/run/: the cacm BM25 run as a Spark-style folder: three part files
  `part-0000N-<uuid>-c000.snappy.parquet` (columns qid, doc_id: string, score: double,
  rank: int32, in the TREC file's line order, split by rows), with Spark's `_SUCCESS` and
  `.part-*.crc` bookkeeping files beside them.
- cacm/renamed.parquet: the same run in one file with its own column names (query, passage,
  similarity, position), for `--column`.
- cacm/qrels.parquet: the cacm qrels (qid, doc_id: string, relevance: int32; snappy).
- trec_eval_test/run.parquet: trec_eval's test run with a Spark-like schema: nullable
  columns, int64 query ids, dictionary-encoded doc ids, zstd, row groups of 300 rows
  (several per file), data pages of about 1 KB.
- trec_eval_test/qrels.parquet: trec_eval's test qrels (qid: int64, doc_id, relevance: int64).
- metrics/baseline.parquet, metrics/candidate.parquet: examples/baseline.jsonl and
  candidate.jsonl as Parquet metric tables (query_id, recall@5, mrr@5, ndcg@10; snappy).
- metrics/ragas.parquet: examples/baseline.jsonl with an exporter's own column names and types
  (sample_id, conversation_id, language from examples/queries.jsonl, context_recall, mrr,
  a text column `question`), for the column mapping.

- hive/: examples/baseline.jsonl as Hive-partitioned metric tables, the rows tagged with
  queries.jsonl's slices: pyarrow/ (`pq.write_to_dataset(..., partition_cols=["language"])`,
  `language=en/part-0.parquet`, a null language in `language=__HIVE_DEFAULT_PARTITION__/`),
  duckdb/ (DuckDB's `COPY ... (FORMAT parquet, PARTITION_BY (risk, language))`: two levels,
  `risk=standard/language=en/data_0.parquet`), mixed/ (a part file beside a partition folder),
  run_by_qid/ (trec_eval's test run partitioned by its query id: `qid=301/part-0.parquet`, the
  qid column only in the folder names).
- hostile/: bad inputs for tests/it/input_parquet.rs: score_string.parquet (a run whose score
  column holds strings), null_score.parquet (a null score in the second row group),
  null_id.parquet (a metric table with a null query_id), mixed/ (two part files whose score
  columns differ in type), empty/ (a folder holding only Spark's `_SUCCESS`).

Run from this folder: `python3 make.py` (needs `pip install pyarrow duckdb`); `python3 make.py
hive` writes hive/ only.
"""
import json
import shutil
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

HERE = Path(__file__).parent
ROOT = HERE.parents[3]
SRC = HERE.parent / "fixtures"


def trec_run(path):
    rows = []
    for line in open(path, encoding="utf-8"):
        f = line.split()
        if len(f) >= 6 and not line.startswith("#"):
            rows.append((f[0], f[2], float(f[4]), int(f[3])))
    return rows


def trec_qrels(path):
    return [
        (f[0], f[2], int(f[3]))
        for f in (line.split() for line in open(path, encoding="utf-8"))
        if len(f) == 4
    ]


def columns(rows, names):
    return {n: [r[i] for r in rows] for i, n in enumerate(names)}


def spark_folder(rows, out, parts=3):
    out.mkdir(parents=True, exist_ok=True)
    for p in out.iterdir():
        p.unlink()
    schema = pa.schema(
        [("qid", pa.string()), ("doc_id", pa.string()), ("score", pa.float64()), ("rank", pa.int32())]
    )
    step = -(-len(rows) // parts)
    for i in range(parts):
        chunk = rows[i * step : (i + 1) * step]
        table = pa.table(columns(chunk, schema.names), schema=schema)
        name = f"part-{i:05d}-7f1c2e9a-5b3d-4c61-9a1e-2d4f6b8c0e13-c000.snappy.parquet"
        pq.write_table(table, out / name, compression="snappy")
        (out / f".{name}.crc").write_bytes(b"crc\x00\x00\x00\x00")
    (out / "_SUCCESS").write_bytes(b"")


def cacm():
    out = HERE / "cacm"
    out.mkdir(exist_ok=True)
    run = trec_run(SRC / "cacm/run.cacm-bm25.txt")
    spark_folder(run, out / "run")
    renamed = pa.table(columns(run, ["query", "passage", "similarity", "position"]))
    pq.write_table(renamed, out / "renamed.parquet")
    q = trec_qrels(SRC / "cacm/qrels.cacm.txt")
    schema = pa.schema([("qid", pa.string()), ("doc_id", pa.string()), ("relevance", pa.int32())])
    pq.write_table(pa.table(columns(q, schema.names), schema=schema), out / "qrels.parquet")


def trec_eval_test():
    out = HERE / "trec_eval_test"
    out.mkdir(exist_ok=True)
    run = [(int(q), d, s, r) for q, d, s, r in trec_run(SRC / "trec_eval_test/results.test")]
    schema = pa.schema(
        [
            pa.field("qid", pa.int64(), nullable=True),
            pa.field("doc_id", pa.string(), nullable=True),
            pa.field("rank", pa.int64(), nullable=True),
            pa.field("score", pa.float64(), nullable=True),
        ]
    )
    table = pa.table(columns(run, ["qid", "doc_id", "score", "rank"]), schema=schema)
    pq.write_table(
        table,
        out / "run.parquet",
        compression="zstd",
        row_group_size=300,
        data_page_size=1024,
        use_dictionary=["doc_id"],
    )
    q = [(int(a), d, r) for a, d, r in trec_qrels(SRC / "trec_eval_test/qrels.test")]
    schema = pa.schema([("qid", pa.int64()), ("doc_id", pa.string()), ("relevance", pa.int64())])
    pq.write_table(pa.table(columns(q, schema.names), schema=schema), out / "qrels.parquet", row_group_size=2000)


def metrics():
    out = HERE / "metrics"
    out.mkdir(exist_ok=True)
    for name in ["baseline", "candidate"]:
        rows = [json.loads(l) for l in open(ROOT / f"examples/{name}.jsonl", encoding="utf-8")]
        names = ["query_id", "recall@5", "mrr@5", "ndcg@10"]
        table = pa.table({n: [r[n] for r in rows] for n in names})
        pq.write_table(table, out / f"{name}.parquet", compression="snappy")
    tags = {
        q["query_id"]: q
        for q in (json.loads(l) for l in open(ROOT / "examples/queries.jsonl", encoding="utf-8"))
    }
    rows = [json.loads(l) for l in open(ROOT / "examples/baseline.jsonl", encoding="utf-8")]
    table = pa.table(
        {
            "sample_id": [r["query_id"] for r in rows],
            "question": [f"question {i}" for i in range(len(rows))],
            "conversation_id": [tags[r["query_id"]]["group"] for r in rows],
            "language": [tags[r["query_id"]]["slices"]["language"] for r in rows],
            "context_recall": pa.array([r["recall@5"] for r in rows], pa.float32()),
            "mrr": [r["mrr@5"] for r in rows],
        }
    )
    pq.write_table(table, out / "ragas.parquet", compression="snappy")


def hostile():
    out = HERE / "hostile"
    out.mkdir(exist_ok=True)
    run = {"qid": ["1", "1", "2", "2"], "doc_id": ["a", "b", "a", "c"]}
    pq.write_table(pa.table({**run, "score": ["0.9", "0.8", "0.7", "0.6"]}), out / "score_string.parquet")
    pq.write_table(
        pa.table({**run, "score": pa.array([0.9, 0.8, None, 0.6], pa.float64())}),
        out / "null_score.parquet",
        row_group_size=2,
    )
    pq.write_table(
        pa.table({"query_id": ["q1", None, "q3"], "ndcg@10": [0.5, 0.25, 1.0]}),
        out / "null_id.parquet",
    )
    mixed = out / "mixed"
    mixed.mkdir(exist_ok=True)
    pq.write_table(pa.table({**run, "score": [0.9, 0.8, 0.7, 0.6]}), mixed / "part-00000.parquet")
    pq.write_table(pa.table({**run, "score": ["0.9", "0.8", "0.7", "0.6"]}), mixed / "part-00001.parquet")
    empty = out / "empty"
    empty.mkdir(exist_ok=True)
    (empty / "_SUCCESS").write_bytes(b"")


def hive():
    out = HERE / "hive"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    tags = {
        q["query_id"]: q["slices"]
        for q in (json.loads(l) for l in open(ROOT / "examples/queries.jsonl", encoding="utf-8"))
    }
    rows = [json.loads(l) for l in open(ROOT / "examples/baseline.jsonl", encoding="utf-8")]
    names = ["query_id", "recall@5", "mrr@5", "ndcg@10"]
    cols = {n: [r[n] for r in rows] for n in names}
    # The last query's language is null: pyarrow writes it under __HIVE_DEFAULT_PARTITION__.
    language = [tags[r["query_id"]]["language"] for r in rows[:-1]] + [None]
    table = pa.table({**cols, "language": pa.array(language, pa.string())})
    pq.write_to_dataset(
        table,
        out / "pyarrow",
        partition_cols=["language"],
        basename_template="part-{i}.parquet",
    )
    import duckdb

    risk = [tags[r["query_id"]]["risk"] for r in rows]
    full = pa.table({**cols, "risk": risk, "language": [tags[r["query_id"]]["language"] for r in rows]})
    con = duckdb.connect()
    con.register("t", full)
    con.execute(
        f"COPY (SELECT * FROM t ORDER BY query_id) TO '{out / 'duckdb'}' "
        "(FORMAT parquet, PARTITION_BY (risk, language))"
    )
    run = trec_run(SRC / "trec_eval_test/results.test")
    pq.write_to_dataset(
        pa.table(columns(run, ["qid", "doc_id", "score", "rank"])),
        out / "run_by_qid",
        partition_cols=["qid"],
        basename_template="part-{i}.parquet",
    )
    mixed = out / "mixed"
    (mixed / "language=en").mkdir(parents=True)
    pq.write_table(pa.table({n: cols[n][:10] for n in names}), mixed / "part-0.parquet")
    pq.write_table(pa.table({n: cols[n][10:] for n in names}), mixed / "language=en" / "part-0.parquet")


if sys.argv[1:] == ["hive"]:
    hive()
else:
    cacm()
    trec_eval_test()
    metrics()
    hostile()
    hive()
