#!/usr/bin/env bash
# The browser view (server/web/) in a real headless Chromium against a real
# `combat serve` on loopback: builds //replay:combat, starts the server over
# a fresh database, creates a session from d20_ambush's roster through the
# API, adds the player whose combatant acts first, then runs
# web/view.test.js (playwright-core driving /usr/bin/chromium). Bounded in
# time; the server is killed on exit. Last line: "N passed, M failed".
#
#   bash tests/browser.sh                                        # as CI runs it
#   COMBAT_SCREENSHOTS=server/screenshots bash tests/browser.sh  # refresh the README's screenshots
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

fail() { echo "browser: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

timeout 1200 bash bazel/setup.sh >&2 || fail "bazel/setup.sh failed"

chromium_bin=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium_bin" ] || fail "no $chromium_bin (bazel/setup.sh installs chromium)"
command -v node >/dev/null || fail "no node"

timeout 1800 bazel build //replay:combat >&2 || fail "build failed"
combat=$root/bazel-bin/replay/combat

if [ ! -d web/node_modules/playwright-core ]; then
  (cd web && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 timeout 300 npm ci --no-audit --no-fund >&2) || fail "npm ci failed"
fi

tmp=$(mktemp -d)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$server_pid" 2>/dev/null
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# The operator's token (creating sessions is the operator's), before the
# server holds the database.
op=$("$combat" token --db "$tmp/db" --role operator) || fail "no operator token"
"$combat" serve --db "$tmp/db" --listen 127.0.0.1:0 >"$tmp/out" 2>"$tmp/err" &
server_pid=$!
for _ in $(seq 100); do
  [ -s "$tmp/out" ] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
line=$(head -n 1 "$tmp/out")
case $line in
  "listening on http://"*) base=${line#listening on } ;;
  *) cat "$tmp/err" >&2; fail "the server did not start: '$line'" ;;
esac
echo "browser: server at $base (pid $server_pid)" >&2

# A JSON field of a file, by a JS expression on `d`.
jget() { node -e "const d=JSON.parse(require('fs').readFileSync('$1','utf8')); console.log($2)"; }

node -e "const s=require('./replay/examples/d20_ambush.json'); console.log(JSON.stringify(s.roster))" >"$tmp/roster.json" \
  || fail "no roster"
session=amb
# A fixed dice seed: the same rolls each run (the screenshots too).
seed=$(printf '%064d' 17)
curl -sS -m 30 -X POST -H "Authorization: Bearer $op" "$base/api/sessions?session=$session&gm=dana&seed=$seed" --data-binary @"$tmp/roster.json" >"$tmp/create.json" \
  || fail "create failed"
gm=$(jget "$tmp/create.json" 'd.token') || fail "no GM token: $(cat "$tmp/create.json")"
curl -sS -m 30 -H "Authorization: Bearer $gm" "$base/api/sessions/$session/branches/main/status" >"$tmp/status.json" \
  || fail "status failed"
# Whatever the seed: while a monster (no player) acts first,
# the GM ends its turn, so that a player's combatant has the turn.
for i in $(seq 8); do
  plays=$(jget "$tmp/status.json" 'd.active')
  player=$(jget "$tmp/status.json" '(d.combatants.find((c) => c.id === d.active) || {}).player || ""')
  [ -n "$player" ] && break
  seq=$(jget "$tmp/status.json" 'd.seq')
  curl -sS -m 30 -X POST -H "Authorization: Bearer $gm" -H 'Content-Type: application/json' \
    "$base/api/sessions/$session/branches/main/commands?expected_seq=$seq" \
    -d "{\"id\":\"gm-skip-$i\",\"actor\":\"$plays\",\"action\":\"end_turn\"}" >/dev/null || fail "end_turn failed"
  curl -sS -m 30 -H "Authorization: Bearer $gm" "$base/api/sessions/$session/branches/main/status" >"$tmp/status.json" \
    || fail "status failed"
done
[ -n "$player" ] || fail "no player's combatant has the turn ($plays)"
curl -sS -m 30 -X POST -d '' -H "Authorization: Bearer $gm" \
  "$base/api/sessions/$session/participants?role=player&name=$player" >"$tmp/player.json" || fail "add player failed"
token=$(jget "$tmp/player.json" 'd.token') || fail "no player token: $(cat "$tmp/player.json")"
echo "browser: session $session, player $player plays $plays" >&2

# Every example's ruleset, one session each (the GM's token): the view
# draws them all through the same concepts.
others=""
for ex in replay/examples/*.json; do
  name=$(basename "$ex" .json)
  [ "$name" = d20_ambush ] && continue
  node -e "const s=require('./$ex'); console.log(JSON.stringify(s.roster))" >"$tmp/r.json" || fail "no roster in $ex"
  curl -sS -m 30 -X POST -H "Authorization: Bearer $op" "$base/api/sessions?session=$name&gm=gm" --data-binary @"$tmp/r.json" >"$tmp/c.json" \
    || fail "create $name failed"
  t=$(jget "$tmp/c.json" 'd.token') || fail "no GM token for $name: $(cat "$tmp/c.json")"
  n=$(jget "$tmp/r.json" 'd.combatants.length')
  others="$others $name:$t:$n"
done

# Screenshots go to a temporary folder, so a run leaves the clone as it
# was; COMBAT_SCREENSHOTS=server/screenshots refreshes the README's.
shots=${COMBAT_SCREENSHOTS:-$tmp/screenshots}
mkdir -p "$shots"
SHOTS=$shots OTHERS=$others BASE=$base SESSION=$session GM=$gm PLAYER=$token PLAYS=$plays CHROMIUM=$chromium_bin \
  timeout 300 node web/view.test.js
rc=$?
if [ "$rc" -eq 124 ]; then echo "browser: timed out"; echo "0 passed, 1 failed"; fi
exit "$rc"
