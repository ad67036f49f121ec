"""The sparse cells' models, shared by the numpy replays: n query deltas, a `share` of
them moved, the rest exactly 0; returns the deltas and the true mean.

Kinds: symmetric +-U(0, 0.5); skewed 0.05(1 + Exp(1)); shifted U(-0.2, 0.3); mixed
0.05(1 + Exp(1)) up with probability 0.8, down otherwise; leftskew -0.05(1 + Exp(1)); lognorm
0.03 exp(0.8 N(0,1)) up 70%, down 30%; ternsym +-1 (hit-like metrics); ternup +1 with
probability 0.65, else -1; rrmix the difference of two reciprocal ranks from {1, 1/2, ..., 1/5}.
Also the tilted score bounds of the tie guard (`tilt_bounds`), for the replays of the default.
"""
import numpy as np
from scipy import optimize, stats


def draw(kind, n, share, rng):
    moved = rng.random(n) < share
    if kind == "symmetric":
        v, mu = rng.uniform(0, 0.5, n) * np.where(rng.random(n) < 0.5, -1, 1), 0.0
    elif kind == "skewed":
        v, mu = 0.05 * (1 + rng.exponential(1, n)), share * 0.1
    elif kind == "shifted":
        v, mu = rng.uniform(-0.2, 0.3, n), share * 0.05
    elif kind == "mixed":
        size = 0.05 * (1 + rng.exponential(1, n))
        v, mu = np.where(rng.random(n) < 0.8, size, -size), share * 0.06
    elif kind == "leftskew":
        v, mu = -0.05 * (1 + rng.exponential(1, n)), -share * 0.1
    elif kind == "lognorm":
        size = 0.03 * np.exp(0.8 * rng.standard_normal(n))
        m1 = 0.03 * np.exp(0.32)
        v, mu = np.where(rng.random(n) < 0.7, size, -size), share * 0.4 * m1
    elif kind == "ternsym":
        v, mu = np.where(rng.random(n) < 0.5, 1.0, -1.0), 0.0
    elif kind == "ternup":
        v, mu = np.where(rng.random(n) < 0.65, 1.0, -1.0), share * 0.3
    elif kind == "rrmix":
        ranks = [1.0, 0.5, 1 / 3, 0.25, 0.2]
        v, mu = rng.choice(ranks, n) - rng.choice(ranks, n), 0.0
    else:
        raise ValueError(kind)
    return np.where(moved, v, 0.0), mu


def t_quantile(t, p):
    """The type-7 p-quantile of sorted t* values that may hold +-inf (an infinite neighbour wins)."""
    h = (len(t) - 1) * p
    lo = int(np.floor(h))
    a, b = t[lo], t[min(lo + 1, len(t) - 1)]
    if np.isinf(a) or np.isinf(b):
        return a if np.isinf(a) else b
    return a + (h - lo) * (b - a)


def tilt_interval(sums, sizes, df, confidence=0.95, hull=True):
    """The tilted score interval of the mean sum(sums) / sum(sizes) (src/stats/tilt.rs, written
    again from its formula): the mu on either side of the mean where t(df) * se(mu) =
    |mean - mu|, se(mu)^2 = sum w c^2 / ((G - 1) (sum w size)^2) under the exponential tilt
    w ~ exp(lam c), c = sum - mu size, with sum w c = 0 (brentq on lam); a query is (delta, 1).
    With one unit off the tie (every other unit mean equal) the hull of the unit means (hull=False:
    the bound on df as for more units, the rule before).
    Also the independent reference of scipy_ties.py (tests/data/stats/scipy_ties.json)."""
    sums, sizes = np.asarray(sums, dtype=float), np.asarray(sizes, dtype=float)
    mean = sums.sum() / sizes.sum()
    lo_m, hi_m = (sums / sizes).min(), (sums / sizes).max()
    if lo_m == hi_m:
        return mean, mean
    _, counts = np.unique(sums / sizes, return_counts=True)
    if hull and len(sums) - counts.max() == 1:
        # One unit off the tie: its spread has no degrees of freedom, the bound is the hull.
        return float(lo_m), float(hi_m)
    q = stats.t.ppf(1 - (1 - confidence) / 2, df)
    tight = dict(rtol=4 * np.finfo(float).eps)

    def se(mu):
        c = sums - mu * sizes

        def weights(lam):
            a = lam * c
            w = np.exp(a - a.max())
            return w / w.sum()

        def f(lam):
            return weights(lam) @ c

        lo, hi = -1.0, 1.0
        while f(lo) > 0:
            lo *= 2
        while f(hi) < 0:
            hi *= 2
        w = weights(optimize.brentq(f, lo, hi, xtol=1e-300, maxiter=1000, **tight))
        return np.sqrt((w @ (c * c)) / ((len(c) - 1) * (w @ sizes) ** 2))

    def g(mu):
        return q * se(mu) - abs(mean - mu)

    span = hi_m - lo_m
    a, b = lo_m + 1e-12 * span, hi_m - 1e-12 * span
    low = a if g(a) > 0 else optimize.brentq(g, a, mean, xtol=1e-15, **tight)
    high = b if g(b) > 0 else optimize.brentq(g, mean, b, xtol=1e-15, **tight)
    return float(low), float(high)


def tilt_bounds(d, df, confidence=0.95, hull=True):
    """`tilt_interval` of query deltas d."""
    return tilt_interval(d, np.ones(len(d)), df, confidence, hull)


def guard_bounds(d, half):
    """The default's tie guard on query deltas d (src/stats/ties.rs): per side the wider of the
    Student t bound mean -+ half and the tilted score bound on n - 1 df."""
    m = d.mean()
    low, high = tilt_bounds(d, len(d) - 1)
    return (min(low, m - half), max(high, m + half))
