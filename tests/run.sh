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
# Targets this run reported on: "//pkg:name   PASSED in 0.1s" and friends.
while read -r target verdict; do
  pkg=${target#//}
  pkg=${pkg%%:*}
  name=${target##*:}
  xml="bazel-testlogs/$pkg/$name/test.xml"
  if [ "$verdict" = PASSED ] || [ "$verdict" = FAILED ] || [ "$verdict" = FLAKY ]; then
    if [ -f "$xml" ]; then
      read -r cases bad < <(awk '
        /<testcase / { cases++; hit = 0 }
        /<failure/ && !hit { bad++; hit = 1 }
        END { print cases + 0, bad + 0 }' "$xml")
      # A crashed test binary leaves fewer failures than its verdict says.
      if [ "$verdict" = FAILED ] && [ "$bad" -eq 0 ]; then bad=1; fi
      passed=$((passed + cases - bad))
      failed=$((failed + bad))
      continue
    fi
  fi
  # No results to read (failed to build, timed out, no status): one failure.
  if [ "$verdict" = PASSED ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done < <(grep -E '^//[^ ]+ +(PASSED|FAILED|FLAKY|TIMEOUT|NO STATUS|FAILED TO BUILD|INCOMPLETE)' "$out" \
         | sed -E 's/^(\/\/[^ ]+) +(PASSED|FAILED TO BUILD|FAILED|FLAKY|TIMEOUT|NO STATUS|INCOMPLETE).*/\1 \2/' \
         | sed -E 's/ (FAILED TO BUILD|NO STATUS)$/ BROKEN/')

# A build failure before any test ran still fails the run.
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
rm -f "$out"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$status" -eq 0 ]
