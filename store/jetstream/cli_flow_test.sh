#!/usr/bin/env bash
# The combat CLI on a 3-node JetStream cluster (R3): play a session; with
# node 1 killed, fork it and submit to the fork; with node 1 back and node
# 2 killed, submit the same command again (applied once) and verify every
# branch, read it back through a
# second stream reader; export it and import it into another log; a
# token and the table server on it.
set -euo pipefail
COMBAT="$1"
EXAMPLE="$2"
CLUSTER="$3"
tmp="${TEST_TMPDIR:-/tmp}"
dir="$tmp/cluster"
bash "$CLUSTER" start "$dir" 3 > /dev/null
trap 'bash "$CLUSTER" stop "$dir"' EXIT
db="$(cat "$dir/url")/cli?replicas=3"

fail() { echo "FAIL: $*" >&2; exit 1; }

# A command that fails while the cluster elects a new leader is run again
# (the documented way: every write is idempotent by its command id).
retry() {
  for _ in $(seq 1 20); do
    if "$@"; then return 0; fi
    sleep 0.5
  done
  return 1
}

"$COMBAT" play --db "$db" --script "$EXAMPLE" > "$tmp/play.txt"
# One node killed: the rest goes on with two of three.
bash "$CLUSTER" kill "$dir" 1
retry "$COMBAT" fork --db "$db" --session d20_ambush --at 50 --name alt \
  --author gm --reason "what if" > "$tmp/fork.txt" || fail "fork"
grep -q "branch alt forked from main at #50" "$tmp/fork.txt" || fail "fork text"
printf '%s' '{"id":"end-alt","role":"GM","author":"gm","action":"gm_end","text":"called off"}' \
  > "$tmp/end.json"
retry "$COMBAT" submit --db "$db" --session d20_ambush --branch alt \
  --command "$tmp/end.json" > "$tmp/submit.txt"
# Node 1 back, node 2 killed: still a quorum, and the log as written.
bash "$CLUSTER" restart "$dir" 1
bash "$CLUSTER" kill "$dir" 2
# The same command again: applied once.
retry "$COMBAT" submit --db "$db" --session d20_ambush --branch alt \
  --command "$tmp/end.json" > "$tmp/submit2.txt"
grep -q "command end-alt was already applied" "$tmp/submit2.txt" || fail "retry"
retry "$COMBAT" verify --db "$db" > "$tmp/verify.txt" || { cat "$tmp/verify.txt" >&2; fail "verify"; }
grep -q "verify d20_ambush: OK: 2 branches" "$tmp/verify.txt" || fail "verify output"
"$COMBAT" branches --db "$db" --session d20_ambush > "$tmp/branches.txt"
grep -q "alt  forked from main at #50" "$tmp/branches.txt" || fail "branches"
main="$("$COMBAT" log --db "$db" --session d20_ambush | wc -l)"
alt="$("$COMBAT" log --db "$db" --session d20_ambush --branch alt | wc -l)"
[ "$main" -gt 50 ] || fail "main has $main lines"
[ "$alt" = 54 ] || fail "alt has $alt lines, expected 54 (50 shared + 4)"
# A new R3 stream needs three nodes to be placed on: node 2 back.
bash "$CLUSTER" restart "$dir" 2
# Export, and import into another JetStream log; it verifies there.
"$COMBAT" export --db "$db" --session d20_ambush --out "$tmp/s.cmbb" > /dev/null
other="$(cat "$dir/url")/other?replicas=3"
retry "$COMBAT" import --db "$other" --bundle "$tmp/s.cmbb" > /dev/null
"$COMBAT" verify --db "$other" | grep -q "OK: 2 branches" || fail "imported verify"
if "$COMBAT" import --db "$other" --bundle "$tmp/s.cmbb" 2> "$tmp/import.txt"; then
  fail "a second import succeeded"
fi
grep -q "already exists" "$tmp/import.txt" || fail "second import message"
# The table server on the same log: a token made by `combat token` (its
# own process) admits its holder to `combat serve` (another process).
token="$("$COMBAT" token --db "$db" --session d20_ambush --name dana | head -1)"
[ "${#token}" = 64 ] || fail "token: $token"
"$COMBAT" serve --db "$db" --listen 127.0.0.1:0 > "$tmp/serve.txt" 2>&1 &
serve_pid=$!
for _ in $(seq 1 100); do
  grep -q "listening on http://" "$tmp/serve.txt" && break
  sleep 0.1
done
base="$(grep -o 'http://[0-9.:]*' "$tmp/serve.txt" | head -1)"
me="$(curl -s -H "Authorization: Bearer $token" "$base/api/sessions/d20_ambush/me")"
sessions="$(curl -s "$base/api/sessions")"
kill "$serve_pid"
wait "$serve_pid" || true
case "$me" in *'"name":"dana","role":"gm"'*) ;; *) fail "serve me: $me" ;; esac
case "$sessions" in *d20_ambush*) ;; *) fail "serve sessions: $sessions" ;; esac
echo "PASS"
