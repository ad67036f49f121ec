#!/usr/bin/env bash
# The JUnit reports (`check --format junit`) against a published schema and a real consumer, run
# by .ci/run:
#   1. the schema: the Jenkins xUnit plugin's junit-10.xsd (MIT), as pytest ships it in its sdist
#      (pytest-8.3.5/testing/example_scripts/junit-10.xsd, fetched with `pip download`, never
#      edited), checked with xmllint (Debian's libxml2-utils);
#   2. the consumer: junitparser (PyPI) reads each report back; its suite, test, failure and skip
#      counts must equal the ones rag-gate's JSON report gives for the same run.
# The cases: the shipped example (fails), tests/data/junit/pass.toml (passes) and
# tests/data/junit/not-judged.toml (checks not judged: skipped), each alone and the three in one
# run (one document, a suite per gate file).
# Tools come from PyPI into cached venvs like scripts/validate-action.sh.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
tools="${RAG_GATE_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/rag-gate-tools}"
pytest_version="8.3.5"
junitparser_version="4.0.2"
venv="$tools/junit-$junitparser_version"
xsd="$tools/junit-10-pytest-$pytest_version.xsd"

if ! command -v xmllint >/dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends libxml2-utils >/dev/null
fi
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import junitparser, setuptools_scm, wheel' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check \
    "junitparser==$junitparser_version" setuptools setuptools_scm wheel
fi
if [ ! -s "$xsd" ]; then
  get="$(mktemp -d)"
  # The sdist only (no build): its metadata step needs setuptools_scm and wheel, installed above.
  "$venv/bin/pip" download --quiet --disable-pip-version-check --no-deps --no-binary :all: \
    --no-build-isolation --dest "$get" "pytest==$pytest_version"
  tar -xzf "$get/pytest-$pytest_version.tar.gz" -C "$get" \
    "pytest-$pytest_version/testing/example_scripts/junit-10.xsd"
  cp "$get/pytest-$pytest_version/testing/example_scripts/junit-10.xsd" "$xsd"
  rm -rf "$get"
fi
[ -z "${RAG_GATE_TOOLS_ONLY:-}" ] || exit 0 # scripts/ci-tools.sh: install only

bin="${CARGO_TARGET_DIR:-$root/target}/debug/rag-gate"
# Built as the tests build it (shared with `cargo nextest run`); always run, as an earlier step
# of .ci/run may have left another build's binary there (the wheel's, the core build's). Every
# test target in one build: the library's unit tests compile beside the library on the second
# core, where a build of `tests/it` alone would leave them for the tests step.
cargo test --locked --quiet --no-run
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

for gate in gates/prod.toml tests/data/junit/pass.toml tests/data/junit/not-judged.toml; do
  name="$(basename "$gate" .toml)"
  set +e
  "$bin" check "$gate" --format junit --output "$work/$name.xml" --export-json "$work/$name.json" >/dev/null
  code=$?
  set -e
  [ "$code" -le 1 ] || { echo "rag-gate check $gate exited $code"; exit 1; }
  xmllint --noout --schema "$xsd" "$work/$name.xml"
  "$venv/bin/python" - "$work/$name.xml" "$work/$name.json" "$code" <<'EOF'
import json, sys
from junitparser import JUnitXml, Failure, Skipped

xml = JUnitXml.fromfile(sys.argv[1])
report = json.load(open(sys.argv[2]))
code = int(sys.argv[3])
suites = list(xml)
cases = [case for suite in suites for case in suite]
failed = [c for c in cases if any(isinstance(r, Failure) for r in c.result)]
skipped = [c for c in cases if any(isinstance(r, Skipped) for r in c.result)]
gates = report["gates"]
run_level = (report.get("efficiency") or {}).get("gates", [])
want = {
    "suites": 1,
    "tests": len(gates) + len(run_level),
    "failures": sum(g["fails_build"] for g in gates + run_level),
    "skipped": sum(g["status"] == "too-small" and not g["fails_build"] for g in gates),
}
got = {"suites": len(suites), "tests": len(cases), "failures": len(failed), "skipped": len(skipped)}
assert got == want, f"{sys.argv[1]}: junitparser read {got}, the JSON report says {want}"
assert suites[0].name == report["gate_id"], (suites[0].name, report["gate_id"])
assert (xml.failures, xml.skipped, xml.tests) == (want["failures"], want["skipped"], want["tests"])
assert (code == 1) == (want["failures"] > 0), f"exit {code} with {want['failures']} failures"
props = {p.name: p.value for p in suites[0].properties()}
for key in ("seed", "resamples", "verdict", "headline"):
    assert str(props[key]) == str(report[key]), (key, props[key], report[key])
print(f"ok -- {sys.argv[1].rsplit('/', 1)[-1]}: {got} (exit {code})")
EOF
done

# Three gate files in one run: one document, a suite per file, the same schema.
set +e
"$bin" check gates/prod.toml tests/data/junit/pass.toml tests/data/junit/not-judged.toml \
  --resamples 2000 --format junit --output "$work/three.xml" >/dev/null
code=$?
set -e
[ "$code" -eq 1 ] || { echo "rag-gate check on three gate files exited $code, expected 1"; exit 1; }
xmllint --noout --schema "$xsd" "$work/three.xml"
"$venv/bin/python" - "$work/three.xml" <<'EOF2'
import sys
from junitparser import JUnitXml

xml = JUnitXml.fromfile(sys.argv[1])
names = [s.name for s in xml]
assert names == ["prod", "example-pass", "example-not-judged"], names
assert (xml.tests, xml.failures) == (15, 2), (xml.tests, xml.failures)
print(f"ok -- three.xml: suites {names}, {xml.tests} tests, {xml.failures} failures")
EOF2
