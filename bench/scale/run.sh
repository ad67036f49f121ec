#!/usr/bin/env bash
# Scale and adversarial-shape runs of `rag-gate check` (release build): wall time and peak RSS
# against the input size. Heavy (minutes, ~1 GB of disk in $SCALE_DIR); not part of `cargo test`.
#
#   bench/scale/run.sh [N_QUERIES] [RESAMPLES]        defaults: 1000000 1000
#   SHAPES="normal one-group" bench/scale/run.sh       a subset of the shapes
#
# Shapes: normal (N queries, groups of 5, 50 slices), one-per-group (N groups of one query),
# one-group (one group of all N queries), slice-per-query (10,000 slices of one query each).
# Needs python3 and GNU time (/usr/bin/time; `apt-get install time`).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
n="${1:-1000000}"
resamples="${2:-1000}"
dir="${SCALE_DIR:-${TMPDIR:-/tmp}/rag-gate-scale}"
target="${CARGO_TARGET_DIR:-$root/target}"

(cd "$root" && cargo build --release --locked --quiet)
bin="$dir/rag-gate"
mkdir -p "$dir"
cp "$target/release/rag-gate" "$bin"   # a private copy: a shared target dir may be rebuilt meanwhile

printf '%-16s %9s %11s %10s %8s %9s %12s %6s\n' shape queries input_MB wall_s cpu_s peak_MB peak/input exit
run() {
    local shape="$1" queries="$2" d="$dir/$1-$2"
    if [ ! -f "$d/gate.toml" ]; then
        python3 "$here/gen.py" "$d" --queries "$queries" --shape "$shape" --resamples "$resamples"
    fi
    sed -i "s/^resamples = .*/resamples = $resamples/" "$d/gate.toml"
    local bytes
    bytes=$(cat "$d"/baseline.jsonl "$d"/candidate.jsonl "$d"/queries.jsonl | wc -c)
    set +e
    /usr/bin/time -v -o "$d/time.txt" "$bin" check "$d/gate.toml" --format json -o "$d/report.json" >/dev/null 2>"$d/stderr.txt"
    local code=$?
    set -e
    local wall rss cpu
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,t,":"); s=0; for(i=1;i<=n;i++) s=s*60+t[i]; print s}' "$d/time.txt")
    cpu=$(awk -F': ' '/User time|System time/ {s+=$2} END {print s}' "$d/time.txt")
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$d/time.txt")
    awk -v s="$shape" -v q="$queries" -v b="$bytes" -v w="$wall" -v u="$cpu" -v r="$rss" -v c="$code" \
        'BEGIN { printf "%-16s %9d %11.1f %10.2f %8.2f %9.1f %12.2f %6d\n", s, q, b/1e6, w, u, r/1024, (r*1024)/b, c }'
    if [ "$code" -ge 2 ]; then cat "$d/stderr.txt" >&2; fi
}
shapes="${SHAPES:-normal one-per-group one-group slice-per-query}"
for shape in $shapes; do
    if [ "$shape" = slice-per-query ]; then run "$shape" 10000; else run "$shape" "$n"; fi
done
