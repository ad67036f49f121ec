"""Reference answers for src/stats/welch.rs: Welch's t interval of a difference of means and of
a log-ratio, from scipy.stats.ttest_ind(equal_var=False), and the log-scale delta interval of
the ratio of arithmetic means (numpy moments, the two squared coefficients of variation of the
means, Hsu's df min(n_b, n_c) - 1, scipy's t quantile). Writes
tests/data/stats/scipy_welch.json.

    python3 calibration/scipy_welch.py
"""
import json
import math

import numpy as np
import scipy
from scipy import stats

CASES = [
    ("timings-5-5", [12.1, 12.4, 11.9, 12.6, 12.0], [13.0, 12.7, 13.4, 12.9, 13.1]),
    ("unequal-3-7", [100.0, 104.0, 98.0], [90.0, 91.5, 89.0, 95.0, 88.0, 92.0, 90.5]),
    ("wide-4-3", [1.0, 2.0, 4.0, 8.0], [3.0, 3.5, 2.5]),
]

out = {"scipy": scipy.__version__, "numpy": np.__version__, "cases": []}
for name, b, c in CASES:
    case = {"name": name, "baseline": b, "candidate": c}
    for conf in (0.95, 0.90):
        r = stats.ttest_ind(c, b, equal_var=False)
        lo, hi = r.confidence_interval(confidence_level=conf)
        rl = stats.ttest_ind(np.log(c), np.log(b), equal_var=False)
        llo, lhi = rl.confidence_interval(confidence_level=conf)
        cb = np.var(b, ddof=1) / (len(b) * np.mean(b) ** 2)
        cc = np.var(c, ddof=1) / (len(c) * np.mean(c) ** 2)
        mdf = min(len(b), len(c)) - 1
        half = stats.t.ppf(1 - (1 - conf) / 2, mdf) * math.sqrt(cb + cc)
        ratio = float(np.mean(c) / np.mean(b))
        case[str(conf)] = {
            "ratio_of_means": [ratio * math.exp(-half), ratio * math.exp(half)],
            "ratio_of_means_estimate": ratio,
            "means_df": float(mdf),
            "difference": [float(lo), float(hi)],
            "df": float(r.df),
            "ratio": [math.exp(llo), math.exp(lhi)],
            "ratio_estimate": math.exp(float(np.mean(np.log(c)) - np.mean(np.log(b)))),
            "log_df": float(rl.df),
        }
    out["cases"].append(case)
with open("tests/data/stats/scipy_welch.json", "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
