#!/usr/bin/env bash
# `rag-gate check` on 10^5, 10^6 (and with --sizes 1e5,1e6,1e7, 10^7) queries of per-query
# metrics as JSONL and as Parquet, under /usr/bin/time -v, beside numpy's vectorised bootstrap
# on the same files (bench/per_query_scale.py). The 10^7 files are ~1.9 GB of JSONL and
# ~140 MB of Parquet under $BENCH_DIR (kept for the next run); their runs take minutes.
#   bench/per_query_scale.sh [--sizes 1e5,1e6,1e7] [--resamples 10000] [--skip-numpy]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked --quiet
target="${CARGO_TARGET_DIR:-target}"
dir="${BENCH_DIR:-/tmp/rag-gate-per-query-scale}"
mkdir -p "$dir"
cp "$target/release/rag-gate" "$dir/rag-gate"   # a private copy: the target dir may be rebuilt meanwhile
venv="${BENCH_VENV:-/tmp/rag-gate-bench-venv}"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import numpy, pyarrow" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet numpy pyarrow
fi
exec "$venv/bin/python" bench/per_query_scale.py --binary "$dir/rag-gate" --folder "$dir" "$@"
