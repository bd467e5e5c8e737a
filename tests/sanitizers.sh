#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer + UndefinedBehaviorSanitizer
# (gcc; --config=asan --config=ubsan), and the concurrency tests under
# ThreadSanitizer (--config=tsan), each in its own output base so the shared
# cache keeps its normal build; no bazel-* symlink is touched. Reliability
# tests run with COMBAT_QUICK=1 (a third of their short run: sanitized
# binaries are slower). Ends with "N passed, N failed", counted from the
# test cases' own results, as tests/run.sh does.
#
#   bash tests/sanitizers.sh                     # every package under ASan+UBSan, concurrency under TSan
#   bash tests/sanitizers.sh //tests/... //store/...
#   COMBAT_SKIP_TSAN=1 bash tests/sanitizers.sh
set -uo pipefail
cd "$(dirname "$0")/.."
bash bazel/setup.sh || exit 2

targets=("$@")
# Not //...: this build's own output base does not know the plain build's
# bazel-<dir> convenience symlink and would load it as a package.
[ ${#targets[@]} -eq 0 ] && targets=(//events/... //store/... //kernel/... //replay/... //server/... //tests/... //bench/...)
asan_ob=${COMBAT_ASAN_OUTPUT_BASE:-/tmp/combat_asan_ob}
tsan_ob=${COMBAT_TSAN_OUTPUT_BASE:-/tmp/combat_tsan_ob}
jobs=${COMBAT_JOBS:-2}
common=(--config=ci --symlink_prefix=/ --jobs="$jobs" --test_env=COMBAT_QUICK=1)

passed=0
failed=0
status_all=0

source tests/count_results.sh

run() {  # label, output base, configs..., -- targets...
  local label=$1 ob=$2
  shift 2
  local configs=()
  while [ "$1" != "--" ]; do configs+=("$1"); shift; done
  shift
  local out
  out=$(mktemp)
  echo "== $label: bazel test ${configs[*]} $*"
  bazel --output_base="$ob" test "${configs[@]}" "${common[@]}" "$@" 2>&1 | tee "$out"
  local st=${PIPESTATUS[0]}
  local before=$failed
  count "$out" "$(bazel --output_base="$ob" info "${configs[@]}" bazel-testlogs 2>/dev/null)"
  # A build failure before any test ran still fails the run.
  if [ "$st" -ne 0 ] && [ "$failed" -eq "$before" ]; then failed=$((failed + 1)); fi
  [ "$st" -ne 0 ] && status_all=1
  rm -f "$out"
}

run "ASan+UBSan" "$asan_ob" --config=asan --config=ubsan -- "${targets[@]}"

if [ -z "${COMBAT_SKIP_TSAN:-}" ]; then
  run_tsan=0
  for t in "${targets[@]}"; do
    case "$t" in //...|//tests/...|//tests/concurrency*) run_tsan=1 ;; esac
  done
  if [ "$run_tsan" -eq 1 ]; then
    # The concurrency suite, the store test whose long scans run in two
    # threads (store/view.cc), group commit (writers of many branches at
    # once, store/write_locks.h), and the table server (a thread pool of
    # writers and watchers over one database).
    run "TSan" "$tsan_ob" --config=tsan -- //tests/concurrency:all //store:bulk_import_test //store:scan_pipeline_test //store:group_commit_test //server:server_test //store/jetstream:shared_open_test //store/jetstream:jetstream_log_test
  fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$status_all" -eq 0 ]
