#!/usr/bin/env python3
"""Benchmark: Parquet inputs against their text twins, release build, end to end.

1. `rag-gate eval` on a generated run (default 10,000 queries x 1,000 = 10 M rows) as TREC
   text and as Parquet (pyarrow, snappy) with three row-group sizes: 64 Ki rows, 1 Mi rows
   (pyarrow's default) and the whole run in one row group. The summaries must be identical.
2. `rag-gate compare` (the loading and pairing of `check`, 100 resamples so the bootstrap is
   negligible) on a generated 1 M-row metric table as JSONL and as Parquet.

Each command runs --reps times, alternating; the table shows the fastest wall time, the peak RSS
(GNU time -v) and the ratio to the text twin. Peak RSS of the three Parquet row-group sizes shows
the memory is bounded by the reader's batch, not by the row group or the file.

    python3 bench/parquet/run.py [--queries 10000] [--depth 1000] [--table-rows 1000000] [--reps 3]

Needs pyarrow and numpy (pip install pyarrow numpy), cargo, /usr/bin/time. Data goes to
/tmp/rag-gate-bench-parquet (kept between runs; delete it to regenerate).
"""
import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.parquet as pq

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
WORK = Path(os.environ.get("BENCH_DIR", "/tmp/rag-gate-bench-parquet"))
METRICS = "ndcg@10,recall@5,recall@10,recall@100,p@10,mrr,map"


def build():
    if os.environ.get("BENCH_BIN"):  # a binary built elsewhere (the bench builds release otherwise)
        return os.environ["BENCH_BIN"]
    subprocess.run(["cargo", "build", "--release", "--locked", "-q"], cwd=ROOT, check=True)
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return str(target / "release" / "rag-gate")


def make_run(queries, depth):
    trec = WORK / f"run.{queries}x{depth}.trec"
    qrels = WORK / f"qrels.{queries}x{depth}.txt"
    if not trec.exists() or not qrels.exists():
        print(f"generating a {queries} x {depth} TREC run ...", file=sys.stderr)
        gen = ROOT / "bench/eval/gen.py"
        subprocess.run([sys.executable, str(gen), str(queries), str(depth), str(trec), str(qrels)], check=True)
    names = ["qid", "q0", "doc_id", "rank", "score", "tag"]
    types = {"qid": pa.string(), "doc_id": pa.string(), "rank": pa.int32(), "score": pa.float64()}
    table = None
    variants = {}
    for label, rg in [("64Ki", 1 << 16), ("1Mi", 1 << 20), ("one", queries * depth)]:
        path = WORK / f"run.{queries}x{depth}.rg-{label}.parquet"
        if not path.exists():
            if table is None:
                print("converting it to Parquet (pyarrow) ...", file=sys.stderr)
                table = pcsv.read_csv(
                    trec,
                    read_options=pcsv.ReadOptions(column_names=names),
                    parse_options=pcsv.ParseOptions(delimiter=" "),
                    convert_options=pcsv.ConvertOptions(column_types=types),
                ).select(["qid", "doc_id", "score", "rank"])
            pq.write_table(table, path, row_group_size=rg, compression="snappy")
        variants[label] = path
    return trec, qrels, variants


def make_table(rows):
    jsonl = WORK / f"metrics.{rows}.jsonl"
    parquet = WORK / f"metrics.{rows}.parquet"
    if not jsonl.exists() or not parquet.exists():
        print(f"generating a {rows}-row metric table ...", file=sys.stderr)
        rng = np.random.default_rng(7)
        ids = [f"q{i:07d}" for i in range(rows)]
        cols = {m: np.round(rng.random(rows), 6) for m in ["ndcg@10", "recall@5", "mrr@10"]}
        pq.write_table(pa.table({"query_id": ids, **cols}), parquet, compression="snappy")
        with open(jsonl, "w") as f:
            vals = [cols[m].tolist() for m in cols]
            for i, q in enumerate(ids):
                f.write(json.dumps({"query_id": q, **{m: vals[k][i] for k, m in enumerate(cols)}}) + "\n")
    return jsonl, parquet


def measure(cmd):
    """(wall seconds, peak RSS MiB, stdout) of one run of cmd under GNU time -v."""
    t0 = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-v", *cmd], capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr[-2000:]}")
    rss = next(int(l.split(":")[1]) for l in p.stderr.splitlines() if "Maximum resident set size" in l)
    return wall, rss / 1024, p.stdout


def bench(cases, reps):
    """cases: name -> cmd. Alternates them reps times; returns name -> (best wall, max RSS, stdout)."""
    best = {}
    for _ in range(reps):
        for name, cmd in cases.items():
            wall, rss, out = measure(cmd)
            w, r, _ = best.get(name, (float("inf"), 0.0, ""))
            best[name] = (min(w, wall), max(r, rss), out)
    return best


def show(title, best, reference, size):
    print(f"\n{title}")
    ref = best[reference][0]
    for name, (wall, rss, _) in best.items():
        print(f"  {name:<28} {wall:7.2f} s  {size / wall / 1e6:6.2f} M rows/s  peak RSS {rss:7.0f} MiB  "
              f"time ratio to {reference}: {wall / ref:.2f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--queries", type=int, default=10_000)
    ap.add_argument("--depth", type=int, default=1_000)
    ap.add_argument("--table-rows", type=int, default=1_000_000)
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args()
    WORK.mkdir(parents=True, exist_ok=True)
    binary = build()
    trec, qrels, variants = make_run(a.queries, a.depth)
    eval_cmd = lambda run: [binary, "eval", "--qrels", str(qrels), "--run", str(run), "--metrics", METRICS,
                            "--empty-gold", "zero", "--format", "json"]
    cases = {"eval TREC text": eval_cmd(trec)}
    cases.update({f"eval Parquet, row group {k}": eval_cmd(p) for k, p in variants.items()})
    best = bench(cases, a.reps)
    def summary(out):  # everything but the run's name and format
        s = {k: v for k, v in json.loads(out).items() if k not in ("run", "protocol")}
        s["policies"].pop("run_format", None)
        return json.dumps(s, sort_keys=True)

    summaries = {summary(out) for _, _, out in best.values()}
    rows = a.queries * a.depth
    sizes = ", ".join(f"{p.name} {p.stat().st_size >> 20} MiB" for p in [trec, *variants.values()])
    show(f"eval, {rows:,} run rows ({sizes})", best, "eval TREC text", rows)
    print(f"  summaries identical across the four files: {len(summaries) == 1}")

    jsonl, parquet = make_table(a.table_rows)
    cmp_cmd = lambda t: [binary, "compare", str(t), str(t), "--resamples", "100"]
    best = bench({"compare JSONL": cmp_cmd(jsonl), "compare Parquet": cmp_cmd(parquet)}, a.reps)
    show(f"compare (check's loading), {a.table_rows:,}-row metric table", best, "compare JSONL", a.table_rows)
    print(f"  reports identical: {best['compare JSONL'][2] == best['compare Parquet'][2]}")
    if len(summaries) != 1 or best["compare JSONL"][2] != best["compare Parquet"][2]:
        sys.exit("the Parquet and text routes disagree")


if __name__ == "__main__":
    main()
