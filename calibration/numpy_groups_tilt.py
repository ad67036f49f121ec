"""Tie-heavy groups of unequal sizes ({1, 2, 3, 10, 30}, group unit),
15% or 10% of queries moved (symmetric +-U(0, 0.5) or shifted U(-0.2, 0.3)), moves independent or
correlated within a group (icc: the group's propensity share * (1 + icc N(0,1)), clipped).
Coverage (low above / high below) of the report's tie-guarded interval, per side the wider of the
t bound (CR2 SE, Bell-McCaffrey df, from scipy_ties.py's matrices) and the tilted bound in its
ratio form (scipy_ties.tilt_bounds), beside t alone; sets with fewer than half the groups tied
are skipped (the guard does not apply there).

    python3 calibration/numpy_groups_tilt.py 400 3   # ~4 min
"""
import sys, numpy as np
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scipy_ties import cr2_and_bm_df, tilt_bounds
from scipy.stats import t as student_t
SETS = int(sys.argv[1]); rng = np.random.default_rng(int(sys.argv[2]))
def cell(kind, G, share, icc):
    tal = [0, 0, 0, 0, 0, 0]
    for _ in range(SETS):
        sizes = rng.choice([1, 2, 3, 10, 30], G)
        gof = np.repeat(np.arange(G), sizes)
        n = len(gof)
        # per-group propensity to move (correlated moves within a conversation)
        pg = np.clip(share * (1 + icc * rng.standard_normal(G)), 0, 1)[gof]
        moved = rng.random(n) < pg
        if kind == "symmetric":
            v = rng.uniform(0, 0.5, n) * np.where(rng.random(n) < 0.5, -1, 1); mu = 0.0
        else:
            v = rng.uniform(-0.2, 0.3, n); mu = None
        d = np.where(moved, v, 0.0)
        if mu is None:
            # truth: E[sum d]/E[n] under the design = share-weighted mean 0.05 * E[p]
            mu = 0.05 * share  # E[pg] = share when the clip rarely binds
        means = np.array([d[gof == g].mean() for g in range(G)])
        vals, cnt = np.unique(means, return_counts=True)
        if cnt.max() / G < 0.5 or d.std() == 0:
            continue
        m, se, df = cr2_and_bm_df(d, list(gof))
        q = student_t.ppf(0.975, df)
        lo_t, hi_t = m - q * se, m + q * se
        lo_w, hi_w = tilt_bounds(d, list(gof), df)
        tal[0] += 1
        tal[1] += min(lo_t, lo_w) > mu; tal[2] += max(hi_t, hi_w) < mu
        tal[3] += lo_t > mu; tal[4] += hi_t < mu
    s = tal[0]
    print(f"{kind} G={G} share={share} icc={icc}: sets {s}: t|tilt {100-100*(tal[1]+tal[2])/s:.1f} ({100*tal[1]/s:.1f}/{100*tal[2]/s:.1f})  t {100-100*(tal[3]+tal[4])/s:.1f} ({100*tal[3]/s:.1f}/{100*tal[4]/s:.1f})", flush=True)
for kind in ("symmetric", "shifted"):
    for G, share, icc in [(20, 0.15, 0.0), (40, 0.15, 0.0), (40, 0.15, 1.0), (80, 0.1, 1.0)]:
        cell(kind, G, share, icc)
