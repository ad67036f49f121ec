#!/usr/bin/env bash
# Runs every fuzz target of fuzz/ for a bounded time (libFuzzer through cargo-fuzz, nightly).
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     default: 60 seconds, every target
#
# Installs cargo-fuzz from crates.io (`cargo install --locked cargo-fuzz`) when missing. Needs a
# nightly toolchain (`rustup toolchain install nightly`). Crashes land in fuzz/artifacts/<target>/
# and the script exits non-zero; the corpus grows in fuzz/corpus/<target>/ (seeded by
# fuzz/seed-corpus.sh from examples/ and a few hand-written hostile lines on first run).
# fuzz/Cargo.lock starts as a copy of Cargo.lock: the versions rag-gate is tested with.
# Without nightly: scripts/fuzz-build.sh builds the targets on stable (no coverage feedback) and
# replays the seeds, as CI does; `cargo test --test it input_props_no_panic::` is the property
# test of the same readers.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
secs="${1:-60}"
shift || true
cd "$root/fuzz"
cp "$root/Cargo.lock" Cargo.lock

if ! rustup toolchain list | grep -q '^nightly'; then
    echo "fuzz.sh: no nightly toolchain (rustup toolchain install nightly);" >&2
    echo "         the stable fallback is: cargo test --test it input_props_no_panic::" >&2
    exit 2
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    cargo install --locked cargo-fuzz
fi

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo +nightly fuzz list)
fi

"$root/fuzz/seed-corpus.sh" corpus

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
