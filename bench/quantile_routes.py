#!/usr/bin/env python3
"""Median gates by route: the default (the jackknife t interval of the
Harrell-Davis difference: no bootstrap, the sign-flip p-value only) against `method =
"percentile"` (the paired bootstrap of the type 7 difference, the default before) and the mean
gate, one metric x `all`, B = 10,000, at 100,000 and 1,000,000 queries.

Data: paired latency-like values (a shared difficulty 100 exp(0.5 N(0,1)), each side + N(0, 10^2),
the candidate 1 slower), written once under --folder. Each case is the median of --repeat runs,
the runs of all cases alternating. Wall clock. Prints a Markdown table.

usage: python3 bench/quantile_routes.py --binary target/release/rag-gate [--repeat 3] [--sizes 100000,1000000]
"""
import argparse
import os
import statistics
import subprocess
import time

import numpy as np

GATE = """[inputs]
baseline = "b{n}.jsonl"
candidate = "c{n}.jsonl"

[bootstrap]
method = "{method}"

[[gate]]
metric = "latency_ms"
statistic = "{statistic}"
higher-is-better = false
max-drop = 5
"""


def write_data(folder, n):
    if os.path.exists(os.path.join(folder, f"c{n}.jsonl")):
        return
    rng = np.random.default_rng(n)
    q = 100 * np.exp(0.5 * rng.standard_normal(n))
    for side, shift in (("b", 0.0), ("c", 1.0)):
        v = q + shift + 10 * rng.standard_normal(n)
        with open(os.path.join(folder, f"{side}{n}.jsonl"), "w") as f:
            f.write("".join(f'{{"query_id":"q{i}","latency_ms":{x:.3f}}}\n' for i, x in enumerate(v)))


def run(binary, folder, gate):
    start = time.perf_counter()
    code = subprocess.call([binary, "check", gate, "--format", "json"], cwd=folder,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    assert code in (0, 1), f"{gate}: exit {code}"
    return elapsed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--folder", default="/tmp/rag-gate-quantile-routes")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sizes", default="100000,1000000")
    a = ap.parse_args()
    binary = os.path.abspath(a.binary)
    os.makedirs(a.folder, exist_ok=True)
    cases = []
    for n in [int(s) for s in a.sizes.split(",")]:
        write_data(a.folder, n)
        for statistic, method in (("mean", "bootstrap-t"), ("median", "bootstrap-t"), ("median", "percentile")):
            name = f"{n}-{statistic}-{method}.toml"
            with open(os.path.join(a.folder, name), "w") as f:
                f.write(GATE.format(n=n, method=method, statistic=statistic))
            cases.append((n, statistic, method, name))
    runs = {c: [] for c in cases}
    for _ in range(a.repeat):
        for c in cases:
            runs[c].append(run(binary, a.folder, c[3]))
    print("| queries | gate | route | wall (median) |")
    print("|---|---|---|---|")
    for c in cases:
        n, statistic, method, _ = c
        wall = statistics.median(runs[c])
        route = {"mean": "bootstrap-t", "bootstrap-t": "default: Harrell-Davis jackknife t",
                 "percentile": "percentile (bootstrap of type 7)"}[method if statistic != "mean" else "mean"]
        print(f"| {n:,} | {statistic} | {route} | {wall:.2f} s |")


if __name__ == "__main__":
    main()
