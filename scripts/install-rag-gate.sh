#!/usr/bin/env bash
# Installs rag-gate for the Action (action.yml calls it; tests/it/install_script.rs runs it against a
# fake release on 127.0.0.1).
#
# Environment (all optional):
#   RAG_GATE_VERSION        a released version ("0.1.0" or "v0.1.0"); empty: the version in the
#                           Cargo.toml next to this script, i.e. the action's own ref; "source":
#                           build this checkout with `cargo install --locked --path`.
#   RAG_GATE_DOWNLOAD_BASE  where releases live; default: <repository in Cargo.toml>/releases/download.
#                           An archive is fetched from $RAG_GATE_DOWNLOAD_BASE/v<version>/<archive>.
#   RUNNER_OS, RUNNER_ARCH  pick the archive (Linux/macOS/Windows, X64/ARM64), set by GitHub.
#   RUNNER_TOOL_CACHE       cache root; the binary lands in <it>/rag-gate/<version>/<target>/.
#   GITHUB_PATH             a fresh folder holding only a copy of the verified binary is appended
#                           to it (and printed either way); never the tool cache's folder.
#
# Trust: every archive's SHA-256 must match dist/checksums/v<version>.sha256, committed in this
# repository next to this script, so a download that was swapped on the server (or in between)
# is refused. A tool-cache hit is checked the same way (the archive kept in the cache against
# the committed SHA-256, the cached binary against the archive's) and downloaded again when it
# does not match. Exit codes: 0 installed, 2 anything that stops the install (with a `::error`).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

fail() {
  echo "::error title=rag-gate install::$*"
  exit 2
}

# The value of KEY in the [package] table of the Cargo.toml next to this script.
package_key() {
  awk -v key="$1" '
    /^\[/ { in_package = ($0 == "[package]") }
    in_package && $1 == key && $2 == "=" {
      value = $3; gsub(/"/, "", value); print value; exit
    }' "$root/Cargo.toml"
}

sha256_of() {
  if command -v sha256sum >/dev/null; then
    sha256sum "$1" | cut -d' ' -f1
  else
    shasum -a 256 "$1" | cut -d' ' -f1
  fi
}

# Sets `target`: the Rust target of the release archive for this runner. (Helpers that can fail
# set variables instead of printing, so `fail` never runs inside a `$(...)` and its `::error` is seen.)
set_target() {
  case "$1/$2" in
    Linux/X64) target=x86_64-unknown-linux-musl ;;
    Linux/ARM64) target=aarch64-unknown-linux-musl ;;
    macOS/X64) target=x86_64-apple-darwin ;;
    macOS/ARM64) target=aarch64-apple-darwin ;;
    Windows/X64) target=x86_64-pc-windows-msvc ;;
    *) fail "no rag-gate release for RUNNER_OS=$1 RUNNER_ARCH=$2 (released: Linux X64/ARM64, macOS X64/ARM64, Windows X64); set version: source to build it" ;;
  esac
}

# Unix-style path on Windows runners (Git Bash), where the runner's variables hold C:\... paths.
unix_path() {
  if command -v cygpath >/dev/null; then cygpath -u "$1"; else echo "$1"; fi
}

# Puts the verified binary BINARY on PATH through a fresh folder that holds only a copy of it:
# never the tool cache's folder (nor cargo's), where a `gh`, `git` or `bash` planted beside the
# binary on a shared runner would shadow the system's in every later step of the job.
add_to_path() {
  local binary="$1" dir
  dir="$(mktemp -d "$(unix_path "${RUNNER_TEMP:-${TMPDIR:-/tmp}}")/rag-gate-bin.XXXXXX")"
  cp "$binary" "$dir/" || fail "could not copy $binary to $dir"
  chmod 755 "$dir/$(basename "$binary")"
  local only
  only="$(ls -A "$dir")"
  [ "$only" = "$(basename "$binary")" ] || fail "$dir holds more than $(basename "$binary"); refusing to put it on PATH"
  echo "rag-gate is in $dir (a copy of $binary, alone in its folder)"
  # The runner reads GITHUB_PATH itself, so on Windows it gets the native form.
  if command -v cygpath >/dev/null; then dir="$(cygpath -w "$dir")"; fi
  if [ -n "${GITHUB_PATH:-}" ]; then
    echo "$dir" >> "$GITHUB_PATH"
  fi
}

build_from_source() {
  if ! command -v cargo >/dev/null; then
    fail "version: source builds rag-gate with cargo; add a Rust toolchain step before this action"
  fi
  local dest="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/rag-gate"
  cargo install --locked --path "$root" --root "$dest"
  local exe=rag-gate
  [ -f "$dest/bin/rag-gate.exe" ] && exe=rag-gate.exe
  add_to_path "$dest/bin/$exe"
}

# Sets `want`: the SHA-256 of ARCHIVE for VERSION, from the committed checksums file.
set_want() {
  local version="$1" archive="$2"
  local sums="$root/dist/checksums/v$version.sha256"
  [ -f "$sums" ] || fail "rag-gate $version has no checksums in this action (dist/checksums/v$version.sha256): it is not a released version known to this ref of the action; pick a released version, or set version: source to build it"
  want="$(awk -v name="$archive" '$2 == name || $2 == "*" name { print $1; exit }' "$sums")"
  [[ "$want" =~ ^[0-9a-f]{64}$ ]] || fail "dist/checksums/v$version.sha256 has no SHA-256 line for $archive"
}

unpack() {
  local archive="$1" into="$2"
  case "$archive" in
    *.zip) unzip -q "$archive" -d "$into" ;;
    *) tar -xzf "$archive" -C "$into" ;;
  esac
}

# A tool-cache hit is trusted only as a download is: the cached archive's SHA-256 must be the
# committed one, and the cached binary must be byte for byte the one in that archive (a binary
# planted in a shared tool cache on a self-hosted runner is refused, then downloaded again).
cache_verified() {
  local cache="$1" archive="$2" exe="$3" want="$4"
  [ -f "$cache.complete" ] && [ -f "$cache/$exe" ] && [ -f "$cache/$archive" ] || return 1
  [ "$(sha256_of "$cache/$archive")" = "$want" ] || return 1
  local check
  check="$(mktemp -d "$(unix_path "${RUNNER_TEMP:-${TMPDIR:-/tmp}}")/rag-gate-cache.XXXXXX")"
  if ! unpack "$cache/$archive" "$check" >/dev/null 2>&1; then rm -rf "$check"; return 1; fi
  local inside ok=1
  inside="$(find "$check" -type f -name "$exe" | head -n 1)"
  if [ -n "$inside" ] && cmp -s "$inside" "$cache/$exe"; then ok=0; fi
  rm -rf "$check"
  return "$ok"
}

install_release() {
  local version="$1" os="${RUNNER_OS:-}" arch="${RUNNER_ARCH:-}"
  [ -n "$os" ] && [ -n "$arch" ] || fail "RUNNER_OS and RUNNER_ARCH must be set (GitHub sets them on every runner)"
  local target exe archive
  set_target "$os" "$arch"
  exe="rag-gate"; archive="rag-gate-$target.tar.gz"
  if [ "$os" = Windows ]; then exe="rag-gate.exe"; archive="rag-gate-$target.zip"; fi

  local cache want
  set_want "$version" "$archive"
  cache="$(unix_path "${RUNNER_TOOL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}}")/rag-gate/$version/$target"
  if [ -f "$cache.complete" ] || [ -e "$cache" ]; then
    if cache_verified "$cache" "$archive" "$exe" "$want"; then
      echo "rag-gate $version ($target) from the tool cache, sha256 $want"
      add_to_path "$cache/$exe"
      return
    fi
    echo "::warning title=rag-gate install::the tool cache's rag-gate $version ($target) does not match dist/checksums/v$version.sha256 (archive missing or altered, or its binary is not the archive's); downloading it again"
    rm -rf "$cache" "$cache.complete"
  fi

  local base url
  base="${RAG_GATE_DOWNLOAD_BASE:-}"
  if [ -z "$base" ]; then
    base="$(package_key repository)"
    [ -n "$base" ] || fail "Cargo.toml has no repository key to find releases at; set RAG_GATE_DOWNLOAD_BASE"
    base="$base/releases/download"
  fi
  url="${base%/}/v$version/$archive"

  # Global, so the EXIT trap still sees it after this function returns.
  work="$(mktemp -d "$(unix_path "${RUNNER_TEMP:-${TMPDIR:-/tmp}}")/rag-gate-install.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  echo "downloading $url"
  curl --fail --silent --show-error --location --retry 3 --connect-timeout 10 --max-time 120 \
    --output "$work/$archive" "$url" \
    || fail "could not download rag-gate $version from $url: is $version released for $target?"

  local got
  got="$(sha256_of "$work/$archive")"
  [ "$got" = "$want" ] || fail "checksum mismatch for $archive: expected $want (dist/checksums/v$version.sha256), got $got; refusing to install a tampered or corrupt download"

  mkdir -p "$work/unpacked"
  unpack "$work/$archive" "$work/unpacked" || fail "could not unpack $archive"
  local binary
  binary="$(find "$work/unpacked" -type f -name "$exe" | head -n 1)"
  [ -n "$binary" ] || fail "$archive holds no $exe"

  rm -rf "$cache"
  mkdir -p "$cache"
  cp "$binary" "$cache/$exe"
  chmod +x "$cache/$exe"
  # The verified archive stays beside the binary, so a later cache hit can be checked again.
  cp "$work/$archive" "$cache/$archive"
  echo "$want  $archive" > "$cache.complete"
  echo "installed rag-gate $version ($target), sha256 $want"
  add_to_path "$cache/$exe"
}

main() {
  local version="${RAG_GATE_VERSION:-}"
  if [ "$version" = source ]; then
    build_from_source
    return
  fi
  [ -n "$version" ] || version="$(package_key version)"
  version="${version#v}"
  [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$ ]] \
    || fail "version must be a release like 0.1.0 (or v0.1.0), or source; got '$version'"
  install_release "$version"
}

main
