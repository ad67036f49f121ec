#!/usr/bin/env python3
"""Writes the ecosystem-format fixtures from the shared TREC fixtures (tests/data/eval/fixtures).

- run.json / qrels.json: ranx's own writers (`ranx.Run.save`, `ranx.Qrels.save`, ranx 0.3.21)
  after reading the TREC files with ranx (`Run.from_file(kind="trec")`, `Qrels.from_file`).
- qrels.beir.tsv: BEIR's qrels layout (beir/datasets/data_loader.py reads `query-id corpus-id
  score` with a header line, tab-separated).
- run.msmarco.tsv: MS MARCO's run layout (`qid<TAB>pid<TAB>rank`, ms_marco_eval.py), ranks in
  trec_eval's order (score descending, ties by docid descending).
- llamaindex.jsonl: one line per query with LlamaIndex's RetrievalEvalResult field names
  (`expected_ids`, `retrieved_ids` in rank order) and a `query_id`.
- *.gz: gzip (Python's gzip module) of run.json and run.msmarco.tsv.

Run from this folder: `python3 make.py` (needs `pip install ranx`).
"""
import gzip
import json
import shutil
from collections import defaultdict
from pathlib import Path

from ranx import Qrels, Run

HERE = Path(__file__).parent
SRC = HERE.parent / "fixtures"
CASES = {
    "cacm": ("cacm/qrels.cacm.txt", "cacm/run.cacm-bm25.txt"),
    "trec_eval_test": ("trec_eval_test/qrels.test", "trec_eval_test/results.test"),
}


def trec_run(path):
    """qid -> [(doc, score)] in trec_eval's order: score descending, ties by docid descending."""
    run = defaultdict(dict)
    for line in open(path, encoding="utf-8"):
        f = line.split()
        if len(f) >= 6 and not line.startswith("#"):
            run[f[0]][f[2]] = float(f[4])
    return {
        q: sorted(d.items(), key=lambda x: (x[1], x[0].encode()), reverse=True)
        for q, d in run.items()
    }


def trec_qrels(path):
    qrels = defaultdict(dict)
    for line in open(path, encoding="utf-8"):
        f = line.split()
        if len(f) == 4:
            qrels[f[0]][f[2]] = int(f[3])
    return qrels


def gz(path):
    with open(path, "rb") as src, open(str(path) + ".gz", "wb") as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as dst:
            shutil.copyfileobj(src, dst)


for name, (qrels_path, run_path) in CASES.items():
    out = HERE / name
    out.mkdir(exist_ok=True)
    Run.from_file(str(SRC / run_path), kind="trec").save(str(out / "run.json"))
    Qrels.from_file(str(SRC / qrels_path), kind="trec").save(str(out / "qrels.json"))
    qrels = trec_qrels(SRC / qrels_path)
    with open(out / "qrels.beir.tsv", "w", encoding="utf-8") as f:
        f.write("query-id\tcorpus-id\tscore\n")
        for q, docs in qrels.items():
            for d, rel in docs.items():
                f.write(f"{q}\t{d}\t{rel}\n")
    run = trec_run(SRC / run_path)
    with open(out / "run.msmarco.tsv", "w", encoding="utf-8") as f:
        for q, docs in run.items():
            for rank, (d, _) in enumerate(docs, 1):
                f.write(f"{q}\t{d}\t{rank}\n")
    with open(out / "llamaindex.jsonl", "w", encoding="utf-8") as f:
        for q in sorted(set(qrels) | set(run)):
            expected = [d for d, rel in qrels.get(q, {}).items() if rel > 0]
            retrieved = [d for d, _ in run.get(q, [])]
            f.write(json.dumps({"query_id": q, "expected_ids": expected, "retrieved_ids": retrieved}) + "\n")
    gz(out / "run.json")
    gz(out / "run.msmarco.tsv")
