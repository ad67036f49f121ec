#!/usr/bin/env bash
# Runs every fuzz target of fuzz/ for a bounded time (libFuzzer through cargo-fuzz, nightly).
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     default: 60 seconds, every target
#
# Installs cargo-fuzz from crates.io (`cargo install --locked cargo-fuzz`) when missing. Needs a
# nightly toolchain (`rustup toolchain install nightly`). Crashes land in fuzz/artifacts/<target>/
# and the script exits non-zero; the corpus grows in fuzz/corpus/<target>/ (seeded from
# examples/ and a few hand-written hostile lines on first run).
# Without nightly, the stable fallback is `cargo test --test it prop_parsers_no_panic::`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
secs="${1:-60}"
shift || true
cd "$root/fuzz"

if ! rustup toolchain list | grep -q '^nightly'; then
    echo "fuzz.sh: no nightly toolchain (rustup toolchain install nightly);" >&2
    echo "         the stable fallback is: cargo test --test it prop_parsers_no_panic::" >&2
    exit 2
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    cargo install --locked cargo-fuzz
fi

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo +nightly fuzz list)
fi

seed() { # seed <target> <file>...: copy files into the target's corpus once
    local dir="corpus/$1"; shift
    if [ ! -d "$dir" ]; then
        mkdir -p "$dir"
        for f in "$@"; do [ -f "$f" ] && head -c 4096 "$f" > "$dir/$(basename "$f")"; done
    fi
}
seed jsonl_metrics "$root/examples/baseline.jsonl" "$root/examples/candidate.jsonl"
seed queries_file "$root/examples/queries.jsonl"
seed gate_file "$root/gates/prod.toml"
mkdir -p corpus/csv_metrics corpus/per_query_text corpus/pair
[ -f corpus/csv_metrics/seed ] || printf '\x00query_id,group,slice:lang,ndcg@10,recall@5\nq1,g1,ko,0.5,1\nq2,,en,0.25,0\n' > corpus/csv_metrics/seed
[ -f corpus/per_query_text/seed ] || printf '\x00ndcg_cut_10           \tq1\t0.5\nrecall_5\tq1\t1.0\nmap\tall\t0.2\n' > corpus/per_query_text/seed
[ -f corpus/pair/seed ] || printf '{"query_id":"q1","ndcg@10":0.5}\n{"query_id":"q2","ndcg@10":0.1}\n\xff{"query_id":"q1","ndcg@10":0.7}\n' > corpus/pair/seed

failed=()
for t in "${targets[@]}"; do
    echo "== $t: ${secs}s"
    if ! cargo +nightly fuzz run "$t" -- -max_total_time="$secs" -max_len=65536 -rss_limit_mb=2048 -timeout=10; then
        failed+=("$t")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz.sh: crashes in: ${failed[*]} (see fuzz/artifacts/)" >&2
    exit 1
fi
echo "fuzz.sh: ${#targets[@]} targets, ${secs}s each, no crash"
