#!/usr/bin/env bash
# A JetStream cluster of nats-server processes on loopback, by hand or for
# tests (store/jetstream/README.md):
#   cluster.sh start DIR [NODES]   start NODES (default 3) servers with -js
#                                  and routes between them, on free ports,
#                                  each with its config, store and log under
#                                  DIR/nN; writes DIR/url (a --db URL
#                                  without prefix) and waits (30 s at most)
#                                  for a JetStream meta leader
#   cluster.sh stop DIR            stop them (SIGTERM, SIGKILL after 10 s)
#                                  and remove DIR
#   cluster.sh kill DIR N          SIGKILL node N
#   cluster.sh restart DIR N       start node N again (same ports, store)
set -euo pipefail

cmd="${1:-}"
dir="${2:-}"
if [ -z "$cmd" ] || [ -z "$dir" ]; then
  sed -n '2,15p' "$0" >&2
  exit 2
fi

launch() {  # node number
  local node="$dir/n$1"
  nats-server -c "$node/nats.conf" >> "$node/nats.log" 2>&1 &
  echo $! > "$node/pid"
}

case "$cmd" in
start)
  n="${3:-3}"
  mkdir -p "$dir"
  read -r -a ports <<< "$(python3 -c '
import socket, sys
n = int(sys.argv[1])
socks = [socket.socket() for _ in range(2 * n)]
for s in socks: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))' "$n")"
  hosts=()
  for i in $(seq 1 "$n"); do
    node="$dir/n$i"
    mkdir -p "$node/store"
    client="${ports[$((2 * i - 2))]}"
    hosts+=("127.0.0.1:$client")
    {
      echo "server_name: n$i"
      echo "listen: 127.0.0.1:$client"
      echo "jetstream { store_dir: \"$node/store\" }"
      if [ "$n" -gt 1 ]; then
        routes=""
        for j in $(seq 1 "$n"); do
          [ "$j" = "$i" ] && continue
          routes="$routes${routes:+, }nats-route://127.0.0.1:${ports[$((2 * j - 1))]}"
        done
        echo "cluster { name: combat, listen: 127.0.0.1:${ports[$((2 * i - 1))]}, routes: [$routes] }"
      fi
    } > "$node/nats.conf"
  done
  for i in $(seq 1 "$n"); do launch "$i"; done
  (IFS=,; echo "nats://${hosts[*]}") > "$dir/url"
  for _ in $(seq 1 300); do
    # One node: ready once it says so (it listens then); a cluster: once a
    # JetStream meta leader is elected.
    if { [ "$n" = 1 ] && grep -qs "Server is ready" "$dir/n1/nats.log"; } ||
       grep -qs "metadata leader" "$dir"/n*/nats.log; then
      cat "$dir/url"
      exit 0
    fi
    for i in $(seq 1 "$n"); do
      if ! kill -0 "$(cat "$dir/n$i/pid")" 2> /dev/null; then
        echo "cluster.sh: nats-server n$i exited; see $dir/n$i/nats.log" >&2
        exit 1
      fi
    done
    sleep 0.1
  done
  echo "cluster.sh: not ready (no JetStream meta leader) after 30 s; see $dir/n*/nats.log" >&2
  exit 1
  ;;
stop)
  for pidfile in "$dir"/n*/pid; do
    [ -f "$pidfile" ] || continue
    pid="$(cat "$pidfile")"
    kill "$pid" 2> /dev/null || true
    for _ in $(seq 1 100); do
      kill -0 "$pid" 2> /dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2> /dev/null || true
  done
  rm -rf "$dir"
  ;;
kill)
  kill -9 "$(cat "$dir/n$3/pid")"
  ;;
restart)
  launch "$3"
  ;;
*)
  sed -n '2,15p' "$0" >&2
  exit 2
  ;;
esac
