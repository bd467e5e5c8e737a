#!/usr/bin/env bash
# Determinism across compilers and optimization levels: builds
# //tests/determinism:state_hashes with gcc and clang, at -O0 and -O2, runs
# each (it generates the fixed log, folds it, and prints the state and event
# hashes at fixed checkpoints) and compares the output with the checked-in
# golden_hashes.txt. Ends with "N passed, N failed".
#
# clang builds use their own output base (Bazel's C++ toolchain is
# configured from CC when an output base is first used), as does gcc -O2,
# so the shared gcc cache is left alone; no build here touches the bazel-*
# symlinks.
#   bash tests/determinism/cross_build.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
golden=tests/determinism/golden_hashes.txt
target=//tests/determinism:state_hashes
clang_ob=${COMBAT_CLANG_OUTPUT_BASE:-/tmp/combat_clang_ob}
# -c opt in the shared output base would make the next ordinary build drop
# its analysis cache: gcc -O2 gets an output base of its own too.
gcc_opt_ob=${COMBAT_GCC_OPT_OUTPUT_BASE:-/tmp/combat_gcc_opt_ob}
jobs=${COMBAT_JOBS:-2}
passed=0
failed=0

run() {  # name, then bazel startup args and build args separated by --
  local name=$1
  shift
  local startup=()
  while [ "$1" != "--" ]; do startup+=("$1"); shift; done
  shift
  if ! "$@" bazel "${startup[@]}" build --jobs="$jobs" --symlink_prefix=/ "${BUILD_ARGS[@]}" "$target" >/tmp/cross_build.$$.log 2>&1; then
    echo "FAIL $name: build failed"; tail -20 /tmp/cross_build.$$.log
    failed=$((failed + 1)); return
  fi
  local bin
  bin=$("$@" bazel "${startup[@]}" info "${BUILD_ARGS[@]}" bazel-bin 2>/dev/null)/tests/determinism/state_hashes
  if diff <("$bin" | grep -v '^#') <(grep -v '^#' "$golden") >/tmp/cross_build.$$.diff; then
    echo "ok   $name: $(grep -vc '^#' "$golden") checkpoints match the golden hashes"
    passed=$((passed + 1))
  else
    echo "FAIL $name: hashes differ from $golden"; cat /tmp/cross_build.$$.diff
    failed=$((failed + 1))
  fi
}

# fastbuild passes no -O flag (the compilers' default, -O0) and opt passes
# -O2; adding --copt=-O0 would change the command lines of the shared gcc
# cache's fastbuild actions and make everyone rebuild.
BUILD_ARGS=(-c fastbuild); run "gcc -O0" -- env
BUILD_ARGS=(-c opt);       run "gcc -O2" --output_base="$gcc_opt_ob" -- env
BUILD_ARGS=(-c fastbuild); run "clang -O0" --output_base="$clang_ob" -- env CC=clang
BUILD_ARGS=(-c opt);       run "clang -O2" --output_base="$clang_ob" -- env CC=clang
rm -f /tmp/cross_build.$$.log /tmp/cross_build.$$.diff
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
