#!/usr/bin/env bash
# The main job: plays the bundled example encounter into an embedded RocksDB
# under ./data and prints the readable log and the final state. Safe to run
# again: every command is applied once (by its id), so a re-run prints the
# same session.
set -euo pipefail
cd "$(dirname "$0")/.."
bash bazel/setup.sh
bazel build //replay:combat >&2
mkdir -p data
exec bazel-bin/replay/combat play --db "$PWD/data" \
  --script "$PWD/replay/examples/${1:-d20_ambush}.json"
