#!/usr/bin/env bash
# Keyed weights against positional ones, and the shards' cost: `check` on N queries (one metric
# in [0, 1], the `all` slice, 10,000 resamples, the percentile interval) with positional weights
# (the default; Poisson weights by position from 10,000 units) and with
# `[bootstrap] weights = "keyed"`; then `partial` on 4 shards of the same data (the time of each)
# and `merge` of the 4 summaries, with the summaries' size. Wall seconds by /usr/bin/time.
#
#     bash bench/shards/run.sh [BINARY] [N...]      (default: target/release/rag-gate, 100000 1000000)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bin="${1:-$root/target/release/rag-gate}"
shift || true
sizes=("${@:-100000 1000000}")
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
secs() { /usr/bin/time -f '%e %M' "$@" 2> "$work/time" > /dev/null || [ $? -eq 1 ]; tail -n 1 "$work/time"; }
echo "queries  positional-s  keyed-s  partial-s(each of 4)  merge-s  summary-bytes(each)"
for n in ${sizes[@]}; do
  python3 - "$work" "$n" <<'PY'
import random, sys
work, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(7)
files = {}
for side in ("b", "c"):
    files[side] = [open(f"{work}/{side}.jsonl", "w")] + [open(f"{work}/{side}-{k}.jsonl", "w") for k in range(4)]
for i in range(n):
    x = rng.random()
    c = min(1.0, max(0.0, x + (rng.random() - 0.5) * 0.1 if rng.random() < 0.3 else x))
    for side, v in (("b", x), ("c", c)):
        line = f'{{"query_id": "q{i}", "ndcg@10": {v}}}\n'
        files[side][0].write(line)
        files[side][1 + i % 4].write(line)
PY
  gate='[inputs]\nbaseline = "b.jsonl"\ncandidate = "c.jsonl"\n[bootstrap]\nmethod = "percentile"\nresamples = 10000\n[[gate]]\nmetric = "ndcg@10"\nmax-drop = 0.01\n'
  printf "$gate" > "$work/positional.toml"
  printf "$gate" | sed 's/^method/weights = "keyed"\nmethod/' > "$work/keyed.toml"
  pos="$(secs "$bin" check "$work/positional.toml")"
  key="$(secs "$bin" check "$work/keyed.toml")"
  parts=()
  for k in 0 1 2 3; do
    parts+=("$(secs "$bin" partial "$work/keyed.toml" --baseline "$work/b-$k.jsonl" --candidate "$work/c-$k.jsonl" -o "$work/s$k.json" | cut -d' ' -f1)")
  done
  merge="$(secs "$bin" merge "$work/keyed.toml" "$work"/s[0-3].json | cut -d' ' -f1)"
  "$bin" check "$work/keyed.toml" > "$work/check.txt" || true
  "$bin" merge "$work/keyed.toml" "$work"/s[0-3].json > "$work/merge.txt" || true
  cmp -s "$work/check.txt" "$work/merge.txt" || { echo "merge differs from check at $n"; exit 1; }
  echo "$n  ${pos%% *}  ${key%% *}  ${parts[*]}  $merge  $(stat -c %s "$work/s0.json")"
done
