#!/usr/bin/env bash
# Validates real JSON reports (made by tests/it/report_schema.rs: one gate file, compare, three
# gate files in one check, ...) against docs/report.schema.json,
# and the shipped run cards against docs/run-card.schema.json,
# with check-jsonschema, a full JSON Schema 2020-12 validator (the test's own checker covers
# only the keywords the schema uses). check-jsonschema comes from the same cached venv as
# scripts/validate-action.sh.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="${RAG_GATE_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/rag-gate-tools}"
version="0.39.0"
venv="$tools/check-jsonschema-$version"
if [ ! -x "$venv/bin/check-jsonschema" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "check-jsonschema==$version"
fi

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
(cd "$root" && RAG_GATE_REPORTS_DIR="$out" cargo test --locked --quiet --test it report_schema::real_reports_fit_the_published_schema)
"$venv/bin/check-jsonschema" --schemafile "$root/docs/report.schema.json" "$out"/*.json
# The shipped run cards against their published layout (docs/efficiency.md).
"$venv/bin/check-jsonschema" --schemafile "$root/docs/run-card.schema.json" \
  "$root"/examples/*.card.json "$root"/examples/efficiency/*.card.json
