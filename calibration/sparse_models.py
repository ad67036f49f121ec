"""The sparse cells' models (issue 28), shared by the numpy replays: n query deltas, a `share` of
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


def tilt_bounds(d, df, confidence=0.95):
    """The tilted score interval of the mean (src/stats/tilt.rs, written again from its formula):
    the mu where t(df) * se(mu) = |mean - mu|, se(mu)^2 = sum w (d - mu)^2 / (n - 1) under the
    exponential tilt w ~ exp(lam (d - mu)) of the data with mean mu (brentq on lam)."""
    n, m = len(d), d.mean()
    lo_d, hi_d = d.min(), d.max()
    if lo_d == hi_d:
        return m, m
    q = stats.t.ppf(1 - (1 - confidence) / 2, df)

    def se(mu):
        c = d - mu

        def f(lam):
            a = lam * c
            w = np.exp(a - a.max())
            return (w @ c) / w.sum()

        lo, hi = -1.0, 1.0
        while f(lo) > 0:
            lo *= 2
        while f(hi) < 0:
            hi *= 2
        a = optimize.brentq(f, lo, hi, xtol=1e-14) * c
        w = np.exp(a - a.max())
        return np.sqrt((w @ (c * c)) / w.sum() / (n - 1))

    def g(mu):
        return q * se(mu) - abs(m - mu)

    eps = 1e-9 * (hi_d - lo_d)
    a, b = lo_d + eps, hi_d - eps
    low = a if g(a) > 0 else optimize.brentq(g, a, m, xtol=1e-12)
    high = b if g(b) > 0 else optimize.brentq(g, m, b, xtol=1e-12)
    return low, high
