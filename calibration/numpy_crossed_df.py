"""False alarms of the crossed interval's t correction over a range of whole-run shift
sizes, old degrees of freedom against new, replayed in numpy on the model of
`calibration/replicates.rs` (500 queries, 30% of them jitter N(0, 0.1^2), a whole-run shift
N(0, SHIFT^2) per run, both sides the same system: every rejection is a false alarm). The
interval is the normal-theory one, t_{nu,0.975} * sqrt(V), V = V_rows + k * max(0, s_m^2 -
MS_e/n) from the baseline's replicates (k = 2/R), without the bootstrap (whose percentile
interval has about this width here):
- old: Welch-Satterthwaite of V_rows (n - 1 df) and the run part on the MS difference's
  Satterthwaite df clamped to [1, R - 1], the run part weighing nothing when truncated;
- new: Satterthwaite over the mean squares, s_m^2 at its own R - 1 df even when truncated.

    python3 calibration/numpy_crossed_df.py [SETS]     # default 2000 sets a cell; output in results.txt
"""
import sys

import numpy as np
from scipy import stats

n = 500
sets = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
rng = np.random.default_rng(28)


def anova(x):
    R = x.shape[0]
    m = x.mean(axis=1)
    dev = m - m.mean()
    ms = (dev**2).sum() / (R - 1)
    resid = x - x.mean(axis=0)[None, :] - dev[:, None]
    return ms, (resid**2).sum() / ((n - 1) * (R - 1))


print(f"{sets} sets a cell, false alarms % (MC s.e. about {100 * (0.05 * 0.95 / sets) ** 0.5:.1f}); "
      "mean half-width in brackets")
for shift_sd in (0.0, 0.002, 0.005, 0.01, 0.03):
    cells = []
    for R in (3, 5, 7):
        hits = {"old": 0, "new": 0}
        width = {"old": 0.0, "new": 0.0}
        for _ in range(sets):
            q = 0.2 + 0.7 * rng.random(n)
            flaky = rng.random(n) < 0.3

            def side():
                return (q[None, :] + shift_sd * rng.standard_normal(R)[:, None]
                        + np.where(flaky, 0.1 * rng.standard_normal((R, n)), 0.0))

            b, c = side(), side()
            ms, mse = anova(b)
            k = 2.0 / R
            d = c.mean(axis=0) - b.mean(axis=0)
            theta, vr = d.mean(), d.var(ddof=1) / n
            sv = max(0.0, ms - mse / n)
            V = vr + k * sv
            if sv > 0:
                mc = n * ms
                sdf = np.clip((mc - mse) ** 2 / (mc**2 / (R - 1) + mse**2 / ((n - 1) * (R - 1))),
                              1, R - 1)
                old = V**2 / (vr**2 / (n - 1) + (k * sv) ** 2 / sdf)
            else:
                old = n - 1.0
            new = max(1.0, V**2 / (vr**2 / (n - 1) + (k * ms) ** 2 / (R - 1)
                                   + (k * mse / n) ** 2 / ((n - 1) * (R - 1))))
            for key, nu in (("old", old), ("new", new)):
                h = stats.t.ppf(0.975, nu) * np.sqrt(V)
                hits[key] += abs(theta) > h
                width[key] += h
        cells.append(f"{R} runs old {100 * hits['old'] / sets:5.2f} ({width['old'] / sets:.4f}) "
                     f"new {100 * hits['new'] / sets:5.2f} ({width['new'] / sets:.4f})")
    print(f"shift sd {shift_sd:<5}: " + "; ".join(cells), flush=True)
