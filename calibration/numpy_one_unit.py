"""The tie guard's one-unit rule (src/stats/tilt.rs): with one unit off the tie the tilted
bound is the hull of the unit means (the moved unit's own value) instead of the tilted bound on
n - 1 df. Coverage of the true mean, both one-sided misses and the mean width of the guarded
interval (per side the wider of the Student t bound and the tilted bound; [0, 0] when nothing
moved) before ("n-1 df") and after ("hull"), on the sparse models of sparse_models.py, 15% of n
moved.

usage: python3 calibration/numpy_one_unit.py SETS SEED KIND:N,KIND:N...
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scipy_env import ensure_scipy  # noqa: E402

ensure_scipy()
import numpy as np  # noqa: E402
from scipy import stats  # noqa: E402

import sparse_models as sm  # noqa: E402


def guarded(d, n, hull):
    m = d.mean()
    half = stats.t.ppf(0.975, n - 1) * d.std(ddof=1) / np.sqrt(n)
    tl, th = sm.tilt_bounds(d, n - 1, hull=hull)
    return min(tl, m - half), max(th, m + half)


def main():
    sets, seed = int(sys.argv[1]), int(sys.argv[2])
    cells = [(c.split(":")[0], int(c.split(":")[1])) for c in sys.argv[3].split(",")]
    print(f"{sets} sets a cell, seed {seed}; low above / high below the truth, coverage, mean width")
    for kind, n in cells:
        rng = np.random.default_rng(seed)
        res = {"n-1 df": [0, 0, 0.0], "hull": [0, 0, 0.0]}
        for _ in range(sets):
            d, mu = sm.draw(kind, n, 0.15, rng)
            moved = int((d != 0).sum())
            for rule, tally in res.items():
                lo, hi = (0.0, 0.0) if moved == 0 else guarded(d, n, rule == "hull")
                tally[0] += lo > mu
                tally[1] += hi < mu
                tally[2] += hi - lo
        line = " | ".join(
            f"{rule}: {100 * t[0] / sets:.2f} / {100 * t[1] / sets:.2f}, "
            f"{100 - 100 * (t[0] + t[1]) / sets:.2f}%, width {t[2] / sets:.4f}"
            for rule, t in res.items())
        print(f"{kind} n = {n}: {line}", flush=True)


if __name__ == "__main__":
    main()
