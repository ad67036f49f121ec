#!/usr/bin/env bash
# Writes docs/report.schema.json, the JSON report's layout, from the report model's types
# (src/model.rs and src/model/: their serde attributes, `#[schemars]` constraints and doc
# comments; `rag_gate::report::json::schema`). Run it after changing a type the JSON report
# serialises, and commit the result: tests/it/report_schema.rs fails while the committed file
# differs from what the model generates.
#   bash scripts/generate-report-schema.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
cargo run --locked --quiet --example report_schema > "$out"
cat "$out" > docs/report.schema.json
trap - EXIT
echo docs/report.schema.json
