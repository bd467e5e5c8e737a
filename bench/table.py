#!/usr/bin/env python3
"""Turns the suite's JSON (Google Benchmark) and callgrind totals into the
markdown table of bench/RESULTS.md. Called by bench/run.sh."""
import argparse, json, os, re, subprocess

# --- table server load (server/load_benchmark.cc; stanza of the table server) ---
# `table.py --load FILE --cmd-load CMD`: the load benchmark's JSON as a
# section of bench/RESULTS.md (bench/run.sh appends it), then exit.
import sys
if "--load" in sys.argv:
    lp = argparse.ArgumentParser(); lp.add_argument("--load"); lp.add_argument("--cmd-load")
    la = lp.parse_args()
    L = json.load(open(la.load))
    print("\n## Table server under load (`combat serve`, issue 17)\n")
    print(f"{L['clients']} clients submit GM notes to {L['sessions']} sessions (each naming the head it last saw) "
          f"for {L['seconds']} s over loopback, in one process with the server (fsync on every append), "
          f"while {L['watchers_requested']} watchers stream the sessions (SSE, each its session's whole log):\n")
    print("```\n" + la.cmd_load + "\n```\n")
    print("| commands/s | p50 | p99 | max | 409 retries | failures (no reply or an error) | watchers held | events streamed / expected |")
    print("|---|---|---|---|---|---|---|---|")
    print(f"| {L['commands_per_s']:.0f} | {L['p50_ms']:.1f} ms | {L['p99_ms']:.1f} ms | {L['max_ms']:.0f} ms | "
          f"{L['conflicts']} | {L['failures']} | {L['watchers_held']} | {L['events_streamed']} / {L['events_expected']} |")
    sys.exit(0)
# --- end table server load ---

ap = argparse.ArgumentParser()
ap.add_argument("--kernel"); ap.add_argument("--store"); ap.add_argument("--callgrind")
ap.add_argument("--events", type=int); ap.add_argument("--cmd-kernel"); ap.add_argument("--cmd-store")
a = ap.parse_args()

def load(path):
    out = {}
    for b in json.load(open(path))["benchmarks"]:
        name = re.sub(r"/(iterations:\d+|real_time)", "", b["name"])
        out[name] = b
    return out

K, S = load(a.kernel), load(a.store)
cg = {}
if a.callgrind and os.path.exists(a.callgrind):
    for line in open(a.callgrind):
        f = line.split()
        if len(f) == 5:
            cg[(f[0], f[1])] = (int(f[2]), int(f[3]), int(f[4]))

def g(d, name, key):
    b = d.get(name)
    return None if b is None or key not in b else float(b[key])

def si(x, unit=""):
    if x is None: return "n/a"
    for div, suf in ((1e6, "M"), (1e3, "k")):
        if abs(x) >= div: return f"{x/div:.2f} {suf}{unit}".rstrip()
    return f"{x:.3g} {unit}".rstrip()

def us(x): return "n/a" if x is None else (f"{x/1000:.2f} ms" if x >= 1000 else f"{x:.0f} µs")
def verdict(ok): return "n/a" if ok is None else ("**met**" if ok else "**missed**")
def ratio(r, s): return None if r is None or s is None or s == 0 else r / s

rows = []
def row(what, target, measured, ok, sqlite="", note=""):
    rows.append((what, target, measured, verdict(ok), sqlite, note))

# machine
cpu = "?"
for line in open("/proc/cpuinfo"):
    if line.startswith("model name"): cpu = line.split(":", 1)[1].strip(); break
mem = 0
for line in open("/proc/meminfo"):
    if line.startswith("MemTotal"): mem = int(line.split()[1]) / 1024 / 1024; break
nproc = os.cpu_count()
rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()

# durable append
rp50, rcs = g(S, "BM_DurableAppend/sqlite:0/sync:1", "p50_us"), g(S, "BM_DurableAppend/sqlite:0/sync:1", "commands_per_s")
rp99 = g(S, "BM_DurableAppend/sqlite:0/sync:1", "p99_us")
sp50, scs = g(S, "BM_DurableAppend/sqlite:1/sync:1", "p50_us"), g(S, "BM_DurableAppend/sqlite:1/sync:1", "commands_per_s")
epc = g(S, "BM_DurableAppend/sqlite:0/sync:1", "events_per_command")
r = ratio(rcs, scs)
row("durable command append (`sync=true`, one command, one writer)", "p50 <= 250 µs, >= 4,000 commands/s",
    f"p50 {us(rp50)}, p99 {us(rp99)}, {si(rcs)} commands/s ({epc:.1f} events/command)" if rp50 else "n/a",
    None if rp50 is None else (rp50 <= 250 and rcs >= 4000),
    f"p50 {us(sp50)}, {si(scs)} cmd/s; ratio {r:.2f}x" if r else "")
rp50n, rcsn = g(S, "BM_DurableAppend/sqlite:0/sync:0", "p50_us"), g(S, "BM_DurableAppend/sqlite:0/sync:0", "commands_per_s")
sp50n, scsn = g(S, "BM_DurableAppend/sqlite:1/sync:0", "p50_us"), g(S, "BM_DurableAppend/sqlite:1/sync:0", "commands_per_s")
rn = ratio(rcsn, scsn)
row("command append, `sync=false` (SQLite `synchronous=NORMAL`)", "(no target)",
    f"p50 {us(rp50n)}, {si(rcsn)} commands/s", None, f"p50 {us(sp50n)}, {si(scsn)} cmd/s; ratio {rn:.2f}x" if rn else "")

# bulk import
ri, sq = g(S, "BM_BulkImport/sqlite:0", "events_per_s"), g(S, "BM_BulkImport/sqlite:1", "events_per_s")
r = ratio(ri, sq)
row("bulk import of a verified session (`ImportSession`: one table file, one ingestion, durable on return)", ">= 500,000 events/s", f"{si(ri)} events/s",
    None if ri is None else ri >= 500000, f"{si(sq)} events/s; ratio {r:.2f}x" if r else "")

# fold
RULESETS = ("d20_three_action", "energy_rounds", "wound_slots", "opposed_tests", "ap_rp")
for i, rs in enumerate(RULESETS):
    f = g(K, f"BM_Fold/{i}", "items_per_second")
    fo = g(K, f"BM_FoldOneNoCheck/{i}", "items_per_second")
    fc = g(K, f"BM_FoldCheckHashes/{i}", "items_per_second")
    ipe = ipc = None
    if (rs, "fold") in cg and (rs, "none") in cg:
        irf, ev, reps = cg[(rs, "fold")]; irn = cg[(rs, "none")][0]
        ipe = (irf - irn) / (ev * reps)
    if (rs, "check") in cg and (rs, "none") in cg:
        irc, ev, reps = cg[(rs, "check")]; irn, _, _ = cg[(rs, "none")]
        ipc = (irc - irn) / (ev * reps)
    row(f"fold in memory, {rs}, no state-hash check (`kernel::Apply`)", ">= 30 M events/s, <= 100 instructions/event",
        f"{si(f)} events/s (FoldOne kNo {si(fo)}), {ipe:.0f} instructions/event" if ipe is not None else f"{si(f)} events/s",
        None if f is None else (f >= 30e6 and (ipe is None or ipe <= 100)))
    row(f"fold in memory, {rs}, with every state hash (`CheckHashes::kYes`)", "(same target, if it means this)",
        f"{si(fc)} events/s" + (f", {ipc:.0f} instructions/event" if ipc is not None else ""),
        None if fc is None else (fc >= 30e6 and (ipc is None or ipc <= 100)))

# cold replay
for mode, label in ((1, "read, Verifier, fold (kNo)"), (2, "read, Verifier, fold + every state hash (first 200k)"), (0, "read + Verifier only")):
    rr, ss = g(S, f"BM_ColdReplay/sqlite:0/mode:{mode}", "events_per_s"), g(S, f"BM_ColdReplay/sqlite:1/mode:{mode}", "events_per_s")
    r = ratio(rr, ss)
    row(f"cold replay of a branch: {label}", ">= 1.5 M events/s" if mode != 0 else "(bound)", f"{si(rr)} events/s",
        None if rr is None or mode == 0 else rr >= 1.5e6, f"{si(ss)} events/s; ratio {r:.2f}x" if r else "")

# seek
p50, p99 = g(S, "BM_Seek", "p50_us"), g(S, "BM_Seek", "p99_us")
n = g(S, "BM_Seek", "events")
row(f"state at a random event of a {si(n)}-event branch (jump.h, snapshots every 1024)", "p50 <= 1 ms, p99 <= 3 ms (10M branch)",
    f"p50 {us(p50)}, p99 {us(p99)}, {g(S, 'BM_Seek', 'mean_folded'):.0f} events folded on average" if p50 else "n/a",
    None if p50 is None else (p50 <= 1000 and p99 <= 3000), "", "" if (n or 0) >= 1e7 else f"branch of {si(n)}, not 10M")

# fork
forks = [(int(g(S, k, "prefix")), g(S, k, "p50_us")) for k in S if k.startswith("BM_Fork/")]
if forks:
    ps = [p for _, p in forks]
    flat = max(ps) <= 2 * min(ps) + 50
    row("fork (p50 by prefix length)", "constant time", ", ".join(f"{si(pre)}: {us(p)}" for pre, p in forks), flat, "",
        "a fork is one synced WriteBatch (meta + head); nothing copied")

# verify
v0, v1 = g(S, "BM_Verify/redecide:0", "events_per_s"), g(S, "BM_Verify/redecide:1", "events_per_s")
row("verify (chain + state hashes + reducer), no re-decision", ">= 500,000 events/s", f"{si(v0)} events/s", None if v0 is None else v0 >= 5e5)
row("verify with re-decision of every command", ">= 500,000 events/s", f"{si(v1)} events/s", None if v1 is None else v1 >= 5e5)

# disk and memory
d, ds, raw = g(S, "BM_Disk/sqlite:0", "bytes_per_event"), g(S, "BM_Disk/sqlite:1", "bytes_per_event"), g(S, "BM_Disk/sqlite:0", "event_bytes_per_event")
row("disk per event (RocksDB after flush + full compaction, store's table format)", "<= 150 bytes/event", f"{d:.0f} bytes/event (events are {raw:.0f} bytes raw)" if d else "n/a",
    None if d is None else d <= 150, f"{ds:.0f} bytes/event" if ds else "")
m, ms, rn = g(S, "BM_ReplayRss/sqlite:0", "rss_mb"), g(S, "BM_ReplayRss/sqlite:1", "rss_mb"), g(S, "BM_ReplayRss/sqlite:0", "events")
row(f"peak RSS replaying {si(rn)} events (own process)", "<= 200 MB (10M events)", f"{m:.0f} MB" if m else "n/a",
    None if m is None else m <= 200, f"{ms:.0f} MB" if ms else "", "" if (rn or 0) >= 1e7 else f"{si(rn)} events, not 10M")

gen = [(g(K, f"BM_Generate/{i}", "items_per_second"), rs) for i, rs in enumerate(RULESETS)]

print("# Performance results (issue 6)\n")
print(f"Machine: {nproc} cores ({cpu}), {mem:.1f} GiB RAM; commit {rev} (plus the working tree). "
      f"Branch length {si(a.events)} events (d20_three_action, played through the decider).\n")
print("Commands (all run by `bash bench/run.sh`):\n")
print("```\n" + a.cmd_kernel + "\n" + a.cmd_store)
print("valgrind --tool=callgrind --callgrind-out-file=OUT bazel-bin/bench/fold_count --ruleset=R --events=20000 --reps=3 --mode=fold   # and --mode=none (baseline), --mode=check --reps=1")
print("```\n")
print("| what | target | RocksDB (measured) | verdict | SQLite baseline, ratio | note |")
print("|---|---|---|---|---|---|")
for rr in rows:
    print("| " + " | ".join(rr) + " |")
print()
print("Generator (decide + fold through the real rulesets): " +
      ", ".join(f"{rs} {si(x)} events/s" for x, rs in gen) + ".")
print("Instructions/event = (callgrind Ir of `--mode=fold` - Ir of `--mode=none`) / (events x reps).")
print("SQLite ratio goal: >= 5x on durable append, bulk import and cold replay.")

# ---- BEGIN many sessions at once (issue 18; bench/concurrent_bench.cc) ----
# Read from beside the store JSON (run.sh writes concurrent.json and
# concurrent.cmd there), so no flag is shared with other stanzas.
_cdir = os.path.dirname(a.store) if a.store else ""
_cjson = os.path.join(_cdir, "concurrent.json")
if os.path.exists(_cjson):
    C = load(_cjson)
    _ccmd = open(os.path.join(_cdir, "concurrent.cmd")).read().strip() if os.path.exists(os.path.join(_cdir, "concurrent.cmd")) else ""
    names = ("RocksDB (group commit)", "SQLite (WAL, synchronous=FULL)", "PostgreSQL (synchronous_commit on)")
    print("\n## Many sessions at once (issue 18)\n")
    print("N writer threads, one session each, the same d20_three_action commands, sync on; "
          "commands/s over all writers, latency per command.\n")
    if _ccmd: print("```\n" + _ccmd + "\n```\n")
    print("| sessions | " + " | ".join(names) + " | RocksDB / SQLite | RocksDB / PostgreSQL |")
    print("|---|---|---|---|---|---|")
    for n in (1, 8, 64):
        cells, cps = [], []
        for be in range(3):
            k = f"BM_Concurrent/backend:{be}/sessions:{n}"
            c, p50, p99 = g(C, k, "commands_per_s"), g(C, k, "p50_us"), g(C, k, "p99_us")
            cps.append(c)
            cells.append("n/a" if c is None else f"{si(c)} cmd/s, p50 {us(p50)}, p99 {us(p99)}")
        r1, r2 = ratio(cps[0], cps[1]), ratio(cps[0], cps[2])
        print(f"| {n} | " + " | ".join(cells) + f" | {'n/a' if r1 is None else f'{r1:.2f}x'} | {'n/a' if r2 is None else f'{r2:.2f}x'} |")
    f0, f1 = g(C, "BM_FsyncFloor/prealloc:0", "p50_us"), g(C, "BM_FsyncFloor/prealloc:1", "p50_us")
    f0p, f1p = g(C, "BM_FsyncFloor/prealloc:0", "p99_us"), g(C, "BM_FsyncFloor/prealloc:1", "p99_us")
    rb = g(C, "BM_FsyncFloor/prealloc:0", "record_bytes")
    a1 = g(C, "BM_Concurrent/backend:0/sessions:1", "p50_us")
    print()
    print(f"fdatasync floor, same disk, same run ({rb:.0f}-byte record, a command's WAL record): "
          f"growing file p50 {us(f0)} (p99 {us(f0p)}), preallocated file p50 {us(f1)} (p99 {us(f1p)}). "
          f"Durable single-writer append (RocksDB, 1 session) p50 {us(a1)}: "
          f"{ratio(a1, f0) or 0:.2f}x the growing-file floor, {ratio(a1, f1) or 0:.2f}x the preallocated one "
          f"(target <= 1.3x).")
    bf, ba = g(C, "BM_FloorBeside", "floor_p50_us"), g(C, "BM_FloorBeside", "append_p50_us")
    if bf is not None and ba is not None:
        rr = ratio(ba, bf)
        print(f"Interleaved (BM_FloorBeside: one append, then one raw write + fdatasync of the same size, 2000 times, "
              f"so both see the same disk moments): append p50 {us(ba)} (p99 {us(g(C, 'BM_FloorBeside', 'append_p99_us'))}), "
              f"floor p50 {us(bf)} (p99 {us(g(C, 'BM_FloorBeside', 'floor_p99_us'))}): "
              f"{rr:.2f}x (target <= 1.3x: {verdict(rr <= 1.3)}).")
    c64 = [g(C, f"BM_Concurrent/backend:{be}/sessions:64", "commands_per_s") for be in range(3)]
    r1, r2 = ratio(c64[0], c64[1]), ratio(c64[0], c64[2])
    if r1 is not None and r2 is not None:
        print(f"At 64 sessions: {r1:.2f}x SQLite (target >= 5x: {verdict(r1 >= 5)}), "
              f"{r2:.2f}x PostgreSQL (target >= 2x: {verdict(r2 >= 2)}).")
# ---- END many sessions at once ----
