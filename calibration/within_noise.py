"""How often the "unchanged beyond run-to-run noise" reading (src/noise/band.rs, verdict::no_op::
within_noise) is granted: for a nondeterministic no-op (the friction it removes) and for a
regression at the margin (an upper bound on the escape it can add: a granted regression reads
untouched, whatever its interval would have said).

Retriever model: each query has a value u ~ U(0.2, 0.9); a share rho of the queries is flaky (an
ANN tie at a rank cut): in every run such a query shows u or u + b (b ~ U(0.02, 0.1), each with
chance 1/2), the others show u. The A/A noise file comes from K runs of main: per query its
range (its band), F = the queries that differ, the run band = the largest band, the floor
t(K-1) * sqrt(2) * sd(run means). The check pairs a fresh run of main with a fresh run of the pull
request: a no-op, or a regression whose true mean change is -m:
  spread: 40% (m = 0.02) / 20% (m = 0.01) of the queries lose 0.05;
  few:    4% of the queries lose m / 0.04;
  flaky:  every flaky query loses its own b, scaled so the mean loss is m (the hostile case:
          moves inside the bands main measured; b is capped at the query's range).
The reading is granted when every |delta| <= the query's band (its own, else the run band), at
most F queries moved, |mean delta| <= floor, and (the F largest bands) / n <= m.

Pure Python (random.Random, seeded); no numpy.
usage: python3 calibration/within_noise.py SETS SEED
"""
import math
import random
import statistics
import sys

T975 = {2: 4.302652729911275, 4: 2.7764451051977987}  # scipy.stats.t.ppf(0.975, df)


def flaky_run(rng, base, b, flaky):
    return [u + (b[i] if flaky[i] and rng.random() < 0.5 else 0.0) for i, u in enumerate(base)]


def noise_file(rng, base, b, flaky, k):
    runs = [flaky_run(rng, base, b, flaky) for _ in range(k)]
    bands = [max(r[i] for r in runs) - min(r[i] for r in runs) for i in range(len(base))]
    means = [statistics.fmean(r) for r in runs]
    floor = T975[k - 1] * math.sqrt(2.0) * statistics.stdev(means)
    return bands, floor


def granted(deltas, bands, floor, m, eps=1e-9):
    run_band = max(bands)
    f = sum(1 for x in bands if x > eps)
    own = [x if x > eps else run_band for x in bands]
    moved = 0
    for d, band in zip(deltas, own):
        if abs(d) > max(band, eps):
            return False
        if abs(d) > eps:
            moved += 1
    if moved == 0 or moved > f:
        return False
    if abs(statistics.fmean(deltas)) > floor:
        return False
    carry = sum(sorted(own, reverse=True)[:f]) / len(deltas)
    return carry <= m


def regression(rng, kind, n, m, b, flaky, bands):
    loss = [0.0] * n
    if kind == "spread":
        share = m / 0.05
        for i in range(n):
            if rng.random() < share:
                loss[i] = 0.05
    elif kind == "few":
        for i in range(n):
            if rng.random() < 0.04:
                loss[i] = m / 0.04
    elif kind == "flaky":
        total = sum(b[i] for i in range(n) if flaky[i])
        if total == 0:
            return loss
        scale = m * n / total
        for i in range(n):
            if flaky[i]:
                loss[i] = min(b[i] * scale, bands[i] if bands[i] > 0 else b[i] * scale)
    return loss


def cell(sets, seed, n, rho, k, m, kind):
    """The share of sets granted, and the mean true loss the design applied."""
    rng = random.Random(f"{seed}/{n}/{rho}/{k}/{m}/{kind}")
    hits, applied = 0, 0.0
    for _ in range(sets):
        base = [rng.uniform(0.2, 0.9) for _ in range(n)]
        flaky = [rng.random() < rho for _ in range(n)]
        b = [rng.uniform(0.02, 0.1) for _ in range(n)]
        bands, floor = noise_file(rng, base, b, flaky, k)
        main = flaky_run(rng, base, b, flaky)
        pr = flaky_run(rng, base, b, flaky)
        if kind != "no-op":
            loss = regression(rng, kind, n, m, b, flaky, bands)
            applied += statistics.fmean(loss)
            pr = [v - l for v, l in zip(pr, loss)]
        hits += granted([c - a for a, c in zip(main, pr)], bands, floor, m)
    return hits / sets, applied / sets


def main():
    sets, seed = int(sys.argv[1]), int(sys.argv[2])
    print(f"within-noise reading granted, % of {sets} sets (seed {seed}); K A/A replicates")
    print("  n   flaky  K  margin | no-op | regression at -m: spread      few         flaky "
          "(its mean loss)")
    for n in (43, 100, 200):
        for rho in (0.01, 0.05, 0.2):
            for k in (3, 5):
                for m in (0.01, 0.02):
                    got = [cell(sets, seed, n, rho, k, m, kind)
                           for kind in ("no-op", "spread", "few", "flaky")]
                    r = [100 * g for g, _ in got]
                    se = [100 * math.sqrt(max(x / 100 * (1 - x / 100), 1 / sets) / sets) for x in r]
                    print(f"{n:4d}  {rho:5.2f}  {k}  {m:.2f}  | {r[0]:5.1f} | "
                          + "  ".join(f"{x:5.1f}±{s:.1f}" for x, s in zip(r[1:], se[1:]))
                          + f" ({got[3][1]:.4f})")


if __name__ == "__main__":
    main()
