#!/usr/bin/env python3
"""The declared minimum Rust version against the locked dependency tree.

Cargo refuses to build a package whose `rust-version` is above the toolchain's, so the oldest
Rust that builds the locked tree is the highest `rust-version` among the packages in Cargo.lock
(every target, every feature, build and dev dependencies included: `cargo metadata` without
`--filter-platform`). This script reads them with `cargo metadata --locked` and fails when
Cargo.toml's `rust-version` is below that: a declared MSRV that cannot build. It prints the
package that sets the floor.

    python3 scripts/msrv.py            # check, and say which package sets the floor
    python3 scripts/msrv.py --declared # print Cargo.toml's rust-version (the MSRV job's toolchain)

The crate's own code is held to the declared version by clippy's `incompatible_msrv` lint (std
APIs newer than `rust-version`) and by the `msrv` job of .github/workflows/ci.yml, which builds
every target with that toolchain.
"""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def version(text):
    """'1.85' or '1.85.0' as a comparable tuple."""
    parts = [int(p) for p in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def main():
    meta = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--locked", "--format-version", "1"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    root_id = meta["resolve"]["root"]
    root = next(p for p in meta["packages"] if p["id"] == root_id)
    declared = root.get("rust_version")
    if "--declared" in sys.argv[1:]:
        print(declared)
        return 0
    if not declared:
        print("Cargo.toml declares no rust-version")
        return 1
    locked = {n["id"] for n in meta["resolve"]["nodes"]} - {root_id}
    needs = sorted(
        (
            (version(p["rust_version"]), p["rust_version"], p["name"], p["version"])
            for p in meta["packages"]
            if p["id"] in locked and p.get("rust_version")
        ),
        reverse=True,
    )
    floor = needs[0]
    setters = [f"{n} {v}" for (key, _, n, v) in needs if key == floor[0]]
    print(
        f"rust-version {declared}; the locked tree ({len(locked)} packages) needs Rust "
        f"{floor[1]} at least, set by {', '.join(setters)}"
    )
    if version(declared) < floor[0]:
        print(
            f"Cargo.toml's rust-version {declared} is below what the locked tree needs: "
            f"declare {floor[1]} (or lock an older {floor[2]})"
        )
        return 1
    print("ok -- the declared rust-version can build the locked tree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
