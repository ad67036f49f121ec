"""An undecided route for left-skewed deltas, replayed in numpy before any code: per sample a
trigger (Cochran's rule fails on the deltas' skewness, g1 < 0 and n <= 25 g1^2 (Cochran 1977,
Sampling Techniques, 3rd ed., section 2.15), and the loss tail can reach the margin: for the
j-th largest observed loss L_j, L_j times the one-sided 97.5% Clopper-Pearson upper share of
j of n, the most the units losing at least L_j could carry, is at least m), and on a triggered
sample the undecided rule (fails when the mean delta <= -m/2, inconclusive -- exit 0 --
otherwise); elsewhere the Student t interval (a stand-in for the bootstrap-t) or its union with
Hall's (1992) transformation bounds. Prints, per design, the share of samples triggered and the
share that exit 0 under t alone, t with Hall, and each with the undecided rule.

The honest pull-request kinds and the regressions of calibration/prstream.rs (43 / 100 / 200
queries, query unit, m = 0.01 / 0.02 / 0.05), and two outside-audit designs whose margin is
their own drop (calibration/sim.rs `LongLoss`, `NormalLoss`).

    python3 calibration/numpy_skew_route.py [SETS [SEED]]

With `where` as a third argument: which samples escape. Per audit design and per ordinary
cell (t3 deltas, sparse symmetric and mixed moves), the share triggered, the escape under t,
under t with the distribution-free bound (Gaffke 2005: the 2.5% quantile of
sum W_i d_i + W_{n+1}(-1), W ~ Dirichlet(1, ..., 1), 2,000 draws) on triggered samples, and the
share of samples that escape under t *and* are triggered (the escapes a per-sample trigger can
reach at all); last, the escape of the distribution-free guarantee (the lower of t and that
bound on every sample) on the audit designs.

    python3 calibration/numpy_skew_route.py 400 11 where
"""
import sys

from scipy_env import ensure_scipy

ensure_scipy()

import numpy as np  # noqa: E402
from scipy import stats  # noqa: E402

Z = stats.norm.ppf(0.975)


def t_low(d):
    n = len(d)
    return d.mean() - stats.t.ppf(0.975, n - 1) * d.std(ddof=1) / np.sqrt(n)


def hall_low(d):
    """Hall's transformation low bound (Zhou & Dinh 2005's form), t quantile on n - 1 df."""
    n = len(d)
    c = d - d.mean()
    m2 = (c * c).mean()
    if m2 == 0:
        return d.mean()
    a = (c ** 3).mean() / m2 ** 1.5 / np.sqrt(n)
    q = stats.t.ppf(0.975, n - 1)
    g_inv = q if abs(a) < 1e-12 else 3 / a * (np.cbrt(1 + a * (q - a / 6)) - 1)
    return d.mean() - d.std(ddof=1) / np.sqrt(n) * g_inv


def reach(d):
    losses = np.sort(-d[d < 0])[::-1]
    if len(losses) == 0:
        return 0.0
    j = np.arange(1, len(losses) + 1)
    n = len(d)
    upper = np.where(j >= n, 1.0, stats.beta.ppf(0.975, j + 1, n - j))
    return float((losses * upper).max())


def cochran_fails(d):
    """Left-skewed deltas failing Cochran's rule for a mean: g1 < 0 and n <= 25 g1^2."""
    n = len(d)
    c = d - d.mean()
    m2 = (c * c).mean()
    if m2 == 0:
        return False
    g1 = (c ** 3).mean() / m2 ** 1.5
    return g1 < 0 and n <= 25 * g1 * g1


def triggered(d, m):
    return cochran_fails(d) and reach(d) >= m


def prstream(rng, kind, n, m):
    d = np.zeros(n)
    if kind == "refactor":
        k = min(n, 1 + rng.integers(10))
        d[rng.choice(n, k, replace=False)] = rng.uniform(-0.01, 0.01, k)
    elif kind in ("jitter-1%", "jitter-100%"):
        p = 0.01 if kind == "jitter-1%" else 1.0
        mask = rng.random(n) < p
        d[mask] = np.clip(0.02 * rng.standard_normal(mask.sum()), -0.06, 0.06)
    elif kind == "net-zero":
        d = rng.uniform(-0.005, 0.005, n)
        d -= d.mean()
    elif kind == "gain":
        mask = rng.random(n) < 0.2
        d[mask] = rng.uniform(0, 0.1, mask.sum())
    elif kind == "drop-all":
        d = -m + rng.uniform(-0.03, 0.03, n)
    elif kind == "drop-few":
        mask = rng.random(n) < 0.1
        d[mask] = -(m / 0.1) * rng.uniform(0.5, 1.5, mask.sum())
    elif kind == "drop-large":
        mask = rng.random(n) < m / 0.6
        d[mask] = -rng.uniform(0.4, 0.8, mask.sum())
    return d


LONG_MEAN = 0.75 * 0.03 - 0.25 * 0.12770915273181643


def long_loss(rng, n, share):
    d = np.zeros(n)
    mask = rng.random(n) < share
    k = mask.sum()
    up = rng.random(k) < 0.75
    d[mask] = np.where(
        up,
        rng.exponential(0.03, k),
        -np.minimum(0.08 * np.exp(rng.standard_normal(k)), 0.8),
    )
    return d


def normal_loss(rng, n):
    return np.where(
        rng.random(n) < 0.9, 0.02 * rng.standard_normal(n), -rng.exponential(0.15, n)
    )


def tally(samples, m, truth_low):
    """Shares (%) triggered, and exit 0 under t, t+Hall, t+undecided, t+Hall+undecided.
    exit 0: the low bound above -m (a pass), or triggered with the mean above -m/2 (amber)."""
    out = np.zeros(5)
    for d in samples:
        if np.all(d == 0):
            out[1:] += 1  # untouched: a pass
            continue
        tl = t_low(d)
        hl = min(tl, hall_low(d))
        trig = triggered(d, m)
        amber = d.mean() > -m / 2
        out += [trig, tl > truth_low, hl > truth_low,
                amber if trig else tl > truth_low, amber if trig else hl > truth_low]
    return 100 * out / len(samples)


def main():
    sets = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rng = np.random.default_rng(int(sys.argv[2]) if len(sys.argv) > 2 else 2026)
    print(f"{sets} samples a cell; % triggered | exit 0 under: t, t+Hall, t+undecided, t+Hall+undecided")
    print("(honest kinds: exit 1 = 100 - exit 0 is the friction; regressions: exit 0 is the escape)")
    kinds = ["refactor", "jitter-1%", "jitter-100%", "net-zero", "gain",
             "drop-all", "drop-few", "drop-large"]
    for n in (43, 100, 200):
        for m in (0.01, 0.02, 0.05):
            cells = []
            for kind in kinds:
                s = [prstream(rng, kind, n, m) for _ in range(sets)]
                r = tally(s, m, -m)
                cells.append(f"{kind} {r[0]:.1f} | {r[1]:.1f} {r[2]:.1f} {r[3]:.1f} {r[4]:.1f}")
            print(f"{n:4} queries m = {m}: " + "; ".join(cells), flush=True)
    for n, share in ((30, 0.4), (40, 0.35), (50, 0.3), (100, 0.2)):
        m = -LONG_MEAN * share
        r = tally([long_loss(rng, n, share) for _ in range(sets)], m, -m)
        print(f"LongLoss {share:.0%} of {n} (m = {m:.4f}): {r[0]:.1f} | {r[1]:.1f} {r[2]:.1f} {r[3]:.1f} {r[4]:.1f}", flush=True)
    for n in (30, 50, 100):
        r = tally([normal_loss(rng, n) for _ in range(sets)], 0.015, -0.015)
        print(f"NormalLoss n = {n} (m = 0.015): {r[0]:.1f} | {r[1]:.1f} {r[2]:.1f} {r[3]:.1f} {r[4]:.1f}", flush=True)


def df_low(rng, d, draws=2000):
    n = len(d)
    w = rng.exponential(1.0, (draws, n + 1))
    w /= w.sum(1, keepdims=True)
    return np.quantile(w[:, :n] @ d - w[:, n], 0.025)


def where_line(rng, name, gen, sets, m, truth):
    trig = esc_t = esc_df = reached = 0
    for _ in range(sets):
        d = gen()
        if np.all(d == 0):
            esc_t, esc_df = esc_t + 1, esc_df + 1
            continue
        tl, tr = t_low(d), triggered(d, m)
        low = min(tl, df_low(rng, d)) if tr else tl
        trig, esc_t, esc_df = trig + tr, esc_t + (tl > truth), esc_df + (low > truth)
        reached += tr and tl > truth
    print(f"{name}: triggered {100 * trig / sets:.1f} | escape t {100 * esc_t / sets:.1f} -> "
          f"t, distribution-free where triggered {100 * esc_df / sets:.1f} | escapes triggered "
          f"{100 * reached / sets:.1f}", flush=True)


def free_line(rng, name, gen, sets, truth):
    esc = sum(min(t_low(d), df_low(rng, d)) > truth for d in (gen() for _ in range(sets)))
    print(f"{name}: distribution-free (the lower of t and the bound, every sample) escape "
          f"{100 * esc / sets:.1f}", flush=True)


def where(sets, rng):
    print(f"{sets} samples a cell: which samples escape")
    for n, share in ((30, 0.4), (50, 0.3), (100, 0.2)):
        m = -LONG_MEAN * share
        where_line(rng, f"LongLoss {share:.0%} of {n}", lambda: long_loss(rng, n, share), sets, m, -m)
    for n in (30, 50, 100):
        where_line(rng, f"NormalLoss n = {n}", lambda: normal_loss(rng, n), sets, 0.015, -0.015)
    for n in (30, 100):
        where_line(rng, f"t3 0.02 + 0.1 t3, n = {n} (m = 0.01, at the mean)",
                   lambda: 0.02 + 0.1 * rng.standard_t(3, n), sets, 0.01, 0.02)
    for n, ch in ((50, 0.15), (100, 0.15), (30, 0.3)):
        def sym():
            d = np.zeros(n)
            k = rng.random(n) < ch
            d[k] = rng.random(k.sum()) - 0.5
            return d

        def mixed():
            d = np.zeros(n)
            k = rng.random(n) < ch
            size = 0.05 * (1 - np.log(rng.random(k.sum())))
            d[k] = np.where(rng.random(k.sum()) < 0.8, size, -size)
            return d

        where_line(rng, f"Symmetric {ch:.0%} of {n} (m = 0.01, at the mean)", sym, sets, 0.01, 0.0)
        where_line(rng, f"Mixed {ch:.0%} of {n} (m = 0.01, at the mean)", mixed, sets, 0.01, 0.06 * ch)
    for n, share in ((30, 0.4), (100, 0.2)):
        m = -LONG_MEAN * share
        free_line(rng, f"LongLoss {share:.0%} of {n}", lambda: long_loss(rng, n, share), sets, -m)
    for n in (30, 100):
        free_line(rng, f"NormalLoss n = {n}", lambda: normal_loss(rng, n), sets, -0.015)


if __name__ == "__main__":
    if len(sys.argv) > 3 and sys.argv[3] == "where":
        where(int(sys.argv[1]), np.random.default_rng(int(sys.argv[2])))
    else:
        main()
