#!/usr/bin/env python3
"""Benchmark of `rag-gate check` against numpy bootstraps, on the same generated data.

Generates N paired queries (default 100,000) with 3 metrics, groups of 10 and 20 slices (each
query in two: one of 10 domains, one of 10 languages), then measures, each the median of
--repeat runs in this one process:

  engine    1 metric × all, unit=query         (benches/engine.rs on the same deltas: resampling alone)
  rag-gate  1 metric × all, unit=query         (end to end: parse, 10,000 resamples, p-value, report)
  rag-gate  1 metric × all, unit=group         (10,000 groups of 10)
  rag-gate  3 metrics × 21 slices, unit=query  (the full check, default interval: bootstrap-t)
  rag-gate  the same with method = "percentile" (the ratio of the two is the cost of bootstrap-t)
  numpy     1 metric × all: vectorised, chunked index matrices (rng.integers + take + mean)
  numpy     1 metric × 21 slices, same method

and prints the ratios. Run through bench/check_bench.sh, which builds the release binary and
provides numpy. Timing is wall clock; peak RSS of each rag-gate run from wait4().
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time


def generate(folder, n, seed=1):
    rng = random.Random(seed)
    os.makedirs(folder, exist_ok=True)
    with open(f"{folder}/baseline.jsonl", "w") as b, open(f"{folder}/candidate.jsonl", "w") as c, open(
        f"{folder}/queries.jsonl", "w"
    ) as q:
        for i in range(n):
            qid = f"q{i:07d}"
            base = [round(rng.random(), 4) for _ in range(3)]
            cand = [round(min(1.0, max(0.0, x + rng.gauss(0.005, 0.1))), 4) for x in base]
            b.write(json.dumps({"query_id": qid, "ndcg@10": base[0], "recall@5": base[1], "mrr@10": base[2]}) + "\n")
            c.write(json.dumps({"query_id": qid, "ndcg@10": cand[0], "recall@5": cand[1], "mrr@10": cand[2]}) + "\n")
            tags = {"domain": f"d{rng.randrange(10)}", "language": f"l{rng.randrange(10)}"}
            q.write(json.dumps({"query_id": qid, "group": f"g{i // 10:06d}", "slices": tags}) + "\n")


GATE = """
[inputs]
baseline = "baseline.jsonl"
candidate = "candidate.jsonl"
queries = "queries.jsonl"
[bootstrap]
resamples = {resamples}
unit = "{unit}"
method = "{method}"
[slices]
by = {by}
[report]
metrics = {metrics}
[[gate]]
metric = "ndcg@10"
max-drop = 0.01
"""


def gate(folder, name, unit, by, metrics, resamples, method="bootstrap-t"):
    path = f"{folder}/{name}.toml"
    with open(path, "w") as f:
        f.write(GATE.format(unit=unit, by=json.dumps(by), metrics=json.dumps(metrics), resamples=resamples,
                            method=method))
    return path


def run_binary(binary, gate_path):
    t0 = time.perf_counter()
    p = subprocess.Popen([binary, "check", gate_path, "--format", "json"], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f"rag-gate exited {code} on {gate_path}")
    return wall, usage.ru_maxrss / 1024.0


def numpy_bootstrap(delta, resamples, chunk=100, seed=17):
    import numpy as np

    rng = np.random.default_rng(seed)
    n = len(delta)
    out = np.empty(resamples)
    for s in range(0, resamples, chunk):
        k = min(chunk, resamples - s)
        idx = rng.integers(0, n, size=(k, n))
        out[s : s + k] = delta[idx].mean(axis=1)
    return np.percentile(out, [2.5, 97.5])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--engine", help="benches/engine.rs executable; times the engine alone on the same deltas")
    ap.add_argument("--queries", type=int, default=100_000)
    ap.add_argument("--resamples", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--folder", default="/tmp/rag-gate-bench")
    ap.add_argument("--skip-numpy", action="store_true")
    a = ap.parse_args()

    generate(a.folder, a.queries)
    size_mb = sum(os.path.getsize(f"{a.folder}/{f}.jsonl") for f in ("baseline", "candidate", "queries")) / 2**20
    cases = {
        "rag-gate 1 metric x all, query unit": gate(a.folder, "one_query", "query", [], ["ndcg@10"], a.resamples),
        "rag-gate 1 metric x all, group unit": gate(a.folder, "one_group", "group", [], ["ndcg@10"], a.resamples),
        "rag-gate 3 metrics x 21 slices, query unit": gate(
            a.folder, "full", "query", ["domain", "language"], ["ndcg@10", "recall@5", "mrr@10"], a.resamples
        ),
        # The same full check with the percentile interval (the default of earlier versions).
        "rag-gate 3 metrics x 21 slices, query unit, percentile": gate(
            a.folder, "full_percentile", "query", ["domain", "language"], ["ndcg@10", "recall@5", "mrr@10"],
            a.resamples, method="percentile"
        ),
    }
    results = {}
    for name, g in cases.items():
        runs = [run_binary(a.binary, g) for _ in range(a.repeat)]
        results[name] = (statistics.median(r[0] for r in runs), max(r[1] for r in runs))

    # Loaded after the rag-gate runs: a child forked from a big process inherits its peak RSS.
    rows = [json.loads(l) for l in open(f"{a.folder}/baseline.jsonl")]
    cand = [json.loads(l) for l in open(f"{a.folder}/candidate.jsonl")]
    deltas = [c["ndcg@10"] - b["ndcg@10"] for b, c in zip(rows, cand)]
    if a.engine:
        path = f"{a.folder}/deltas.txt"
        with open(path, "w") as f:
            f.write("".join(f"{d!r}\n" for d in deltas))
        out = subprocess.run([a.engine, "--deltas", path, "--resamples", str(a.resamples), "--only-engine"], capture_output=True, text=True, check=True)
        secs = float(out.stdout.split("engine-seconds")[1])
        results["engine alone, 1 metric x all (median of 5)"] = (secs, None)

    if not a.skip_numpy:
        import numpy as np

        qs = [json.loads(l) for l in open(f"{a.folder}/queries.jsonl")]
        delta = np.array(deltas)
        times = []
        for _ in range(a.repeat):
            t0 = time.perf_counter()
            numpy_bootstrap(delta, a.resamples)
            times.append(time.perf_counter() - t0)
        results["numpy vectorised, 1 metric x all (bootstrap only)"] = (statistics.median(times), None)
        masks = [np.ones(len(delta), bool)]
        for tag in ("domain", "language"):
            vals = np.array([q["slices"][tag] for q in qs])
            masks += [vals == v for v in sorted(set(vals))]
        t0 = time.perf_counter()
        for m in masks:
            numpy_bootstrap(delta[m], a.resamples)
        results["numpy vectorised, 1 metric x 21 slices (bootstrap only)"] = (time.perf_counter() - t0, None)

    full = results["rag-gate 3 metrics x 21 slices, query unit"][0]
    perc = results["rag-gate 3 metrics x 21 slices, query unit, percentile"][0]
    print(f"default (bootstrap-t) / percentile, 3 metrics x 21 slices: {full / perc:.2f}x")
    print(f"N = {a.queries:,} paired queries, B = {a.resamples:,} resamples, input {size_mb:.1f} MiB, {os.cpu_count()} cores")
    ref = results.get("numpy vectorised, 1 metric x all (bootstrap only)", (None,))[0]
    for name, (t, rss) in results.items():
        extra = f"  peak RSS {rss:7.1f} MiB" if rss else ""
        ratio = f"  numpy-1-metric / this = {ref / t:5.2f}x" if ref else ""
        print(f"{name:58s} {t:7.3f} s{extra}{ratio}")


if __name__ == "__main__":
    main()
