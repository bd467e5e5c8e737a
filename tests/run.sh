#!/usr/bin/env bash
# Runs the whole test suite (benchmarks and fuzzers are tagged and left out)
# and ends with a line "N passed, N failed" counted from the test cases'
# own results (the gtest XML of every test target run).
set -uo pipefail
cd "$(dirname "$0")/.."
bash bazel/setup.sh || exit 2

out=$(mktemp)
bazel test //... --config=ci "$@" 2>&1 | tee "$out"
status=${PIPESTATUS[0]}

passed=0
failed=0
source tests/count_results.sh
count "$out" bazel-testlogs

# A build failure before any test ran still fails the run.
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
rm -f "$out"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$status" -eq 0 ]
