#!/usr/bin/env python3
"""Replicate-run fixtures for the noise tests (tests/it/noise_aa.rs). Deterministic (random.Random).

ann/: 200 queries, 3 runs of main and 3 of a PR that changed nothing. Model: difficulty
  u ~ U(0.2, 0.9) per query; 30% of the queries are unstable: in each run they get that run's
  shift N(0, 0.03^2) (a worse build hurts them all) plus their own jitter N(0, 0.08^2); the other
  queries give the same value in every run. Clipped to [0, 1], rounded to 4 decimals. Tags:
  lang en/de.
recover/: 400 queries, 8 runs of one commit; every query jitters N(0, 0.05^2), every run shifts
  N(0, 0.01^2); no clipping, 6 decimals. truth.json holds the injected spreads: the standard
  deviation of a run's mean, sqrt(0.01^2 + 0.05^2/400), and the jitter 0.05. (One data set: its
  95% intervals miss the truth one time in twenty; the coverage itself is a Monte-Carlo test in
  src/stats/crossed.rs.)
"""
import json
import math
import os
import random

here = os.path.dirname(os.path.abspath(__file__))


def write(path, rows):
    with open(path, "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")


def ann():
    rng = random.Random(17)
    n = 200
    d = os.path.join(here, "ann")
    os.makedirs(d, exist_ok=True)
    u = [0.2 + 0.7 * rng.random() for _ in range(n)]
    flaky = [rng.random() < 0.3 for _ in range(n)]
    write(os.path.join(d, "queries.jsonl"),
          [{"query_id": f"q{i:03d}", "slices": {"lang": "en" if i % 2 == 0 else "de"}} for i in range(n)])
    for side in ["main", "pr"]:
        for r in range(1, 4):
            shift = rng.gauss(0, 0.03)
            rows = []
            for i in range(n):
                vals = {}
                for m in ["ndcg@10", "recall@10"]:
                    x = u[i] + (shift + rng.gauss(0, 0.08) if flaky[i] else 0.0)
                    vals[m] = round(min(1.0, max(0.0, x)), 4)
                rows.append({"query_id": f"q{i:03d}", **vals})
            write(os.path.join(d, f"{side}-{r}.jsonl"), rows)


def recover():
    rng = random.Random(2027)
    n, runs, shift_sd, jitter = 400, 8, 0.01, 0.05
    d = os.path.join(here, "recover")
    os.makedirs(d, exist_ok=True)
    u = [rng.random() for _ in range(n)]
    for r in range(1, runs + 1):
        shift = rng.gauss(0, shift_sd)
        write(os.path.join(d, f"rec-{r}.jsonl"),
              [{"query_id": f"q{i:03d}", "m": round(u[i] + shift + rng.gauss(0, jitter), 6)} for i in range(n)])
    with open(os.path.join(d, "truth.json"), "w") as f:
        json.dump({"run_sd": math.sqrt(shift_sd ** 2 + jitter ** 2 / n), "shift_sd": shift_sd,
                   "jitter_sd": jitter, "replicates": runs}, f, indent=1)
        f.write("\n")


ann()
recover()
