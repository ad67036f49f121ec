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

With `replay SETS SEED`: the same no-op replayed through the guard's bounds (per side the wider
of the Student t bound on n - 1 df and the tilted bound of sparse_models.py; one moved: the rule
above, K = inf and K = 10), and the share of samples whose low bound lies below -m, by how many
queries moved, at 100 and 200 queries (the bootstrap-t partner is left out).

usage: python3 calibration/numpy_lone_move.py [replay SETS SEED]
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


def replay(sets, seed):
    import sparse_models as sm
    rng = np.random.default_rng(seed)
    print(f"{sets} no-ops a cell, seed {seed}: failing max-drop % by moved count (k, m)")
    for n in [100, 200]:
        for k_rule in (np.inf, 10):
            fails, counts = {}, {}
            for _ in range(sets):
                d = np.zeros(n)
                mv = rng.random(n) < 0.01
                d[mv] = np.clip(0.02 * rng.standard_normal(mv.sum()), -0.06, 0.06)
                k = int(mv.sum())
                counts[k] = counts.get(k, 0) + 1
                if k == 0:
                    continue
                half = stats.t.ppf(0.975, n - 1) * d.std(ddof=1) / np.sqrt(n)
                if k == 1:
                    x = d[mv][0]
                    lo = min(1.0, k_rule * wilson_one(n)) * x if x < 0 else 0.0
                else:
                    lo, _ = sm.tilt_bounds(d, n - 1)
                lo = min(lo, d.mean() - half)
                for m in (0.01, 0.02):
                    if lo < -m:
                        fails[(k, m)] = fails.get((k, m), 0) + 1
            shown = {key: round(100 * v / sets, 2) for key, v in sorted(fails.items())}
            share = {k: round(100 * v / sets, 1) for k, v in sorted(counts.items()) if k < 5}
            name = "hull" if k_rule == np.inf else f"K = {k_rule}"
            print(f"{n} queries, {name}: failing {shown}; samples by moved count % {share}")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "replay":
        replay(int(sys.argv[2]), int(sys.argv[3]))
        return
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
