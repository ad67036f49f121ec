"""Independent reference for `stats::crossed`'s degrees of freedom: the two-way ANOVA
mean squares of the baseline's replicates, the variance V = V_rows + k * max(0, s_m^2 - MS_e/n)
and Satterthwaite's nu for the linear combination of mean squares, each at its own df
(Satterthwaite 1946, eq. 1), clamped to >= 1; the t stretch t_{nu,0.975}/z_{0.975} and the
two-sided t-test p-value. Numbers printed here are the known answers of the unit test
`stats::crossed::tests::satterthwaite_matches_scipy`.

    python3 calibration/scipy_crossed_df.py
"""
import numpy as np
from scipy import stats


def anova(x):
    x = np.asarray(x, dtype=float)
    R, n = x.shape
    m = x.mean(axis=1)
    dev = m - m.mean()
    ms = (dev**2).sum() / (R - 1)
    resid = x - x.mean(axis=0)[None, :] - dev[:, None]
    mse = (resid**2).sum() / ((n - 1) * (R - 1))
    return ms, mse


def reference(name, base, cand):
    base, cand = np.asarray(base, float), np.asarray(cand, float)
    Rb, n = base.shape
    Rc = cand.shape[0]
    ms, mse = anova(base)
    shift = max(0.0, ms - mse / n)
    k = 1 / Rb + 1 / Rc  # both sides draw from the baseline's (trusted) pool
    deltas = cand.mean(axis=0) - base.mean(axis=0)
    theta = deltas.mean()
    rows_var = deltas.var(ddof=1) / n
    V = rows_var + k * shift
    den = rows_var**2 / (n - 1) + (k * ms) ** 2 / (Rb - 1) + (k * mse / n) ** 2 / ((n - 1) * (Rb - 1))
    nu = max(1.0, V**2 / den)
    stretch = stats.t.ppf(0.975, nu) / stats.norm.ppf(0.975)
    p = 2 * stats.t.sf(abs(theta) / np.sqrt(V), nu)
    print(f"{name}: s_m^2 {ms:.12g} MS_e {mse:.12g} shift {shift:.12g} rows_var {rows_var:.12g} "
          f"V {V:.12g} nu {nu:.12g} stretch {stretch:.12g} p {p:.12g}")


# Whole-run shifts and jitter: the shift variance is positive.
reference(
    "shifted",
    [[0.50, 0.62, 0.31, 0.80, 0.44, 0.70],
     [0.53, 0.66, 0.33, 0.84, 0.49, 0.71],
     [0.49, 0.60, 0.27, 0.79, 0.45, 0.66]],
    [[0.55, 0.65, 0.35, 0.83, 0.47, 0.74],
     [0.52, 0.66, 0.30, 0.85, 0.50, 0.73]],
)
# Jitter but run means close together: the shift variance truncates to 0, and s_m^2 still
# enters nu at its 2 df (the rows alone would give 5).
reference(
    "truncated",
    [[0.50, 0.62, 0.31, 0.80, 0.44, 0.70],
     [0.51, 0.61, 0.32, 0.79, 0.45, 0.69],
     [0.49, 0.63, 0.30, 0.81, 0.44, 0.71]],
    [[0.58, 0.60, 0.39, 0.78, 0.49, 0.70],
     [0.52, 0.68, 0.30, 0.86, 0.42, 0.76]],
)
