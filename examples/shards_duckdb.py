"""Shards on a real engine: DuckDB partitions per-query results, rag-gate summarises each
partition (`rag-gate partial`) and merges the summaries (`rag-gate merge`); the merged report is
byte for byte the report of `rag-gate check` on the whole folder.

    python examples/shards_duckdb.py --rag-gate target/debug/rag-gate --work /tmp/shards

What a nightly job over millions of queries does, at the size of the shipped example (480 queries
in 120 conversations):
  1. DuckDB holds each side's per-query metrics (here read from examples/*.jsonl; in production
     the job computes them in SQL or reads them from the evaluation's output) and writes them as
     one Hive-partitioned Parquet folder per side, `PARTITION_BY (shard)`, the shard a hash of
     the conversation id, so each conversation lies whole in one partition;
  2. each partition is summarised where it lies (`rag-gate partial`: a few MB whatever the
     partition's size); here the partitions run side by side in a thread pool, as executors would;
  3. the summaries are merged into the report (`rag-gate merge`), which fails the build as
     `check` would.
Exits 1 (naming what differs) unless the merged text and JSON reports and the exit code equal
`check`'s on the whole folders. Needs `pip install duckdb`.
"""

import argparse
import concurrent.futures
import json
import pathlib
import subprocess
import sys

import duckdb

HERE = pathlib.Path(__file__).resolve().parent
SHARDS = 8
METRICS = ["recall@5", "mrr@5", "ndcg@10"]

GATE = """id = "shards"
[inputs]
baseline  = "baseline"
candidate = "candidate"
[bootstrap]
resamples = 10000
seed      = 17
unit      = "group"
method    = "percentile"
weights   = "keyed"
[slices]
by       = ["domain", "language"]
critical = ["risk=compliance"]
[[gate]]
metric   = "ndcg@10"
max-drop = 0.01
slices   = "critical"
[[gate]]
metric = "recall@5"
fail-if-significant-drop = 0.02
[[gate]]
metric     = "mrr@5"
max-change = 0.05
"""


def rows(name):
    with open(HERE / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def load(con):
    """Both sides' per-query metrics with each query's conversation and tags, in one table."""
    tags = {q["query_id"]: q for q in rows("queries.jsonl")}
    cols = ", ".join(f'"{m}" DOUBLE' for m in METRICS)
    con.execute(
        "CREATE TABLE results (side VARCHAR, query_id VARCHAR, \"group\" VARCHAR, "
        f'"slice:domain" VARCHAR, "slice:language" VARCHAR, "slice:risk" VARCHAR, {cols})'
    )
    for side in ["baseline", "candidate"]:
        values = []
        for r in rows(f"{side}.jsonl"):
            q = tags[r["query_id"]]
            s = q.get("slices", {})
            values.append(
                [side, r["query_id"], q["group"], s.get("domain"), s.get("language"), s.get("risk")]
                + [r[m] for m in METRICS]
            )
        marks = ", ".join("?" * (6 + len(METRICS)))
        con.executemany(f"INSERT INTO results VALUES ({marks})", values)


def partition(con, work):
    """One Hive-partitioned Parquet folder per side: shard = hash(conversation) mod SHARDS."""
    for side in ["baseline", "candidate"]:
        con.execute(
            f"""COPY (SELECT * EXCLUDE (side), hash("group") % {SHARDS} AS shard
                      FROM results WHERE side = '{side}' ORDER BY query_id)
                TO '{work / side}' (FORMAT PARQUET, PARTITION_BY (shard))"""
        )


def run(args, ok=(0,)):
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode not in ok:
        sys.exit(f"{' '.join(map(str, args))}: exit {out.returncode}\n{out.stderr}")
    return out


def partial(rag_gate, work, shard):
    """The per-shard step: `rag-gate partial` on one partition of both sides."""
    folder = f"shard={shard}"
    summary = work / "summaries" / f"{shard}.json"
    run([rag_gate, "partial", work / "gate.toml", "--baseline", work / "baseline" / folder,
         "--candidate", work / "candidate" / folder, "-o", summary])
    return summary


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rag-gate", required=True, help="the rag-gate binary")
    ap.add_argument("--work", required=True, help="a folder to write the data and reports in")
    a = ap.parse_args()
    work = pathlib.Path(a.work).resolve()
    (work / "summaries").mkdir(parents=True, exist_ok=True)
    (work / "gate.toml").write_text(GATE, encoding="utf-8")
    con = duckdb.connect()
    load(con)
    partition(con, work)
    shards = sorted(int(p.name.split("=")[1]) for p in (work / "baseline").iterdir())
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        summaries = list(pool.map(lambda k: partial(a.rag_gate, work, k), shards))
    size = sum(s.stat().st_size for s in summaries)
    failed = []
    for fmt in ["text", "json"]:
        whole = run([a.rag_gate, "check", work / "gate.toml", "--format", fmt], ok=(0, 1))
        merged = run([a.rag_gate, "merge", work / "gate.toml", *summaries, "--format", fmt], ok=(0, 1))
        if merged.stdout != whole.stdout or merged.returncode != whole.returncode:
            (work / f"check.{fmt}").write_text(whole.stdout)
            (work / f"merge.{fmt}").write_text(merged.stdout)
            failed.append(fmt)
    if failed:
        sys.exit(f"the merged report differs from check's ({', '.join(failed)}): see {work}")
    print(f"{len(shards)} DuckDB partitions, {size} bytes of summaries: the merged report is "
          f"check's, byte for byte (exit {whole.returncode})")


if __name__ == "__main__":
    main()
