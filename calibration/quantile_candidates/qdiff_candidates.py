"""New interval candidates for the paired type-7 quantile difference q(c)-q(b) (tried and not taken).
Replays the data sets and bootstrap indices of calibration/numpy_quantile_methods.py
(same seeds, same rng consumption), then adds:
  perc   : percentile of d7 (rag-gate today)
  btif   : bootstrap-t, t* = (d7* - est)/se*, se* = influence-function SE on the resample (KDE f)
           [est - t*_.975 se, est - t*_.025 se]
  btifs  : symmetric bootstrap-t: est +- |t*|_.95 se
  ve4    : variance extrapolation, S_m = (m/n) Var(d7 at size m), m*Var = A + B m^-1/2,
           fit on m=n and m=n/4: V = S_n - (S_{n/4} - S_n)/(2-1); normal est +- z sqrt(V)
  ve2    : the same with m=n/2: V = S_n - (S_{n/2}-S_n)/(sqrt2-1)
  mn2,mn4: Bickel-Sakov scaled m-out-of-n percentile, est + sqrt(m/n)(Q_m - est), m = n/2, n/4
  pe4    : endpoint extrapolation (percentile analogue of ve4): est + 2(Q_n-est) - sqrt(1/4)(Q_{n/4}-est)
  btsg   : bootstrap-t as btif but SE from the Siddiqui-Bloch-Gastwirth sparsity (Hall-Sheather bw)
  btsgs  : its symmetric version; sgn: normal with that SE
  pm4,pm2: percentile interval shrunk about the bootstrap median by sqrt(V4/S_n), sqrt(V2/S_n)
usage: python3 qdiff_candidates.py SETS B MODEL:P:N...
"""
import os
import sys, time
import numpy as np
from scipy.stats import norm, beta

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from numpy_quantile_methods import cell_seed, coverage_text, draw, t7  # noqa: E402  (the same models, seeds, type-7 rule)

Z = norm.ppf(0.975)

def psi_rows(X, S, p):
    """Influence values (p - 1{x<=q})/f per row; X (R,n) raw, S sorted. KDE density at q, same rule
    as if_se in numpy_quantile_methods.py (h = 0.9 min(sd, IQR/1.349) n^-0.2)."""
    n = X.shape[-1]
    q = t7(S, p)[..., None]
    iqr = t7(S, 0.75) - t7(S, 0.25)
    sd = X.std(axis=-1, ddof=1)
    h = (0.9 * np.minimum(sd, iqr / 1.349) * n ** -0.2)[..., None]
    h = np.maximum(h, 1e-12)
    f = np.mean(np.exp(-0.5 * ((X - q) / h) ** 2), axis=-1, keepdims=True) / (h * np.sqrt(2 * np.pi))
    f = np.maximum(f, 1e-300)
    return (p - (X <= q)) / f

def sbg_psi_rows(S, p):
    """Influence values with the Siddiqui-Bloch-Gastwirth sparsity estimate and the Hall-Sheather
    bandwidth: 1/f = (X_(ceil n(p+h)) - X_(floor n(p-h)))/(2h'), h' the realised probability span/2.
    S sorted (R,n); returns (p - 1{x<=q}) * sparsity, row order = sorted order (fine for sd of
    differences only if both sides use the same query order, so we return per-query via ranks)."""
    raise NotImplementedError

def hs_bw(n, p, alpha=0.05):
    x = norm.ppf(p); z = norm.ppf(1 - alpha / 2)
    return n ** (-1 / 3) * z ** (2 / 3) * (1.5 * norm.pdf(x) ** 2 / (2 * x ** 2 + 1)) ** (1 / 3)

def sbg_sparsity(S, p):
    n = S.shape[-1]
    h = hs_bw(n, p)
    lo = max(int(np.floor(n * (p - h))), 1); hi = min(int(np.ceil(n * (p + h))), n)
    return (S[..., hi - 1] - S[..., lo - 1]) / ((hi - lo) / n)

def sbg_se_rows(XB, SB, XC, SC, p):
    n = XB.shape[-1]
    qb = t7(SB, p)[..., None]; qc = t7(SC, p)[..., None]
    sb = sbg_sparsity(SB, p)[..., None]; sc = sbg_sparsity(SC, p)[..., None]
    d = (p - (XC <= qc)) * sc - (p - (XB <= qb)) * sb
    return d.std(axis=-1, ddof=1) / np.sqrt(n)

def if_se_rows(XB, SB, XC, SC, p):
    n = XB.shape[-1]
    d = psi_rows(XC, SC, p) - psi_rows(XB, SB, p)
    return d.std(axis=-1, ddof=1) / np.sqrt(n)

NAMES = ["perc", "btif", "btifs", "btsg", "btsgs", "sgn", "pm4", "pm2", "ve4", "ve2", "mn2", "mn4", "pe4", "pe2"]

def cell(model, p, n, sets, B, seed):
    rng = np.random.default_rng(seed)
    lo_miss = {k: 0 for k in NAMES}; hi_miss = {k: 0 for k in NAMES}
    widths = {k: [] for k in NAMES}
    nbad = 0
    m2, m4 = max(n // 2, 2), max(n // 4, 2)
    for _ in range(sets):
        b, c = draw(model, n, rng)
        sb, sc = np.sort(b), np.sort(c)
        est = t7(sc, p) - t7(sb, p)
        idx = rng.integers(0, n, (B, n))
        # consume the rng exactly as the original script does (smoothed + half-sampling draws)
        rng.standard_normal((B, n)); rng.standard_normal((B, n)); rng.random((B, n))
        rb, rc = b[idx], c[idx]
        Sb, Sc = np.sort(rb, axis=1), np.sort(rc, axis=1)
        d7 = t7(Sc, p) - t7(Sb, p)
        ivs = {}
        ivs["perc"] = np.quantile(d7, [0.025, 0.975])
        # 1. bootstrap-t with per-resample IF SE
        se0 = if_se_rows(b, sb, c, sc, p)
        ses = if_se_rows(rb, Sb, rc, Sc, p)
        ses = np.maximum(ses, 1e-12)
        t = (d7 - est) / ses
        tl, th = np.quantile(t, [0.025, 0.975])
        ivs["btif"] = (est - th * se0, est - tl * se0)
        ta = np.quantile(np.abs(t), 0.95)
        ivs["btifs"] = (est - ta * se0, est + ta * se0)
        se0g = sbg_se_rows(b, sb, c, sc, p)
        sesg = np.maximum(sbg_se_rows(rb, Sb, rc, Sc, p), 1e-12)
        tg = (d7 - est) / sesg
        tl, th = np.quantile(tg, [0.025, 0.975])
        ivs["btsg"] = (est - th * se0g, est - tl * se0g)
        ta = np.quantile(np.abs(tg), 0.95)
        ivs["btsgs"] = (est - ta * se0g, est + ta * se0g)
        ivs["sgn"] = (est - Z * se0g, est + Z * se0g)
        # 2. m-out-of-n (with replacement)
        i2 = rng.integers(0, n, (B, m2)); i4 = rng.integers(0, n, (B, m4))
        d2 = t7(np.sort(c[i2], axis=1), p) - t7(np.sort(b[i2], axis=1), p)
        d4 = t7(np.sort(c[i4], axis=1), p) - t7(np.sort(b[i4], axis=1), p)
        Sn = d7.var(ddof=1); S2 = m2 / n * d2.var(ddof=1); S4 = m4 / n * d4.var(ddof=1)
        k2, k4 = n / m2, n / m4
        V4 = Sn - (S4 - Sn) / (np.sqrt(k4) - 1)
        V2 = Sn - (S2 - Sn) / (np.sqrt(k2) - 1)
        if V4 <= 0 or V2 <= 0: nbad += 1
        V4 = max(V4, 0.0); V2 = max(V2, 0.0)
        ivs["ve4"] = (est - Z * np.sqrt(V4), est + Z * np.sqrt(V4))
        ivs["ve2"] = (est - Z * np.sqrt(V2), est + Z * np.sqrt(V2))
        Q2 = np.quantile(d2, [0.025, 0.975]); Q4 = np.quantile(d4, [0.025, 0.975])
        Qn = ivs["perc"]
        ivs["mn2"] = est + np.sqrt(m2 / n) * (Q2 - est)
        ivs["mn4"] = est + np.sqrt(m4 / n) * (Q4 - est)
        c4 = 1 / (np.sqrt(k4) - 1); c2 = 1 / (np.sqrt(k2) - 1)
        ivs["pe4"] = est + (1 + c4) * (Qn - est) - c4 * np.sqrt(m4 / n) * (Q4 - est)
        ivs["pe2"] = est + (1 + c2) * (Qn - est) - c2 * np.sqrt(m2 / n) * (Q2 - est)
        med = np.median(d7)
        ivs["pm4"] = med + np.sqrt(V4 / Sn) * (Qn - med)
        ivs["pm2"] = med + np.sqrt(V2 / Sn) * (Qn - med)
        for k, (l, h) in ivs.items():
            lo_miss[k] += l > 0; hi_miss[k] += h < 0
            widths[k].append(h - l)
    return lo_miss, hi_miss, {k: np.median(v) for k, v in widths.items()}, nbad

def main():
    sets, B = int(sys.argv[1]), int(sys.argv[2])
    for spec in sys.argv[3:]:
        model, p, n = spec.split(":"); p, n = float(p), int(n)
        t0 = time.time()
        lo, hi, w, nbad = cell(model, p, n, sets, B, cell_seed(model, p, n))
        parts = [f"{coverage_text(k, lo[k], hi[k], sets)} w{w[k]/w['perc']:.2f}" for k in NAMES]
        print(f"{model:8s} p={p} n={n:4d} [bad V {nbad}]: " + "; ".join(parts) + f"  [{time.time()-t0:.0f}s]", flush=True)

if __name__ == "__main__":
    main()
