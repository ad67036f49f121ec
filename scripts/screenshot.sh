#!/usr/bin/env bash
# Renders the shipped example's PR comment the way GitHub does (GFM via cmarkgfm, GitHub's
# markdown CSS from npm, an 886 px comment column) and its HTML report, screenshots both with
# headless Chromium, and checks that no table of the comment's first screen scrolls sideways.
#
#   bash scripts/screenshot.sh            # writes docs/comment.png and docs/report.png
#   RAG_GATE_BIN=target/debug/rag-gate bash scripts/screenshot.sh   # a binary already built
#
# Needs: chromium and an emoji font (Debian: apt-get install -y chromium fonts-noto-color-emoji), python3 with venv, npm, cargo.
# Everything it installs goes under a temporary folder; nothing is fetched but packages.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$root"

command -v chromium >/dev/null || { echo "chromium is missing: apt-get install -y chromium" >&2; exit 2; }
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q cmarkgfm
(cd "$work" && npm install --silent --no-audit --no-fund github-markdown-css >/dev/null)
css="$work/node_modules/github-markdown-css/github-markdown-light.css"

# The reports are the same bytes from any build of the current source; RAG_GATE_BIN skips the
# release build.
bin="${RAG_GATE_BIN:-}"
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin="${CARGO_TARGET_DIR:-$root/target}/release/rag-gate"
fi
set +e
"$bin" check gates/prod.toml --export-markdown "$work/comment.md" \
  --export-html "$work/report.html" >/dev/null
code=$?
set -e
[ "$code" -le 1 ] || { echo "rag-gate check failed with exit $code" >&2; exit 2; }

"$work/venv/bin/python" - "$work/comment.md" "$css" "$work/comment.html" <<'PY'
import sys, cmarkgfm
from cmarkgfm.cmark import Options
md, css, out = sys.argv[1:]
body = cmarkgfm.github_flavored_markdown_to_html(
    open(md, encoding="utf-8").read(), options=Options.CMARK_OPT_UNSAFE)
page = f"""<!DOCTYPE html><html><head><meta charset="utf-8">
<style>{open(css, encoding="utf-8").read()}
body {{ margin: 0; background: #fff; }}
.markdown-body {{ box-sizing: border-box; width: 886px; padding: 16px; }}
</style></head><body><article class="markdown-body">{body}</article>
<script>
// Which tables scroll sideways at this width (GitHub's CSS makes a wide table scroll).
addEventListener("load", () => {{
  const wide = [...document.querySelectorAll("table")]
    .filter(t => t.offsetParent !== null && t.scrollWidth > t.clientWidth + 1)
    .map(t => t.rows[0].innerText.replace(/\\s+/g, " ").slice(0, 60));
  const p = document.createElement("pre");
  p.id = "overflow"; p.hidden = true; p.textContent = JSON.stringify(wide);
  document.body.append(p);
}});
</script></body></html>"""
open(out, "w", encoding="utf-8").write(page)
PY

chrome() {
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --hide-scrollbars --user-data-dir="$(mktemp -d -p "$work")" "$@" 2>/dev/null
}
chrome --window-size=886,1100 --screenshot="$root/docs/comment.png" "file://$work/comment.html"
chrome --window-size=940,1500 --screenshot="$root/docs/report.png" "file://$work/report.html"
overflow="$(chrome --window-size=886,1100 --virtual-time-budget=2000 --dump-dom \
  "file://$work/comment.html" | sed -n 's:.*<pre id="overflow" hidden="">\(.*\)</pre>.*:\1:p')"
echo "wrote docs/comment.png and docs/report.png"
if [ "$overflow" != "[]" ]; then
  echo "tables wider than the 886 px column (they scroll sideways): $overflow" >&2
  exit 1
fi
echo "no table of the comment's first screen scrolls sideways at 886 px"
