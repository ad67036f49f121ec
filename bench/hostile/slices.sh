#!/usr/bin/env bash
# Time `rag-gate check` on N critical slices (one query each, 40 resamples) for each binary
# given, in one run, so before/after figures share the machine:
#   bench/hostile/slices.sh N BINARY...
# Lookups of critical slices are sets and maps (a scan per slice was quadratic).
set -euo pipefail
n="$1"; shift
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" "$n" <<'PY'
import json, sys
d, n = sys.argv[1], int(sys.argv[2])
for side, bump in (("b", 0.0), ("c", 0.05)):
    with open(f"{d}/{side}.jsonl", "w") as f:
        for i in range(n):
            v = ((i * 37) % 10) / 20 + 0.2 + bump
            f.write(json.dumps({"query_id": f"q{i}", "ndcg@10": v, "slices": {"t": f"v{i}"}}) + "\n")
crit = ", ".join(json.dumps(f"t=v{i}") for i in range(n))
with open(f"{d}/gate.toml", "w") as f:
    f.write(f'[inputs]\nbaseline = "b.jsonl"\ncandidate = "c.jsonl"\n[bootstrap]\nresamples = 40\n'
            f'[slices]\ncritical = [{crit}]\nmin-queries = 1\n'
            f'[[gate]]\nmetric = "ndcg@10"\nmax-drop = 0.4\nslices = "critical"\n')
PY
for bin in "$@"; do
    start=$(date +%s.%N)
    "$bin" check "$dir/gate.toml" --format json > /dev/null || true
    end=$(date +%s.%N)
    printf '%s critical slices  %-40s %6.2f s\n' "$n" "$bin" "$(echo "$end - $start" | bc)"
done
