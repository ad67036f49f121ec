"""The sampling distribution of the type-7 difference q(candidate) - q(baseline) itself
(no bootstrap) on the model of `sim::quantile_gate` (difficulty 100*exp(0.5 N(0,1)) shared, each
side + N(0, 10^2)): its SD, the 95% quantile of |estimate| in SDs (1.96 for a normal) and the
excess kurtosis, over 20000 sets a cell. Shows whether over-coverage could come from the
estimate's own shape (it does not: it is close to normal).

    python3 calibration/numpy_quantile_shape.py     # ~1 min
"""
import numpy as np
from scipy.stats import kurtosis

rng = np.random.default_rng(5)
for p in (0.5, 0.95):
    for n in (50, 200, 1000):
        q = 100 * np.exp(0.5 * rng.standard_normal((20000, n)))
        b = q + 10 * rng.standard_normal(q.shape)
        c = q + 10 * rng.standard_normal(q.shape)
        e = np.quantile(c, p, axis=1) - np.quantile(b, p, axis=1)
        sd = e.std()
        q95 = np.quantile(np.abs(e), 0.95)
        print(
            f"p={p} n={n}: sd {sd:.2f}, 95% quantile of |est| {q95:.2f} = {q95 / sd:.2f} sd, "
            f"excess kurtosis {kurtosis(e):.2f}"
        )
