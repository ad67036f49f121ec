#!/usr/bin/env bash
# Time `rag-gate eval` on a run whose ir_metadata header nests flow sequences DEPTH deep
# (`tag: [[[…]]]`, 2 × DEPTH bytes) for each binary given, side by side with hyperfine:
#   bench/hostile/ir_metadata.sh DEPTH BINARY...
# The YAML parser's cost grows with the square of flow nesting (100,000 deep, 200 KB:
# ~25 s in a release build); the header is now counted as it is read and refused past 1024
# openings, before any parsing.
set -euo pipefail
depth="$1"; shift
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" "$depth" <<'PY'
import sys
d, n = sys.argv[1], int(sys.argv[2])
with open(f"{d}/run.trec", "w") as f:
    f.write("# ir_metadata.start\n# tag: " + "[" * n + "]" * n + "\n# ir_metadata.end\nq1 Q0 d1 1 1 t\n")
with open(f"{d}/qrels.txt", "w") as f:
    f.write("q1 0 d1 1\n")
PY
cmds=()
for bin in "$@"; do
    cmds+=("$bin eval --qrels $dir/qrels.txt --run $dir/run.trec --metrics ndcg@10 || true")
done
hyperfine --warmup 1 --runs 5 "${cmds[@]}"
