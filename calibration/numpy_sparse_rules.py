"""An independent numpy replay of the bootstrap-t, its tie guard and rules considered
for the sparse cells (most query deltas exactly 0, a share moved), query unit, 95%.

Routes per set (B resamples): the bootstrap-t (t* = (mean* - mean)/se*, se = s/sqrt(n); an
infinite t* reads the smallest / largest delta), the tie guard with the bootstrap-t bound as partner (per side
the wider of it and the Student t bound), the tie guard since ("t|tilt guard": per side the wider
of the Student t bound and the tilted score bound, `src/stats/ties.rs`, `src/stats/tilt.rs`;
every cell here is tie-heavy), and three rules tried and not taken: no guard when every
moved delta has one sign ("one-signed"), no guard when a two-sided sign test on the moved deltas
rejects at 1% ("sign 1%"), and the guard widened by the symmetric bootstrap-t bound
(|t*| quantile, "guard + symmetric"). Moves: symmetric +-U(0, 0.5); skewed 0.05(1 + Exp(1));
shifted U(-0.2, 0.3); mixed 0.05(1 + Exp(1)) up with probability 0.8, down otherwise.
Coverage of the true mean, low bound above it / high bound below it, in %, over all sets and
over the sets `min-moved = 8` judges (8 or more moved deltas).

    python3 calibration/numpy_sparse_rules.py [sets] [seed]   # ~6 min at 1500 sets on 2 cores
"""
import os
import sys

import numpy as np
from scipy import stats

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sparse_models  # noqa: E402

SETS = int(sys.argv[1]) if len(sys.argv) > 1 else 1500
rng = np.random.default_rng(int(sys.argv[2]) if len(sys.argv) > 2 else 7)
B = 1000
MIN_MOVED = 8
ROUTES = ("bootstrap-t", "tie guard", "t|tilt guard", "one-signed", "sign 1%", "guard + symmetric")


def draw(kind, n, share):
    return sparse_models.draw(kind, n, share, rng)


t_quantile = sparse_models.t_quantile


def routes(d):
    n, m = len(d), d.mean()
    se = d.std(ddof=1) / np.sqrt(n)
    x = d[rng.integers(0, n, (B, n))]
    mb, sb = x.mean(1), x.std(1, ddof=1) / np.sqrt(n)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(sb > 0, (mb - m) / sb, np.where(mb == m, 0, np.sign(mb - m) * np.inf))
    t = np.sort(t)
    lo, hi = m - t_quantile(t, 0.975) * se, m - t_quantile(t, 0.025) * se
    lo = lo if np.isfinite(lo) else d.min()
    hi = hi if np.isfinite(hi) else d.max()
    half = stats.t.ppf(0.975, n - 1) * se
    guard = (min(lo, m - half), max(hi, m + half))
    q = np.sort(np.abs(t))[int(np.ceil(0.95 * B)) - 1]
    sym = (m - q * se, m + q * se) if np.isfinite(q) else (d.min(), d.max())
    moved = d[d != 0]
    up = int((moved > 0).sum())
    one_signed = len(moved) > 0 and up in (0, len(moved))
    sign_p = stats.binomtest(up, len(moved)).pvalue if len(moved) else 1.0
    out = {
        "bootstrap-t": (lo, hi),
        "tie guard": guard,
        "t|tilt guard": sparse_models.guard_bounds(d, half),
        "one-signed": (lo, hi) if one_signed else guard,
        "sign 1%": (lo, hi) if sign_p < 0.01 else guard,
        "guard + symmetric": (min(guard[0], sym[0]), max(guard[1], sym[1])),
    }
    return out, len(moved)


def cell(kind, n, share):
    tallies = {w: {r: [0, 0, 0, 0] for r in ROUTES} for w in ("all", "judged")}
    for _ in range(SETS):
        d, mu = draw(kind, n, share)
        out, k = routes(d)
        for which in ("all", "judged") if k >= MIN_MOVED else ("all",):
            for r, (lo, hi) in out.items():
                t = tallies[which][r]
                t[0] += 1
                t[1] += lo <= mu <= hi
                t[2] += lo > mu
                t[3] += hi < mu
    for which, rs in tallies.items():
        sets = rs[ROUTES[0]][0]
        print(f"{kind} {100 * share:.0f}% moved, n = {n}, {which} sets ({sets}):")
        for r in ROUTES:
            s, c, a, b = rs[r]
            if s:
                print(f"    {r:18s} coverage {100 * c / s:6.2f}  low above {100 * a / s:5.2f}  high below {100 * b / s:5.2f}")
    sys.stdout.flush()


for kind, share, ns in [
    ("skewed", 0.15, (20,)),
    ("symmetric", 0.15, (30, 50, 100, 200)),
    ("symmetric", 0.30, (30, 100)),
    ("skewed", 0.15, (30, 50, 100, 200)),
    ("shifted", 0.15, (50, 100, 200)),
    ("mixed", 0.15, (50, 100, 200)),
]:
    for n in ns:
        cell(kind, n, share)
