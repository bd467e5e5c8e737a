#!/usr/bin/env bash
# A running `combat serve` follows its JetStream log (EventLog::Follow):
# writes made by other processes reach it without a reopen, within the
# bound the README states (a second while the cluster answers). Real
# processes on a real nats-server: server A and server B on one log,
# `combat token`, `combat fork`, `combat submit` each their own process.
#  - a GM's event stream on A receives a command `combat submit` appended;
#  - a token made by `combat token` admits its holder at A;
#  - an observer's open stream on A ends ("event: revoked") when B
#    revokes the token, and A then refuses the token.
# Each wait polls with a bound of 5 s, under the server's 10 s keep-alive
# (a server that did not follow would answer only after it).
set -euo pipefail
COMBAT="$1"
EXAMPLE="$2"
CLUSTER="$3"
tmp="${TEST_TMPDIR:-/tmp}"
dir="$tmp/follow"
bash "$CLUSTER" start "$dir" 1 > /dev/null
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2> /dev/null || true; done
  bash "$CLUSTER" stop "$dir"
}
trap cleanup EXIT
db="$(cat "$dir/url")/follow?replicas=1"

fail() { echo "FAIL: $*" >&2; exit 1; }

# Polls (every 0.1 s, at most 5 s) until `$@` succeeds.
within_5s() {
  for _ in $(seq 1 50); do
    if "$@"; then return 0; fi
    sleep 0.1
  done
  return 1
}

# Starts `combat serve` on the log; prints its base URL.
serve() {
  local out="$tmp/serve_$1.txt"
  "$COMBAT" serve --db "$db" --listen 127.0.0.1:0 > "$out" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 100); do
    grep -q "listening on http://" "$out" && break
    sleep 0.1
  done
  grep -o 'http://[0-9.:]*' "$out" | head -1
}

"$COMBAT" play --db "$db" --script "$EXAMPLE" > /dev/null
"$COMBAT" fork --db "$db" --session d20_ambush --at 50 --name alt \
  --author gm --reason "what if" > /dev/null
gm="$("$COMBAT" token --db "$db" --session d20_ambush --name dana | head -1)"
a="$(serve a)"
b="$(serve b)"
[ -n "$a" ] && [ -n "$b" ] || fail "servers did not start"

# The GM's stream of alt on A, from past its head (51 events: 50 shared
# and the fork's record).
curl -sN -H "Authorization: Bearer $gm" \
  "$a/api/sessions/d20_ambush/branches/alt/stream?from=52" > "$tmp/gm_stream.txt" &
pids+=($!)
within_5s grep -q "session d20_ambush branch alt from 52" "$tmp/gm_stream.txt" \
  || fail "the GM's stream did not open: $(cat "$tmp/gm_stream.txt")"
printf '%s' '{"id":"end-alt","role":"GM","author":"gm","action":"gm_end","text":"called off"}' \
  > "$tmp/end.json"
"$COMBAT" submit --db "$db" --session d20_ambush --branch alt \
  --command "$tmp/end.json" > /dev/null
within_5s grep -q "^id: 52" "$tmp/gm_stream.txt" \
  || fail "A's stream did not receive the command another process appended: $(cat "$tmp/gm_stream.txt")"

# An observer's token, made by another process, admits its holder at A.
olly="$("$COMBAT" token --db "$db" --session d20_ambush --name olly --role observer | head -1)"
me="$(curl -s -H "Authorization: Bearer $olly" "$a/api/sessions/d20_ambush/me")"
case "$me" in *'"name":"olly","role":"observer"'*) ;; *) fail "A's me for olly: $me" ;; esac
curl -sN -H "Authorization: Bearer $olly" \
  "$a/api/sessions/d20_ambush/branches/alt/stream?from=53" > "$tmp/olly_stream.txt" &
olly_pid=$!
pids+=($olly_pid)
within_5s grep -q "branch alt from 53" "$tmp/olly_stream.txt" \
  || fail "olly's stream did not open: $(cat "$tmp/olly_stream.txt")"

# B revokes olly; A's open stream of olly ends, and A refuses the token.
revoked="$(curl -s -X DELETE -H "Authorization: Bearer $gm" \
  "$b/api/sessions/d20_ambush/participants/olly")"
case "$revoked" in *'"revoked"'*) ;; *) fail "B's revocation: $revoked" ;; esac
within_5s grep -q "event: revoked" "$tmp/olly_stream.txt" \
  || fail "olly's stream on A did not end: $(cat "$tmp/olly_stream.txt")"
refused() {
  local code
  code="$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $olly" \
    "$a/api/sessions/d20_ambush/me")"
  [ "$code" = 401 ] || [ "$code" = 403 ]
}
within_5s refused || fail "A still admits olly's revoked token"
echo "PASS"
