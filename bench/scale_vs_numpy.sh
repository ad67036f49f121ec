#!/usr/bin/env bash
# `rag-gate check` against numpy in one run (bench/scale_vs_numpy.py): 100k, 1M and 10M queries, the median
# gate against the mean gate, numpy's vectorised bootstrap, peak RSS. About 10 minutes on 2 cores
# at the defaults; ~3 GB of data under $BENCH_DIR (kept for the next run).
#   bench/scale_vs_numpy.sh [--repeat 3] [--resamples 10000] [--resamples-10m 1000] [--skip-10m]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked --quiet
target="${CARGO_TARGET_DIR:-target}"
dir="${BENCH_DIR:-/tmp/rag-gate-scale-vs-numpy}"
mkdir -p "$dir"
cp "$target/release/rag-gate" "$dir/rag-gate"   # a private copy: the target dir may be rebuilt meanwhile
venv="${BENCH_VENV:-/tmp/rag-gate-bench-venv}"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import numpy" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet numpy
fi
exec "$venv/bin/python" bench/scale_vs_numpy.py --binary "$dir/rag-gate" --folder "$dir" "$@"
