#!/usr/bin/env python3
"""Fails when the files of src/ import each other in a loop.

Each file is a node (src/report/mod.rs and src/report.rs both stand for `report`); an edge
a -> b means a names `crate::b...` (in a `use` or a path). A child module may name its parent's
items through `super::`, which is not counted: a parent owns its children. An edge to `crate::x::y`
goes to the file of `x::y` when that file exists, else to `x`; `super::` paths count the same
way. A parent that uses a child's items depends on it. Unit tests (from `#[cfg(test)]` on) are
left out.

Modules are checked the same way: each file stands for its top-level module (`report::json` for
`report`), and no two modules may import each other, directly or through others. And no module
may import one declared below it in src/lib.rs, whose `pub mod` lines list the rooms bottom up
in the order the data flow (load → pair → resample → judge → report → publish).

Prints the loops or up-running imports and exits 1, or prints the floors (bottom up) and exits
0. Run by .ci/run.
"""
import re
import sys
from pathlib import Path

root = Path(sys.argv[1] if len(sys.argv) > 1 else "src")


def module_of(path: Path) -> str:
    rel = path.relative_to(root).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "mod" or parts == ["lib"]:
        parts = parts[:-1]
    return "::".join(parts) or "crate"


files = {module_of(p): p for p in root.rglob("*.rs")}


def strip(text: str) -> str:
    # Unit tests sit at the bottom of a file (`#[cfg(test)] mod tests`): not a stage dependency.
    text = text.split("#[cfg(test)]", 1)[0]
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(\\.|[^"\\])*"', '""', text)


def resolve(path: str) -> str | None:
    parts = [x for x in path.split("::") if x and x != "crate"]
    for n in range(len(parts), 0, -1):
        cand = "::".join(parts[:n])
        if cand in files:
            return cand
    return None


def expand(prefix: str, body: str):
    """Yields full paths from a use tree like `a::{b, c::{d, e}}`."""
    depth, start, items = 0, 0, []
    for i, ch in enumerate(body):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append(body[start:i])
            start = i + 1
    items.append(body[start:])
    for item in items:
        item = item.strip()
        if not item:
            continue
        m = re.match(r"([\w:]*?)(?:::)?\{(.*)\}$", item, flags=re.S)
        if m:
            yield from expand(prefix + ("::" + m.group(1) if m.group(1) else ""), m.group(2))
        else:
            yield prefix + "::" + item.split(" as ")[0].strip()


edges: dict[str, set[str]] = {m: set() for m in files}
for mod, path in files.items():
    text = strip(path.read_text())
    targets = set()
    for m in re.finditer(r"\buse\s+crate::([^;]*);", text, flags=re.S):
        body = m.group(1).strip()
        if body.startswith("{"):
            targets.update(p[2:] for p in expand("", body[1:-1]))
        else:
            head, _, rest = body.partition("::{")
            if rest:
                targets.update(p[2:] if p.startswith("::") else p for p in expand(head, rest[:-1]))
            else:
                targets.add(body)
    for m in re.finditer(r"(?<!use )\bcrate::((?:\w+::)*\w+)", text):
        targets.add(m.group(1))
    # `super::x` (and `super::super::x`) name a path relative to the parent module.
    parent = mod.split("::")
    for m in re.finditer(r"\b((?:super::)+)(\{[^;]*?\}|(?:\w+::)*\w+)", text, flags=re.S):
        up = m.group(1).count("super::")
        base = "::".join(parent[: len(parent) - up])
        body = m.group(2)
        items = expand("", body[1:-1]) if body.startswith("{") else ["::" + body]
        for item in items:
            targets.add((base + item).strip(":") if base else item.strip(":"))
    # A parent that uses a child's items (`pub use child::X`, `child::f()`) depends on it.
    for child in (c for c in files if c.startswith(mod + "::" if mod != "crate" else "")):
        rest = child[len(mod) + 2 :] if mod != "crate" else child
        if "::" in rest or not rest:
            continue
        if re.search(rf"(?<![\w:])(?:self::)?{rest}::[\w{{]", text):
            targets.add(child)
    for t in targets:
        dst = resolve(t.strip(": "))
        # A child may use its parent's items: the parent is its namespace, not a stage.
        if dst and dst != mod and not mod.startswith(dst + "::"):
            edges[mod].add(dst)

# Tarjan's strongly connected components.
index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]


def visit(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on.add(v)
    for w in sorted(edges[v]):
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        sccs.append(sorted(comp))


sys.setrecursionlimit(10000)
for v in sorted(edges):
    if v not in index:
        visit(v)

loops = [c for c in sccs if len(c) > 1]
if loops:
    for c in loops:
        print(f"import loop among {len(c)} files:", file=sys.stderr)
        for v in c:
            inside = sorted(w for w in edges[v] if w in c)
            print(f"  {files[v]} -> {', '.join(str(files[w]) for w in inside)}", file=sys.stderr)
    sys.exit(1)

# Modules: the same graph with every file folded into its top-level module.
def top(m: str) -> str:
    return m.split("::")[0]


lib = root / "lib.rs"
order = re.findall(r"^pub mod (\w+);", lib.read_text(), flags=re.M) if lib.exists() else []
rank = {m: i for i, m in enumerate(order)}
module_edges: dict[str, set[str]] = {}
for a, bs in edges.items():
    for b in bs:
        if top(a) != top(b) and top(a) in rank and top(b) in rank:
            module_edges.setdefault(top(a), set()).add(top(b))


def reach(start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for nxt in module_edges.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


reached = {m: reach(m) for m in rank}
module_loops = sorted({tuple(sorted({m} | {o for o in reached[m] if m in reached[o]}))
                       for m in rank if m in reached[m]})
upward = sorted((a, b) for a, bs in edges.items() for b in bs
                if top(a) != top(b) and top(a) in rank and top(b) in rank
                and rank[top(b)] > rank[top(a)])
if module_loops or upward:
    for c in module_loops:
        print(f"import loop among the modules {', '.join(c)}", file=sys.stderr)
    for a, b in upward:
        print(f"{files[a]} imports {b}, a room above {top(a)} (declared after it in {lib})",
              file=sys.stderr)
    sys.exit(1)

# Floors: a file's floor is one above the highest floor it imports.
floor: dict[str, int] = {}
for comp in sccs:  # Tarjan yields sinks first
    v = comp[0]
    floor[v] = 1 + max((floor[w] for w in edges[v]), default=-1)
by_floor: dict[int, list[str]] = {}
for v, f in floor.items():
    by_floor.setdefault(f, []).append(v)
print(f"no import loop among {len(files)} files and {len(rank)} modules of {root}/, "
      "and none imports a module declared above it; floors, bottom up:")
for f in sorted(by_floor):
    print(f"  {f}: {', '.join(sorted(by_floor[f]))}")
