#!/usr/bin/env bash
# Installs what the build needs on Debian 12, only what is missing; quick
# when everything is there. Run as root (or with sudo available).
set -euo pipefail

packages=(
  bazel-bootstrap bazel-rules-java bazel-platforms
  g++ clang libclang-rt-14-dev
  libabsl-dev libflatbuffers-dev flatbuffers-compiler librocksdb-dev
  libgtest-dev libgmock-dev libbenchmark-dev libssl-dev libsqlite3-dev
  libcpp-httplib-dev
  nats-server libnats-dev
  libpq-dev postgresql
  chromium
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

# The browser tests (tests/browser.sh) run playwright-core under node; a
# node from elsewhere (nodesource) is kept, Debian's only when none is there.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  missing+=(nodejs npm)
fi

if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
