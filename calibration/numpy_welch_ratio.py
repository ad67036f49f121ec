"""Run-level `max-increase = "10%"` gates on replicate measurements: the share of sets that pass
(upper bound <= +10%) when the candidate's arithmetic mean is exactly 10% above the baseline's,
under the gate's interval (the log-scale delta interval of the ratio of arithmetic means with
Hsu's df min(n_b, n_c) - 1, src/stats/welch.rs `ratio_of_means`, written again here from its
formula), the same with Welch-Satterthwaite df (the gate before), and under the ratio of
geometric means (Welch's interval on the logs, the gate before that). Also the share of sets
where a candidate that changed nothing passes (power) and the mean width on the log scale. Lognormal measurements with
the given coefficients of variation (baseline / candidate); also the sets whose low bound lies
above the truth. Last, a Cox-type lognormal interval (log mean = mean of logs + s^2/2), tried
and not taken.

usage: python3 calibration/numpy_welch_ratio.py SETS [SEED]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scipy_env import ensure_scipy  # noqa: E402

ensure_scipy()
import numpy as np  # noqa: E402
from scipy import stats  # noqa: E402

S = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
rng = np.random.default_rng(int(sys.argv[2]) if len(sys.argv) > 2 else 5)


def lognormal(n, mean, cv, sets):
    s2 = np.log1p(cv * cv)
    mu = np.log(mean) - s2 / 2
    return np.exp(mu + np.sqrt(s2) * rng.standard_normal((sets, n)))


def welch(va, vb, na, nb, d, hsu=False):
    if hsu:
        df = min(na, nb) - 1.0
    else:
        df = (va + vb) ** 2 / (va ** 2 / (na - 1) + vb ** 2 / (nb - 1))
    h = stats.t.ppf(0.975, df) * np.sqrt(va + vb)
    return np.exp(d - h), np.exp(d + h)


def ratio_of_means(b, c, hsu=True):
    nb, nc = b.shape[1], c.shape[1]
    ab = b.var(1, ddof=1) / (nb * b.mean(1) ** 2)
    ac = c.var(1, ddof=1) / (nc * c.mean(1) ** 2)
    return welch(ab, ac, nb, nc, np.log(c.mean(1) / b.mean(1)), hsu)


def geometric(b, c):
    lb, lc = np.log(b), np.log(c)
    nb, nc = b.shape[1], c.shape[1]
    return welch(lb.var(1, ddof=1) / nb, lc.var(1, ddof=1) / nc, nb, nc, lc.mean(1) - lb.mean(1))


def cox(b, c):
    lb, lc = np.log(b), np.log(c)
    nb, nc = b.shape[1], c.shape[1]
    sb, sc = lb.var(1, ddof=1), lc.var(1, ddof=1)
    vb = sb / nb + sb ** 2 / (2 * (nb - 1))
    vc = sc / nc + sc ** 2 / (2 * (nc - 1))
    return welch(vb, vc, nb, nc, lc.mean(1) + sc / 2 - lb.mean(1) - sb / 2)


print(f"{S} sets a cell; pass = upper bound <= 1.1 at a true ratio of arithmetic means of 1.1")
for cvb, cvc in [(0.05, 0.2), (0.1, 0.1), (0.2, 0.2), (0.05, 0.05), (0.2, 0.05), (0.3, 0.3)]:
    for n in [3, 5, 7, 10, 20, 100]:
        b, c = lognormal(n, 100, cvb, S), lognormal(n, 110, cvc, S)
        lo, hi = ratio_of_means(b, c)
        wlo, whi = ratio_of_means(b, c, hsu=False)
        _, ghi = geometric(b, c)
        clo, chi = cox(b, c)
        b0, c0 = lognormal(n, 100, cvb, S), lognormal(n, 100, cvc, S)
        noop = 100 * np.mean(ratio_of_means(b0, c0)[1] <= 1.1)
        wnoop = 100 * np.mean(ratio_of_means(b0, c0, hsu=False)[1] <= 1.1)
        print(f"CV {cvb}/{cvc} n = {n:3}: ratio of means (Hsu df) pass {100 * np.mean(hi <= 1.1):.2f}%, "
              f"low above {100 * np.mean(lo > 1.1):.2f}%, width {np.mean(np.log(hi / lo)):.4f}, "
              f"no-op passes {noop:.1f}% | Welch df pass {100 * np.mean(whi <= 1.1):.2f}%, "
              f"low above {100 * np.mean(wlo > 1.1):.2f}%, width {np.mean(np.log(whi / wlo)):.4f}, "
              f"no-op passes {wnoop:.1f}% | geometric pass "
              f"{100 * np.mean(ghi <= 1.1):.2f}% | Cox pass {100 * np.mean(chi <= 1.1):.2f}%, "
              f"low above {100 * np.mean(clo > 1.1):.2f}%")
