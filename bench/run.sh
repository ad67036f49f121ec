#!/usr/bin/env bash
# Every speed benchmark in one go, each with its Python reference on the same data:
#   1. bench/check_bench.sh: the engine alone and `rag-gate check` vs numpy's vectorised bootstrap;
#   2. bench/eval/run.sh: `rag-gate eval` vs pytrec_eval-terrier on a 10M-line TREC run.
# Each prints its own ratios. Needs cargo and python3 (venvs are made under /tmp).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bash "$here/check_bench.sh"
bash "$here/eval/run.sh"
