"""A Bahadur (asymptotic) standard error for median / p95 gates,
tried and not taken. The difference of two sample quantiles of paired sides has asymptotic
variance V_C + V_B - 2 rho sqrt(V_C V_B), rho the correlation of the indicators 1{C <= q_C} and
1{B <= q_B} (Babu & Rao 1988, J. Multivariate Anal. 27:15); "rho" takes each side's V from the
paired bootstrap (no density estimate) and rho from the data, a normal interval; "rhot1" and
"rhot0" the same with t quantiles on (discordant units - 1) or (discordant units) df. "perc" is
the report's percentile interval, "norm" the normal one on the bootstrap SD. Models as
numpy_quantile_methods.py.

    PYTHONHASHSEED=0 python3 calibration/numpy_quantile_bahadur.py SETS B MODEL:P:N ...
"""
import os, sys, time, numpy as np
from scipy.stats import norm
src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "numpy_quantile_methods.py")).read().replace("\nmain()\n", "\n")
qm = {}
exec(compile(src, "qm", "exec"), qm)
draw, t7 = qm["draw"], qm["t7"]
Z = norm.ppf(0.975)

def cell(model, p, n, sets, B, seed):
    rng = np.random.default_rng(seed)
    names = ["perc", "norm", "rho", "rhot1", "rhot0"]
    lo = dict.fromkeys(names, 0); hi = dict.fromkeys(names, 0)
    for _ in range(sets):
        b, c = draw(model, n, rng)
        sb, sc = np.sort(b), np.sort(c)
        qb, qc = t7(sb, p), t7(sc, p)
        est = qc - qb
        idx = rng.integers(0, n, (B, n))
        Qb = t7(np.sort(b[idx], axis=1), p); Qc = t7(np.sort(c[idx], axis=1), p)
        d = Qc - Qb
        iv = {"perc": np.quantile(d, [0.025, 0.975])}
        s = d.std(ddof=1); iv["norm"] = (est - Z * s, est + Z * s)
        ib, ic = (b <= qb).astype(float), (c <= qc).astype(float)
        sdb, sdc = ib.std(), ic.std()
        rho = np.mean((ib - ib.mean()) * (ic - ic.mean())) / (sdb * sdc) if sdb > 0 and sdc > 0 else 0.0
        vb, vc = Qb.var(ddof=1), Qc.var(ddof=1)
        se = np.sqrt(max(vb + vc - 2 * rho * np.sqrt(vb * vc), 0))
        iv["rho"] = (est - Z * se, est + Z * se)
        def iq(x):
            a, z = np.quantile(x, [0.25, 0.75]); return ((z - a) / 1.349) ** 2
        vb2, vc2 = iq(Qb), iq(Qc)
        se2 = np.sqrt(max(vb2 + vc2 - 2 * rho * np.sqrt(vb2 * vc2), 0))

        se3 = np.sqrt(0.5 * (se ** 2 + s ** 2))
        md = int((ib != ic).sum())
        from scipy.stats import t as tdist
        k1 = tdist.ppf(0.975, max(md - 1, 1)); k0 = tdist.ppf(0.975, max(md, 1))
        iv["rhot1"] = (est - k1 * se, est + k1 * se)
        iv["rhot0"] = (est - k0 * se, est + k0 * se)
        for k, (l, h) in iv.items():
            lo[k] += l > 0; hi[k] += h < 0
    return names, lo, hi

sets, B = int(sys.argv[1]), int(sys.argv[2])
for spec in sys.argv[3:]:
    model, p, n = spec.split(":"); p, n = float(p), int(n)
    t0 = time.time()
    names, lo, hi = cell(model, p, n, sets, B, seed=hash(spec) % 100000)
    parts = []
    for k in names:
        cov = 1 - (lo[k] + hi[k]) / sets
        parts.append(f"{k} {100*cov:5.1f} ({100*lo[k]/sets:.1f}/{100*hi[k]/sets:.1f})")
    print(f"{model:8s} p={p} n={n:4d}: " + "; ".join(parts) + f"  [{time.time()-t0:.0f}s]", flush=True)
