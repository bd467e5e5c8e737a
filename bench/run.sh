#!/usr/bin/env bash
# The performance suite (issue 6): builds with -c opt, runs every benchmark
# (RocksDB side by side with SQLite, on events played through the real
# deciders), counts instructions per folded event with callgrind, and prints
# a markdown table (also written to bench/RESULTS.md).
#
#   bash bench/run.sh            # default: a 1M-event branch (~5 min on 2 cores)
#   bash bench/run.sh --full     # a 10M-event branch (the issue's size)
#   bash bench/run.sh --events=N [--commands=K] [--no-callgrind] [--out=FILE]
set -euo pipefail
cd "$(dirname "$0")/.."

EVENTS=1000000
COMMANDS=2000
CALLGRIND=1
OUT=bench/RESULTS.md
for a in "$@"; do
  case "$a" in
    --full) EVENTS=10000000 ;;
    --events=*) EVENTS="${a#--events=}" ;;
    --commands=*) COMMANDS="${a#--commands=}" ;;
    --no-callgrind) CALLGRIND=0 ;;
    --out=*) OUT="${a#--out=}" ;;
    *) echo "unknown flag $a" >&2; exit 2 ;;
  esac
done

WORK=$(mktemp -d /tmp/combat_bench_run.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

echo "== building (bazel build -c opt //bench:all)" >&2
bazel build -c opt //bench:all >&2
BIN=$(bazel info -c opt bazel-bin 2>/dev/null)/bench

CMD_KERNEL="$BIN/kernel_bench --events=200000 --benchmark_out=$WORK/kernel.json --benchmark_out_format=json"
CMD_STORE="$BIN/store_bench --events=$EVENTS --commands=$COMMANDS --benchmark_out=$WORK/store.json --benchmark_out_format=json"
echo "== $CMD_KERNEL" >&2
$CMD_KERNEL >&2
echo "== $CMD_STORE" >&2
$CMD_STORE >&2

: > "$WORK/callgrind.txt"
if [ "$CALLGRIND" = 1 ] && command -v valgrind >/dev/null; then
  for rs in d20_three_action energy_rounds wound_slots opposed_tests ap_rp; do
    for mode in fold none check; do
      reps=3; [ "$mode" = check ] && reps=1
      f="$WORK/cg.$rs.$mode"
      cmd="valgrind --tool=callgrind --callgrind-out-file=$f $BIN/fold_count --ruleset=$rs --events=20000 --reps=$reps --mode=$mode"
      echo "== $cmd" >&2
      $cmd >"$f.stdout" 2>"$f.stderr"
      ir=$(awk '/^(summary|totals):/ {print $2}' "$f" | tail -1)
      events=$(sed -n 's/^events=\([0-9]*\) reps=\([0-9]*\).*/\1 \2/p' "$f.stdout")
      echo "$rs $mode $ir $events" >> "$WORK/callgrind.txt"
    done
  done
fi

# ---- BEGIN many sessions at once (issue 18): RocksDB group commit beside
# SQLite and PostgreSQL (a server of its own, started as the `postgres`
# user when run as root), and the fdatasync floor; bench/table.py reads
# concurrent.json/.cmd from beside store.json.
CMD_CONCURRENT="$BIN/concurrent_bench --commands=3200 --benchmark_out=$WORK/concurrent.json --benchmark_out_format=json"
echo "== $CMD_CONCURRENT" >&2
$CMD_CONCURRENT >&2
echo "$CMD_CONCURRENT" > "$WORK/concurrent.cmd"
# ---- END many sessions at once

python3 bench/table.py --kernel "$WORK/kernel.json" --store "$WORK/store.json" \
  --callgrind "$WORK/callgrind.txt" --events "$EVENTS" \
  --cmd-kernel "$CMD_KERNEL" --cmd-store "$CMD_STORE" | tee "$OUT"

# --- table server load (server/load_benchmark.cc; stanza of the table server) ---
# The C++ load benchmark, not wrk: one process holds the watchers' streams
# (SSE, which wrk cannot hold) and counts every event each receives, tracks
# each session's head (409 retries with the head from the reply) and times
# accepted submits only. Appended to $OUT by bench/table.py --load.
echo "== bazel build -c opt //server:load_benchmark" >&2
bazel build -c opt //server:load_benchmark >&2
CMD_LOAD="$(bazel info -c opt bazel-bin 2>/dev/null)/server/load_benchmark --seconds 10 --clients 64 --sessions 64 --watchers 32 --db $WORK/load_db --json $WORK/load.json"
echo "== $CMD_LOAD" >&2
$CMD_LOAD >&2 || echo "load benchmark: failures (the table shows them)" >&2
python3 bench/table.py --load "$WORK/load.json" --cmd-load "$CMD_LOAD" | tee -a "$OUT"
# --- end table server load ---

# ---- BEGIN clustered backend (issue 18): NATS JetStream, 3 nodes R3 on
# loopback (store/jetstream/cluster_benchmark.cc starts the cluster itself),
# commands/s and p50/p99 at 1/8/64 sessions, every session its own open
# ("own") and one open for all, as one `combat serve` ("shared"). The
# embedded backend's figures at the same levels are the RocksDB rows of the
# many-sessions table above. Appended to $OUT.
echo "== bazel build -c opt //store/jetstream:cluster_benchmark" >&2
bazel build -c opt //store/jetstream:cluster_benchmark >&2
CB="$(bazel info -c opt bazel-bin 2>/dev/null)/store/jetstream/cluster_benchmark"
{
  echo
  echo "## The clustered backend: NATS JetStream, 3 nodes, R3, on loopback"
  echo
  echo "| opens | sessions | commands/s | p50 | p99 | commands | errors |"
  echo "|---|---|---|---|---|---|---|"
} > "$WORK/nats.md"
for opens in own shared; do
  cmd="$CB --seconds=5 --opens=$opens"
  echo "== $cmd" >&2
  if $cmd > "$WORK/nats.$opens.txt"; then
    awk -v o="$opens" '$1 ~ /^[0-9]+$/ && NF == 6 {
      printf "| %s | %s | %s | %s ms | %s ms | %s | %s |\n", o, $1, $2, $3, $4, $5, $6 }' \
      "$WORK/nats.$opens.txt" >> "$WORK/nats.md"
  else
    echo "| $opens | (the benchmark failed: see its output above) | | | | | |" >> "$WORK/nats.md"
  fi
  echo "$cmd" >> "$WORK/nats.cmds"
done
{
  echo
  echo "Commands (4 events each; every append acknowledged by a majority of the 3 nodes):"
  echo
  echo '```'
  cat "$WORK/nats.cmds"
  echo '```'
} >> "$WORK/nats.md"
tee -a "$OUT" < "$WORK/nats.md"
# ---- END clustered backend
