#!/usr/bin/env bash
# Time and peak memory of the Hive folder walk (the wide case needs pyarrow; without it, only the
# links case runs, on a part file of the repository's test data):
#   bench/hostile/hive_links.sh BINARY [DEPTHS] [WIDTHS]
# - links: a Hive-partitioned Parquet folder DEPTH levels deep (k1=a/k2=a/…/part.parquet) with a
#   symbolic link beside each level (kI=b -> kI=a): 2^DEPTH paths through the links, one real
#   part file. `compare` stops at the first link to a folder already read (exit 2); the walk
#   used to follow every path (38 entries: 36–42 s, 1.56 GB).
# - wide: WIDTH partitions (k=0 … k=WIDTH−1), one part file each, no links: read whole (exit 0),
#   the walk linear in the entries.
set -euo pipefail
bin="$1"; depths="${2:-10 20 40}"; widths="${3:-500 2000}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
here="$(cd "$(dirname "$0")/../.." && pwd)"
cp "$here/tests/data/eval/parquet/hive/duckdb/risk=standard/language=en/data_0.parquet" "$dir/part.parquet"
measure() { /usr/bin/time -f "%e s, peak %M KB" "$bin" compare "$1" "$1" --format json >/dev/null 2>"$dir/err" || true; tail -1 "$dir/err"; }
for d in $depths; do
  root="$dir/links$d"; at="$root"
  for i in $(seq 1 "$d"); do mkdir -p "$at/k$i=a"; ln -s "k$i=a" "$at/k$i=b"; at="$at/k$i=a"; done
  cp "$dir/part.parquet" "$at/part.parquet"
  echo "links, depth $d ($((2 * d + 1)) entries): $(measure "$root")"
done
python3 -c "import pyarrow" 2>/dev/null || { echo "wide: skipped (no pyarrow)"; exit 0; }
for w in $widths; do
  root="$dir/wide$w"
  python3 - "$root" "$w" "$dir/part.parquet" <<'PY'
import os, sys
import pyarrow as pa
import pyarrow.parquet as pq
root, w = sys.argv[1], int(sys.argv[2])
for i in range(w):
    d = f"{root}/k={i}"
    os.makedirs(d)
    pq.write_table(pa.table({"query_id": [f"q{i}"], "ndcg@10": [0.5]}), f"{d}/part.parquet")
PY
  echo "wide, $w partitions: $(measure "$root")"
done
