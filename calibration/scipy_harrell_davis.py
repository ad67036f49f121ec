#!/usr/bin/env python3
"""The jackknife t interval of a paired Harrell-Davis difference, computed
independently of rag-gate's O(n) leave-one-out sums.

Writes tests/data/stats/scipy_harrell_davis.json, read by tests/it/stats_harrell_davis.rs. For each
case: the paired data (and group index), the Harrell-Davis quantile of each side by
scipy.stats.mstats.hdquantiles, the jackknife standard error of the difference by brute force
(each query removed from both sides and hdquantiles called again on the n - 1 pairs; for the
group unit the pseudo-value deviations (n - 1)(est - est_(i)) summed per group, G/(G - 1) times
their centred sum of squares over n^2), and scipy.stats.t.ppf(0.975, G - 1) for the bounds
est -+ t * se. One case has a constant baseline, where the standard error is the candidate's
own jackknife one and scipy.stats.mstats.hdquantiles_sd gives it directly.

Run:  python3 calibration/scipy_harrell_davis.py     (a few seconds; the n = 1,500 case's brute
force calls hdquantiles 3,000 times)
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
from scipy.stats.mstats import hdquantiles, hdquantiles_sd  # noqa: E402

CONFIDENCE = 0.95


def hd(x, p):
    return float(hdquantiles(np.asarray(x, float), prob=[p])[0])


def case(name, base, cand, p, group_of=None):
    base, cand = np.asarray(base, float), np.asarray(cand, float)
    n = len(base)
    est = hd(cand, p) - hd(base, p)
    loo = np.array([hd(np.delete(cand, i), p) - hd(np.delete(base, i), p) for i in range(n)])
    d = (n - 1) * (est - loo)
    groups = np.arange(n) if group_of is None else np.asarray(group_of)
    ids = np.unique(groups)
    g = len(ids)
    sums = np.array([(d[groups == k] - d.mean()).sum() for k in ids])
    se = float(np.sqrt(g / (g - 1) * np.sum(sums ** 2)) / n)
    half = float(student_t.ppf(0.5 + CONFIDENCE / 2, g - 1)) * se
    out = {"name": name, "p": p, "baseline": base.tolist(), "candidate": cand.tolist(),
           "group_of": None if group_of is None else [int(v) for v in group_of],
           "hd_baseline": hd(base, p), "hd_candidate": hd(cand, p), "estimate": est,
           "se": se, "df": g - 1, "bounds": [est - half, est + half]}
    if np.all(base == base[0]) and group_of is None:
        out["hdquantiles_sd"] = float(hdquantiles_sd(cand, prob=[p])[0])
    return out


def main():
    rng = np.random.default_rng(28)

    def paired(n, noise):
        q = 100 * np.exp(0.5 * rng.standard_normal(n))
        return q + noise * rng.standard_normal(n), q + noise * rng.standard_normal(n)

    cases = []
    b, c = paired(37, 10)
    cases.append(case("paired-n37-median", b, c, 0.5))
    # Integer latencies: many ties within and across the sides.
    b, c = paired(150, 10)
    cases.append(case("ties-n150-p95", np.round(b / 5) * 5, np.round(c / 5) * 5, 0.95))
    # 25 conversations of 1-6 turns sharing a conversation effect.
    sizes = rng.integers(1, 7, 25)
    group_of = np.repeat(np.arange(25), sizes)
    ge = 30 * rng.standard_normal(25)[group_of]
    b, c = paired(len(group_of), 10)
    for p in (0.5, 0.95):
        cases.append(case(f"groups-25-p{int(p * 100)}", b + ge, c + ge, p, group_of.tolist()))
    # Above BETA_CF_MAX (1,024 values): the integrated weights.
    b, c = paired(1500, 20)
    cases.append(case("paired-n1500-p95", b, c + 3, 0.95))
    # A constant baseline: the candidate's own jackknife standard error.
    cases.append(case("constant-baseline-n60-p95", np.full(60, 7.0),
                      np.exp(rng.standard_normal(60)), 0.95))
    out = {"generator": "calibration/scipy_harrell_davis.py", "scipy": scipy.__version__,
           "numpy": np.__version__, "confidence": CONFIDENCE, "resamples": 0, "cases": cases}
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "tests", "data", "stats", "scipy_harrell_davis.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"wrote {path}: {len(cases)} cases")


if __name__ == "__main__":
    main()
