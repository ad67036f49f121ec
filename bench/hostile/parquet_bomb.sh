#!/usr/bin/env bash
# Peak memory and time of rag-gate on Parquet decompression bombs (needs pyarrow):
#   bench/hostile/parquet_bomb.sh BINARY [ROWS]      (ROWS default 20,000,000)
# - repeated id: ROWS rows of one query, one doc id and one score, run-length encoded into about
#   200 KB (`eval --run`): the duplicate check runs as rows arrive, so the read stops at row 2;
# - repeated query id: a per-query metric table with one query id in ROWS rows (`check`): the
#   same, at row 2;
# - distinct ids: one query's 1,100 doc ids of 64 KiB each (72 MB decoded) in about 13 KB: no id
#   repeats, so the decoded bytes, counted batch by batch and bounded like gzip's (200-fold the
#   file, at least 64 MiB), stop it.
# Each ends with exit 2, whatever the file declares.
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
one = lambda s: pa.array([s] * n, pa.string()).dictionary_encode()
pq.write_table(
    pa.table({"qid": one("q1"), "doc_id": one("d1"), "score": pa.array(np.ones(n), pa.float64())}),
    f"{d}/repeated.parquet", compression="zstd", row_group_size=1 << 20,
)
pq.write_table(
    pa.table({"query_id": one("q1"), "ndcg@10": pa.array(np.full(n, 0.5), pa.float64())}),
    f"{d}/table.parquet", compression="zstd", row_group_size=1 << 20,
)
u = 1100
pq.write_table(
    pa.table({
        "qid": pa.array(["q1"] * u, pa.string()),
        "doc_id": pa.array(["d" * 65536 + f"{i:05}" for i in range(u)], pa.string()),
        "score": pa.array(np.arange(u, 0, -1, dtype=np.float64)),
    }),
    f"{d}/distinct.parquet", compression="zstd", use_dictionary=["qid"], row_group_size=u,
)
open(f"{d}/qrels.txt", "w").write("q1 0 d1 1\n")
open(f"{d}/gate.toml", "w").write(
    '[inputs]\nbaseline = "table.parquet"\ncandidate = "table.parquet"\n'
    '[[gate]]\nmetric = "ndcg@10"\nmax-drop = 0.05\n')
PY
# One line: what, size, exit, seconds, peak MB, the error's start.
measure() {
    local what="$1" file="$2" code=0 secs kb; shift 2
    (cd "$dir" && /usr/bin/time -f "%e %M" -o "$dir/time" "$@" > /dev/null 2> "$dir/err") || code=$?
    read -r secs kb < <(tail -n 1 "$dir/time")
    printf '%-18s %9s bytes: exit %s, %6s s, peak %4s MB\n  %s\n' "$what" \
        "$(stat -c %s "$dir/$file")" "$code" "$secs" "$((kb / 1024))" "$(head -c 200 "$dir/err")"
}
measure "repeated id" repeated.parquet "$bin" eval --qrels qrels.txt --run repeated.parquet --metrics map
measure "repeated query id" table.parquet "$bin" check gate.toml
measure "distinct ids" distinct.parquet "$bin" eval --qrels qrels.txt --run distinct.parquet --metrics map
