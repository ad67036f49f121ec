#!/usr/bin/env python3
"""Benchmark of a replicate-aware `rag-gate check` against the single-run check on the same data.

Generates N paired queries (default 100,000) with 3 metrics and 20 slices (check_bench.generate),
plus two more replicates of each side (30% of the queries jitter, every run a small shift), then
times, each the median of --repeat runs:

  single     3 metrics x all / x 21 slices, one run per side
  replicate  the same with 3 replicates per side (6 files read, crossed interval)

and prints the ratio replicate / single (the issue's budget: at most 2x).

    cargo build --release --locked && python3 bench/replicate_bench.py --binary $CARGO_TARGET_DIR/release/rag-gate
"""
import argparse
import json
import os
import random
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_bench import generate, run_binary  # noqa: E402

METRICS = ["ndcg@10", "recall@5", "mrr@10"]

GATE = """
[inputs]
baseline = {baseline}
candidate = {candidate}
queries = "queries.jsonl"
[bootstrap]
resamples = {resamples}
[slices]
by = {by}
[report]
metrics = {metrics}
[[gate]]
metric = "ndcg@10"
max-drop = 0.01
"""


def replicates(folder, seed=3):
    rng = random.Random(seed)
    for side in ("baseline", "candidate"):
        rows = [json.loads(l) for l in open(f"{folder}/{side}.jsonl")]
        for r in (2, 3):
            shift = rng.gauss(0, 0.005)
            with open(f"{folder}/{side}-{r}.jsonl", "w") as f:
                for row in rows:
                    vals = row.get("metrics", row)
                    out = {"query_id": row["query_id"]}
                    for m in METRICS:
                        x = vals[m] + (shift + rng.gauss(0, 0.05) if rng.random() < 0.3 else 0.0)
                        out[m] = round(min(1.0, max(0.0, x)), 4)
                    f.write(json.dumps(out) + "\n")


def gate(folder, name, sides, by, resamples):
    path = f"{folder}/{name}.toml"
    with open(path, "w") as f:
        f.write(GATE.format(baseline=json.dumps(sides[0]), candidate=json.dumps(sides[1]),
                            by=json.dumps(by), metrics=json.dumps(METRICS), resamples=resamples))
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--queries", type=int, default=100_000)
    ap.add_argument("--resamples", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--folder", default="/tmp/rag-gate-replicate-bench")
    a = ap.parse_args()
    generate(a.folder, a.queries)
    replicates(a.folder)
    one = (["baseline.jsonl"], ["candidate.jsonl"])
    three = (["baseline.jsonl", "baseline-2.jsonl", "baseline-3.jsonl"],
             ["candidate.jsonl", "candidate-2.jsonl", "candidate-3.jsonl"])
    print(f"N = {a.queries:,} paired queries, 3 metrics, B = {a.resamples:,} resamples, {os.cpu_count()} cores")
    for label, by in (("3 metrics x all", []), ("3 metrics x 21 slices", ["domain", "language"])):
        times = {}
        for kind, sides in (("single", ([one[0][0]], [one[1][0]])), ("replicate", three)):
            g = gate(a.folder, f"{kind}-{len(by)}", (sides[0] if kind == "replicate" else sides[0][0],
                                                     sides[1] if kind == "replicate" else sides[1][0]),
                     by, a.resamples)
            runs = [run_binary(a.binary, g) for _ in range(a.repeat)]
            times[kind] = (statistics.median(r[0] for r in runs), max(r[1] for r in runs))
            print(f"  {label:24s} {kind:9s} {times[kind][0]:7.3f} s  peak RSS {times[kind][1]:7.1f} MiB")
        print(f"  {label:24s} replicate / single = {times['replicate'][0] / times['single'][0]:.2f}x")


if __name__ == "__main__":
    main()
