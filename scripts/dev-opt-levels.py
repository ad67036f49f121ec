#!/usr/bin/env python3
"""Two kinds of crate compile at opt-level 0 in dev builds (the tests, the wheel of .ci/run) while
every other dependency gets `[profile.dev.package."*"] opt-level = 2` (fast tests): each is named
in Cargo.toml's `[profile.dev.package]`, and fuzz/Cargo.toml (which links the core build) names
the core's build-time ones, so the fuzz check reuses the proc macros clippy built.

- build-time: proc macros, build scripts and what only they use. The `"*"` override reaches them
  too and `[profile.dev.build-override]` cannot take it back (a `"*"` override outranks it), so
  without these lines every derive crate and `syn` compile with optimisation for nothing.
- beyond-core: what the core build (`--no-default-features`, without the tests) does not link:
  the `github` feature's octocrab with its HTTP and TLS stack and tokio, the `parquet` feature's
  reader and its compression codecs (zstd's C library among them), and the tests' stand-in
  servers and assertion helpers. The tests run them a few times each, on small inputs; the
  statistics the tests spend their time in run on the core's dependencies, which stay at 2.
  Optimised, these crates were about a third of a dev build's compile time.

The lint step also checks Cargo.toml's feature pins: a crate built for both the wheel and the
tests must get the same features in both (`cargo tree -e no-dev` against `cargo tree`), or the
test build compiles it, and everything above it, a second time.

Only names never compiled for another reason are listed: a crate the core also links keeps
opt-level 2.

`--list` prints the lines for Cargo.toml, `--list --core` those for fuzz/Cargo.toml. Without it, checks them against Cargo.lock (cargo
metadata reads the lock file; nothing is built) and exits 1 naming the crates to add or remove
(.ci/run's lint step).
"""
import json
import pathlib
import subprocess
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent


def host_triple() -> str:
    out = subprocess.run(["rustc", "-vV"], capture_output=True, text=True, check=True).stdout
    return next(line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("host: "))


def sides(*features: str, dev: bool = True) -> tuple[set[str], set[str]]:
    """The names compiled for the target and those compiled only for the host (proc macros,
    build scripts and what only they use), with the crate's features as given, and with its
    dev-dependencies (the tests) or without them (the crate as another's dependency)."""
    meta = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--locked", "--format-version", "1", *features,
             "--filter-platform", host_triple(), "--manifest-path", str(ROOT / "Cargo.toml")],
            capture_output=True, text=True, check=True,
        ).stdout
    )
    packages = {p["id"]: p for p in meta["packages"]}
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
    root = meta["resolve"]["root"]

    def is_proc_macro(pid: str) -> bool:
        return any("proc-macro" in t["kind"] for t in packages[pid]["targets"])

    # Walk from the crate: a build-dependency or a proc macro moves to the host side, and
    # everything below a host crate stays there; dev-dependencies count for the crate only.
    seen, target, host = set(), set(), set()
    stack = [(root, False)]
    while stack:
        pid, on_host = stack.pop()
        if (pid, on_host) in seen:
            continue
        seen.add((pid, on_host))
        (host if on_host else target).add(pid)
        for dep in nodes[pid]["deps"]:
            for kind in dep["dep_kinds"]:
                if kind["kind"] == "dev" and (pid != root or not dev):
                    continue
                to_host = on_host or kind["kind"] == "build" or is_proc_macro(dep["pkg"])
                stack.append((dep["pkg"], to_host))
    target_names = {packages[p]["name"] for p in target}
    return target_names, {packages[p]["name"] for p in host} - target_names


def unoptimised_names() -> dict[str, set[str]]:
    """What compiles at opt-level 0 in dev builds, by reason."""
    target, build_time = sides()
    core, _ = sides("--no-default-features", dev=False)
    return {"build-time": build_time, "beyond-core": target - core - build_time}


def features_by_crate(*edges: str) -> dict[str, set[str]]:
    """Each crate's features (`name version`) in the default build, as `cargo tree` resolves
    them with the given edge kinds."""
    out = subprocess.run(
        ["cargo", "tree", "--locked", *edges, "--prefix", "none", "--format", "{p} {f}",
         "--manifest-path", str(ROOT / "Cargo.toml")],
        capture_output=True, text=True, check=True,
    ).stdout
    found: dict[str, set[str]] = {}
    for line in out.splitlines():
        parts = line.replace(" (*)", "").split(" ")
        if len(parts) < 2:
            continue
        # `name vX.Y.Z [(path)] [features]`: the features are the last field when it is not
        # the path in parentheses.
        last = parts[-1] if len(parts) > 2 and not parts[-1].startswith("(") else ""
        found.setdefault(f"{parts[0]} {parts[1]}", set()).update(f for f in last.split(",") if f)
    return found


def widened_by_tests() -> dict[str, set[str]]:
    """The crates whose features the dev-dependencies widen, with the features they add."""
    without, with_dev = features_by_crate("-e", "no-dev"), features_by_crate()
    return {k: with_dev[k] - v for k, v in without.items() if k in with_dev and with_dev[k] != v}


def unoptimised(manifest: pathlib.Path) -> set[str]:
    profile = tomllib.loads(manifest.read_text())["profile"]["dev"].get("package", {})
    return {name for name, table in profile.items() if table.get("opt-level") == 0}


def main() -> int:
    groups = unoptimised_names()
    wanted = set().union(*groups.values())
    if "--list" in sys.argv[1:] and "--core" in sys.argv[1:]:
        print("\n".join(f"{n} = {{ opt-level = 0 }}" for n in sorted(sides("--no-default-features", dev=False)[1])))
        return 0
    if "--list" in sys.argv[1:]:
        for reason, names in groups.items():
            print(f"# {reason}")
            print("\n".join(f"{n} = {{ opt-level = 0 }}" for n in sorted(names)))
        return 0
    failed = False
    listed = unoptimised(ROOT / "Cargo.toml")
    if wanted - listed:
        failed = True
        print("Cargo.toml: add `opt-level = 0` under [profile.dev.package] (scripts/dev-opt-levels.py --list) for"
              f" {', '.join(sorted(wanted - listed))}")
    if listed - wanted:
        failed = True
        print("Cargo.toml: [profile.dev.package] keeps `opt-level = 0` for crates the core now links or"
              f" that left the tree: {', '.join(sorted(listed - wanted))}")
    # The fuzz crate links the core build: its list is the core's build-time crates (names it
    # does not have would only draw cargo's "did not match any packages" warnings).
    fuzz_wanted = sides("--no-default-features", dev=False)[1]
    fuzz = unoptimised(ROOT / "fuzz" / "Cargo.toml") - {"rag-gate-cli"}
    if fuzz != fuzz_wanted:
        failed = True
        print("fuzz/Cargo.toml: [profile.dev.package] should name the core build's build-time"
              f" crates (`--list --core`; only there: {', '.join(sorted(fuzz - fuzz_wanted)) or '-'};"
              f" missing: {', '.join(sorted(fuzz_wanted - fuzz)) or '-'})")
    widened = widened_by_tests()
    if widened:
        failed = True
        print("Cargo.toml: the dev-dependencies widen these crates' features, so the tests build them"
              " (and what sits on them) again beside the wheel; add the features to the feature pins: "
              + "; ".join(f"{k}: {', '.join(sorted(v))}" for k, v in sorted(widened.items())))
    if not failed:
        counts = ", ".join(f"{len(v)} {k}" for k, v in groups.items())
        print(f"dev-opt-levels.py: the crates that compile unoptimised are in step ({counts}), and the"
              " tests widen no crate's features")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
