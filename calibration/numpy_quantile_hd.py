"""The jackknife t interval of the paired Harrell-Davis difference
(rag-gate's default for median / p95 gates since then), replayed in numpy independently of the
Rust code, on the four models of numpy_quantile_methods.py and on models the Rust calibration
does not have.

Models (truth in brackets):
  paired10, paired40, unpaired, lognorm : as numpy_quantile_methods.py          [0]
  shift10  : paired10 with the candidate shifted by +5                         [5]
  scale_ln : lognorm with the candidate times 1.1                              [0.1 q_B(p), exact]
  sparse   : lognormal latencies, 85% of queries identical on both sides,
             15% drawn again for the candidate                                 [0]
  ties     : an 11-level metric (0, 0.1, .., 1), 30% of queries move one level [type 7 quantile
             difference of 2,000,000 draws]
  pareto   : heavy-tailed latencies 50 (1 + Pareto(2.5)) shared, each side times
             exp(0.2 N(0,1)), the candidate 10% slower                          [by 2,000,000 draws]
  bimodal  : cache hits N(20, 3^2) for 70% of queries, misses N(200, 30^2) otherwise
             (shared per query), each side + N(0, 5^2), the candidate + 2       [by 2,000,000 draws]
  groupsK  : K conversations of 1-8 turns sharing a conversation effect of SD 40
             (n = 0 in the spec: the size follows from K), group unit            [0]
  ugroupsK : the same with sizes drawn from {1, 2, 3, 10, 30} (unequal groups)   [0]
Interval: est -+ t(G - 1) * se, est = HD(candidate) - HD(baseline), se the jackknife one (query
left out of both sides; groups: pseudo-value deviations summed per group, CR1). With `perc` in
the environment (PERC=400) the percentile interval of the type 7 difference (that many
resamples) is printed beside it; with DF=bm the t quantile is on the Bell-McCaffrey df of the
group sizes instead of G - 1. Cells a check would not judge (n < 5 / (1 - p)) are marked.

usage: python3 calibration/numpy_quantile_hd.py SETS MODEL:P:N...
  e.g. python3 calibration/numpy_quantile_hd.py 2000 paired10:0.5:50 groups20:0.95:0
"""
import os
import sys
import time

import numpy as np
from scipy.stats import norm
from scipy.stats import t as student_t

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from numpy_quantile_methods import MODELS, cell_seed, coverage_text, draw, hd_weights, t7  # noqa: E402

PERC = int(os.environ.get("PERC", "0"))
# DF=bm: t on the Bell-McCaffrey df of the group sizes instead of G - 1 (tried, not taken)
DF_BM = os.environ.get("DF") == "bm"
EXTRA = ["shift10", "scale_ln", "sparse", "ties", "pareto", "bimodal"]
BY_DRAWS = ("ties", "pareto", "bimodal")


def hd_loo(x, p):
    """HD estimate and every leave-one-out value, by prefix and suffix sums."""
    n = len(x)
    order = np.argsort(x, kind="stable")
    s = x[order]
    est = s @ hd_weights(n, p)
    w = hd_weights(n - 1, p)
    prefix = np.concatenate(([0.0], np.cumsum(w * s[:-1])))
    suffix = np.concatenate((np.cumsum((w * s[1:])[::-1])[::-1], [0.0]))
    loo = np.empty(n)
    loo[order] = prefix + suffix
    return est, loo


def hd_interval(b, c, groups, p, conf=0.95):
    n = len(b)
    eb, lb = hd_loo(b, p)
    ec, lc = hd_loo(c, p)
    est = ec - eb
    d = (n - 1) * (est - (lc - lb))
    g = groups.max() + 1
    sums = np.bincount(groups, weights=d - d.mean(), minlength=g)
    se = np.sqrt(g / (g - 1) * np.sum(sums ** 2)) / n
    df = bm_df(np.bincount(groups).astype(float)) if DF_BM else g - 1
    h = student_t.ppf(0.5 + conf / 2, df) * se
    return est - h, est + h


def bm_df(sizes):
    """Bell-McCaffrey df of the CR2 standard error of a mean over groups of these sizes."""
    n = sizes.sum()
    w = 1 / (1 - sizes / n)
    a = np.sum(w * w * sizes * sizes * (1 - 2 * sizes / n))
    c = np.sum(w * sizes * sizes)
    return n * n / (a + c * c / (n * n))


def draw_any(model, n, p, rng):
    """(baseline, candidate, group index, truth); truth None: the ties model's, computed once."""
    if model in MODELS:
        b, c = draw(model, n, rng)
        return b, c, np.arange(n), 0.0
    if model == "shift10":
        q = 100 * np.exp(0.5 * rng.standard_normal(n))
        return q + 10 * rng.standard_normal(n), q + 5 + 10 * rng.standard_normal(n), np.arange(n), 5.0
    if model == "scale_ln":
        q = np.exp(np.log(100) + rng.standard_normal(n))
        b = q * np.exp(0.25 * rng.standard_normal(n))
        c = 1.1 * q * np.exp(0.25 * rng.standard_normal(n))
        return b, c, np.arange(n), 0.1 * 100 * np.exp(np.sqrt(1.0625) * norm.ppf(p))
    if model == "sparse":
        b = np.exp(np.log(100) + 0.5 * rng.standard_normal(n))
        c = b.copy()
        moved = rng.random(n) < 0.15
        c[moved] = np.exp(np.log(100) + 0.5 * rng.standard_normal(moved.sum()))
        return b, c, np.arange(n), 0.0
    if model == "ties":
        level = rng.integers(0, 11, n)
        step = (rng.random(n) < 0.3) * rng.choice([-1, 1], n)
        return level / 10, np.clip(level + step, 0, 10) / 10, np.arange(n), None
    if model == "pareto":
        q = 50 * (1 + rng.pareto(2.5, n))
        b = q * np.exp(0.2 * rng.standard_normal(n))
        return b, 1.1 * q * np.exp(0.2 * rng.standard_normal(n)), np.arange(n), None
    if model == "bimodal":
        q = np.where(rng.random(n) < 0.7, 20 + 3 * rng.standard_normal(n), 200 + 30 * rng.standard_normal(n))
        return q + 5 * rng.standard_normal(n), q + 2 + 5 * rng.standard_normal(n), np.arange(n), None
    if model.startswith(("groups", "ugroups")):
        k = int(model.split("groups")[1])
        sizes = rng.choice([1, 2, 3, 10, 30], k) if model[0] == "u" else rng.integers(1, 9, k)
        groups = np.repeat(np.arange(k), sizes)
        m = len(groups)
        q = 100 * np.exp(0.4 * rng.standard_normal(m)) + 40 * rng.standard_normal(k)[groups]
        return q + 10 * rng.standard_normal(m), q + 10 * rng.standard_normal(m), groups, 0.0
    raise ValueError(model)


def seed_of(model, p, n):
    if model in MODELS:
        return cell_seed(model, p, n)
    if model in EXTRA:
        return 900000 + EXTRA.index(model) * 20000 + int(p * 100) * 100 + n
    return 800000 + (50000 if model[0] == "u" else 0) + int(model.split("groups")[1]) * 100 + int(p * 100)


def main():
    sets = int(sys.argv[1])
    for spec in sys.argv[2:]:
        model, p, n = spec.split(":")
        p, n = float(p), int(n)
        rng = np.random.default_rng(seed_of(model, p, n))
        truth = None
        if model in BY_DRAWS:
            b, c, _, _ = draw_any(model, 2_000_000, p, np.random.default_rng(1))
            truth = np.quantile(c, p) - np.quantile(b, p)
        miss = {"hd": [0, 0], "perc": [0, 0]}
        sizes = []
        t0 = time.time()
        for _ in range(sets):
            b, c, groups, tr = draw_any(model, n, p, rng)
            tr = truth if tr is None else tr
            sizes.append(len(b))
            lo, hi = hd_interval(b, c, groups, p)
            miss["hd"][0] += lo > tr
            miss["hd"][1] += hi < tr
            if PERC:
                idx = rng.integers(0, len(b), (PERC, len(b)))
                d7 = t7(np.sort(c[idx], axis=1), p) - t7(np.sort(b[idx], axis=1), p)
                lo, hi = np.quantile(d7, [0.025, 0.975])
                miss["perc"][0] += lo > tr
                miss["perc"][1] += hi < tr
        parts = [coverage_text("hd-jackknife-t", *miss["hd"], sets)]
        if PERC:
            parts.append(coverage_text("percentile", *miss["perc"], sets))
        size = n or f"~{np.mean(sizes):.0f}"
        judged = "" if np.mean(sizes) >= 5 / min(p, 1 - p) else "  (not judged by check)"
        print(f"{model:9s} p={p} n={size}: " + "; ".join(parts) + judged + f"  [{time.time() - t0:.0f}s]",
              flush=True)


if __name__ == "__main__":
    main()
