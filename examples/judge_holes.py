#!/usr/bin/env python3
"""Sends the documents `rag-gate check --holes holes.jsonl` lists to a relevance judge and writes
judged qrels with the sidecar rag-gate's `[judge]` table reads.

    rag-gate check gates/prod.toml --holes holes.jsonl
    python3 examples/judge_holes.py holes.jsonl --docs corpus.jsonl --queries queries.jsonl \\
        --command "python3 my_judge.py" --model my-llm-2026-11 --prompt prompt.txt \\
        --out judge.qrels [--settings '{"temperature": 0}'] [--keep judge.qrels]

The judge is any program: for each document it gets one JSON line on stdin,
{"query_id", "query", "doc_id", "text", "prompt"}, and prints one line with the grade (an
integer, e.g. 0–3 as in UMBRELA). Nothing here calls a model itself: a judge is data to rag-gate.
`--keep` starts from existing judged qrels (documents already judged are not sent again).

Writes `OUT` (TREC qrels: `qid 0 docid grade`, sorted) and `OUT.judge.json`: {"model",
"prompt_hash" (sha256 of the prompt file), "date" (today, UTC), "settings"}. Which side
retrieved a document is never shown to the judge (the rank fields of holes.jsonl stay here), so
the judge cannot favour a side by knowing it.
"""
import argparse
import datetime
import hashlib
import json
import subprocess
import sys


def read_jsonl(path, key, value):
    out = {}
    with open(path) as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                out[str(row[key])] = row.get(value, "")
    return out


def read_qrels(path):
    grades = {}
    with open(path) as f:
        for line in f:
            t = line.split()
            if len(t) == 4:
                grades[(t[0], t[2])] = int(t[3])
    return grades


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("holes")
    ap.add_argument("--docs", required=True, help="JSONL with doc_id and text")
    ap.add_argument("--queries", required=True, help="JSONL with query_id and text")
    ap.add_argument("--command", required=True, help="the judge: reads JSON lines, prints grades")
    ap.add_argument("--model", required=True)
    ap.add_argument("--prompt", required=True, help="the prompt file (hashed into the sidecar)")
    ap.add_argument("--settings", default="{}")
    ap.add_argument("--keep", help="judged qrels to start from")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()

    prompt = open(a.prompt, encoding="utf-8").read()
    docs = read_jsonl(a.docs, "doc_id", "text")
    queries = read_jsonl(a.queries, "query_id", "text")
    grades = read_qrels(a.keep) if a.keep else {}
    todo = []
    with open(a.holes) as f:
        for line in f:
            h = json.loads(line)
            key = (str(h["query_id"]), str(h["doc_id"]))
            if key not in grades and key not in todo:
                todo.append(key)
    requests = "".join(
        json.dumps({"query_id": q, "query": queries.get(q, ""), "doc_id": d,
                    "text": docs.get(d, ""), "prompt": prompt}) + "\n"
        for q, d in todo)
    done = subprocess.run(a.command, shell=True, input=requests, capture_output=True, text=True,
                          check=True)
    answers = done.stdout.split()
    if len(answers) != len(todo):
        sys.exit(f"the judge answered {len(answers)} grades for {len(todo)} documents")
    for key, g in zip(todo, answers):
        grades[key] = int(g)
    with open(a.out, "w") as f:
        for (q, d), g in sorted(grades.items()):
            f.write(f"{q} 0 {d} {g}\n")
    sidecar = {"model": a.model,
               "prompt_hash": "sha256:" + hashlib.sha256(prompt.encode()).hexdigest(),
               "date": datetime.datetime.now(datetime.timezone.utc).date().isoformat(),
               "settings": json.loads(a.settings)}
    with open(a.out + ".judge.json", "w") as f:
        json.dump(sidecar, f, indent=1)
        f.write("\n")
    print(f"judged {len(todo)} documents; {a.out} holds {len(grades)} grades", file=sys.stderr)


if __name__ == "__main__":
    main()
