"""Independent reference for the distribution-free bound (src/stats/dirichlet_bound.rs): the
Gaffke / Learned-Miller-Thomas bound of a mean whose units can each lose at most L, computed
with numpy's own Dirichlet sampler (not rag-gate's Exp(1) draws), many draws per case:

    low  = the a/2 quantile of  sum_i W_i d_i + W_{n+1} (-L)
    high = the 1 - a/2 quantile of sum_i W_i d_i + W_{n+1} (+L),   W ~ Dirichlet(1, ..., 1)

and, for groups, the size-weighted ratio (sum_g W_g s_g + W_{G+1} zbar (-L)) /
(sum_g W_g z_g + W_{G+1} zbar), zbar the mean group size. Writes
tests/data/stats/numpy_dirichlet.json: per case the inputs, the bounds, and their Monte-Carlo
standard errors (the quantile's binomial error divided by the density, estimated from the
draws), which tests/it/stats_dirichlet.rs compares against rag-gate's bound within 4 standard
errors (rag-gate's own draws add their error too).

usage: python3 calibration/numpy_dirichlet_bound.py [DRAWS] [SEED]
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scipy_env import ensure_scipy  # noqa: E402

ensure_scipy()
import numpy as np  # noqa: E402

OUT = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "stats", "numpy_dirichlet.json"
)


def cases():
    rng = np.random.default_rng(20260)
    out = []
    out.append(("zeros-43", [0.0] * 43, None, 1.0))
    out.append(("zeros-100", [0.0] * 100, None, 1.0))
    d = [0.0] * 1000
    d[1], d[2], d[3] = 0.02, -0.02, 0.02
    out.append(("three-of-1000", d, None, 1.0))
    d = [0.0] * 100
    for i in (2, 30, 61, 90):
        d[i] = -0.6
    out.append(("four-losses-of-100", d, None, 1.0))
    d = list(np.round(rng.normal(-0.01, 0.1, 60).clip(-1, 1), 6))
    out.append(("normal-60", d, None, 1.0))
    d = list(np.round(rng.normal(3.0, 40.0, 80), 4))
    out.append(("latency-80", d, None, 500.0))
    sizes = [float(k) for k in rng.integers(1, 6, 30)]
    sums = [round(float(z * rng.normal(0.0, 0.05)), 6) for z in sizes]
    out.append(("groups-30", sums, sizes, 1.0))
    return out


def bound(values, sizes, worst, draws, conf, rng):
    v = np.asarray(values, dtype=float)
    n = len(v)
    z = np.ones(n) if sizes is None else np.asarray(sizes, dtype=float)
    zbar = z.mean()
    lows = np.empty(draws)
    highs = np.empty(draws)
    chunk = max(1, 20_000_000 // (n + 1))
    done = 0
    while done < draws:
        k = min(chunk, draws - done)
        w = rng.dirichlet(np.ones(n + 1), size=k)
        s = w[:, :n] @ v
        size = w[:, :n] @ z + w[:, n] * zbar
        e = w[:, n] * zbar
        lows[done:done + k] = (s - e * worst) / size
        highs[done:done + k] = (s + e * worst) / size
        done += k
    side = (1.0 - conf) / 2.0

    def q_and_se(x, level):
        q = np.quantile(x, level)
        # density at the quantile from the spacing of nearby order statistics
        lo, hi = np.quantile(x, [max(level - 0.005, 0.0), min(level + 0.005, 1.0)])
        dens = 0.01 / max(hi - lo, 1e-300)
        se = np.sqrt(level * (1 - level) / len(x)) / dens
        return float(q), float(se)

    return q_and_se(lows, side), q_and_se(highs, 1.0 - side)


def main():
    draws = int(sys.argv[1]) if len(sys.argv) > 1 else 400_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    rng = np.random.default_rng(seed)
    rows = []
    for name, values, sizes, worst in cases():
        (lo, lo_se), (hi, hi_se) = bound(values, sizes, worst, draws, 0.95, rng)
        rows.append(
            {
                "name": name,
                "values": [float(x) for x in values],
                "sizes": sizes,
                "worst": worst,
                "confidence": 0.95,
                "low": lo,
                "low_se": lo_se,
                "high": hi,
                "high_se": hi_se,
            }
        )
        print(f"{name}: [{lo:.6f} ± {lo_se:.6f}, {hi:.6f} ± {hi_se:.6f}]")
    meta = {
        "made_by": f"python3 calibration/numpy_dirichlet_bound.py {draws} {seed}",
        "numpy": np.__version__,
        "cases": rows,
    }
    with open(OUT, "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
