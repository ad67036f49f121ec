#!/usr/bin/env python3
"""Splits the TREC-COVID round 2 qrels (tests/data/eval/fixtures/trec-covid-r2) into a "human"
share and a simulated LLM judge with a known bias, for tests/it/judges_check.rs and docs/judges.md.

- human.qrels: the real qrels of a seeded random 12 of the 35 topics (the human-labelled sample).
- judge.qrels: every topic, graded by a simulated judge: the real grade, moved one step with
  probability 0.1 (noise); then the judge's bias: a document in the candidate's (covidex.sim)
  top 10 that it would grade 0, or that the pool never judged, it grades 2 with probability 0.7
  (it over-rates the candidate's documents); the baseline's unjudged top-10 documents it grades
  like the pool's (0 with probability 0.8, else 1).
- judge.qrels.judge.json: the sidecar naming the judge.
- queries.jsonl: conversations of 3 topics for the group unit, the 12 human topics in 4 whole
  conversations (humans label whole conversations).

Deterministic (seed 47). Run: python3 tests/data/judges/make_judge_fixture.py
"""
import json
import os
import random
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "eval", "fixtures", "trec-covid-r2")


def read_qrels(path):
    q = defaultdict(dict)
    with open(path) as f:
        for line in f:
            t = line.split()
            if len(t) == 4:
                q[t[0]][t[2]] = int(t[3])
    return q


def top(path, k=10):
    ranked = defaultdict(list)
    with open(path) as f:
        for line in f:
            qid, _, doc, rank, score, _ = line.split()
            ranked[qid].append((int(rank), doc))
    return {q: [d for _, d in sorted(v)[:k]] for q, v in ranked.items()}


def write(path, q):
    with open(path, "w") as f:
        for qid in sorted(q, key=int):
            for doc in sorted(q[qid]):
                f.write(f"{qid} 0 {doc} {q[qid][doc]}\n")


def main():
    rng = random.Random(47)
    real = read_qrels(os.path.join(FIX, "qrels.covid-round2.txt"))
    cand = top(os.path.join(FIX, "run.covidex-sim.txt"))
    base = top(os.path.join(FIX, "run.covidex-t5.txt"))
    topics = sorted(real, key=int)
    humans = set(rng.sample(topics, 12))
    write(os.path.join(HERE, "human.qrels"), {q: real[q] for q in topics if q in humans})
    judge = {}
    for q in topics:
        g = {}
        for doc, rel in sorted(real[q].items()):
            if rng.random() < 0.1:
                rel = min(2, max(0, rel + rng.choice([-1, 1])))
            g[doc] = rel
        for doc in base.get(q, []):
            if doc not in g:
                g[doc] = 0 if rng.random() < 0.8 else 1
        for doc in cand.get(q, []):
            if g.get(doc, 0) == 0 and rng.random() < 0.7:
                g[doc] = 2
            else:
                g.setdefault(doc, 0)
        judge[q] = g
    write(os.path.join(HERE, "judge.qrels"), judge)
    sidecar = {"model": "simulated-judge-v1", "prompt_hash": "sha256:0f1e2d3c",
               "date": "2026-12-01", "settings": {"temperature": 0, "bias": "candidate +0.7"}}
    with open(os.path.join(HERE, "judge.qrels.judge.json"), "w") as f:
        json.dump(sidecar, f, indent=1)
        f.write("\n")
    human_sorted = sorted(humans, key=int)
    others = [q for q in sorted(topics, key=int) if q not in humans]
    with open(os.path.join(HERE, "queries.jsonl"), "w") as f:
        for i, q in enumerate(human_sorted):
            f.write(json.dumps({"query_id": q, "group": "conv-h%d" % (i // 3)}) + "\n")
        for i, q in enumerate(others):
            f.write(json.dumps({"query_id": q, "group": "conv-u%d" % (i // 3)}) + "\n")
    print("human topics:", human_sorted)


if __name__ == "__main__":
    main()
