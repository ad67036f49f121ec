#!/usr/bin/env python3
"""Generates a large baseline/candidate pair of per-query metric files for bench/scale/run.sh.

    gen.py OUT_DIR [--queries N] [--shape normal|one-per-group|one-group|slice-per-query]

normal:           N queries in groups of 5, tags domain (20 values), language (25), risk (5):
                  50 slices; the candidate is slightly better except on risk=compliance.
one-per-group:    every query its own group.
one-group:        one group holding every query.
slice-per-query:  tag `only` with one value per query (N slices of one query each), all critical.

Writes baseline.jsonl and candidate.jsonl (metrics only), queries.jsonl (group and tags) and
gate.toml. Deterministic (no randomness beyond a fixed-seed LCG), streams lines to disk.
"""
import argparse
import os

p = argparse.ArgumentParser()
p.add_argument("out")
p.add_argument("--queries", type=int, default=1_000_000)
p.add_argument("--shape", default="normal", choices=["normal", "one-per-group", "one-group", "slice-per-query"])
p.add_argument("--resamples", type=int, default=1000)
a = p.parse_args()
os.makedirs(a.out, exist_ok=True)

state = 17
def rnd():
    global state
    state = (state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
    return (state >> 11) / float(1 << 53)

risks = ["standard", "standard", "standard", "elevated", "compliance"]
with open(os.path.join(a.out, "baseline.jsonl"), "w") as b, \
     open(os.path.join(a.out, "candidate.jsonl"), "w") as c, \
     open(os.path.join(a.out, "queries.jsonl"), "w") as q:
    for i in range(a.queries):
        qid = f"conv-{i // 5:07d}-t{i % 5}"
        if a.shape == "one-per-group":
            group = f"g{i}"
        elif a.shape == "one-group":
            group = "everything"
        else:
            group = f"conv-{i // 5:07d}"
        if a.shape == "slice-per-query":
            tags = f'"only":"{qid}"'
        else:
            g = i // 5
            tags = f'"domain":"d{g % 20:02d}","language":"l{(g * 7) % 25:02d}","risk":"{risks[g % 5]}"'
        nb = round(rnd(), 4)
        rb = round(rnd(), 4)
        mb = round(rnd(), 4)
        shift = -0.02 if (i // 5) % 5 == 4 else 0.01
        nc = min(1.0, max(0.0, round(nb + shift + (rnd() - 0.5) * 0.1, 4)))
        b.write(f'{{"query_id":"{qid}","ndcg@10":{nb},"recall@5":{rb},"mrr@10":{mb}}}\n')
        c.write(f'{{"query_id":"{qid}","ndcg@10":{nc},"recall@5":{rb},"mrr@10":{mb}}}\n')
        q.write(f'{{"query_id":"{qid}","group":"{group}","slices":{{{tags}}}}}\n')

if a.shape == "slice-per-query":
    # Every one-query slice critical: N + 1 gated slices, all but `all` too small to judge.
    crit = ", ".join(f'"only=conv-{i // 5:07d}-t{i % 5}"' for i in range(a.queries))
    slices = f'by = ["only"]\ncritical = [{crit}]'
else:
    slices = 'by = ["domain", "language", "risk"]\ncritical = ["risk=compliance"]'
with open(os.path.join(a.out, "gate.toml"), "w") as g:
    g.write(f"""[inputs]
baseline = "baseline.jsonl"
candidate = "candidate.jsonl"
queries = "queries.jsonl"

[bootstrap]
resamples = {a.resamples}
unit = "group"

[slices]
{slices}
min-queries = 30

[[gate]]
metric = "ndcg@10"
max-drop = 0.01
slices = "critical"

[[gate]]
metric = "recall@5"
max-drop = 0.01
""")
