#!/usr/bin/env bash
# Builds the release binary, provides numpy in a venv, runs bench/check_bench.py.
#   bench/check_bench.sh [--queries 100000] [--resamples 10000] [--repeat 3] [--skip-numpy]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked --quiet
target="${CARGO_TARGET_DIR:-target}"
# The engine benchmark's executable (benches/engine.rs), timed on the same deltas as numpy.
engine=$(cargo bench --locked --bench engine --no-run --message-format=json 2>/dev/null |
    python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "engine" and m.get("executable"):
        print(m["executable"])')
venv="${BENCH_VENV:-/tmp/rag-gate-bench-venv}"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import numpy" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet numpy
fi
exec "$venv/bin/python" bench/check_bench.py --binary "$target/release/rag-gate" --engine "$engine" "$@"
