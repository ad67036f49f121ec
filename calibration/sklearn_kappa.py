#!/usr/bin/env python3
"""Independent reference for the judge's agreement κ that `rag-gate check` reports with
`[judge]`: scikit-learn's `cohen_kappa_score`, unweighted and `weights="linear"` on the grades,
and unweighted on relevant / not relevant at relevance level 1, over the (query, document) pairs
both the human qrels and the judge's graded.

Cases (tests/data/judges/kappa_reference.json, read by tests/it/judges_ppi.rs to 1e-9):
- fixture: tests/data/judges human.qrels against judge.qrels (TREC-COVID round 2 grades 0–2, the
  simulated judge of make_judge_fixture.py), checked through the binary;
- over-grader: the same human grades with a simulated judge that grades one step too high
  (capped at 2) with probability 0.6, else as the humans (seed 59): unweighted κ reads it as a
  poor judge, the binary and linear-weighted κ as a fair one. Checked on its confusion table.

Run:  pip install scikit-learn && python3 calibration/sklearn_kappa.py
"""
import json
import os
import random
from collections import defaultdict

from sklearn.metrics import cohen_kappa_score, confusion_matrix

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "judges")


def read_qrels(path):
    q = defaultdict(dict)
    with open(path) as f:
        for line in f:
            t = line.split()
            if len(t) == 4:
                q[t[0]][t[2]] = int(t[3])
    return q


def kappas(h, j, level=1):
    labels = sorted(set(h) | set(j))
    return {
        "pairs": len(h),
        "grades": labels,
        "confusion": confusion_matrix(h, j, labels=labels).tolist(),
        "unweighted": float(cohen_kappa_score(h, j)),
        "linear": float(cohen_kappa_score(h, j, weights="linear")),
        "binary": float(cohen_kappa_score([int(x >= level) for x in h],
                                          [int(x >= level) for x in j])),
    }


def main():
    human = read_qrels(os.path.join(DATA, "human.qrels"))
    judge = read_qrels(os.path.join(DATA, "judge.qrels"))
    h, j = [], []
    for q in sorted(human):
        for d in sorted(human[q]):
            if d in judge.get(q, {}):
                h.append(human[q][d])
                j.append(judge[q][d])
    rng = random.Random(59)
    over = [min(2, x + 1) if rng.random() < 0.6 else x for x in h]
    import sklearn
    out = {"source": "scikit-learn " + sklearn.__version__,
           "fixture": kappas(h, j), "over-grader": kappas(h, over)}
    with open(os.path.join(DATA, "kappa_reference.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print({k: {m: v[m] for m in ("unweighted", "linear", "binary")}
           for k, v in out.items() if k != "source"})


if __name__ == "__main__":
    main()
