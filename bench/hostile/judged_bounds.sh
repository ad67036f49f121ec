#!/usr/bin/env bash
# Time and peak memory of `rag-gate check` on runs it evaluates itself (judged bounds of an
# uncut metric) as one query's ranking gets deeper, against `rag-gate eval` of the same run:
#   bench/hostile/judged_bounds.sh BINARY [DEPTH ...]      (default 4000 16000 64000)
# Each depth: one query ranking DEPTH documents on both sides (the candidate in reverse order),
# every tenth judged (one in three of those relevant), the rest unjudged, so nearly every
# document is in the pool of unjudged documents the bounds range over. Gated metrics: METRICS
# (default "ndcg map rprec mrr"), 40 resamples. Linear or n log n in depth: each 4× deeper run
# takes about 4× (a little more for n log n); quadratic would be 16×.
set -euo pipefail
bin="$1"; shift
depths=("$@"); [ ${#depths[@]} -gt 0 ] || depths=(4000 16000 64000)
metrics="${METRICS:-ndcg map rprec mrr}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
make() {
python3 - "$1" "$2" "$metrics" <<'PY'
import os, sys
d, n, metrics = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
os.makedirs(d, exist_ok=True)
with open(f"{d}/qrels.txt", "w") as f:
    for i in range(0, n, 10):
        f.write(f"q1 0 d{i} {1 if i % 30 == 0 else 0}\n")
for side, order in (("b", range(n)), ("c", reversed(range(n)))):
    with open(f"{d}/{side}.trec", "w") as f:
        for r, i in enumerate(order):
            f.write(f"q1 Q0 d{i} {r + 1} {n - r} {side}\n")
gates = "".join(f'[[gate]]\nmetric = "{m}"\nmax-drop = 0.05\n' for m in metrics)
with open(f"{d}/gate.toml", "w") as f:
    f.write('[inputs]\nqrels = "qrels.txt"\nbaseline = { run = "b.trec" }\n'
            'candidate = { run = "c.trec" }\n[bootstrap]\nresamples = 40\n'
            f'[slices]\nmin-queries = 1\n{gates}')
PY
}
# "seconds peak-MB" of one command (/usr/bin/time -v); exit 2 (an error) stops the bench.
measure() {
    local code=0 s kb
    /usr/bin/time -v -o "$dir/time" "$@" > /dev/null 2> "$dir/err" || code=$?
    if [ "$code" -ge 2 ]; then echo "exit $code: $(head -c 400 "$dir/err")" >&2; exit 1; fi
    s=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); v = 0; for (i = 1; i <= n; i++) v = v * 60 + t[i]; print v}' "$dir/time")
    kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$dir/time")
    echo "$s $((kb / 1024))"
}
printf '%-8s %10s %8s %10s %8s %12s\n' depth "check s" "peak MB" "eval s" "peak MB" "check ratio"
prev=""
for n in "${depths[@]}"; do
    make "$dir/$n" "$n"
    read -r tc mc < <(cd "$dir/$n" && measure "$bin" check gate.toml --format json)
    metric_list=$(echo "$metrics" | tr ' ' ',')
    read -r te me < <(cd "$dir/$n" && measure "$bin" eval --qrels qrels.txt --run c.trec --metrics "$metric_list")
    ratio="-"
    [ -n "$prev" ] && ratio=$(echo "$tc / $prev" | bc -l | xargs printf '%.2f')
    printf '%-8s %10s %8s %10s %8s %12s\n' "$n" "$tc" "$mc" "$te" "$me" "$ratio"
    prev="$tc"
done
