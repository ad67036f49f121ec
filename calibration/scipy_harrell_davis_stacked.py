#!/usr/bin/env python3
"""The jackknife t interval of a Harrell-Davis difference whose candidate has several runs on
the baseline's queries (a re-run's pooled attempts, stacked), computed independently of
rag-gate's O(n) leave-one-out sums (src/stats/harrell_davis.rs, pooled_difference).

Writes tests/data/stats/scipy_harrell_davis_stacked.json, read by
tests/it/stats_harrell_davis.rs. For each case: the baseline (n values), the candidate's k runs
(k x n), the unit of each query (query unit: itself), the Harrell-Davis quantile of the baseline
and of all k*n candidate values by scipy.stats.mstats.hdquantiles, and the standard error by
brute force: every single value removed from its side and hdquantiles called again, each
value's term (N - 1)/N * (est - est_without_it) (N its side's size), centred per side, summed
per unit (its queries' k candidate terms minus their baseline terms), se = sqrt(G/(G - 1) *
sum of squares); the bounds est -+ scipy.stats.t.ppf(0.975, G - 1) * se.

Run:  python3 calibration/scipy_harrell_davis_stacked.py     (a few seconds)
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
from scipy.stats import t as student_t  # noqa: E402
from scipy.stats.mstats import hdquantiles  # noqa: E402

CONFIDENCE = 0.95


def hd(x, p):
    return float(hdquantiles(np.asarray(x, float), prob=[p])[0])


def terms(x, p):
    n = len(x)
    est = hd(x, p)
    t = np.array([(n - 1) / n * (est - hd(np.delete(x, j), p)) for j in range(n)])
    return est, t - t.mean()


def case(name, base, runs, p, group_of=None):
    base = np.asarray(base, float)
    runs = np.asarray(runs, float)
    k, n = runs.shape
    stacked = runs.reshape(-1)
    eb, tb = terms(base, p)
    ec, tc = terms(stacked, p)
    est = ec - eb
    groups = np.arange(n) if group_of is None else np.asarray(group_of)
    ids = np.unique(groups)
    g = len(ids)
    per_query = tc.reshape(k, n).sum(axis=0) - tb
    sums = np.array([per_query[groups == u].sum() for u in ids])
    se = float(np.sqrt(g / (g - 1) * np.sum(sums ** 2)))
    half = float(student_t.ppf(0.5 + CONFIDENCE / 2, g - 1)) * se
    return {"name": name, "p": p, "baseline": base.tolist(), "runs": runs.tolist(),
            "group_of": None if group_of is None else [int(v) for v in group_of],
            "hd_baseline": eb, "hd_candidate": ec, "estimate": est, "se": se, "df": g - 1,
            "bounds": [est - half, est + half]}


def main():
    rng = np.random.default_rng(54)

    def system(n, k, noise, shift):
        q = 100 * np.exp(0.5 * rng.standard_normal(n))
        base = q + noise * rng.standard_normal(n)
        runs = np.array([q + shift + noise * rng.standard_normal(n) for _ in range(k)])
        return base, runs

    cases = []
    b, r = system(40, 3, 10, 2)
    cases.append(case("stacked-3x40-median", b, r, 0.5))
    b, r = system(120, 2, 15, 5)
    cases.append(case("stacked-2x120-p95", b, r, 0.95))
    # Integer latencies: ties within and across the runs.
    b, r = system(100, 4, 10, 0)
    cases.append(case("ties-4x100-p95", np.round(b / 5) * 5, np.round(r / 5) * 5, 0.95))
    # 20 conversations of 1-5 turns sharing a conversation effect.
    sizes = rng.integers(1, 6, 20)
    group_of = np.repeat(np.arange(20), sizes)
    ge = 30 * rng.standard_normal(20)[group_of]
    b, r = system(len(group_of), 3, 10, 1)
    cases.append(case("groups-20-3runs-median", b + ge, r + ge, 0.5, group_of.tolist()))
    # Over BETA_CF_MAX (1,024 values) once stacked: the integrated weights.
    b, r = system(400, 3, 20, 3)
    cases.append(case("stacked-3x400-p95", b, r, 0.95))
    out = {"generator": "calibration/scipy_harrell_davis_stacked.py", "scipy": scipy.__version__,
           "numpy": np.__version__, "confidence": CONFIDENCE, "cases": cases}
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "tests", "data", "stats", "scipy_harrell_davis_stacked.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"wrote {path}: {len(cases)} cases")


if __name__ == "__main__":
    main()
