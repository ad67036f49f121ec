"""Interval methods for q(candidate) - q(baseline) (type-7 quantiles) under the paired
query bootstrap, compared on several models. Independent numpy replay (not rag-gate code).

Models (the candidate has the baseline's distribution, so the true difference is 0):
  paired10 : difficulty 100*exp(0.5 N(0,1)) shared, each side + N(0, 10^2)   (sim::quantile_gate)
  paired40 : the same with side noise N(0, 40^2)
  unpaired : each side its own difficulty 100*exp(0.5 N(0,1)) + N(0, 10^2)
  lognorm  : latency-like heavy tail, difficulty exp(log 100 + 1.0 N(0,1)) shared, each side
             times exp(0.25 N(0,1))
Methods (same bootstrap indices for all):
  perc   : percentile interval of the type-7 difference (rag-gate today)
  norm   : type-7 estimate +- z * bootstrap SD of the type-7 difference
  hdperc : type-7 estimate + (percentiles of HD* - HD), HD = Harrell-Davis difference
  hdnorm : type-7 estimate +- z * bootstrap SD of the HD difference
  smsh   : smoothed bootstrap, each drawn query adds the SAME h*N(0,1) to both sides,
           h = 0.5 * s * n^(-1/5) (s = the side's min(sd, IQR/1.349)); percentile
  smind  : the same, independent noise per side
           (SMOOTH_SPACING=C in the environment: h = C / (n f(q)) instead, about C gaps between
           order statistics at the quantile, f by a Gaussian KDE)
  normiqr: type-7 estimate +- z * IQR/1.349 of the bootstrap type-7 differences
  ifnorm : type-7 estimate +- z * influence-function SE of the paired difference,
           sd_i((p - 1{c_i <= q_c})/f_c - (p - 1{b_i <= q_b})/f_b) / sqrt(n), f by a Gaussian KDE
  halfp  : half-sampling without replacement (m = n/2, delete-d jackknife, Shao & Wu 1989):
           type-7 estimate + percentiles of tau * (theta_m - theta_n), tau^2 = m(n-1)/(n(n-m))
  halfn  : the same, normal with the SD of tau * (theta_m - theta_n)
Coverage of 0; in brackets the % of sets with the low bound above 0 / the high bound below 0;
+- is the Monte-Carlo s.e. of the coverage. Each cell has its own seed (model, p, n).

usage: python3 calibration/numpy_quantile_methods.py SETS B MODEL:P:N...
  e.g. python3 calibration/numpy_quantile_methods.py 1000 500 paired10:0.5:50 lognorm:0.95:200
  (1000 x 500: 2-11 s a cell at n = 30-200, ~45 s at n = 1000, on one shared core)
"""
import os
import sys
import time
import numpy as np
from scipy.stats import beta, norm

Z = norm.ppf(0.975)
# SMOOTH_SPACING=C: smoothed bootstrap with h = C / (n f(q)) instead of 0.5 s n^(-1/5)
SMOOTH_SPACING = float(os.environ["SMOOTH_SPACING"]) if "SMOOTH_SPACING" in os.environ else None


MODELS = ["paired10", "paired40", "unpaired", "lognorm"]


def cell_seed(model, p, n):
    """Each cell's own data seed, from (model, p, n); the replays of these models share it."""
    return MODELS.index(model) * 100000 + int(p * 100) * 10000 + n


def coverage_text(name, low_misses, high_misses, sets):
    """'name coverage±s.e. (low above / high below)', in % of `sets`."""
    cov = 1 - (low_misses + high_misses) / sets
    se = np.sqrt(cov * (1 - cov) / sets)
    return f"{name} {100*cov:5.1f}±{100*se:3.1f} ({100*low_misses/sets:.1f}/{100*high_misses/sets:.1f})"


def draw(model, n, rng):
    if model in ("paired10", "paired40"):
        s = 10.0 if model == "paired10" else 40.0
        q = 100 * np.exp(0.5 * rng.standard_normal(n))
        return q + s * rng.standard_normal(n), q + s * rng.standard_normal(n)
    if model == "unpaired":
        b = 100 * np.exp(0.5 * rng.standard_normal(n)) + 10 * rng.standard_normal(n)
        c = 100 * np.exp(0.5 * rng.standard_normal(n)) + 10 * rng.standard_normal(n)
        return b, c
    if model == "lognorm":
        q = np.exp(np.log(100) + rng.standard_normal(n))
        return q * np.exp(0.25 * rng.standard_normal(n)), q * np.exp(0.25 * rng.standard_normal(n))
    raise ValueError(model)


def t7(sorted_x, p):
    n = sorted_x.shape[-1]
    h = (n - 1) * p
    lo = int(np.floor(h))
    hi = min(lo + 1, n - 1)
    f = h - lo
    return sorted_x[..., lo] + f * (sorted_x[..., hi] - sorted_x[..., lo])


def hd_weights(n, p):
    a, b = p * (n + 1), (1 - p) * (n + 1)
    return np.diff(beta.cdf(np.arange(n + 1) / n, a, b))


def scale(x):
    iqr = np.subtract(*np.quantile(x, [0.75, 0.25]))
    return min(np.std(x, ddof=1), iqr / 1.349)


def if_se(b, c, p):
    """Influence-function (Bahadur) SE of the paired difference, Gaussian KDE density."""
    n = len(b)
    psi = []
    for x in (b, c):
        q = np.quantile(x, p)
        h = 0.9 * scale(x) * n ** -0.2
        f = np.mean(np.exp(-0.5 * ((x - q) / h) ** 2)) / (h * np.sqrt(2 * np.pi))
        psi.append((p - (x <= q)) / f)
    return np.std(psi[1] - psi[0], ddof=1) / np.sqrt(n)


def spacing(x, p):
    """1 / (n f(q)): the expected gap between order statistics at the quantile (density by KDE)."""
    n = len(x)
    q = np.quantile(x, p)
    h = 0.9 * scale(x) * n ** -0.2
    f = np.mean(np.exp(-0.5 * ((x - q) / h) ** 2)) / (h * np.sqrt(2 * np.pi))
    return 1 / (n * f)


def cell(model, p, n, sets, B, seed):
    rng = np.random.default_rng(seed)
    w = hd_weights(n, p)
    names = ["perc", "norm", "normiqr", "ifnorm", "hdperc", "hdnorm", "smsh", "smind", "halfp", "halfn"]
    lo_miss = {k: 0 for k in names}
    hi_miss = {k: 0 for k in names}
    for _ in range(sets):
        b, c = draw(model, n, rng)
        sb, sc = np.sort(b), np.sort(c)
        est = t7(sc, p) - t7(sb, p)
        hd = sc @ w - sb @ w
        idx = rng.integers(0, n, (B, n))
        rb, rc = b[idx], c[idx]
        Sb, Sc = np.sort(rb, axis=1), np.sort(rc, axis=1)
        d7 = t7(Sc, p) - t7(Sb, p)
        dhd = Sc @ w - Sb @ w
        ivs = {}
        ivs["perc"] = np.quantile(d7, [0.025, 0.975])
        sd7 = d7.std(ddof=1)
        ivs["norm"] = (est - Z * sd7, est + Z * sd7)
        i1, i3 = np.quantile(d7, [0.25, 0.75])
        sdi = (i3 - i1) / 1.349
        ivs["normiqr"] = (est - Z * sdi, est + Z * sdi)
        sdf = if_se(b, c, p)
        ivs["ifnorm"] = (est - Z * sdf, est + Z * sdf)
        ql, qh = np.quantile(dhd - hd, [0.025, 0.975])
        ivs["hdperc"] = (est + ql, est + qh)
        sdh = dhd.std(ddof=1)
        ivs["hdnorm"] = (est - Z * sdh, est + Z * sdh)
        if SMOOTH_SPACING is None:
            hb, hc = 0.5 * scale(b) * n ** -0.2, 0.5 * scale(c) * n ** -0.2
        else:
            hb, hc = SMOOTH_SPACING * spacing(b, p), SMOOTH_SPACING * spacing(c, p)
        e = rng.standard_normal((B, n))
        dsh = t7(np.sort(rc + hc * e, axis=1), p) - t7(np.sort(rb + hb * e, axis=1), p)
        ivs["smsh"] = np.quantile(dsh, [0.025, 0.975])
        e2 = rng.standard_normal((B, n))
        dind = t7(np.sort(rc + hc * e2, axis=1), p) - t7(np.sort(rb + hb * e, axis=1), p)
        ivs["smind"] = np.quantile(dind, [0.025, 0.975])
        m = n // 2
        tau = np.sqrt(m * (n - 1) / (n * (n - m)))
        hidx = np.argsort(rng.random((B, n)), axis=1)[:, :m]
        Hb, Hc = np.sort(b[hidx], axis=1), np.sort(c[hidx], axis=1)
        dh = tau * (t7(Hc, p) - t7(Hb, p) - est)
        ql, qh = np.quantile(dh, [0.025, 0.975])
        ivs["halfp"] = (est + ql, est + qh)
        sdh2 = dh.std(ddof=1)
        ivs["halfn"] = (est - Z * sdh2, est + Z * sdh2)
        for k, (l, h) in ivs.items():
            lo_miss[k] += l > 0
            hi_miss[k] += h < 0
    return names, lo_miss, hi_miss


def main():
    sets, B = int(sys.argv[1]), int(sys.argv[2])
    for spec in sys.argv[3:]:
        model, p, n = spec.split(":")
        p, n = float(p), int(n)
        t0 = time.time()
        names, lo, hi = cell(model, p, n, sets, B, seed=cell_seed(model, p, n))
        parts = [coverage_text(k, lo[k], hi[k], sets) for k in names]
        print(f"{model:8s} p={p} n={n:4d}: " + "; ".join(parts) + f"  [{time.time()-t0:.0f}s]", flush=True)


if __name__ == "__main__":
    main()
