#!/usr/bin/env bash
# Installs (as root, with apt-get) or clearly demands what Transmute needs on a
# Debian/Ubuntu machine: Go >= 1.26, JDK 17 (javac, java), python3, g++, and
# util-linux's prlimit, and valgrind (callgrind counts the instructions of the
# efficiency job's count mode; the package also ships valgrind/callgrind.h).
# Idempotent and quick when everything is there.
set -euo pipefail

missing=()
need() { command -v "$1" >/dev/null 2>&1 || missing+=("$2"); }

need javac openjdk-17-jdk-headless
need java openjdk-17-jdk-headless
[ -x /usr/bin/python3 ] || missing+=(python3)
need g++ g++
need prlimit util-linux
need make make
need valgrind valgrind
[ -f /usr/include/valgrind/callgrind.h ] || missing+=(valgrind)
# The HTML report's browser test (report/browser_test.go) needs headless Chromium;
# only `make test` asks for it (it skips with a message where it is absent).
if [ "${TRANSMUTE_TEST_DEPS:-}" = 1 ]; then need chromium chromium; fi

if [ ${#missing[@]} -gt 0 ]; then
  pkgs=$(printf '%s\n' "${missing[@]}" | sort -u | tr '\n' ' ')
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "deps: installing $pkgs"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $pkgs >/dev/null
  else
    echo "deps: missing $pkgs; install them (e.g. sudo apt-get install $pkgs)" >&2
    exit 1
  fi
fi

if ! javac -version 2>&1 | grep -qE 'javac (1[7-9]|2[0-9])'; then
  echo "deps: javac 17 or newer is required (found: $(javac -version 2>&1))" >&2
  exit 1
fi

GO=${GO:-go}
if ! command -v "$GO" >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then GO=/usr/local/go/bin/go; fi
if ! command -v "$GO" >/dev/null 2>&1; then
  echo "deps: Go 1.26 or newer is required and was not found on PATH (Debian's golang-go is too old): install it from go.dev/dl into /usr/local/go" >&2
  exit 1
fi
ver=$("$GO" env GOVERSION 2>/dev/null || echo go0)
minor=$(echo "$ver" | sed -E 's/^go1\.([0-9]+).*/\1/')
if [ "${minor:-0}" -lt 21 ] 2>/dev/null; then
  echo "deps: Go >= 1.26 is required (found $ver)" >&2
  exit 1
fi
# Go >= 1.21 fetches the toolchain go.mod asks for through the module proxy by itself.
echo "deps: ok ($ver, $(javac -version 2>&1), $(/usr/bin/python3 --version), g++ $(g++ -dumpfullversion))"
