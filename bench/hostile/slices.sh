#!/usr/bin/env bash
# Time `rag-gate check` on N and 4 × N critical slices (one query each, 40 resamples) in every
# report format, with peak memory, and print how much longer 4 × N took (linear: about 4; the
# claim in docs/hostile.md: within 2× of 4, i.e. a ratio under 8):
#   bench/hostile/slices.sh N BINARY
# Lookups between slices, comparisons and gates are maps built once (a scan per slice, gate or
# report row was quadratic).
set -euo pipefail
n="$1"; bin="$2"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
make() {
python3 - "$1" "$2" <<'PY'
import json, os, sys
d, n = sys.argv[1], int(sys.argv[2])
os.makedirs(d, exist_ok=True)
for side, bump in (("b", 0.0), ("c", 0.05)):
    with open(f"{d}/{side}.jsonl", "w") as f:
        for i in range(n):
            v = ((i * 37) % 10) / 20 + 0.2 + bump
            f.write(json.dumps({"query_id": f"q{i}", "ndcg@10": v, "slices": {"t": f"v{i}"}}) + "\n")
crit = ", ".join(json.dumps(f"t=v{i}") for i in range(n))
with open(f"{d}/gate.toml", "w") as f:
    f.write(f'[inputs]\nbaseline = "b.jsonl"\ncandidate = "c.jsonl"\n[bootstrap]\nresamples = 40\n'
            f'[slices]\ncritical = [{crit}]\nmin-queries = 1\nmin-moved = 1\n'
            f'[[gate]]\nmetric = "ndcg@10"\nmax-drop = 0.4\nslices = "critical"\n')
PY
}
# Seconds and peak KB of one check (the last line of time's output: a check that exits 1 adds
# "Command exited with non-zero status 1" before it); an error (exit 2) stops the bench.
measure() {
    local code=0
    /usr/bin/time -f "%e %M" -o "$dir/time" "$bin" check "$1/gate.toml" "${@:2}" > /dev/null \
        2> "$dir/err" || code=$?
    if [ "$code" -ge 2 ]; then echo "exit $code: $(head -c 400 "$dir/err")" >&2; exit 1; fi
    tail -n 1 "$dir/time"
}
make "$dir/n" "$n"
make "$dir/4n" "$((4 * n))"
printf '%-10s %12s %12s %12s %12s %7s\n' format "$n s" "$n peak MB" "$((4 * n)) s" "$((4 * n)) peak MB" ratio
for format in text markdown json html; do
    if [ "$format" = html ]; then args=(--export-html "$dir/r.html"); else args=(--format "$format"); fi
    read -r t1 m1 < <(measure "$dir/n" "${args[@]}")
    read -r t4 m4 < <(measure "$dir/4n" "${args[@]}")
    printf '%-10s %12s %12d %12s %12d %7.2f\n' "$format" "$t1" "$((m1 / 1024))" "$t4" "$((m4 / 1024))" \
        "$(echo "$t4 / $t1" | bc -l)"
done
