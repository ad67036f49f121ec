#!/usr/bin/env bash
# Peak memory and time of `rag-gate eval` on a Parquet decompression bomb: ROWS rows (default
# 20,000,000) of one query, one doc id and one score, run-length encoded into about 140 KB
# (needs pyarrow). The decoded bytes are bounded like gzip's (200-fold the file, at least
# 64 MiB): the read stops there with exit 2, whatever the file declares.
#   bench/hostile/parquet_bomb.sh BINARY [ROWS]
set -euo pipefail
bin="$1"; rows="${2:-20000000}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" "$rows" <<'PY'
import sys
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
d, n = sys.argv[1], int(sys.argv[2])
pq.write_table(
    pa.table({
        "qid": pa.array(["q1"] * n, pa.string()).dictionary_encode(),
        "doc_id": pa.array(["d1"] * n, pa.string()).dictionary_encode(),
        "score": pa.array(np.ones(n), pa.float64()),
    }),
    f"{d}/bomb.parquet", compression="zstd", row_group_size=1 << 20,
)
open(f"{d}/qrels.txt", "w").write("q1 0 d1 1\n")
PY
size=$(stat -c %s "$dir/bomb.parquet")
/usr/bin/time -f "%e %M" -o "$dir/time" "$bin" eval --qrels "$dir/qrels.txt" \
    --run "$dir/bomb.parquet" --metrics map > /dev/null 2> "$dir/err" && code=0 || code=$?
read -r secs kb < <(tail -n 1 "$dir/time")
printf '%s rows in %s bytes: exit %s, %s s, peak %s MB\n  %s\n' "$rows" "$size" "$code" "$secs" \
    "$((kb / 1024))" "$(head -c 300 "$dir/err")"
