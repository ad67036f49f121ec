#!/usr/bin/env python3
"""Writes the Parquet type fixtures with pyarrow (an independent writer; pyarrow 26.0.1) for
tests/it/hostile_parquet.rs: every column a run's id, score or rank can have, read by meaning
or refused by name.

- unsigned.parquet: a run whose qid is uint32 (4,000,000,000 and 4,000,000,001, past 2^31),
  doc_id uint64 (2^63 + k, past the signed range), score uint32 (4,000,000,000 on the relevant
  document, small values on the others) and rank uint16. unsigned.trec is the same run as a
  TREC file, qrels.trec the qrels: read as signed, the 4,000,000,000 score would turn negative
  and the relevant document would rank last.
- score_<type>.parquet: the same run with the score as date32, decimal128(10, 2),
  timestamp[ms], float16, time32[s], bool, a dictionary of strings: each must be refused naming
  the type (never read as the integers or bytes it is stored in).
- rank_uint64.parquet: ranks as uint64 (not a rank: refused by name).
- bomb.parquet: 5,000,000 rows in a few KB, the doc id the same in every row (see below).
- bomb_unique.parquet: one query's 1,100 distinct 64 KiB doc ids in about 30 KB (see below).
- table_repeated_id.parquet: a per-query metric table whose one query id fills 5,000,000 rows.

Run from this folder: `python3 make.py` (needs `pip install pyarrow`).
"""
import datetime
import decimal

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

Q = [4_000_000_000, 4_000_000_001]
DOCS = [2**63 + k for k in range(3)]
# (qid, doc, score, rank): the relevant doc (DOCS[0]) has the top score 4e9.
ROWS = [(q, d, s, r) for q in Q for d, s, r in zip(DOCS, [4_000_000_000, 7, 5], [1, 2, 3])]


def table(score_type=None, scores=None, rank_type=pa.uint16()):
    return pa.table(
        {
            "qid": pa.array([r[0] for r in ROWS], pa.uint32()),
            "doc_id": pa.array([r[1] for r in ROWS], pa.uint64()),
            "score": scores if scores is not None else pa.array([r[2] for r in ROWS], pa.uint32()),
            "rank": pa.array([r[3] for r in ROWS], rank_type),
        }
    )


pq.write_table(table(), "unsigned.parquet")
with open("unsigned.trec", "w") as f:
    for q, d, s, r in ROWS:
        f.write(f"{q} Q0 {d} {r} {s} unsigned\n")
with open("qrels.trec", "w") as f:
    for q in Q:
        f.write(f"{q} 0 {DOCS[0]} 1\n")

n = len(ROWS)
others = {
    "date": pa.array([datetime.date(2026, 1, 1 + i) for i in range(n)], pa.date32()),
    "decimal": pa.array([decimal.Decimal(f"{i}.25") for i in range(n)], pa.decimal128(10, 2)),
    "timestamp": pa.array([1_700_000_000_000 + i for i in range(n)], pa.timestamp("ms")),
    "float16": pa.array(np.array([1.5 + i for i in range(n)], dtype=np.float16), pa.float16()),
    "time": pa.array([i for i in range(n)], pa.time32("s")),
    "boolean": pa.array([i % 2 == 0 for i in range(n)], pa.bool_()),
}
for name, scores in others.items():
    pq.write_table(table(scores=scores), f"score_{name}.parquet")
pq.write_table(table(rank_type=pa.uint64()), "rank_uint64.parquet")

# bomb.parquet: 5,000,000 rows of one query, one doc id and one score, run-length encoded into a
# few KB (about 140 MB decoded): refused as a decompression bomb while it is read, before the
# rows pile up (bench/hostile/parquet_bomb.sh measures a 20,000,000-row one).
BOMB = 5_000_000
pq.write_table(
    pa.table(
        {
            "qid": pa.array(["q1"] * BOMB, pa.string()).dictionary_encode(),
            "doc_id": pa.array(["d1"] * BOMB, pa.string()).dictionary_encode(),
            "score": pa.array(np.ones(BOMB), pa.float64()),
        }
    ),
    "bomb.parquet",
    compression="zstd",
    row_group_size=BOMB,
)

# bomb_unique.parquet: no id repeats, so only the decoded-bytes bound stops it: 1,100 doc ids of
# 64 KiB each (about 72 MB decoded) that differ in their last digits, zstd-compressed into a few
# tens of KB (plain encoding: no dictionary holds them whole).
UNIQUE = 1_100
pq.write_table(
    pa.table(
        {
            "qid": pa.array(["q1"] * UNIQUE, pa.string()),
            "doc_id": pa.array(["d" * 65_536 + f"{i:05}" for i in range(UNIQUE)], pa.string()),
            "score": pa.array(np.arange(UNIQUE, 0, -1, dtype=np.float64)),
        }
    ),
    "bomb_unique.parquet",
    compression="zstd",
    use_dictionary=["qid"],
    row_group_size=UNIQUE,
)

# table_repeated_id.parquet: a per-query metric table, query id "q1" in all 5,000,000 rows: the
# second row is already a duplicate, refused there, before the rows pile up.
pq.write_table(
    pa.table(
        {
            "query_id": pa.array(["q1"] * BOMB, pa.string()).dictionary_encode(),
            "ndcg@10": pa.array(np.full(BOMB, 0.5), pa.float64()),
        }
    ),
    "table_repeated_id.parquet",
    compression="zstd",
    row_group_size=BOMB,
)
