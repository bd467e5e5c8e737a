# Sourced by tests/run.sh and tests/sanitizers.sh: counts test cases from
# a `bazel test` output and the gtest XML of each target it reported on.
# The caller holds the running totals in $passed and $failed.
# count <bazel output> <testlogs dir>: adds the test cases of every target
# the run reported on (a target without results counts as one).
count() {
  local out=$1 testlogs=$2 target verdict pkg name xml cases bad
  while read -r target verdict; do
    pkg=${target#//}
    pkg=${pkg%%:*}
    name=${target##*:}
    xml="$testlogs/$pkg/$name/test.xml"
    if { [ "$verdict" = PASSED ] || [ "$verdict" = FAILED ] || [ "$verdict" = FLAKY ]; } && [ -f "$xml" ]; then
      read -r cases bad < <(awk '
        /<testcase / { cases++; hit = 0 }
        /<failure/ && !hit { bad++; hit = 1 }
        END { print cases + 0, bad + 0 }' "$xml")
      if [ "$verdict" = FAILED ] && [ "$bad" -eq 0 ]; then bad=1; fi
      passed=$((passed + cases - bad))
      failed=$((failed + bad))
      continue
    fi
    if [ "$verdict" = PASSED ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  # "(cached) PASSED" counts too: its test.xml is the cached run's.
  done < <(grep -E '^//[^ ]+ +(\(cached\) )?(PASSED|FAILED|FLAKY|TIMEOUT|NO STATUS|FAILED TO BUILD|INCOMPLETE)' "$out" \
           | sed -E 's/^(\/\/[^ ]+) +(\(cached\) )?(PASSED|FAILED TO BUILD|FAILED|FLAKY|TIMEOUT|NO STATUS|INCOMPLETE).*/\1 \3/' \
           | sed -E 's/ (FAILED TO BUILD|NO STATUS)$/ BROKEN/')
}
