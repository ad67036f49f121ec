#!/usr/bin/env python3
"""Independent reference for rag-gate's prediction-powered inference: ppi-python (PyPI
`ppi-python`, the authors' package), `ppi_mean_pointestimate` and `ppi_mean_ci` with `lam=None`
(PPI++ power tuning), `lam=1` (plain PPI) and `lam=0` (human only).

Writes tests/data/stats/ppi_reference.json, read by tests/it/stats_ppi.rs (agreement to 1e-9).
The cases are paired per-query deltas of a bounded metric (candidate − baseline, like nDCG@10):
human deltas on a labelled subset, a judge's deltas on every query, with a judge that is noisy,
biased towards the candidate, anti-correlated (λ clipped to 0) or exact (λ near 1).

Run:  pip install ppi-python && python3 calibration/ppi_reference.py
"""
import json
import os

import numpy as np
from ppi_py import ppi_mean_ci, ppi_mean_pointestimate

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "stats",
                   "ppi_reference.json")


def deltas(rng, n):
    base = rng.beta(2, 1.5, n)
    cand = np.clip(base + rng.normal(-0.02, 0.15, n), 0, 1)
    return cand - base


def case(name, y, yhat, unl, rng_note):
    out = {"name": name, "human": y.tolist(), "judge_labelled": yhat.tolist(),
           "judge_unlabelled": unl.tolist(), "note": rng_note}
    for conf in (0.95, 0.9):
        row = {}
        for key, lam in (("tuned", None), ("ppi", 1.0), ("human", 0.0)):
            lo, hi = ppi_mean_ci(y, yhat, unl, alpha=1 - conf, lam=lam)
            est = ppi_mean_pointestimate(y, yhat, unl, lam=lam)
            row[key] = {"estimate": float(np.asarray(est).item()),
                        "low": float(np.asarray(lo).item()), "high": float(np.asarray(hi).item())}
        out[str(conf)] = row
    return out


def main():
    rng = np.random.default_rng(20261204)
    cases = []
    for name, n, n_all, noise, bias in (("noisy-judge", 30, 300, 0.08, 0.0),
                                        ("candidate-favoured", 15, 285, 0.05, 0.04),
                                        ("few-labels", 8, 92, 0.1, 0.02),
                                        ("many-labels", 200, 800, 0.03, 0.01)):
        truth = deltas(rng, n + n_all)
        judge = np.round(truth + bias + rng.normal(0, noise, n + n_all), 4)
        truth = np.round(truth, 4)
        cases.append(case(name, truth[:n], judge[:n], judge[n:], f"noise {noise}, bias {bias}"))
    truth = np.round(deltas(rng, 120), 4)
    judge = np.round(-truth + rng.normal(0, 0.05, 120), 4)
    cases.append(case("anti-correlated", truth[:20], judge[:20], judge[20:], "lambda clipped to 0"))
    truth = np.round(deltas(rng, 60), 4)
    cases.append(case("exact-judge", truth[:12], truth[:12].copy(), truth[12:], "judge = human"))
    with open(OUT, "w") as f:
        json.dump({"source": "ppi-python " + __import__("importlib.metadata").metadata.version(
            "ppi-python"), "cases": cases}, f, indent=1)
        f.write("\n")
    print(f"wrote {OUT} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
