#!/usr/bin/env bash
# The fuzz targets of fuzz/ built on stable and run, as CI does (.ci/run, the `fuzz` job of
# .github/workflows/ci.yml):
#   1. fuzz/Cargo.lock is made a copy of Cargo.lock (the versions rag-gate is tested with; cargo
#      adds libfuzzer-sys), so the fuzz crate always resolves against today's library;
#   2. every target is built as a plain binary (`cargo build --manifest-path fuzz/Cargo.toml`:
#      libFuzzer linked in, without the coverage instrumentation and sanitizer that
#      `cargo fuzz` adds on nightly), with the same dev profile as the tests, so with one
#      CARGO_TARGET_DIR the dependencies are not compiled again;
#   3. each binary replays its seeds (fuzz/seed-corpus.sh) and then runs RUNS mutations of them
#      (default 2000; libFuzzer without coverage feedback mutates blindly): a crash, a panic or
#      a timeout fails the script.
# Real fuzzing, with coverage feedback, is scripts/fuzz.sh (nightly and cargo-fuzz).
#
# With --check (what .ci/run runs, where one machine does every job in turn), step 1 and then
# only `cargo check --no-default-features` of the targets: they compile against today's library,
# without libFuzzer's C++ and without running anything; the workflow's fuzz job builds and runs.
#
#   scripts/fuzz-build.sh [RUNS]
#   scripts/fuzz-build.sh --check
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

cp Cargo.lock fuzz/Cargo.lock
if [ "${1:-}" = "--check" ]; then
  cargo check --manifest-path fuzz/Cargo.toml --no-default-features --bins
  echo "fuzz-build.sh: the targets compile (checked, not built or run)"
  exit 0
fi
runs="${1:-2000}"
cargo build --manifest-path fuzz/Cargo.toml --bins
bin_dir="${CARGO_TARGET_DIR:-$root/fuzz/target}/debug"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
bash fuzz/seed-corpus.sh "$work/corpus"

mapfile -t targets < <(sed -n 's/^name = "\(.*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^rag-gate-fuzz$')
for t in "${targets[@]}"; do
  [ -d "$work/corpus/$t" ] || { echo "fuzz-build.sh: no seeds for $t (fuzz/seed-corpus.sh)"; exit 1; }
  mkdir -p "$work/artifacts/$t"
  # The corpus folder grows with what the run finds; artifacts hold a crashing input.
  if ! "$bin_dir/$t" -runs="$runs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="$work/artifacts/$t/" "$work/corpus/$t" > "$work/$t.log" 2>&1; then
    tail -n 40 "$work/$t.log"
    echo "fuzz-build.sh: $t failed; the input is in the artifacts above"
    exit 1
  fi
  echo "ok -- $t: $(find "$work/corpus/$t" -type f | wc -l) inputs in its corpus, $runs runs, no crash"
done
echo "fuzz-build.sh: ${#targets[@]} targets built and run"
