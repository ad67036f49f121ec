"""The one-unit rule of the tilted bound (src/stats/tilt.rs, "One unit off the tie"): with one
unit of n off the tie, by x, the far side is c·x with c = min(1, K·W(n)), W(n) Wilson's upper
bound on 1 of n with t on n - 1 df (the tilted bound of one unit at 1 among n - 1 at 0), K the
multiple of the seen distance the unseen moved units may lie at (K = inf: the hull, the rule
before). Prints, per n:

- c for K = 5, 10, 20;
- the most the far side can miss through samples with one moved unit, over every moved share
  p: max_p n·p·(1 - p)^(n - 1) · s / (1 - s), s = p / c, when the movers' law puts at most
  s / (1 - s) of its mass between the tie and s times its mean (symmetric unimodal about it, or
  exponential losses);
- the friction a nondeterministic no-op (each query with chance 1% moved by N(0, 0.02^2),
  clamped at +-0.06) gets from samples with one moved query at max-drop 0.01 / 0.02 / 0.05:
  P(one moved) · P(x < -m / c).

usage: python3 calibration/numpy_lone_move.py
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scipy_env import ensure_scipy  # noqa: E402

ensure_scipy()
import numpy as np  # noqa: E402
from scipy import stats  # noqa: E402


def wilson_one(n):
    """Wilson's upper bound on 1 of n with t on n - 1 df and n - 1 in the variance."""
    c = stats.t.ppf(0.975, n - 1)
    p, a = 1 / n, c * c / (n - 1)
    return (p + a / 2) / (1 + a) + np.sqrt(a * p * (1 - p) + a * a / 4) / (1 + a)


def worst_miss(n, c):
    p = np.linspace(1e-6, 0.999, 400_000)
    s = p / c
    share = np.where(s < 1, s / (1 - s), 1.0)
    return (n * p * (1 - p) ** (n - 1) * np.minimum(1.0, share)).max()


def main():
    print("n, W(n), c at K = 5 / 10 / 20, worst one-moved miss % at K = 5 / 10 / 20 / hull")
    for n in [20, 30, 43, 50, 53, 100, 200, 500, 1000]:
        w = wilson_one(n)
        cs = [min(1.0, k * w) for k in (5, 10, 20)]
        misses = [100 * worst_miss(n, c) for c in cs + [1.0]]
        print(f"{n:5d} {w:.4f}  c {' / '.join(f'{c:.3f}' for c in cs)}  "
              f"miss {' / '.join(f'{m:.2f}' for m in misses)}%")
    print("no-op on 1% (N(0, 0.02^2), clamped at 0.06): friction % from one-moved samples at "
          "max-drop 0.01 / 0.02 / 0.05")
    for n in [43, 50, 100, 200, 500]:
        one = n * 0.01 * 0.99 ** (n - 1)
        for k in (np.inf, 10):
            c = min(1.0, k * wilson_one(n))
            f = [0.0 if m / c >= 0.06 else one * stats.norm.cdf(-m / c / 0.02)
                 for m in (0.01, 0.02, 0.05)]
            name = "hull" if k == np.inf else f"K = {k}"
            print(f"{n:5d} {name:7s} c {c:.3f}: {' / '.join(f'{100 * x:.2f}' for x in f)}%")


if __name__ == "__main__":
    main()
