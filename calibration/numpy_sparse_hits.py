"""The sparse routes on hit-like metrics (Recall@k, hit rate: a moved
query's delta is +1 or -1) and other unseen sparse regimes, numpy only: the bootstrap-t, the tie
guard (the report's interval), Student t, Hall's (1992, JRSS B 54:221) skewness-removing
transformation of t, empirical likelihood with F(1, n-1) calibration (Owen 1988), and the guard
widened by either. ternsym: +-1 with equal chances; ternup: +1 with chance 0.65; rrmix: the
difference of two reciprocal ranks; lognorm: 0.03 exp(0.8 N) up 70%, down 30%. Coverage of the
true mean (low bound above it / high bound below it) over the sets with 8 or more moved deltas.

    python3 calibration/numpy_sparse_hits.py SETS SEED KINDS   # e.g. 800 21 ternsym,ternup,rrmix
"""
import os, sys, numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sparse_models  # noqa: E402
from scipy import stats
SETS = int(sys.argv[1]) if len(sys.argv) > 1 else 800
B = 1000
rng = np.random.default_rng(int(sys.argv[2]) if len(sys.argv) > 2 else 5)
MIN_MOVED = 8

def draw(kind, n, share):
    return sparse_models.draw(kind, n, share, rng)


tq = sparse_models.t_quantile


def el_stat(x, mu):
    z = x - mu
    if z.max() <= 0 or z.min() >= 0:
        return np.inf
    lo, hi = -1.0 / z.max() + 1e-12, -1.0 / z.min() - 1e-12
    lo = lo * (1 - 1e-9); hi = hi * (1 - 1e-9)
    for _ in range(60):
        lam = 0.5 * (lo + hi)
        g = np.sum(z / (1 + lam * z))
        if g > 0: lo = lam
        else: hi = lam
    return 2 * np.sum(np.log1p(lam * z))

def el_bound(x, m, c, side):
    # side -1: low bound in (min, m); +1: high bound in (m, max)
    a, b = (x.min(), m) if side < 0 else (m, x.max())
    if el_stat(x, a if side < 0 else b) < c:
        return a if side < 0 else b
    for _ in range(50):
        mid = 0.5 * (a + b)
        s = el_stat(x, mid)
        if side < 0:
            if s > c: a = mid
            else: b = mid
        else:
            if s > c: b = mid
            else: a = mid
    return 0.5 * (a + b)

def hall(m, se, g, n, z):
    # Hall 1992 transformation: g(T) = T + aT^2 + a^2T^3/3 + b, a = g/(3 sqrt n), b = g/(6 sqrt n)
    a = g / (3 * np.sqrt(n)); b = g / (6 * np.sqrt(n))
    def inv(y):
        if abs(a) < 1e-12: return y - b
        return (np.cbrt(1 + 3 * a * (y - b)) - 1) / a
    # T = (m - mu)/se ; g(T) in [-z, z] -> T in [inv(-z), inv(z)] -> mu in [m - inv(z) se, m - inv(-z) se]
    return m - inv(z) * se, m - inv(-z) * se

def routes(d):
    n, m = len(d), d.mean()
    s = d.std(ddof=1); se = s / np.sqrt(n)
    idx = rng.integers(0, n, (B, n))
    x = d[idx]
    mb, sb = x.mean(1), x.std(1, ddof=1) / np.sqrt(n)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(sb > 0, (mb - m) / sb, np.where(mb == m, 0, np.sign(mb - m) * np.inf))
    ts = np.sort(t)
    lo, hi = m - tq(ts, 0.975) * se, m - tq(ts, 0.025) * se
    lo = lo if np.isfinite(lo) else d.min(); hi = hi if np.isfinite(hi) else d.max()
    tc = stats.t.ppf(0.975, n - 1); half = tc * se
    ties = np.unique(d, return_counts=True)[1].max() / n >= 0.5
    guard = (min(lo, m - half), max(hi, m + half)) if ties else (lo, hi)
    out = {"bootstrap-t": (lo, hi), "guard": guard, "t": (m - half, m + half)}
    if ties:
        out["t|tilt"] = sparse_models.guard_bounds(d, half)
    else:
        out["t|tilt"] = (lo, hi)
    g3 = np.mean((d - m) ** 3) / np.mean((d - m) ** 2) ** 1.5 if s > 0 else 0.0
    out["hall"] = hall(m, se, g3, n, tc)
    c = stats.chi2.ppf(0.95, 1); cf = stats.f.ppf(0.95, 1, n - 1)
    if s > 0:
        out["EL-F"] = (el_bound(d, m, cf, -1), el_bound(d, m, cf, 1))
    else:
        out["EL-F"] = (m, m)
    # guard with hall instead of t: per side wider of bt and hall
    h = out["hall"]
    out["bt|hall"] = (min(lo, h[0]), max(hi, h[1])) if ties else (lo, hi)
    e = out["EL-F"]
    out["bt|EL"] = (min(lo, e[0]), max(hi, e[1])) if ties else (lo, hi)
    return out, int((d != 0).sum())

CELLS = [
    ("symmetric", 0.15, (50, 100, 200)), ("symmetric", 0.30, (30, 100)), ("symmetric", 0.05, (200,)),
    ("skewed", 0.15, (30, 50, 100, 200)), ("shifted", 0.15, (50, 100, 200)),
    ("mixed", 0.15, (50, 100, 200)), ("lognorm", 0.15, (100, 200)), ("ternsym", 0.15, (50, 100, 200)), ("ternup", 0.15, (50, 100, 200)), ("ternsym", 0.05, (200, 500)), ("ternup", 0.05, (200, 500)), ("rrmix", 0.15, (50, 100)),
]
if len(sys.argv) > 3:
    CELLS = [c for c in CELLS if c[0] in sys.argv[3].split(",")]
for kind, share, ns in CELLS:
    for n in ns:
        tal = {}
        judged = 0
        for _ in range(SETS):
            d, mu = draw(kind, n, share)
            if (d != 0).sum() < MIN_MOVED:
                continue
            judged += 1
            out, k = routes(d)
            for r, (lo, hi) in out.items():
                t = tal.setdefault(r, [0, 0, 0])
                t[0] += lo <= mu <= hi; t[1] += lo > mu; t[2] += hi < mu
        print(f"{kind} {share:.2f} n={n} judged {judged}/{SETS}: " + "  ".join(
            f"{r} {100*c/judged:.1f} ({100*a/judged:.1f}/{100*b/judged:.1f})" for r, (c, a, b) in tal.items()), flush=True)
