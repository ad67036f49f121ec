"""Why the median / p95 gates over-cover: an independent numpy replay of the paired
percentile bootstrap of q(candidate) - q(baseline) on the model of `sim::quantile_gate`
(difficulty 100*exp(0.5 N(0,1)) shared by both sides, each side adding its own N(0, noise^2)),
at the calibration's noise (10) and at a weaker pairing (40). Prints, per cell, the standard
deviation of the estimate over the sets, the mean bootstrap standard deviation, their ratio and
the coverage of the 95% percentile interval.

    python3 calibration/numpy_quantile_pairing.py     # ~10 min on 2 shared cores; output in results.txt
"""
import numpy as np

rng = np.random.default_rng(11)


def cell(n, p, noise, sets=400, B=400):
    est, bsd, cov = [], [], 0
    for _ in range(sets):
        q = 100 * np.exp(0.5 * rng.standard_normal(n))
        b = q + noise * rng.standard_normal(n)
        c = q + noise * rng.standard_normal(n)
        est.append(np.quantile(c, p) - np.quantile(b, p))
        idx = rng.integers(0, n, (B, n))
        d = np.quantile(c[idx], p, axis=1) - np.quantile(b[idx], p, axis=1)
        bsd.append(d.std())
        lo, hi = np.quantile(d, [0.025, 0.975])
        cov += lo <= 0 <= hi
    return np.std(est), np.mean(bsd), cov / sets


for p in (0.5, 0.95):
    for noise in (10, 40):
        for n in (50, 200):
            sd, b, cv = cell(n, p, noise)
            print(
                f"p={p} noise={noise} n={n}: true sd {sd:.2f}, mean bootstrap sd {b:.2f}, "
                f"ratio {b / sd:.2f}, coverage {cv:.3f}",
                flush=True,
            )
