#!/usr/bin/env python3
"""pytrec_eval (trec_eval's C code) end to end on the benchmark files: parse with
pytrec_eval.parse_qrel/parse_run, evaluate, average. Prints the means as JSON on stdout."""
import json
import sys

import pytrec_eval

MEASURES = {"ndcg_cut_10", "recall_5", "recall_10", "recall_100", "P_10", "recip_rank", "map"}
with open(sys.argv[1]) as f:
    qrels = pytrec_eval.parse_qrel(f)
with open(sys.argv[2]) as f:
    run = pytrec_eval.parse_run(f)
res = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut", "recall", "P", "recip_rank", "map"}).evaluate(run)
means = {m: sum(v[m] for v in res.values()) / len(res) for m in sorted(MEASURES)}
print(json.dumps({"queries": len(res), "means": means}))
