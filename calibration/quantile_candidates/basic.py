"""A median / p95 candidate not taken: the basic bootstrap interval [2T - Q.975, 2T - Q.025] (Davison &
Hinkley 1997, 5.2) and the percentile interval's half-widths around the type-7 estimate T ("mid")
for median / p95 gates, beside the percentile interval, on numpy_quantile_methods.py's models and
seeds; * marks a cell in band (93.5-96.5%, each side <= 3.5%).

    python3 calibration/quantile_candidates/basic.py 600 400   # ~5 min
"""
import os
import sys
import numpy as np
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from numpy_quantile_methods import cell_seed, draw, t7
def cell(model, p, n, sets, B, seed):
    rng = np.random.default_rng(seed)
    r = {"perc": [0, 0], "basic": [0, 0], "mid": [0, 0]}
    for _ in range(sets):
        b, c = draw(model, n, rng)
        est = t7(np.sort(c), p) - t7(np.sort(b), p)
        idx = rng.integers(0, n, (B, n))
        d = t7(np.sort(c[idx], 1), p) - t7(np.sort(b[idx], 1), p)
        lo, hi = np.quantile(d, [.025, .975])
        ivs = {"perc": (lo, hi), "basic": (2 * est - hi, 2 * est - lo)}
        ivs["mid"] = ((lo + 2 * est - hi) / 2, (hi + 2 * est - lo) / 2)
        for k, (l, h) in ivs.items():
            r[k][0] += l > 0; r[k][1] += h < 0
    return r
sets, B = int(sys.argv[1]), int(sys.argv[2])
inband = {"perc": 0, "basic": 0, "mid": 0}
for m in ["paired10", "paired40", "unpaired", "lognorm"]:
    for p in [0.5, 0.95]:
        row = []
        for n in [30, 50, 100, 200]:
            r = cell(m, p, n, sets, B, cell_seed(m, p, n))
            parts = []
            for k, (a, b) in r.items():
                cov = 100 - 100 * (a + b) / sets
                ok = 93.5 <= cov <= 96.5 and 100 * a / sets <= 3.5 and 100 * b / sets <= 3.5
                inband[k] += ok
                parts.append(f"{k} {cov:.1f}({100*a/sets:.1f}/{100*b/sets:.1f}){'*' if ok else ''}")
            row.append(f"n={n}: " + " ".join(parts))
        print(m, p, " | ".join(row), flush=True)
print(inband)
