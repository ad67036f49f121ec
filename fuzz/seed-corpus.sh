#!/usr/bin/env bash
# Seeds the corpus of every fuzz target under DIR (DIR/<target>/), once: a folder that exists
# is left as it is. scripts/fuzz.sh seeds fuzz/corpus/ with it before fuzzing; scripts/fuzz-build.sh
# seeds a temporary folder and replays it through the stable build.
#
#   fuzz/seed-corpus.sh DIR
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
corpus="$1"

seed() { # seed <target> <file>...: the first 4 KiB of each file, into a new corpus folder
  local dir="$corpus/$1"; shift
  if [ ! -d "$dir" ]; then
    mkdir -p "$dir"
    for f in "$@"; do [ -f "$f" ] && head -c 4096 "$f" > "$dir/$(basename "$f")"; done
  fi
}
text() { # text <target> <printf format>: one hand-written seed, into a new corpus folder
  local dir="$corpus/$1"
  if [ ! -d "$dir" ]; then
    mkdir -p "$dir"
    # shellcheck disable=SC2059 # the format is the seed, escapes included
    printf "$2" > "$dir/seed"
  fi
}

seed jsonl_metrics "$root/examples/baseline.jsonl" "$root/examples/candidate.jsonl"
seed queries_file "$root/examples/queries.jsonl"
seed gate_file "$root/gates/prod.toml"
text csv_metrics '\x00query_id,group,slice:lang,ndcg@10,recall@5\nq1,g1,ko,0.5,1\nq2,,en,0.25,0\n'
text per_query_text '\x00ndcg_cut_10           \tq1\t0.5\nrecall_5\tq1\t1.0\nmap\tall\t0.2\n'
text pair '{"query_id":"q1","ndcg@10":0.5}\n{"query_id":"q2","ndcg@10":0.1}\n\xff{"query_id":"q1","ndcg@10":0.7}\n'
text eval_inputs 'q1 0 d1 1\nq1 0 d2 0\n\xffq1 Q0 d1 1 2.5 run\nq1 Q0 d3 2 1.5 run\n'
text strict_json '{"query_id":"q1","ndcg@10":0.5,"tags":{"lang":"en"}}'
