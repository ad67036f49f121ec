"""The iterated (double) bootstrap on the sparse cells, tried and not
taken. Beran's prepivoting (Beran 1987, Biometrika 74:457; Hall & Martin 1988): for each of B1
outer resamples, C inner resamples of it give u_b, the share of inner t** below the outer t*_b;
the bootstrap-t bounds are then read at the levels of u's 2.5% and 97.5% quantiles ("cal"), and
with the tie guard's Student t bound per side ("cal|t"); "bt" is the bootstrap-t, "guard" the
report's interval (the tie guard). Sets with 8 or more moved deltas (what min-moved judges).
Moves: symmetric +-U(0, 0.5); skewed 0.05(1 + Exp(1)); shifted U(-0.2, 0.3); mixed 0.05(1 +
Exp(1)) up with probability 0.8; and the hit-metric kinds of numpy_sparse_hits.py.

    python3 calibration/numpy_sparse_double.py SETS B1 C SEED KINDS NS [SHARE]
    e.g. python3 calibration/numpy_sparse_double.py 500 400 100 11 shifted,mixed 100
"""
import os, sys, numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sparse_models  # noqa: E402
from scipy import stats
SETS = int(sys.argv[1]); B1 = int(sys.argv[2]); C = int(sys.argv[3])
rng = np.random.default_rng(int(sys.argv[4]))
kinds = sys.argv[5].split(",")
ns = [int(v) for v in sys.argv[6].split(",")]
share = float(sys.argv[7]) if len(sys.argv) > 7 else 0.15
def draw(kind, n, share):
    return sparse_models.draw(kind, n, share, rng)


def tstat(mb, sb, centre):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(sb > 0, (mb - centre) / sb, np.where(mb == centre, 0.0, np.sign(mb - centre) * np.inf))

def tq(t, p):
    return sparse_models.t_quantile(np.sort(t), p)


def routes(d):
    n, m = len(d), d.mean()
    se = d.std(ddof=1) / np.sqrt(n)
    idx = rng.integers(0, n, (B1, n), dtype=np.int32)
    x = d[idx]
    mb, sb = x.mean(1), x.std(1, ddof=1) / np.sqrt(n)
    t1 = tstat(mb, sb, m)
    # inner
    jdx = rng.integers(0, n, (B1, C, n), dtype=np.int32)
    y = np.take_along_axis(x[:, None, :].repeat(C, 1), jdx, 2) if False else x[np.arange(B1)[:, None, None], jdx]
    mi, si = y.mean(2), y.std(2, ddof=1) / np.sqrt(n)
    t2 = tstat(mi, si, mb[:, None])
    # U_b = share of inner t** <= t*_b (mid-rank for ties)
    u = ((t2 < t1[:, None]).sum(1) + 0.5 * (t2 == t1[:, None]).sum(1)) / C
    a_lo = np.quantile(u, 0.025); a_hi = np.quantile(u, 0.975)
    def bound(q, fallback):
        v = m - q * se
        return v if np.isfinite(v) else fallback
    bt = (bound(tq(t1, 0.975), d.min()), bound(tq(t1, 0.025), d.max()))
    cal = (bound(tq(t1, a_hi), d.min()), bound(tq(t1, a_lo), d.max()))
    half = stats.t.ppf(0.975, n - 1) * se
    ties = np.unique(d, return_counts=True)[1].max() / n >= 0.5
    guard = (min(bt[0], m - half), max(bt[1], m + half)) if ties else bt
    calg = (min(cal[0], m - half), max(cal[1], m + half)) if ties else cal
    return {"bt": bt, "guard": guard, "cal": cal, "cal|t": calg}

for kind in kinds:
    for n in ns:
        tal = {}; judged = 0
        for _ in range(SETS):
            d, mu = draw(kind, n, share)
            if (d != 0).sum() < 8: continue
            judged += 1
            for r, (lo, hi) in routes(d).items():
                t = tal.setdefault(r, [0, 0, 0])
                t[0] += lo <= mu <= hi; t[1] += lo > mu; t[2] += hi < mu
        print(f"{kind} {share:.2f} n={n} judged {judged}/{SETS}: " + "  ".join(
            f"{r} {100*c/judged:.1f} ({100*a/judged:.1f}/{100*b/judged:.1f})" for r, (c, a, b) in tal.items()), flush=True)
