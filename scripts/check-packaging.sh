#!/usr/bin/env bash
# Packaging checks, run by .ci/run after the tests:
#   1. crates.io: `cargo package --locked --list` holds the code, the lock file, the licence
#      texts and what the README's first command reads, and no test data, benches, fuzzing or
#      calibration;
#   2. PyPI: maturin (from PyPI) builds the wheel and the sdist; the wheel ships the man pages and
#      shell completions; it is installed into a fresh venv and the README's main command runs
#      through the installed `rag-gate` (exit 1: the shipped example fails one gate), and the man
#      page lands in the venv's share/man/man1; the sdist and the wheel carry LICENSE-MIT and
#      LICENSE-APACHE;
#   3. the release archive: scripts/release-archive.sh (what release.yml runs for each target)
#      packs the debug binary for this machine's target, and the archive holds the binary, the
#      README, both licence texts, the man pages and the completions.
# The wheel is built with the dev profile into the same CARGO_TARGET_DIR as `cargo test`, so the
# dependencies it shares with the test build are not compiled again, nor the library when the
# profile's settings are the tests' (.ci/run sets them; the release workflow builds the published
# wheels with --release). Tools come from PyPI into a cached venv like
# scripts/validate-action.sh.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
tools="${RAG_GATE_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/rag-gate-tools}"
maturin_version="1.16.0"
venv="$tools/maturin-$maturin_version"
if [ ! -x "$venv/bin/maturin" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "maturin==$maturin_version"
fi
[ -z "${RAG_GATE_TOOLS_ONLY:-}" ] || exit 0 # scripts/ci-tools.sh: install only

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "-- cargo package --locked --list"
cargo package --locked --list --allow-dirty > "$work/crate-files"
for needed in Cargo.lock src/main.rs README.md LICENSE-MIT LICENSE-APACHE gates/prod.toml examples/baseline.jsonl; do
  grep -qx "$needed" "$work/crate-files" || { echo "the crate misses $needed"; exit 1; }
done
if grep -E '^(tests|bench|benches|fuzz|calibration|scripts|\.github)/' "$work/crate-files"; then
  echo "the crate holds files it should not (above)"
  exit 1
fi
echo "ok -- $(wc -l < "$work/crate-files") files in the crate"

echo "-- maturin sdist"
"$venv/bin/maturin" sdist --out "$work/dist" 2>&1 | tail -n 1
sdist="$(ls "$work"/dist/rag_gate_cli-*.tar.gz)"
# Listed to a file first: `tar | grep -q` under pipefail fails when grep stops reading early.
tar -tzf "$sdist" > "$work/sdist-files"
if grep -E '^[^/]+/(tests|bench|benches|fuzz|calibration)/' "$work/sdist-files"; then
  echo "the sdist holds files it should not (above)"
  exit 1
fi
for licence in LICENSE-MIT LICENSE-APACHE; do
  grep -qx "[^/]*/$licence" "$work/sdist-files" || { echo "the sdist misses $licence"; exit 1; }
done
echo "ok -- sdist $(basename "$sdist"), $(du -k "$sdist" | cut -f1) KiB, with both licence texts"

echo "-- maturin build (wheel, dev profile, shared target dir)"
start=$SECONDS
"$venv/bin/maturin" build --locked --profile dev --out "$work/dist" 2>&1 | tail -n 2
wheel="$(ls "$work"/dist/rag_gate_cli-*.whl)"
echo "ok -- $(basename "$wheel"), $(du -k "$wheel" | cut -f1) KiB, built in $((SECONDS - start)) s"
python3 -m zipfile -l "$wheel" > "$work/wheel-files"
for shipped in man/man1/rag-gate.1 man/man1/rag-gate-check.1 bash-completion/completions/rag-gate \
  zsh/site-functions/_rag-gate fish/vendor_completions.d/rag-gate.fish powershell/rag-gate.ps1; do
  grep -q "\.data/data/share/$shipped " "$work/wheel-files" \
    || { echo "the wheel misses share/$shipped"; exit 1; }
done
echo "ok -- the wheel ships the man pages and the shell completions"
for licence in LICENSE-MIT LICENSE-APACHE; do
  grep -Eq "\.dist-info/(licenses/)?$licence " "$work/wheel-files" \
    || { echo "the wheel misses $licence"; exit 1; }
done
grep -E 'LICENSE-(MIT|APACHE) ' "$work/wheel-files"
echo "ok -- the wheel carries LICENSE-MIT and LICENSE-APACHE"

echo "-- the wheel in a fresh venv runs the README's main command"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check --no-index "$wheel"
# The wheel is the rag-gate-cli distribution (the name on PyPI) and installs the rag-gate command.
# (pip's output goes to a file first: `grep -q` stops reading early, and pip then fails on the
# broken pipe under pipefail.)
"$work/venv/bin/pip" show rag-gate-cli > "$work/pip-show"
grep -qx 'Name: rag-gate-cli' "$work/pip-show" \
  || { echo "the wheel is not the rag-gate-cli distribution"; exit 1; }
"$work/venv/bin/rag-gate" --version
set +e
"$work/venv/bin/rag-gate" check gates/prod.toml > "$work/out" 2>&1
code=$?
set -e
if [ "$code" -ne 1 ]; then
  cat "$work/out"
  echo "installed rag-gate check gates/prod.toml exited $code, expected 1 (one gate fails)"
  exit 1
fi
head -n 1 "$work/out"
echo "ok -- exit 1 as the README says"
test -s "$work/venv/share/man/man1/rag-gate.1" || { echo "pip did not install share/man/man1/rag-gate.1"; exit 1; }
echo "ok -- pip installed the man page into the venv's share/man/man1"

echo "-- a release archive (scripts/release-archive.sh, as release.yml makes one per target)"
host="$(rustc -vV | sed -n 's/^host: //p')"
bin="${CARGO_TARGET_DIR:-$root/target}/debug/rag-gate"
archive="$(bash scripts/release-archive.sh "$host" "$bin" "$work/release")"
tar -tzvf "$archive" | awk '{print $3, $6}'
tar -tzf "$archive" > "$work/archive-files"
for shipped in rag-gate README.md LICENSE-MIT LICENSE-APACHE share/man/man1/rag-gate.1 \
  share/bash-completion/completions/rag-gate; do
  grep -qx "rag-gate-$host/$shipped" "$work/archive-files" \
    || { echo "the archive misses rag-gate-$host/$shipped"; exit 1; }
done
(cd "$work/release" && sha256sum -c "$(basename "$archive").sha256")
echo "ok -- $(basename "$archive") holds the binary, the README, both licence texts and share/"
