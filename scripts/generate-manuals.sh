#!/usr/bin/env bash
# Writes the shell completions and man pages under packaging/data/share/ from the built binary
# (`rag-gate completions <shell>`, `rag-gate man [COMMAND]`, generated from the clap
# definitions). Run it after adding or changing a flag or a command, and commit the result:
# tests/it/manuals.rs fails while the committed files differ from what the binary prints.
# The tree is shipped as is: `share/` in the release archives, the wheel's data (maturin).
#   bash scripts/generate-manuals.sh [path/to/rag-gate]
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-}"
if [ -z "$bin" ]; then
  cargo build --locked --quiet
  bin="${CARGO_TARGET_DIR:-target}/debug/rag-gate"
fi
share=packaging/data/share
rm -rf "$share"
mkdir -p "$share/bash-completion/completions" "$share/zsh/site-functions" \
  "$share/fish/vendor_completions.d" "$share/powershell" "$share/man/man1"
"$bin" completions bash > "$share/bash-completion/completions/rag-gate"
"$bin" completions zsh > "$share/zsh/site-functions/_rag-gate"
"$bin" completions fish > "$share/fish/vendor_completions.d/rag-gate.fish"
"$bin" completions powershell > "$share/powershell/rag-gate.ps1"
# One page per visible command: rag-gate.1, rag-gate-check.1, ..., rag-gate-baseline-fetch.1.
"$bin" man --list | while read -r page words; do
  # shellcheck disable=SC2086 # the command's words, split on purpose
  "$bin" man $words > "$share/man/man1/$page.1"
done
find "$share" -type f | sort
