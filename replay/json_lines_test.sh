#!/bin/sh
# Every `--json` output of the combat tool is JSON Lines that a real JSON
# parser (Python's json module, strict) accepts line by line: the example
# sessions' play/log/state/jump/head, and a session whose texts hold a NUL,
# a quote, control characters and a byte that is not UTF-8.
set -eu
COMBAT="$1"
EXAMPLES="$2"
CHECK="${TEST_TMPDIR:-/tmp}/check_jsonl.py"
cat > "$CHECK" <<'PY'
import json, sys
def strict(text):  # no NaN/Infinity, no duplicate keys
    def pairs(kv):
        keys = [k for k, _ in kv]
        if len(keys) != len(set(keys)):
            raise ValueError("duplicate key")
        return dict(kv)
    def bad(c):
        raise ValueError("non-standard constant " + c)
    return json.loads(text, object_pairs_hook=pairs, parse_constant=bad)
name, want = sys.argv[1], int(sys.argv[2])
data = sys.stdin.buffer.read().decode("utf-8")  # strict UTF-8 too
lines = data.split("\n")
if lines[-1] != "":
    sys.exit(name + ": output does not end with a newline")
lines = lines[:-1]
if len(lines) < want:
    sys.exit("%s: %d lines, expected at least %d" % (name, len(lines), want))
objs = []
for i, line in enumerate(lines):
    try:
        o = strict(line)
    except ValueError as e:
        sys.exit("%s line %d is not JSON (%s): %r" % (name, i + 1, e, line[:200]))
    if not isinstance(o, dict):
        sys.exit("%s line %d is not an object" % (name, i + 1))
    objs.append(o)
# Events: zero values present, hashes as lowercase hex.
for o in objs:
    if "prev_hash" in o:
        for k in ("cause", "author", "command_id", "seq", "role", "body_type"):
            if k not in o:
                sys.exit(name + ": event without field " + k)
        for k in ("prev_hash", "state_hash"):
            h = o[k]
            if not (isinstance(h, str) and len(h) == 64 and
                    all(c in "0123456789abcdef" for c in h)):
                sys.exit("%s: %s is not 64 lowercase hex digits: %r" % (name, k, h))
json.dump([len(objs)], sys.stdout)
PY
check() { python3 "$CHECK" "$@" > /dev/null; }

n=0
for ex in d20_ambush energy_skirmish wound_slots_bell opposed_duel ap_rp_ambush; do
  n=$((n + 1))
  db="${TEST_TMPDIR:-/tmp}/db_$n"
  rm -rf "$db"
  "$COMBAT" play --db "$db" --script "$EXAMPLES/$ex.json" --json | check "play $ex" 10
  "$COMBAT" log --db "$db" --session "$ex" --json | check "log $ex" 10
  "$COMBAT" state --db "$db" --session "$ex" --json | check "state $ex" 1
  "$COMBAT" jump --db "$db" --session "$ex" --at 3 --json | check "jump $ex" 1
  "$COMBAT" head --db "$db" --session "$ex" --json | check "head $ex" 1
done

# Texts that would break a naive printer (the JSON input refuses bytes that
# are not UTF-8; events_json_line_test covers those).
db="${TEST_TMPDIR:-/tmp}/db_text"
rm -rf "$db"
dir="${TEST_TMPDIR:-/tmp}"
python3 - "$EXAMPLES/d20_ambush.json" "$dir/roster.json" <<'PY'
import json, sys
roster = json.load(open(sys.argv[1]))["roster"]
roster["title"] = "TITLE"
text = json.dumps(roster).replace('"TITLE"', r'"a \"ford\"\u0000 \u001f \x7f Zo\u00eb"')
open(sys.argv[2], "w").write(text)
PY
"$COMBAT" new --db "$db" --session odd --roster "$dir/roster.json" --json | check "new" 2
printf '%s' '{"id":"end","role":"GM","author":"g\"m","action":"gm_end","text":"the \"end\"\u0000 here\\"}' > "$dir/end.json"
"$COMBAT" submit --db "$db" --session odd --command "$dir/end.json" --json | check "submit" 1
"$COMBAT" log --db "$db" --session odd --json > "$dir/odd.jsonl"
check "log odd" 2 < "$dir/odd.jsonl"
# The NUL and the quote are escaped, the bad byte replaced.
grep -q 'the \\"end\\"\\u0000 here\\\\' "$dir/odd.jsonl" || { echo "NUL/quote not escaped"; exit 1; }
grep -q 'a \\"ford\\"\\u0000 \\u001f \\u007f Zoë' "$dir/odd.jsonl" || { echo "control characters not escaped"; exit 1; }
echo PASS
