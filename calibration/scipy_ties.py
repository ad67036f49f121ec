#!/usr/bin/env python3
"""The Student t bound of the bootstrap-t's tie guard, computed independently.

Writes tests/data/stats/scipy_ties.json, read by tests/it/stats_ties.rs. For each case: the data,
the share of tied unit means, the mean, the CR2 standard error and its Bell–McCaffrey degrees of
freedom computed from the general matrix formulas (hat matrix of the regression on a constant,
A_g = (I − H_gg)^{-1/2} by eigendecomposition; the df as (Σλ)² / Σλ² over the eigenvalues of
G'G, Imbens & Kolesár 2016, eq. 11, with Ω = I), not the closed forms rag-gate uses, and
scipy.stats.t.ppf for the quantile: the bounds mean ∓ t_{0.975, df} · se; and the tilted score
bounds of `stats::tilt` (`sparse_models.tilt_interval`: the exponential tilt solved by scipy's
brentq on the raw units, each bound the root of t · se(μ) = |mean − μ|), which
tests/it/stats_ties.rs also reads.

Run:  python3 calibration/scipy_ties.py
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

import sparse_models  # noqa: E402

CONFIDENCE = 0.95


def inv_sqrt(m):
    w, v = np.linalg.eigh(m)
    return v @ np.diag(1.0 / np.sqrt(w)) @ v.T


def cr2_and_bm_df(d, group_of):
    """CR2 variance of the intercept and its BM df, from the matrices."""
    n = len(d)
    x = np.ones((n, 1))
    xtx_inv = np.linalg.inv(x.T @ x)
    h = x @ xtx_inv @ x.T
    beta = (xtx_inv @ x.T @ d).item()
    e = d - beta
    ids = sorted(set(group_of))
    meat = 0.0
    g_cols = []
    m_i = np.eye(n) - h
    for g in ids:
        idx = np.array([i for i in range(n) if group_of[i] == g])
        a_g = inv_sqrt(np.eye(len(idx)) - h[np.ix_(idx, idx)])
        u = (x[idx].T @ a_g @ e[idx]).item()
        meat += u * u
        # Column g of G: (I − H)_{·,g} A_g X_g (X'X)^{-1}.
        g_cols.append(m_i[:, idx] @ a_g @ x[idx] @ xtx_inv)
    var = (xtx_inv @ np.array([[meat]]) @ xtx_inv).item()
    gm = np.hstack(g_cols)
    lam = np.linalg.eigvalsh(gm.T @ gm)
    df = lam.sum() ** 2 / (lam ** 2).sum()
    return beta, float(np.sqrt(var)), float(df)


def ik_groups(sizes, s2e, s2u):
    """1 + the Imbens–Kolesár df under Ω = s2e·I + s2u·(block of ones), from the matrices."""
    group_of = np.repeat(np.arange(len(sizes)), sizes)
    n = len(group_of)
    x = np.ones((n, 1))
    h = x @ np.linalg.inv(x.T @ x) @ x.T
    m_i = np.eye(n) - h
    same = (group_of[:, None] == group_of[None, :]).astype(float)
    omega = s2e * np.eye(n) + s2u * same
    cols = []
    for g in range(len(sizes)):
        idx = np.where(group_of == g)[0]
        a_g = inv_sqrt(np.eye(len(idx)) - h[np.ix_(idx, idx)])
        cols.append(m_i[:, idx] @ a_g @ x[idx] / n)
    gm = np.hstack(cols)
    lam = np.linalg.eigvalsh(gm.T @ omega @ gm)
    return float(1 + lam.sum() ** 2 / (lam ** 2).sum())


def tilt_bounds(d, groups, df):
    """The tilted score bounds of the units' sums and sizes (`sparse_models.tilt_interval`, the
    brentq replay of stats::tilt that the numpy replays share)."""
    ids = sorted(set(groups))
    sums = np.array([d[[i for i in range(len(d)) if groups[i] == g]].sum() for g in ids])
    sizes = np.array([float(sum(1 for i in range(len(d)) if groups[i] == g)) for g in ids])
    return list(sparse_models.tilt_interval(sums, sizes, df, CONFIDENCE))


def tied_share(unit_means):
    _, counts = np.unique(np.asarray(unit_means), return_counts=True)
    return float(counts.max() / len(unit_means))


def case(name, d, group_of):
    d = np.asarray(d, dtype=float)
    groups = group_of if group_of is not None else list(range(len(d)))
    mean, se, df = cr2_and_bm_df(d, groups)
    q = float(student_t.ppf(1 - (1 - CONFIDENCE) / 2, df))
    ids = sorted(set(groups))
    means = [d[[i for i in range(len(d)) if groups[i] == g]].mean() for g in ids]
    return {"name": name, "deltas": d.tolist(), "group_of": group_of,
            "tied_share": tied_share(means), "mean": mean, "se_cr2": se, "bm_df": df,
            "t_quantile": q, "t_bounds": [mean - q * se, mean + q * se],
            "tilt_bounds": tilt_bounds(d, groups, df)}


def sparse(rng, n, changed):
    moved = rng.random(n) < changed
    # Multiples of 1/1024, so that every sum is exact in floating point.
    return np.where(moved, np.round((rng.random(n) - 0.5) * 1024) / 1024, 0.0)


def main():
    rng = np.random.default_rng(20261228)
    cases = [
        case("sparse-15pct-n30", sparse(rng, 30, 0.15), None),
        case("sparse-15pct-n100", sparse(rng, 100, 0.15), None),
        case("sparse-30pct-n50", sparse(rng, 50, 0.30), None),
    ]

    # 16 groups of 1-6 queries, most groups untouched.
    sizes = rng.integers(1, 7, 16)
    group_of = np.repeat(np.arange(16), sizes).tolist()
    cases.append(case("groups-16-sparse", sparse(rng, len(group_of), 0.1), group_of))
    # Moves mostly one way (the asymmetric cells): the tilted bound decides a side.
    rng2 = np.random.default_rng(20261203)
    up = np.where(rng2.random(60) < 0.2, np.round(rng2.uniform(-0.2, 0.3, 60) * 1024) / 1024, 0.0)
    cases.append(case("sparse-shifted-n60", up, None))
    designs = []
    for sizes, s2e, s2u in [([1, 2, 3, 10, 30, 2, 1, 10], 0.0025, 0.0064),
                            ([30, 1, 1, 1, 1], 1.0, 0.0), ([4] * 8, 0.01, 0.5),
                            ([5, 5, 20, 20, 2, 2, 8, 8, 1, 30], 0.003, 0.001)]:
        designs.append({"sizes": sizes, "sigma2_e": s2e, "sigma2_u": s2u,
                        "kish": float(sum(sizes) ** 2 / sum(k * k for k in sizes)),
                        "ik_groups": ik_groups(np.array(sizes), s2e, s2u)})
    out = {"generator": "calibration/scipy_ties.py", "scipy": scipy.__version__,
           "numpy": np.__version__, "confidence": CONFIDENCE, "cases": cases,
           "designs": designs}
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "tests", "data", "stats", "scipy_ties.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    for d in designs:
        print(d["sizes"], "kish", d["kish"], "ik", d["ik_groups"])
    for c in cases:
        print(c["name"], "tied", c["tied_share"], "df", c["bm_df"], "t bounds", c["t_bounds"],
              "tilt bounds", c["tilt_bounds"])


if __name__ == "__main__":
    main()
