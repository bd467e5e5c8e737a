#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan, --config=fuzz, in
# their own output base) and runs each for a while, starting from the
# checked-in seed corpus (new inputs go to a scratch directory, so the
# corpus in the repository is not touched). Crashes are saved under
# $COMBAT_FUZZ_ARTIFACTS (default /tmp/combat_fuzz_artifacts).
#
#   bash tests/fuzz/run.sh              # 20 s per target
#   bash tests/fuzz/run.sh 600          # 10 minutes per target
#   bash tests/fuzz/run.sh 60 dice_fuzzer event_fuzzer
#
# Reports the executions per target and ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-20}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(command_json_fuzzer roster_json_fuzzer script_json_fuzzer event_fuzzer dice_fuzzer bundle_fuzzer)
fi
ob=${COMBAT_FUZZ_OUTPUT_BASE:-/tmp/combat_fuzz_ob}
artifacts=${COMBAT_FUZZ_ARTIFACTS:-/tmp/combat_fuzz_artifacts}
mkdir -p "$artifacts"
command -v clang >/dev/null || { echo "clang is not installed"; echo "0 passed, 1 failed"; exit 1; }

labels=()
for t in "${targets[@]}"; do labels+=("//tests/fuzz:$t"); done
if ! CC=clang bazel --output_base="$ob" build --config=fuzz --symlink_prefix=/ \
    --jobs="${COMBAT_JOBS:-2}" "${labels[@]}"; then
  echo "fuzz targets failed to build"
  echo "0 passed, ${#targets[@]} failed"
  exit 1
fi
bin=$(CC=clang bazel --output_base="$ob" info --config=fuzz bazel-bin 2>/dev/null)/tests/fuzz

passed=0
failed=0
total=0
for t in "${targets[@]}"; do
  work=$(mktemp -d)
  log=$(mktemp)
  "$bin/$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts/$t-" \
    "$work" "tests/fuzz/corpus/$t" >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  execs=${execs:-0}
  total=$((total + execs))
  corpus=$(ls "$work" | wc -l)
  if [ "$rc" -eq 0 ]; then
    echo "ok   $t: $execs executions in ${secs}s, $corpus new corpus inputs, no crash"
    passed=$((passed + 1))
  else
    echo "FAIL $t (exit $rc) after $execs executions; artifacts in $artifacts:"
    grep -E "ERROR|SUMMARY|_fuzzer \(|fuzzer:|Test unit written" "$log" | head -20
    failed=$((failed + 1))
  fi
  rm -rf "$work" "$log"
done
echo "fuzzing: $total executions in total"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
