#!/usr/bin/env bash
# One release archive, as .github/workflows/release.yml makes it for each target (the workflow
# calls this script, so the layout is written once):
#
#   scripts/release-archive.sh TARGET BINARY OUT_DIR
#
# writes OUT_DIR/rag-gate-TARGET.tar.gz (.zip for a Windows target) and its .sha256, holding
#   rag-gate-TARGET/rag-gate[.exe]     the binary
#   rag-gate-TARGET/README.md
#   rag-gate-TARGET/LICENSE-MIT        the licence texts (the crate is MIT OR Apache-2.0)
#   rag-gate-TARGET/LICENSE-APACHE
#   rag-gate-TARGET/share/             man pages and shell completions (packaging/data/share)
# and prints the archive's path. The name is the command's (rag-gate-<target>), which the
# Action's install script (scripts/install-rag-gate.sh) and cargo-binstall (Cargo.toml) expect.
# scripts/check-packaging.sh builds one from the debug binary and lists it.
set -euo pipefail

[ $# -eq 3 ] || { echo "usage: $0 TARGET BINARY OUT_DIR" >&2; exit 2; }
target="$1" binary="$2" out="$3"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
name="rag-gate-$target"
exe=rag-gate
[[ "$target" == *windows* ]] && exe=rag-gate.exe

mkdir -p "$out"
out="$(cd "$out" && pwd)"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/$name"
cp "$binary" "$stage/$name/$exe"
cp "$root/README.md" "$root/LICENSE-MIT" "$root/LICENSE-APACHE" "$stage/$name/"
cp -R "$root/packaging/data/share" "$stage/$name/share"

if [[ "$target" == *windows* ]]; then
  archive="$name.zip"
  rm -f "$out/$archive"
  if command -v 7z >/dev/null; then
    (cd "$stage" && 7z a -bd "$out/$archive" "$name" >/dev/null)
  else
    (cd "$stage" && python3 -m zipfile -c "$out/$archive" "$name")
  fi
else
  archive="$name.tar.gz"
  tar -C "$stage" -czf "$out/$archive" "$name"
fi
cd "$out"
if command -v sha256sum >/dev/null; then sha256sum "$archive"; else shasum -a 256 "$archive"; fi > "$archive.sha256"
echo "$out/$archive"
