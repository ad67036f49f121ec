#!/usr/bin/env python3
"""`rag-gate check` against numpy's vectorised bootstrap at 100k, 1M and 10M queries, and the
quantile gates against the mean gate, side by side in one run (run through bench/scale_vs_numpy.sh).

Data: bench/check_bench.py's generator (3 metrics, groups of 10, tags domain and language: 20
slices plus `all`) at 100,000 queries; the 1M and 10M inputs are that file repeated 10 and 100
times under new ids (`r<k>-` before every query id and group), so generating them takes seconds.
Cases, each the median of --repeat runs, the runs of all cases alternating:

  one      1 metric x all, query unit, 100k          vs numpy's vectorised bootstrap of it (budget >= 8x)
  full     3 metrics x 21 slices, 100k               vs numpy's one-metric time (budget <= 0.5x)
  mean     = one (the mean gate)
  median   statistic = "median", 1 metric x all      vs the mean gate (budget <= 3x); p95 and group unit too
  1M       1 metric x all, 1,000,000 queries         vs numpy's 100k time (budget <= 1x); peak RSS / input (<= 4x)
  10M      1 metric x all, 10,000,000 queries        time and peak RSS, once (at --resamples-10m)

Prints one Markdown table to paste into docs/speed.md. Wall clock; peak RSS from wait4().
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_bench import generate, numpy_bootstrap  # noqa: E402

GATE = """
[inputs]
baseline = "{d}/baseline.jsonl"
candidate = "{d}/candidate.jsonl"
queries = "{d}/queries.jsonl"
[bootstrap]
resamples = {resamples}
unit = "{unit}"
[slices]
by = {by}
[report]
metrics = {metrics}
[[gate]]
metric = "ndcg@10"
statistic = "{statistic}"
max-drop = 0.01
"""


def gate(folder, data, name, resamples, unit="query", by=(), metrics=("ndcg@10",), statistic="mean"):
    path = f"{folder}/{name}.toml"
    with open(path, "w") as f:
        f.write(GATE.format(d=data, resamples=resamples, unit=unit, by=json.dumps(list(by)),
                            metrics=json.dumps(list(metrics)), statistic=statistic))
    return path


def replicate(src, dst, times):
    """src's three files `times` over, ids and groups prefixed r<k>- (unique again)."""
    if os.path.exists(f"{dst}/done"):
        return
    os.makedirs(dst, exist_ok=True)
    for f in ("baseline", "candidate", "queries"):
        with open(f"{dst}/{f}.jsonl", "wb") as out:
            for k in range(times):
                sed = ["sed", "-e", f's/"query_id": "q/"query_id": "r{k}-q/',
                       "-e", f's/"group": "g/"group": "r{k}-g/', f"{src}/{f}.jsonl"]
                subprocess.run(sed, stdout=out, check=True)
    open(f"{dst}/done", "w").close()


def input_bytes(d):
    return sum(os.path.getsize(f"{d}/{f}.jsonl") for f in ("baseline", "candidate", "queries"))


def run(binary, gate_path):
    t0 = time.perf_counter()
    p = subprocess.Popen([binary, "check", gate_path, "--format", "json"], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f"rag-gate exited {code} on {gate_path}")
    return wall, usage.ru_maxrss * 1024


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--folder", default="/tmp/rag-gate-scale-vs-numpy")
    ap.add_argument("--resamples", type=int, default=10_000)
    ap.add_argument("--resamples-10m", type=int, default=1_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-10m", action="store_true")
    a = ap.parse_args()

    f = a.folder
    small, big, huge = f"{f}/100k", f"{f}/1m", f"{f}/10m"
    if not os.path.exists(f"{small}/done"):
        generate(small, 100_000)
        open(f"{small}/done", "w").close()
    replicate(small, big, 10)
    if not a.skip_10m:
        replicate(small, huge, 100)
    b = a.resamples
    cases = {
        "one": gate(f, small, "one", b),
        "full": gate(f, small, "full", b, by=("domain", "language"), metrics=("ndcg@10", "recall@5", "mrr@10")),
        "median": gate(f, small, "median", b, statistic="median"),
        "p95": gate(f, small, "p95", b, statistic="p95"),
        "mean-group": gate(f, small, "mean_group", b, unit="group"),
        "median-group": gate(f, small, "median_group", b, unit="group", statistic="median"),
        "1M": gate(f, big, "million", b),
    }
    runs = {k: [] for k in cases}
    for _ in range(a.repeat):  # alternating: every case once per round
        for k, g in cases.items():
            runs[k].append(run(a.binary, g))
    med = {k: statistics.median(r[0] for r in v) for k, v in runs.items()}
    rss = {k: max(r[1] for r in v) for k, v in runs.items()}

    import numpy as np

    rows = [json.loads(l) for l in open(f"{small}/baseline.jsonl")]
    cand = [json.loads(l) for l in open(f"{small}/candidate.jsonl")]
    delta = np.array([c["ndcg@10"] - r["ndcg@10"] for r, c in zip(rows, cand)])
    del rows, cand
    times = []
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        numpy_bootstrap(delta, b)
        times.append(time.perf_counter() - t0)
    numpy = statistics.median(times)

    ten = None
    if not a.skip_10m:
        ten = run(a.binary, gate(f, huge, "ten_million", a.resamples_10m))

    mb = lambda x: x / 1e6  # noqa: E731
    print(f"\nN = 100,000 (1M, 10M: replicated), B = {b:,}, median of {a.repeat}, {os.cpu_count()} cores\n")
    print("| what | rag-gate | reference | ratio | target |")
    print("|---|---|---|---|---|")
    print(f"| 1 metric x all, 100k queries, end to end | {med['one']:.2f} s | numpy vectorised bootstrap {numpy:.2f} s "
          f"| **{numpy / med['one']:.1f}x** faster | >= 8x |")
    print(f"| 3 metrics x 21 slices, 100k queries, end to end | {med['full']:.2f} s | numpy 1 metric x all {numpy:.2f} s "
          f"| **{med['full'] / numpy:.2f}x** numpy's time | <= 0.5x |")
    print(f"| 1 metric x all, 1,000,000 queries | {med['1M']:.2f} s | numpy at 100k {numpy:.2f} s "
          f"| **{med['1M'] / numpy:.2f}x** | <= 1x |")
    print(f"| peak RSS at 1,000,000 queries | {mb(rss['1M']):.0f} MB | input {mb(input_bytes(big)):.0f} MB "
          f"| **{rss['1M'] / input_bytes(big):.2f}x** | <= 4x |")
    for k, ref in (("median", "one"), ("p95", "one"), ("median-group", "mean-group")):
        unit = "groups of 10" if "group" in k else "query unit"
        print(f"| {k.split('-')[0]} gate, 100k, {unit} | {med[k]:.2f} s | mean gate {med[ref]:.2f} s "
              f"| **{med[k] / med[ref]:.2f}x** | <= 3x |")
    if ten:
        print(f"| 1 metric x all, 10,000,000 queries, B = {a.resamples_10m:,} (once) | {ten[0]:.1f} s "
              f"| input {mb(input_bytes(huge)):.0f} MB | peak RSS **{mb(ten[1]):.0f} MB** "
              f"({ten[1] / input_bytes(huge):.2f}x) | within 7 GB |")


if __name__ == "__main__":
    main()
