#!/usr/bin/env bash
# Benchmark: `rag-gate eval` (release build) vs pytrec_eval-terrier (trec_eval's C code behind a
# Python parser) on the same generated TREC run and qrels, end to end including parsing.
# Prints wall time, run lines/s and peak RSS for each, the ratio, and checks the means agree.
#   bench/eval/run.sh [QUERIES=10000] [DEPTH=1000]
# Needs python3 (a venv with pytrec-eval-terrier is made under /tmp) and cargo.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
queries="${1:-10000}"
depth="${2:-1000}"
work="${BENCH_DIR:-/tmp/rag-gate-bench}"
venv="${BENCH_VENV:-/tmp/rag-gate-bench-venv}"
timebin="${BENCH_TIME:-/usr/bin/time}"  # GNU time for peak RSS; else Python's getrusage
mkdir -p "$work"

if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import pytrec_eval' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q pytrec-eval-terrier
fi
(cd "$root" && cargo build --release -q)
bin="${CARGO_TARGET_DIR:-$root/target}/release/rag-gate"

run="$work/run.$queries.$depth.trec"
qrels="$work/qrels.$queries.$depth.txt"
if [ ! -s "$run" ] || [ ! -s "$qrels" ]; then
  echo "generating $queries x $depth run ..." >&2
  python3 "$here/gen.py" "$queries" "$depth" "$run" "$qrels"
fi
lines=$(wc -l < "$run")

# measure NAME CMD...: wall seconds and peak RSS (KiB) of CMD; stdout to $work/NAME.out
measure() {
  local name="$1"; shift
  local t0 t1
  t0=$(date +%s.%N)
  if [ -x "$timebin" ]; then
    "$timebin" -v "$@" > "$work/$name.out" 2> "$work/$name.time"
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/$name.time")
  else
    # No GNU time: run CMD under Python and read the children's peak RSS (KiB on Linux).
    python3 -c '
import resource, subprocess, sys
subprocess.run(sys.argv[2:], check=True)
open(sys.argv[1], "w").write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
' "$work/$name.rss" "$@" > "$work/$name.out"
    rss=$(cat "$work/$name.rss")
  fi
  t1=$(date +%s.%N)
  wall=$(python3 -c "print(f'{$t1 - $t0:.2f}')")
  printf '%-14s wall %7ss  %12s lines/s  peak RSS %8s MiB\n' "$name" "$wall" \
    "$(python3 -c "print(f'{$lines / ($t1 - $t0):,.0f}')")" \
    "$(python3 -c "print(f'{int(\"$rss\") / 1024:.0f}' if '$rss'.isdigit() else '?')")"
  eval "${name//-/_}_wall=$wall"
}

echo "run: $run ($lines lines), qrels: $qrels"
metrics="ndcg@10,recall@5,recall@10,recall@100,p@10,mrr,map"
measure rag-gate "$bin" eval --qrels "$qrels" --run "$run" --metrics "$metrics" --empty-gold zero \
  --format json
measure pytrec_eval "$venv/bin/python" "$here/pytrec.py" "$qrels" "$run"
python3 -c "print(f'speed-up (pytrec_eval wall / rag-gate wall): {$pytrec_eval_wall / $rag_gate_wall:.1f}x')"

# The two must agree: same means within 1e-9.
python3 - "$work/rag-gate.out" "$work/pytrec_eval.out" <<'PY'
import json, sys
ours = json.load(open(sys.argv[1]))["means"]
theirs = json.load(open(sys.argv[2]))["means"]
names = {"ndcg_cut_10": "ndcg@10", "recall_5": "recall@5", "recall_10": "recall@10",
         "recall_100": "recall@100", "P_10": "p@10", "recip_rank": "mrr", "map": "map"}
worst = max(abs(ours[names[m]] - v) for m, v in theirs.items())
print(f"means agree: max |diff| = {worst:.2e}")
sys.exit(0 if worst < 1e-9 else 1)
PY
