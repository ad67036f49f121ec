#!/usr/bin/env bash
# Benchmark: what the protocol fingerprint adds to `rag-gate eval` on a 10 M-line run.
# Times BEFORE (a rag-gate without the fingerprint, e.g. built from main before it) and the
# current release build, alternately, on the same generated run and qrels (bench/eval/gen.py),
# writing the rows with -o (the current build also hashes the qrels, the query set and the rows
# and writes FILE.protocol.json). Prints each wall time, the medians, the fastest of each and
# the median of the per-round ratios (the one least moved by a busy disk).
# The cleanest BEFORE is this same commit with the one `fingerprint(...)` call in
# src/eval/engine.rs::evaluate removed (`protocol: None`), built with its own CARGO_TARGET_DIR.
#   BEFORE=/path/to/old/rag-gate bench/eval/protocol.sh [ROUNDS=5] [QUERIES=10000] [DEPTH=1000]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
rounds="${1:-5}"
queries="${2:-10000}"
depth="${3:-1000}"
work="${BENCH_DIR:-/tmp/rag-gate-bench}"
before="${BEFORE:?set BEFORE to a rag-gate binary without the fingerprint}"
mkdir -p "$work"
(cd "$root" && cargo build --release -q)
after="${CARGO_TARGET_DIR:-$root/target}/release/rag-gate"
run="$work/run.$queries.$depth.trec"
qrels="$work/qrels.$queries.$depth.txt"
if [ ! -s "$run" ] || [ ! -s "$qrels" ]; then
  python3 "$here/gen.py" "$queries" "$depth" "$run" "$qrels"
fi
metrics="ndcg@10,recall@5,recall@10,recall@100,p@10,mrr,map"
echo "run: $run ($(wc -l < "$run") lines)"
python3 - "$rounds" "$before" "$after" "$run" "$qrels" "$metrics" "$work" <<'PY'
import statistics, subprocess, sys, time
rounds, before, after, run, qrels, metrics, work = sys.argv[1:]
times = {"before": [], "after": []}
for i in range(int(rounds)):
    for name, exe in (("before", before), ("after", after)):
        t0 = time.perf_counter()
        subprocess.run([exe, "eval", "--qrels", qrels, "--run", run, "--metrics", metrics,
                        "--empty-gold", "zero", "-o", f"{work}/{name}.jsonl"],
                       check=True, stderr=subprocess.DEVNULL)
        times[name].append(time.perf_counter() - t0)
        print(f"round {i + 1} {name:6} {times[name][-1]:.2f} s", flush=True)
b, a = statistics.median(times["before"]), statistics.median(times["after"])
print(f"median before {b:.2f} s, after {a:.2f} s: {100 * (a / b - 1):+.1f}%")
fb, fa = min(times["before"]), min(times["after"])
print(f"fastest before {fb:.2f} s, after {fa:.2f} s: {100 * (fa / fb - 1):+.1f}%")
paired = statistics.median(y / x for x, y in zip(times["before"], times["after"]))
print(f"median per-round ratio: {100 * (paired - 1):+.1f}%")
same = open(f"{work}/before.jsonl", "rb").read() == open(f"{work}/after.jsonl", "rb").read()
print("rows identical" if same else "ROWS DIFFER")
sys.exit(0 if same else 1)
PY
