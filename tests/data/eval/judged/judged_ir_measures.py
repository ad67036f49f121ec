#!/usr/bin/env python3
"""Reference for rag-gate's judged@k: ir_measures' Judged@k, per query, on the shared fixtures.

    python3 -m venv /tmp/irm && /tmp/irm/bin/pip install ir-measures
    /tmp/irm/bin/python tests/data/eval/judged/judged_ir_measures.py > tests/data/eval/judged/judged.ir_measures.tsv

Output: `run<TAB>query_id<TAB>measure<TAB>value` (repr of the float), sorted; a `#` header line
names the ir_measures version. Paths are relative to the repository root.

Ties: ir_measures' Judged provider orders by score descending, then doc id ascending; trec_eval
(and rag-gate's default order) break ties by doc id descending. So that both put the same
documents in the top k, each run's scores are first replaced by -(rank under trec_eval's rule).
"""
import sys

import ir_measures
from ir_measures import Judged

FIX = "tests/data/eval/fixtures"
CASES = [
    ("cacm/run.cacm-bm25.txt", "cacm/qrels.cacm.txt"),
    ("trec-covid-r2/run.covidex-sim.txt", "trec-covid-r2/qrels.covid-round2.txt"),
    ("trec-covid-r2/run.covidex-t5.txt", "trec-covid-r2/qrels.covid-round2.txt"),
    ("trec_eval_test/results.test", "trec_eval_test/qrels.rel_level"),
]
MEASURES = [Judged @ 5, Judged @ 10, Judged @ 100]

print(f"# ir_measures {ir_measures.__version__}: Judged@5, Judged@10, Judged@100")
rows = []
for run, qrels in CASES:
    q = list(ir_measures.read_trec_qrels(f"{FIX}/{qrels}"))
    by_q = {}
    for line in open(f"{FIX}/{run}"):
        f = line.split()
        if len(f) >= 6:
            by_q.setdefault(f[0], []).append((float(f[4]), f[2]))
    r = {}
    for qid, docs in by_q.items():
        # trec_eval: score descending, ties by doc id descending (byte order).
        docs.sort(key=lambda x: (x[0], x[1].encode()), reverse=True)
        r[qid] = {d: -float(i + 1) for i, (_, d) in enumerate(docs)}
    for m in ir_measures.iter_calc(MEASURES, q, r):
        rows.append((run, m.query_id, str(m.measure), repr(float(m.value))))
for row in sorted(rows):
    print("\t".join(row))
