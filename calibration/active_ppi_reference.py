#!/usr/bin/env python3
"""Independent reference for rag-gate's actively sampled corrected mean (src/stats/active_ppi.rs):
the Hájek-weighted form of Zrnic & Candès's active inference estimator (ICML 2024), written
here from the formulas with numpy and scipy, not from the Rust code:

    theta = lam * mean(f over all) + (sum(w*y) - lam * sum(w*f_lab)) / sum(w),   w = 1/pi
    a_i = w_i (y_i - ybar_w) on labelled, 0 elsewhere
    b_i = (f_i - fbar) - w_i (f_i - fbar_w) on labelled, f_i - fbar elsewhere
    lam_tuned = clip(-sum(a b) / sum(b^2), 0, 1)
    se^2 = G/(G-1) * sum over units of (sum of a + lam b in the unit)^2 / N^2
    interval = theta -/+ t(1 - alpha/2, G - 1) * se

Writes tests/data/stats/active_ppi_reference.json, read by tests/it/stats_active_ppi.rs
(agreement to 1e-9). Cases: query unit and group unit (conversations labelled whole), with
probabilities that vary by the judge's |delta|, the same everywhere, and a judge anti-correlated
with the humans (lambda clipped to 0).

Run:  pip install numpy scipy && python3 calibration/active_ppi_reference.py
"""
import json
import os

import numpy as np
from scipy import stats

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "stats",
                   "active_ppi_reference.json")


def estimate(y, f_lab, pi, f_unl, g_lab, g_unl, lam, conf):
    w = 1.0 / pi
    f_all = np.concatenate([f_lab, f_unl])
    fbar = f_all.mean()
    ybar_w = np.sum(w * y) / np.sum(w)
    fbar_w = np.sum(w * f_lab) / np.sum(w)
    a = np.concatenate([w * (y - ybar_w), np.zeros(len(f_unl))])
    b = np.concatenate([(f_lab - fbar) - w * (f_lab - fbar_w), f_unl - fbar])
    if lam is None:
        lam = float(np.clip(-np.sum(a * b) / np.sum(b * b), 0.0, 1.0))
    theta = lam * fbar + ybar_w - lam * fbar_w
    terms = a + lam * b
    groups = np.concatenate([g_lab, g_unl])
    _, inverse = np.unique(groups, return_inverse=True)
    sums = np.bincount(inverse, weights=terms)
    big_g = len(np.unique(g_lab))
    n = len(terms)
    se = np.sqrt(big_g / (big_g - 1) * np.sum(sums ** 2) / n ** 2)
    t = stats.t.ppf(1 - (1 - conf) / 2, big_g - 1)
    return {"estimate": float(theta), "lambda": float(lam), "low": float(theta - t * se),
            "high": float(theta + t * se)}


def case(name, rng, n_units, size, share, bias, sign, flat):
    groups = np.repeat(np.arange(n_units), size)
    truth = rng.normal(-0.02, 0.2, len(groups)) * (rng.random(len(groups)) < 0.5)
    judge = np.round(sign * 0.7 * truth + bias + rng.normal(0, 0.08, len(groups)), 4)
    truth = np.round(truth, 4)
    unc = np.bincount(groups, weights=np.abs(judge))
    q = np.ones(n_units) if flat else 0.5 + 0.5 * unc / unc.mean()
    pi = np.minimum(1.0, share * n_units * q / q.sum())
    drawn = rng.random(n_units) < pi
    drawn[:2] = True  # at least two labelled units
    lab = drawn[groups]
    out = {"name": name, "human": truth[lab].tolist(), "judge_labelled": judge[lab].tolist(),
           "probability": pi[groups][lab].tolist(), "judge_unlabelled": judge[~lab].tolist(),
           "groups_labelled": groups[lab].tolist(), "groups_unlabelled": groups[~lab].tolist(),
           "grouped": size > 1}
    for conf in (0.95, 0.9):
        out[str(conf)] = {key: estimate(truth[lab], judge[lab], pi[groups][lab], judge[~lab],
                                        groups[lab], groups[~lab], lam, conf)
                          for key, lam in (("tuned", None), ("ppi", 1.0), ("human", 0.0))}
    return out


def main():
    rng = np.random.default_rng(20261207)
    cases = [case("query-active", rng, 300, 1, 0.1, 0.03, 1, False),
             case("query-uniform", rng, 200, 1, 0.15, 0.02, 1, True),
             case("query-anti-correlated", rng, 150, 1, 0.2, 0.0, -1, False),
             case("group-active", rng, 120, 3, 0.15, 0.03, 1, False),
             case("group-uneven", rng, 90, 2, 0.25, 0.01, 1, False)]
    with open(OUT, "w") as f:
        json.dump({"source": f"numpy {np.__version__}, scipy "
                   + __import__("scipy").__version__, "cases": cases}, f, indent=1)
        f.write("\n")
    print(f"wrote {OUT} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
