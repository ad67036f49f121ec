#!/usr/bin/env bash
# The shards example on a real engine, run by .ci/run: examples/shards_duckdb.py has DuckDB
# (PyPI) write both sides' per-query metrics as a Hive-partitioned Parquet folder, runs
# `rag-gate partial` on each partition and `rag-gate merge` on the summaries, and fails unless
# the merged report is byte for byte the report of `rag-gate check` on the whole folder (text
# and JSON, and the exit code).
# Tools come from PyPI into a cached venv like scripts/validate-junit.sh.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
tools="${RAG_GATE_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/rag-gate-tools}"
duckdb_version="1.4.1"
venv="$tools/duckdb-$duckdb_version"

if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import duckdb' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "duckdb==$duckdb_version"
fi
[ -z "${RAG_GATE_TOOLS_ONLY:-}" ] || exit 0 # scripts/ci-tools.sh: install only

bin="${CARGO_TARGET_DIR:-$root/target}/debug/rag-gate"
cargo build --locked --quiet --bin rag-gate
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$venv/bin/python" examples/shards_duckdb.py --rag-gate "$bin" --work "$work"
