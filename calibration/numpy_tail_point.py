"""One more loss than the sample shows: a route for the heavy-loss designs under the regular
guarantee, replayed in numpy before any code, and not taken.

The distribution-free guarantee's bound (Gaffke 2005; Learned-Miller & Thomas 2019: the 2.5%
quantile of sum W_i d_i + W_{n+1} a, W ~ Dirichlet(1, ..., 1) over n + 1 points) is valid with
a the worst feasible loss (-1 on a [0, 1] metric) and costs a wide interval on every sample.
Here a is c times the sample's own worst delta (at most the range): one more unit, as far out as
c times the worst loss seen, with the chance 1 / (n + 1) exchangeability gives the next draw of
lying beyond every one seen. Two placements, each the lower of the Student t bound (a stand-in
for the bootstrap-t) and that bound:

- `every`: on every sample, c = 1, 2, 3;
- `cochran`: only on samples that fail Cochran's rule for a mean (g1 < 0 and n <= 25 g1^2;
  Cochran 1977, Sampling Techniques, 3rd ed., section 2.15), c = 3, 10 and a = -1.

Per design: the share of samples whose low bound lies above the truth (for the outside audit's
designs, calibration/sim.rs `LongLoss` and `NormalLoss`, with the margin at their own drop: the
escape of `max-drop`), the mean low-side width (mean - low bound), and for `cochran` the share
of samples the rule picks; the t3 and normal cells are ordinary deltas (truth 0), where the width
is the price; last, the friction (exit 1 at m) of the nondeterministic no-op on every query
(N(0, 0.02^2) truncated at +-0.06), the honest kind the wider low side blocks first.

    python3 calibration/numpy_tail_point.py [SETS [SEED]]
"""
import sys

from scipy_env import ensure_scipy

ensure_scipy()

import numpy as np  # noqa: E402

import numpy_skew_route as skew  # noqa: E402

DRAWS = 2000


def tail_low(rng, d, a):
    n = len(d)
    w = rng.exponential(1.0, (DRAWS, n + 1))
    w /= w.sum(1, keepdims=True)
    return np.quantile(w[:, :n] @ d + w[:, n] * a, 0.025)


ROUTES = (("every", (1, 2, 3)), ("cochran", (3, 10, None)))


def low_bounds(rng, d):
    """t, then per route and c the lower of t and the tail-point bound; and whether Cochran fails."""
    tl = skew.t_low(d)
    worst = min(d.min(), 0.0)
    fails = skew.cochran_fails(d)
    out = [tl]
    for route, cs in ROUTES:
        for c in cs:
            a = -1.0 if c is None else max(c * worst, -1.0)
            applies = route == "every" or fails
            out.append(min(tl, tail_low(rng, d, a)) if applies else tl)
    return np.array(out), fails


def cell(rng, gen, sets, truth):
    above, width, picked = 0.0, 0.0, 0
    for _ in range(sets):
        d = gen()
        if np.all(d == 0):
            above = above + 1.0
            continue
        low, fails = low_bounds(rng, d)
        above = above + (low > truth)
        width = width + (d.mean() - low)
        picked += fails
    return 100 * above / sets, width / sets, 100 * picked / sets


def line(name, what, r):
    shares, width, picked = r
    fmt = lambda v, p: " ".join(f"{x:.{p}f}" for x in v)  # noqa: E731
    print(f"{name}: {what} t | every c=1,2,3 | cochran c=3,10,range: {fmt(shares[:1], 1)} | "
          f"{fmt(shares[1:4], 1)} | {fmt(shares[4:], 1)}; low-side width {fmt(width[:1], 4)} | "
          f"{fmt(width[1:4], 4)} | {fmt(width[4:], 4)}; Cochran fails {picked:.0f}%", flush=True)


def main():
    sets = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rng = np.random.default_rng(int(sys.argv[2]) if len(sys.argv) > 2 else 2026)
    print(f"{sets} samples a cell, {DRAWS} Dirichlet draws a bound")
    for n, share in ((30, 0.4), (40, 0.35), (50, 0.3), (100, 0.2)):
        m = -skew.LONG_MEAN * share
        r = cell(rng, lambda: skew.long_loss(rng, n, share), sets, -m)
        line(f"LongLoss {share:.0%} of {n}", "escape %", r)
    for n in (30, 50, 100):
        line(f"NormalLoss n = {n}", "escape %", cell(rng, lambda: skew.normal_loss(rng, n), sets, -0.015))
    for n in (30, 100):
        line(f"t3 (scale 0.05) n = {n}", "low side missed %",
             cell(rng, lambda: 0.05 * rng.standard_t(3, n), sets, 0.0))
        line(f"normal (sd 0.05) n = {n}", "low side missed %",
             cell(rng, lambda: 0.05 * rng.standard_normal(n), sets, 0.0))
    for n in (43, 100):
        for m in (0.01, 0.02):
            shares, width, picked = cell(rng, lambda: skew.prstream(rng, "jitter-100%", n, m), sets, -m)
            line(f"no-op on every query, {n} queries, m = {m}", "friction %", (100 - shares, width, picked))


if __name__ == "__main__":
    main()
