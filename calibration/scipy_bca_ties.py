#!/usr/bin/env python3
"""BCa on tie-heavy data: scipy.stats.bootstrap(method="BCa", paired=True) as the reference.

Writes tests/data/stats/scipy_bca_ties.json, read by tests/it/stats_bca_ties.rs. The values are
multiples of 1/16, so every sum of them is exact in floating point whatever the summation order:
a resample mean equals the observed mean bit for bit in numpy and in rag-gate alike, and the
comparison tests the bias correction itself, scipy's mid-rank
((#{θ* < θ̂} + #{θ* ≤ θ̂}) / 2B, `_percentile_of_score`), not the rounding. Many resample means
equal θ̂ on such data, which is where a strict count (#{θ* < θ̂} / B) pushes the interval down.

Run:  python3 calibration/scipy_bca_ties.py
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
from scipy.stats._resampling import _percentile_of_score  # noqa: E402  (what BCa uses for ẑ₀)

CONFIDENCE = 0.95
RESAMPLES = 200_000


def bca(data, stat, seed):
    out = {}
    for method in ("percentile", "BCa"):
        res = bootstrap(data, stat, paired=True, vectorized=True, n_resamples=RESAMPLES,
                        confidence_level=CONFIDENCE, method=method, batch=20_000,
                        random_state=np.random.default_rng(seed))
        ci = res.confidence_interval
        out[method.lower()] = [float(ci.low), float(ci.high)]
        if method == "BCa":
            # The share behind ẑ₀ = Φ⁻¹(share), by scipy's own function, and the strict share.
            theta_b = res.bootstrap_distribution
            theta = stat(*data)
            out["z0_share"] = float(_percentile_of_score(theta_b, theta, axis=-1, xp=np))
            out["strict_share"] = float(np.mean(theta_b < theta))
    return out


def mean_diff(x, y, axis=-1):
    return np.mean(y - x, axis=axis)


def ratio(s, k, axis=-1):
    return np.sum(s, axis=axis) / np.sum(k, axis=axis)


def sixteenths(rng, n, steps, p):
    return rng.choice(np.array(steps) / 16.0, size=n, p=p)


def main():
    rng = np.random.default_rng(20261201)
    cases = []
    sym = ([-2, -1, 0, 1, 2], [0.1, 0.15, 0.5, 0.15, 0.1])
    for name, n, (steps, p) in [
        ("symmetric-ties-n10", 10, sym),
        ("symmetric-ties-n20", 20, sym),
        ("zero-inflated-n30", 30, ([-1, 0, 1, 3, 6], [0.05, 0.8, 0.05, 0.05, 0.05])),
    ]:
        base = rng.integers(0, 9, n) / 16.0
        cand = base + sixteenths(rng, n, steps, p)
        cases.append({"name": name, "unit": "query", "baseline": base.tolist(),
                      "candidate": cand.tolist(), "group_of": None,
                      **bca((base, cand), mean_diff, n)})

    # Group unit: 12 groups of 1-4 queries, tie-heavy deltas; scipy resamples (sum, size) pairs.
    sizes = rng.integers(1, 5, 12)
    group_of = np.repeat(np.arange(12), sizes)
    base = rng.integers(0, 9, len(group_of)) / 16.0
    cand = base + sixteenths(rng, len(group_of), *sym)
    sums = np.bincount(group_of, weights=cand - base)
    cases.append({"name": "group-ties-g12", "unit": "group", "baseline": base.tolist(),
                  "candidate": cand.tolist(), "group_of": group_of.tolist(),
                  **bca((sums, sizes.astype(float)), ratio, 99)})

    out = {"generator": "calibration/scipy_bca_ties.py", "scipy": scipy.__version__,
           "numpy": np.__version__, "confidence": CONFIDENCE, "resamples": RESAMPLES,
           "cases": cases}
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "tests", "data", "stats", "scipy_bca_ties.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    for c in cases:
        print(c["name"], "percentile", c["percentile"], "bca", c["bca"])


if __name__ == "__main__":
    main()
