#!/usr/bin/env python3
"""Writes one set of per-query metrics three ways, for tests/it/input_number_parsing.rs: the same
values as JSONL, CSV and Parquet (pyarrow 26.0.1, an independent writer), baseline and
candidate, in folders jsonl/, csv/ and parquet/ with the files named `baseline` and
`candidate` (no extension: the format is recognised from the content).

The values are 17-significant-digit decimals (Python's repr of random doubles in [0, 1),
seeded), the kind a harness writes and the kind a parser that is not correctly rounded reads
one ULP off; the first is 0.39285714285714285 (11/28). Each text reads back as its double in
Python (checked below), so every reader must give the same doubles.

Run from this folder: `python3 make.py` (needs `pip install pyarrow`).
"""
import csv
import json
import random
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

HERE = Path(__file__).parent
N = 60


def values(rng):
    out = [11 / 28]
    while len(out) < N:
        x = rng.random()
        if len(repr(x).replace("0.", "", 1).lstrip("0")) >= 17:
            out.append(x)
    return out


def main():
    rng = random.Random(41)
    sides = {"baseline": values(rng), "candidate": values(rng)}
    for name, vals in sides.items():
        ids = [f"q{i:03d}" for i in range(N)]
        for v in vals:
            assert float(repr(v)) == v
        (HERE / "jsonl").mkdir(exist_ok=True)
        with open(HERE / "jsonl" / name, "w") as f:
            for q, v in zip(ids, vals):
                f.write(json.dumps({"query_id": q, "ndcg@10": v}) + "\n")
        (HERE / "csv").mkdir(exist_ok=True)
        with open(HERE / "csv" / name, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["query_id", "ndcg@10"])
            for q, v in zip(ids, vals):
                w.writerow([q, repr(v)])
        (HERE / "parquet").mkdir(exist_ok=True)
        table = pa.table({"query_id": ids, "ndcg@10": pa.array(vals, pa.float64())})
        pq.write_table(table, HERE / "parquet" / name)


if __name__ == "__main__":
    main()
