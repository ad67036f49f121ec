#!/usr/bin/env python3
"""Generate a TREC run (QUERIES x DEPTH lines) and graded qrels for the eval benchmark.

Deterministic (seeded). Scores descend with rank and include ties (rounded to 4 decimals) so
the tie rule is exercised; about 30 judged docs per query, a third of them retrieved.
"""
import random
import sys

queries, depth, out_run, out_qrels = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
rng = random.Random(42)
ndocs = 2_000_000
with open(out_run, "w") as run, open(out_qrels, "w") as qrels:
    for q in range(1, queries + 1):
        qid = f"q{q}"
        docs = rng.sample(range(ndocs), depth)
        score = 100.0
        lines = []
        for rank, d in enumerate(docs, 1):
            score -= rng.random() * 0.01
            lines.append(f"{qid} Q0 D{d} {rank} {score:.4f} bench\n")
        run.write("".join(lines))
        judged = set(rng.sample(docs, 10)) | set(rng.sample(range(ndocs), 20))
        qrels.write("".join(f"{qid} 0 D{d} {rng.choice((0, 0, 1, 1, 2))}\n" for d in sorted(judged)))
