#!/usr/bin/env python3
"""Lists the functions in src/ longer than a limit (default 80 lines), longest first.

The rule: no function over ~80 lines without a reason written above it. A function
counts from its `fn` line to the closing brace at the same indent; `// long: <reason>` on the
line above it marks a reasoned exception. Exits 1 when an unmarked long function is left.
"""
import re
import sys
from pathlib import Path

limit = int(sys.argv[1]) if len(sys.argv) > 1 else 80
found = []
for path in sorted(Path("src").rglob("*.rs")):
    lines = path.read_text().split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"(\s*)(pub(\([^)]*\))?\s+)?(async\s+)?fn\s+(\w+)", lines[i])
        if m and not lines[i].rstrip().endswith(";"):
            indent = m.group(1)
            j = i + 1
            while j < len(lines) and not re.match(rf"^{indent}\}}", lines[j]):
                j += 1
            n = j - i + 1
            marked = i > 0 and lines[i - 1].strip().startswith("// long:")
            if n > limit and not marked:
                found.append((n, f"{path}:{i + 1}", m.group(5)))
            i = j
        i += 1
for n, where, name in sorted(found, reverse=True):
    print(f"{n:4} {where} {name}")
sys.exit(1 if found else 0)
