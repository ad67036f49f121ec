#!/usr/bin/env python3
"""Independent reference intervals for rag-gate's bootstrap: scipy.stats.bootstrap, paired.

Writes tests/data/stats/scipy_reference.json, read by tests/it/stats_reference.rs. Each case holds
the data, the statistic, the unit, and scipy's percentile and BCa intervals from many resamples
(so scipy's own Monte-Carlo error is small next to the Rust side's).

Run:  python3 calibration/scipy_reference.py
(creates a venv with scipy and numpy under /tmp/scipy-venv if they are not importable)
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scipy_env import ensure_scipy  # noqa: E402

ensure_scipy()
import numpy as np  # noqa: E402
import scipy  # noqa: E402
from scipy.stats import bootstrap  # noqa: E402

CONFIDENCE = 0.95
RESAMPLES = 200_000


def intervals(data, stat, seed):
    out = {}
    for method in ("percentile", "BCa"):
        res = bootstrap(data, stat, paired=True, vectorized=True, n_resamples=RESAMPLES,
                        confidence_level=CONFIDENCE, method=method, batch=20_000,
                        random_state=np.random.default_rng(seed))
        ci = res.confidence_interval
        out[method.lower()] = [float(ci.low), float(ci.high)]
    return out


def mean_diff(x, y, axis=-1):
    return np.mean(y - x, axis=axis)


def ratio(s, k, axis=-1):
    return np.sum(s, axis=axis) / np.sum(k, axis=axis)


def quantile_diff(p):
    def f(x, y, axis=-1):
        return np.percentile(y, p, axis=axis) - np.percentile(x, p, axis=axis)
    return f


def main():
    rng = np.random.default_rng(20261130)
    cases = []

    # 1. Query unit, mean delta of a bounded, tie-heavy metric (like nDCG@10), n = 60.
    n = 60
    base = np.clip(rng.beta(2, 1.5, n).round(3), 0, 1)
    cand = np.clip(base + rng.choice([0, 0, 0, 0.1, -0.2, 0.3], n) * rng.random(n), 0, 1).round(3)
    cases.append({"name": "query-mean", "unit": "query", "statistic": "mean",
                  "baseline": base.tolist(), "candidate": cand.tolist(), "group_of": None,
                  **intervals((base, cand), mean_diff, 1)})

    # 2. Group unit, mean delta: 40 groups of 1-6 queries with a shared group effect. scipy
    #    resamples (group sum, group size) pairs; the statistic Σ sums / Σ sizes.
    sizes = rng.integers(1, 7, 40)
    group_of = np.repeat(np.arange(40), sizes)
    effect = rng.normal(0, 0.08, 40)[group_of]
    base = rng.random(len(group_of)).round(3)
    cand = np.clip(base + effect + rng.normal(0.01, 0.05, len(group_of)), 0, 1).round(3)
    d = cand - base
    sums = np.bincount(group_of, weights=d)
    cases.append({"name": "group-mean", "unit": "group", "statistic": "mean",
                  "baseline": base.tolist(), "candidate": cand.tolist(),
                  "group_of": group_of.tolist(),
                  **intervals((sums, sizes.astype(float)), ratio, 2)})

    # 3. Query unit, p95 of a latency column (log-normal, candidate 8% slower), n = 120.
    n = 120
    base = np.exp(rng.normal(5.0, 0.5, n)).round(1)
    cand = (base * np.exp(rng.normal(0.08, 0.15, n))).round(1)
    cases.append({"name": "query-p95", "unit": "query", "statistic": "p95",
                  "baseline": base.tolist(), "candidate": cand.tolist(), "group_of": None,
                  **intervals((base, cand), quantile_diff(95), 3)})

    # 4. Query unit, median, n = 101.
    n = 101
    base = rng.normal(0.6, 0.15, n).round(3)
    cand = (base + rng.normal(0.02, 0.08, n)).round(3)
    cases.append({"name": "query-median", "unit": "query", "statistic": "median",
                  "baseline": base.tolist(), "candidate": cand.tolist(), "group_of": None,
                  **intervals((base, cand), quantile_diff(50), 4)})

    out = {"generator": "calibration/scipy_reference.py", "scipy": scipy.__version__,
           "numpy": np.__version__, "confidence": CONFIDENCE, "resamples": RESAMPLES,
           "cases": cases}
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "tests", "data", "stats", "scipy_reference.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    for c in cases:
        print(c["name"], "percentile", c["percentile"], "bca", c["bca"])


if __name__ == "__main__":
    main()
