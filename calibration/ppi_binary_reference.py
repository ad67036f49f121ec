#!/usr/bin/env python3
"""Independent reference for the corrected (prediction-powered) delta that `rag-gate check`
reports with `[judge]`, at the query unit and the group unit, on real qrels: TREC-COVID round 2
(covidex-t5 → covidex-sim) with the simulated judge of tests/data/judges (make_judge_fixture.py).

P@10 per query is computed here as trec_eval computes it (score descending, ties by document id
descending; relevant = grade ≥ 1; a query is evaluated when its qrels hold a relevant document),
under the human qrels and the judge's; the per-query deltas (candidate − baseline) go to
ppi-python's `ppi_mean_pointestimate` (PyPI `ppi-python`, the authors' package) with `lam=None`
(PPI++). rag-gate's λ and point estimate are computed over queries whatever the unit, so both
units must give ppi-python's estimate (tests/it/judges_ppi.rs, to 1e-9).

Writes tests/data/judges/ppi/: the human qrels of a seeded 10 of the fixture's 12 human topics
(human10.qrels), a queries file that puts those 10 labelled queries in 9 conversations with
unlabelled queries beside them (queries-10-in-9.jsonl: the query unit must count 10 queries), a
queries file of whole labelled conversations of 2 (queries-whole.jsonl, with the fixture's 12
human topics: 6 labelled conversations), and expected.json.

Run:  pip install ppi-python && python3 calibration/ppi_binary_reference.py
"""
import json
import os
import random
from collections import defaultdict

import numpy as np
from ppi_py import ppi_mean_pointestimate

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DATA = os.path.join(ROOT, "tests", "data", "judges")
RUNS = os.path.join(ROOT, "tests", "data", "eval", "fixtures", "trec-covid-r2")
OUT = os.path.join(DATA, "ppi")


def read_qrels(path):
    q = defaultdict(dict)
    with open(path) as f:
        for line in f:
            t = line.split()
            if len(t) == 4:
                q[t[0]][t[2]] = int(t[3])
    return q


def read_run(path):
    r = defaultdict(list)
    with open(path) as f:
        for line in f:
            qid, _, doc, _, score, _ = line.split()
            r[qid].append((float(score), doc))
    return r


def p_at_10(run, qrels):
    """trec_eval's P_10 for each query with a relevant document (run order: score, then doc id,
    both descending)."""
    out = {}
    for q, judged in qrels.items():
        if not any(g >= 1 for g in judged.values()):
            continue
        ranked = sorted(run.get(q, []), key=lambda sd: (sd[0], sd[1]), reverse=True)[:10]
        out[q] = sum(1 for _, d in ranked if judged.get(d, 0) >= 1) / 10.0
    return out


def deltas(qrels):
    b = p_at_10(read_run(os.path.join(RUNS, "run.covidex-t5.txt")), qrels)
    c = p_at_10(read_run(os.path.join(RUNS, "run.covidex-sim.txt")), qrels)
    return {q: c[q] - b[q] for q in b if q in c}


def estimate(human, judge, labelled):
    """ppi-python's PPI++ point estimate: human deltas on the labelled queries, the judge's on the
    same queries and on every other query the judge evaluates."""
    lab = sorted(q for q in labelled if q in human and q in judge)
    unl = sorted(q for q in judge if q not in set(lab))
    y = np.array([human[q] for q in lab])
    yhat = np.array([judge[q] for q in lab])
    u = np.array([judge[q] for q in unl])
    est = float(np.asarray(ppi_mean_pointestimate(y, yhat, u, lam=None)).item())
    return {"estimate": est, "labelled_queries": len(lab), "unlabelled_queries": len(unl)}


def write_queries(path, groups):
    with open(path, "w") as f:
        for q, g in sorted(groups.items(), key=lambda qg: int(qg[0])):
            f.write(json.dumps({"query_id": q, "group": g}) + "\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = random.Random(59)
    human_all = read_qrels(os.path.join(DATA, "human.qrels"))
    judge_q = read_qrels(os.path.join(DATA, "judge.qrels"))
    twelve = sorted(human_all, key=int)
    ten = sorted(rng.sample(twelve, 10), key=int)
    with open(os.path.join(OUT, "human10.qrels"), "w") as f:
        for q in ten:
            for doc in sorted(human_all[q]):
                f.write(f"{q} 0 {doc} {human_all[q][doc]}\n")
    topics = sorted(judge_q, key=int)
    others = [q for q in topics if q not in ten]
    rng.shuffle(others)
    # 10 labelled queries in 9 conversations, each with unlabelled queries beside them.
    groups = {ten[0]: "c0", ten[1]: "c0"}
    for i, q in enumerate(ten[2:], start=1):
        groups[q] = f"c{i}"
    for i, q in enumerate(others):
        groups[q] = f"c{i % 12}"
    write_queries(os.path.join(OUT, "queries-10-in-9.jsonl"), groups)
    # Whole labelled conversations of 2 (the 12 human topics), unlabelled ones of 2 or 3.
    rest = [q for q in topics if q not in twelve]
    whole = {q: f"h{i // 2}" for i, q in enumerate(twelve)}
    whole.update({q: f"u{i // 2}" for i, q in enumerate(rest)})
    write_queries(os.path.join(OUT, "queries-whole.jsonl"), whole)

    judge_d = deltas(judge_q)
    out = {
        "source": "ppi-python " + __import__("importlib.metadata").metadata.version("ppi-python"),
        "metric": "p@10",
        "query-unit-10-in-9": estimate(deltas(read_qrels(os.path.join(OUT, "human10.qrels"))),
                                       judge_d, ten),
        "group-unit-whole": estimate(deltas(human_all), judge_d, twelve),
    }
    out["group-unit-whole"]["labelled_groups"] = len(set(whole[q] for q in twelve))
    out["group-unit-whole"]["unlabelled_groups"] = len(set(whole[q] for q in rest))
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
