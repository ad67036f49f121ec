#!/usr/bin/env bash
# The binary sizes docs/install.md gives, measured: the release binary for this machine's target
# built as release.yml builds it (`cargo build --locked --profile dist`: debug info stripped,
# symbols kept for backtraces), the same binary with its symbols stripped too (`strip`, what
# maturin's `strip = true` does to the wheel's), and the release archive of it
# (scripts/release-archive.sh: the binary, README, both licence texts, share/).
#
#   scripts/binary-sizes.sh        # builds the dist profile first: minutes on 2 cores
#
# Prints one Markdown table row per file, in MB (10^6 bytes) and bytes.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
cargo build --locked --profile dist --bin rag-gate
host="$(rustc -vV | sed -n 's/^host: //p')"
bin="${CARGO_TARGET_DIR:-$root/target}/dist/rag-gate"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
strip -o "$work/rag-gate-stripped" "$bin"
archive="$(bash scripts/release-archive.sh "$host" "$bin" "$work")"

row() { # row <what> <file>
  local bytes
  bytes="$(wc -c < "$2" | tr -d ' ')"
  printf '| %s | %s MB | %s |\n' "$1" "$(awk -v b="$bytes" 'BEGIN { printf "%.2f", b / 1e6 }')" "$bytes"
}
echo "rag-gate $(cargo metadata --locked --no-deps --format-version 1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["packages"][0]["version"])'), $host, $(rustc --version)"
echo "| file | size | bytes |"
echo "| --- | --- | --- |"
row "binary, profile dist (debug info stripped, symbols kept)" "$bin"
row "binary, symbols stripped too (the wheel's)" "$work/rag-gate-stripped"
row "release archive $(basename "$archive")" "$archive"
