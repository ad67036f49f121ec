"""How often a side's whole-run shift variance truncates to 0 (the re-run of the replicate
cells): the two-way ANOVA decomposition of `stats::crossed::side_noise`,
sigma_r^2 = max(0, s_m^2 - MS_e / n), replayed in numpy on the model of
`calibration/replicates.rs` (500 queries, 30% of them jitter N(0, 0.1^2), a whole-run shift
N(0, 0.005^2) per run), for 3 and 5 runs, 4000 sets each.

    python3 calibration/numpy_crossed_truncation.py     # ~1 min; output in results.txt
"""
import numpy as np

rng = np.random.default_rng(5)
n = 500
for R in (3, 5):
    zero, sets = 0, 4000
    for _ in range(sets):
        flaky = rng.random(n) < 0.3
        x = 0.005 * rng.standard_normal(R)[:, None] + np.where(
            flaky, 0.1 * rng.standard_normal((R, n)), 0.0
        )
        m = x.mean(axis=1)
        dev = m - m.mean()
        ms = (dev**2).sum() / (R - 1)
        resid = x - x.mean(axis=0)[None, :] - dev[:, None]
        mse = (resid**2).sum() / ((n - 1) * (R - 1))
        zero += (ms - mse / n) <= 0
    print(f"{R} runs: shift variance truncated to 0 in {zero / sets:.4f} of sets", flush=True)
