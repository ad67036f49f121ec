"""Double-bootstrap calibrated percentile interval (Beran 1987 prepivoting; Hall & Martin 1988;
Hall 1992 s3.11) for the paired type-7 difference q_c(p) - q_b(p).
Outer: the usual B paired resamples, d*_r. Inner: for the first B1 outer resamples, B2 paired
resamples of resample r, d**_{r,s}; u_r = #{d** < est}/B2 + 0.5 #{d** = est}/B2 (est plays the
truth in the bootstrap world). Calibrated levels a_lo = quantile(u, .025), a_hi = quantile(u, .975);
interval = [quantile(d*, a_lo), quantile(d*, a_hi)].
dblh (ad hoc): levels Phi((Phi^-1(a_cal) + Phi^-1(a_nominal))/2), i.e. half the calibration in z.  Cost: B + B1*B2 resamples instead of B."""
import sys, time, numpy as np
from scipy.stats import norm
from qdiff_candidates import cell_seed, coverage_text, draw, t7
def cell(model, p, n, sets, B, B1, B2):
    seed = cell_seed(model, p, n)
    rng = np.random.default_rng(seed)
    names = ["perc", "dbl", "dblh"]; lo = dict.fromkeys(names, 0); hi = dict.fromkeys(names, 0); al = []
    for _ in range(sets):
        b, c = draw(model, n, rng)
        est = t7(np.sort(c), p) - t7(np.sort(b), p)
        idx = rng.integers(0, n, (B, n))
        rng.standard_normal((B, n)); rng.standard_normal((B, n)); rng.random((B, n))
        d7 = t7(np.sort(c[idx], 1), p) - t7(np.sort(b[idx], 1), p)
        inner = np.take_along_axis(idx[:B1, None, :].repeat(B2, 1), rng.integers(0, n, (B1, B2, n)), 2)
        dd = t7(np.sort(c[inner], 2), p) - t7(np.sort(b[inner], 2), p)
        u = (dd < est).mean(1) + 0.5 * (dd == est).mean(1)
        alo, ahi = np.quantile(u, [0.025, 0.975]); al.append((alo, ahi))
        ivs = {"perc": np.quantile(d7, [0.025, 0.975]), "dbl": np.quantile(d7, [alo, ahi]),
                "dblh": np.quantile(d7, norm.cdf((norm.ppf([alo, ahi]) + norm.ppf([0.025, 0.975])) / 2))}
        for k, (l, h) in ivs.items():
            lo[k] += l > 0; hi[k] += h < 0
    al = np.array(al)
    out = [coverage_text(k, lo[k], hi[k], sets) for k in names]
    print(f"{model:8s} p={p} n={n:4d}: " + "; ".join(out) + f"; median levels {np.median(al[:,0]):.3f}/{np.median(al[:,1]):.3f}", flush=True)
if __name__ == "__main__":
    sets, B, B1, B2 = map(int, sys.argv[1:5])
    for spec in sys.argv[5:]:
        mm, p, n = spec.split(":"); t0 = time.time(); cell(mm, float(p), int(n), sets, B, B1, B2); print(f"  [{time.time()-t0:.0f}s]", flush=True)
