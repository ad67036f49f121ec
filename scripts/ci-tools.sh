#!/usr/bin/env bash
# Everything .ci/run needs beyond the Rust toolchain, cargo-nextest, gcc and python3, installed
# up front (.ci/run starts it in the background while the first steps compile):
#   - Debian's chromium (tests/it/report_browser.rs) and libxml2-utils (xmllint, for
#     scripts/validate-junit.sh), when missing;
#   - the PyPI tools of each check script, into the cached venvs under RAG_GATE_TOOLS: each
#     script run with RAG_GATE_TOOLS_ONLY=1 installs its tools and stops, so the versions are
#     written once, in the script that uses them.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v xmllint >/dev/null || missing+=(libxml2-utils)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "apt-get install ${missing[*]}"
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

for script in validate-action.sh deny.sh check-packaging.sh validate-junit.sh shards-duckdb.sh; do
  echo "tools of scripts/$script"
  RAG_GATE_TOOLS_ONLY=1 bash "$root/scripts/$script"
done
echo "ci-tools.sh: done"
