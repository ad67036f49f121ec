#!/usr/bin/env python3
"""What `[probe]` adds to `check`, against `eval` of the same runs.

Generates (seeded, under /tmp/rag-gate-probe-bench) two TREC runs of QUERIES queries x DEPTH
documents (the candidate changes the top 10 of 1% of the queries), a labelled set of 200
queries as JSONL metric files, and qrels judging every query (3 relevant documents each). Then
times, best of REPS:

  check without [probe]   the labelled gate alone
  check with [probe]      the same gate file plus [probe] on the two runs
  eval of the same runs   `rag-gate eval` of each run against the qrels (ndcg@10), both runs

and prints the probe's added time (with - without) and its ratio to the eval time.

    python3 bench/probe_bench.py [--binary target/release/rag-gate] [--queries 100000] [--depth 100] [--reps 3]
"""

import argparse
import os
import random
import subprocess
import time

OUT = "/tmp/rag-gate-probe-bench"


def write_runs(queries, depth):
    rng = random.Random(2026)
    os.makedirs(OUT, exist_ok=True)
    with open(f"{OUT}/base.txt", "w") as b, open(f"{OUT}/cand.txt", "w") as c, open(f"{OUT}/qrels.txt", "w") as q:
        for i in range(queries):
            moved = rng.random() < 0.01
            for r in range(1, depth + 1):
                b.write(f"u{i} Q0 d{i}-{r} {r} {1000 - r} base\n")
                doc = f"n{i}-{r}" if moved and r <= 10 else f"d{i}-{r}"
                c.write(f"u{i} Q0 {doc} {r} {1000 - r} cand\n")
            for r in (1, 5, 20):
                q.write(f"u{i} 0 d{i}-{r} 1\n")
    with open(f"{OUT}/l-base.jsonl", "w") as b, open(f"{OUT}/l-cand.jsonl", "w") as c:
        for i in range(200):
            v = rng.randint(0, 10) / 10
            b.write(f'{{"query_id":"l{i}","ndcg@10":{v}}}\n')
            c.write(f'{{"query_id":"l{i}","ndcg@10":{v}}}\n')
    gate = '[inputs]\nbaseline = "l-base.jsonl"\ncandidate = "l-cand.jsonl"\n[[gate]]\nmetric = "ndcg@10"\nmax-drop = 0.02\n'
    with open(f"{OUT}/alone.toml", "w") as f:
        f.write(gate)
    with open(f"{OUT}/probe.toml", "w") as f:
        f.write(gate.replace("[[gate]]", '[probe]\nbaseline = "base.txt"\ncandidate = "cand.txt"\n[[gate]]'))


def best(cmd, reps):
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        r = subprocess.run(cmd, cwd=OUT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        times.append(time.perf_counter() - t)
        if r.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.decode()[:500]}")
    return min(times)


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--binary", default="target/release/rag-gate")
    a.add_argument("--queries", type=int, default=100_000)
    a.add_argument("--depth", type=int, default=100)
    a.add_argument("--reps", type=int, default=3)
    args = a.parse_args()
    binary = os.path.abspath(args.binary)
    write_runs(args.queries, args.depth)
    alone = best([binary, "check", "alone.toml", "--format", "json"], args.reps)
    probe = best([binary, "check", "probe.toml", "--format", "json"], args.reps)
    ev = sum(
        best([binary, "eval", "--qrels", "qrels.txt", "--run", run, "--metrics", "ndcg@10"], args.reps)
        for run in ("base.txt", "cand.txt")
    )
    added = probe - alone
    print(f"probe of {args.queries} queries x depth {args.depth}, best of {args.reps}")
    print(f"  check without [probe]   {alone:8.3f} s")
    print(f"  check with [probe]      {probe:8.3f} s")
    print(f"  added by the probe      {added:8.3f} s")
    print(f"  eval of the same runs   {ev:8.3f} s (both runs, ndcg@10)")
    print(f"  ratio added / eval      {added / ev:8.2f}")


if __name__ == "__main__":
    main()
