#!/usr/bin/env python3
"""Generates the example evaluation set in examples/ (deterministic; stdlib only).

480 queries in 120 conversations of 4 turns, tagged with domain, language and risk. For each
query a few gold documents are placed in the baseline and candidate rankings; per-query
recall@5, mrr@5 and ndcg@10 (binary gain) are computed from those ranks. The candidate
improves most queries but ranks worse on the compliance-risk conversations: overall it looks
like a win, and the gate on risk=compliance is what catches it.

    python3 examples/make_examples.py   # rewrites examples/*.jsonl
"""
import json
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(20261130)

DOMAINS = ["fiqa", "scifact", "support", "legal"]
LANGS = ["en", "en", "en", "ko", "de"]


def distinct(ranks):
    """Two gold docs cannot share a rank: move a collision to the next free rank."""
    taken, out = set(), []
    for r in ranks:
        while r is not None and r in taken:
            r += 1
        if r is not None:
            taken.add(r)
        out.append(r)
    return out


def metrics(ranks, n_gold):
    """ranks: 1-based ranks of the gold docs found (None = not retrieved)."""
    found = sorted(r for r in distinct(ranks) if r is not None)
    recall5 = sum(1 for r in found if r <= 5) / n_gold
    mrr5 = next((1.0 / r for r in found if r <= 5), 0.0)
    dcg = sum(1.0 / math.log2(r + 1) for r in found if r <= 10)
    idcg = sum(1.0 / math.log2(i + 2) for i in range(min(n_gold, 10)))
    return {"recall@5": round(recall5, 6), "mrr@5": round(mrr5, 6), "ndcg@10": round(dcg / idcg, 6)}


def place(skill):
    """A gold doc's rank for a retriever of this skill (higher = better), or None if missed."""
    if rng.random() > 0.55 + 0.4 * skill:
        return None if rng.random() < 0.5 else rng.randint(6, 30)
    return min(30, 1 + int(rng.expovariate(0.3 + 2.2 * skill)))


def main():
    base_rows, cand_rows, query_rows = [], [], []
    for c in range(120):
        conv = f"conv-{c:03d}"
        domain = DOMAINS[c % 4]
        lang = rng.choice(LANGS)
        risk = "compliance" if c % 8 == 3 else "standard"
        difficulty = rng.uniform(-0.25, 0.2)
        for turn in range(4):
            qid = f"{conv}-t{turn}"
            n_gold = rng.choice([1, 1, 2, 3])
            skill_b = min(1.0, max(0.05, 0.55 + difficulty + rng.gauss(0, 0.12)))
            lift = -0.18 if risk == "compliance" else 0.10
            skill_c = min(1.0, max(0.05, skill_b + lift + rng.gauss(0, 0.06)))
            state = rng.getstate()
            ranks_b = [place(skill_b) for _ in range(n_gold)]
            rng.setstate(state)  # common random numbers: the two systems see the same luck
            ranks_c = [place(skill_c) for _ in range(n_gold)]
            slices = {"domain": domain, "language": lang, "risk": risk}
            base_rows.append({"query_id": qid, **metrics(ranks_b, n_gold)})
            cand_rows.append({"query_id": qid, **metrics(ranks_c, n_gold)})
            query_rows.append({"query_id": qid, "group": conv, "slices": slices})
    for name, rows in [("baseline", base_rows), ("candidate", cand_rows), ("queries", query_rows)]:
        with open(os.path.join(HERE, f"{name}.jsonl"), "w") as f:
            for row in rows:
                f.write(json.dumps(row, sort_keys=False) + "\n")


if __name__ == "__main__":
    main()
