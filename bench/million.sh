#!/usr/bin/env bash
# A million campaigns (#14): first start, restart from a snapshot, one edit of the file applied,
# resident memory, and bid throughput with 1,000,000 campaigns against 1,000, for each jar given,
# alternating, RUNS times. Throughput alternates PAIRS times (default 3) between a 1M server and a
# 1k one running side by side; the ratio is the median of the pairs' (the ratio of the two medians
# printed beside it). Loopback only; every load
# run bounded (8 s + a 2 s warm-up, or WARMUP).
#
#   bench/million.sh JAR...                       # e.g. the base jar, then server/target/pacer.jar
#   RUNS=2 bench/million.sh /tmp/base/server/target/pacer.jar server/target/pacer.jar
#   bench/million.sh JAR JAR:-XX:+UseTransparentHugePages   # JVM options for the server after a colon, comma-separated
#   SPREAD=1 bench/million.sh JAR                  # then PAIRS more: the 1M server under the 1k load, the 1k server
#   WARM_LOADS=0 bench/million.sh JAR              # no unmeasured load of each server before the pairs (default 2)
#
# The files: ids 1..N, budget 1,000,000 currency units each, a 2026 flight, EVEN and ASAP in turn
# (120 MB at a million). One line per run: seconds, KB of resident memory, decisions/s, and whether
# the server mapped its jar's class data sharing archive (class_sharing=no for a copy of the jar:
# build the base in a worktree instead, or its starts count ~1 s of class loading more).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-2}
work=${WORK:-/tmp/pacer-million}
mkdir -p "$work"
# the server starts with bin/pacer's JVM options (huge pages, the class data sharing archive)
. bin/jvm-options
J="java $pacer_opens"

[ -f "$work/1m.json" ] || python3 bench/campaigns-file.py 1000000 "$work/1m.json"
[ -f "$work/1k.json" ] || python3 bench/campaigns-file.py 1000 "$work/1k.json"

edit() { # FILE BUDGET: rewrite campaign 500000's budget atomically; seconds until the admin API shows it
  python3 - "$1" "$2" <<'PY'
import json, os, sys, time, urllib.request
path, budget = sys.argv[1], sys.argv[2]
data = open(path, 'rb').read()
needle = b'{"id":500000,"budgetMicros":'
i = data.index(needle) + len(needle)
j = data.index(b',', i)
open(path + '.tmp', 'wb').write(data[:i] + budget.encode() + data[j:])
t0 = time.time()
os.replace(path + '.tmp', path)
while time.time() - t0 < 60:
    if json.loads(urllib.request.urlopen('http://127.0.0.1:19401/campaigns/500000').read())['budgetMicros'] == int(budget):
        break
    time.sleep(0.02)
print('%.2f' % (time.time() - t0))
PY
}

run() { # JAR[:OPTION,OPTION...]
  local spec=$1 jar=${1%%:*} opts="" H="$work/home" PID PID1M first restart e1 e2 empty loaded rss heap t1m="" t1k="" t1m1k="" t1k2="" s p
  local shared=no
  pacer_shares_classes java "$jar" && shared=yes
  [ "$spec" != "$jar" ] && opts=${spec#*:} && opts=${opts//,/ }
  opts="$(pacer_jvm_options java "$jar") $opts"
  local GP=19400 AP=19401 # this server's gateway and admin ports
  up() { for _ in $(seq 1 1200); do curl -sf "localhost:$AP/health" > /dev/null && return; sleep 0.05; done; }
  serve() { java $opts -Dpacer.home="$H" -Dpacer.gateway.port=$GP -Dpacer.admin.port=$AP -Dpacer.campaigns.file="$H/campaigns.json" \
      -Dpacer.journal.snapshot-interval="${SNAP:-1h}" -jar "$jar" serve > "$H/serve.log" 2>&1 & PID=$!; }
  stop() { kill -TERM "$PID"; for _ in $(seq 1 100); do kill -0 "$PID" 2> /dev/null || return 0; sleep 0.1; done; kill -9 "$PID"; }
  load() { $J -jar "$jar" loadtest --port "$1" --campaigns "$2" -c 8 -w 16 -d 8s --warmup "${WARMUP:-2s}" --json 2> /dev/null |
      python3 -c 'import json,sys; print(json.load(sys.stdin)["throughputPerSecond"])'; }
  rm -rf "$H"; mkdir -p "$H"; echo '{"campaigns":[]}' > "$H/campaigns.json"
  serve; up; sleep 2; jcmd "$PID" GC.run > /dev/null; sleep 1; empty=$(ps -o rss= -p "$PID"); stop
  rm -rf "$H"; mkdir -p "$H"; cp "$work/1m.json" "$H/campaigns.json"
  s=$(date +%s.%N); SNAP=20s serve; up; first=$(echo "$(date +%s.%N) - $s" | bc); loaded=$(ps -o rss= -p "$PID")
  for _ in $(seq 1 120); do grep -q "snapshot.*written" "$H/serve.log" && break; sleep 1; done
  stop
  s=$(date +%s.%N); serve; up; restart=$(echo "$(date +%s.%N) - $s" | bc)
  # memory once the watcher has read its baseline (the applied copy) in the background
  for _ in $(seq 1 "${BASELINE_WAIT:-15}"); do grep -q "baseline of .* read" "$H/serve.log" && break; sleep 1; done
  sleep 2; jcmd "$PID" GC.run > /dev/null; sleep 1; rss=$(ps -o rss= -p "$PID")
  heap=$(jcmd "$PID" GC.heap_info | awk '/garbage-first heap/ {print $6}')
  e1=$(edit "$H/campaigns.json" 2000000000000); e2=$(edit "$H/campaigns.json" 3000000000000)
  # throughput: the 1M server stays up beside one with 1,000 campaigns, and loads alternate between
  # them, so that each 1M figure has a 1k figure taken next to it on this noisy shared host
  PID1M=$PID; H="$work/home1k" GP=19410 AP=19411
  rm -rf "$H"; mkdir -p "$H"; cp "$work/1k.json" "$H/campaigns.json"
  serve; up
  # WARM_LOADS (default 2) unmeasured loads of each first: the first loads after a start ran slower
  # on both servers, the 1M one more (its books first touched by a bid, the JIT still compiling).
  # Two, because the first reconnect is a JIT event of its own: the first load's connections closing
  # and the next ones opening hit branches the compiled code had never seen (uncommon traps in
  # Netty's read and close paths, the decoders' first wrap, an empty reservation queue), and C2 then
  # spent 1.1-1.4 s of CPU recompiling during the second load, 0.15 s during the third
  # (bench/BENCHMARKS.md, twenty-second sitting)
  for _ in $(seq 1 "${WARM_LOADS:-2}"); do load 19400 1000000 > /dev/null; load 19410 1000 > /dev/null; done
  for _ in $(seq 1 "${PAIRS:-3}"); do t1m+="$(load 19400 1000000) "; t1k+="$(load 19410 1000) "; done
  # SPREAD=1: then the 1M server under the 1k load and the 1k server again, alternating, which tells
  # the server's size from the load's spread (after the pairs, so that they run as without it)
  if [ "${SPREAD:-0}" = 1 ]; then
    for _ in $(seq 1 "${PAIRS:-3}"); do t1m1k+="$(load 19400 1000) "; t1k2+="$(load 19410 1000) "; done
  fi
  stop; PID=$PID1M; stop
  # the target's figure: the median of the pairs' ratios; beside it the ratio of the two medians
  p=$(python3 -c 'import statistics as st,sys; m,k=[list(map(float,a.split())) for a in sys.argv[1:]]; print("%.2f ratio_of_medians=%.2f" % (st.median(a/b for a,b in zip(m,k)), st.median(m)/st.median(k)))' "$t1m" "$t1k")
  echo "$spec class_sharing=$shared first_start_s=$first restart_s=$restart edit_s=$e1,$e2 rss_empty_kb=$empty rss_loaded_kb=$loaded" \
    "rss_restarted_after_gc_kb=$rss heap_used=$heap decisions_1m=${t1m// /,} decisions_1k=${t1k// /,} ratio_median=$p" \
    ${t1m1k:+"decisions_1m_server_1k_load=${t1m1k// /,} decisions_1k_again=${t1k2// /,}"}
}

for _ in $(seq 1 "$RUNS"); do
  for jar in "$@"; do run "$jar"; done
done
