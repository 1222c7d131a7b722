#!/usr/bin/env bash
# Cluster mode against a single node, in the same run on this box (bench/BENCHMARKS.md, "Cluster mode").
# Each run, alternating: a single node (journal on, the defaults) and a 3-node cluster of separate
# JVMs (conf/cluster's layout, on loopback), each measured with the same load through one node's
# gateway (a follower's, in the cluster): closed loop C x W, then open loop at RATE/s. Then, once
# per run, a failover: open loop at FAILOVER_RATE/s through a follower, the leader's JVM killed
# (SIGKILL) after 4 s; the time until another node's /health says leader is measured by polling.
#   RUNS=3 DURATION=8s bench/cluster.sh          (uses server/target/pacer.jar; builds it if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
DURATION=${DURATION:-8s}
WARMUP=${WARMUP:-2s}
C=${C:-8}; W=${W:-16}
RATE=${RATE:-10000}
FAILOVER_RATE=${FAILOVER_RATE:-5000}
JAR=${JAR:-server/target/pacer.jar}
OPENS="--add-opens java.base/jdk.internal.misc=ALL-UNNAMED"
out="bench/results/cluster-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
log() { echo "[cluster-bench $(date -u +%H:%M:%S)] $*" >&2; }
[ -f "$JAR" ] || ./mvnw -q -B -DskipTests package
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown); cpu: $(nproc) x $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" > "$out/machine.txt"

pids=()
dirs=()
stop_all() {
  for p in "${pids[@]:-}"; do [ -n "$p" ] && kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]:-}"; do [ -n "$p" ] && wait "$p" 2>/dev/null || true; done
  pids=()
  for d in "${dirs[@]:-}"; do [ -n "$d" ] && rm -rf "$d"; done
  dirs=()
}
trap stop_all EXIT

health() { curl -s -m 1 "http://127.0.0.1:$1/health" || true; }
wait_up() { # admin port
  for _ in $(seq 1 300); do [[ "$(health "$1")" == *'"UP"'* ]] && return 0; sleep 0.1; done
  echo "node on admin port $1 did not come up" >&2; return 1
}

start_single() {
  local d; d=$(mktemp -d /tmp/pacer-cluster-bench.XXXXXX); dirs+=("$d")
  java $OPENS -Dpacer.home="$d" -Dpacer.gateway.port=19400 -Dpacer.admin.port=19401 -Dpacer.campaigns.file= \
    -jar "$JAR" serve > "$out/single.log" 2>&1 &
  pids+=($!)
  wait_up 19401
}

start_cluster() {
  local base=$((21000 + RANDOM % 200 * 30))
  for i in 0 1 2; do
    local d; d=$(mktemp -d /tmp/pacer-cluster-bench.XXXXXX); dirs+=("$d")
    java $OPENS -Dpacer.home="$d" -Dpacer.gateway.port=$((19400 + 10 * i)) -Dpacer.admin.port=$((19401 + 10 * i)) \
      -Dpacer.campaigns.file= -Dpacer.cluster.members.0=127.0.0.1 -Dpacer.cluster.members.1=127.0.0.1 -Dpacer.cluster.members.2=127.0.0.1 -Dpacer.cluster.member-id=$i -Dpacer.cluster.port-base=$base \
      -Dpacer.cluster.aeron-dir=/dev/shm/pacer-cluster-bench-$i \
      -jar "$JAR" serve > "$out/node-$i.log" 2>&1 &
    pids+=($!)
  done
  for i in 0 1 2; do wait_up $((19401 + 10 * i)); done
}

role_of() { health $((19401 + 10 * $1)) | sed -n 's/.*"role":"\([a-z]*\)".*/\1/p'; }
follower() { for i in 0 1 2; do [ "$(role_of $i)" = "follower" ] && { echo $i; return; }; done; echo 1; }
leader() { for i in 0 1 2; do [ "$(role_of $i)" = "leader" ] && { echo $i; return; }; done; echo -1; }

load() { # gateway-port admin-port name
  java $OPENS -jar "$JAR" loadtest --port "$1" -c "$C" -w "$W" -d "$DURATION" --warmup "$WARMUP" \
    --setup "http://127.0.0.1:$2" --campaigns 1000 --setup-budget-micros 1000000000000000 --setup-flight 2h --json \
    > "$out/$3-closed-$r.json"
  java $OPENS -jar "$JAR" loadtest --port "$1" -c "$C" --rate "$RATE" -d "$DURATION" --warmup "$WARMUP" --json \
    > "$out/$3-open-$r.json" || true
}

for r in $(seq 1 "$RUNS"); do
  order="single cluster"; [ $((r % 2)) -eq 0 ] && order="cluster single"
  for mode in $order; do
    log "run $r: $mode, closed loop $C x $W, then open loop $RATE/s"
    if [ "$mode" = single ]; then
      start_single; load 19400 19401 single
    else
      start_cluster; f=$(follower); load $((19400 + 10 * f)) $((19401 + 10 * f)) cluster
    fi
    stop_all
  done

  log "run $r: failover, open loop $FAILOVER_RATE/s through a follower, the leader killed with SIGKILL after 4 s"
  start_cluster
  f=$(follower); l=$(leader)
  java $OPENS -jar "$JAR" loadtest --port $((19400 + 10 * f)) -c 4 --rate "$FAILOVER_RATE" -d 10s --warmup 1s --json \
    --setup "http://127.0.0.1:$((19401 + 10 * f))" --campaigns 100 --setup-budget-micros 1000000000000000 --setup-flight 2h \
    > "$out/failover-load-$r.json" 2> "$out/failover-load-$r.log" &
  lp=$!
  sleep 4
  killed_at=$(date +%s%N)
  kill -KILL "${pids[$l]}"
  new=-1
  while [ "$new" = -1 ] || [ "$new" = "$l" ]; do
    for i in 0 1 2; do [ "$i" != "$l" ] && [ "$(role_of $i)" = leader ] && new=$i; done
    [ $(( ($(date +%s%N) - killed_at) / 1000000 )) -gt 30000 ] && { echo "no new leader in 30 s" >&2; break; }
    sleep 0.02
  done
  echo "{\"killed\": $l, \"newLeader\": $new, \"toNewLeaderMillis\": $(( ($(date +%s%N) - killed_at) / 1000000 ))}" > "$out/failover-$r.json"
  wait $lp || true
  pids[$l]=""
  stop_all
done

python3 - "$out" <<'PY'
import json, glob, os, statistics, sys
out = sys.argv[1]
def runs(pattern):
    return [json.load(open(f)) for f in sorted(glob.glob(os.path.join(out, pattern)))]
def med(xs):
    return statistics.median(xs) if xs else float('nan')
for mode in ("single", "cluster"):
    closed = runs(f"{mode}-closed-*.json"); opened = runs(f"{mode}-open-*.json")
    print(f"{mode:8} closed decisions/s median {med([c['throughputPerSecond'] for c in closed]):,.0f} "
          f"runs {[c['throughputPerSecond'] for c in closed]}; "
          f"open p50 {med([o['latencyMicros']['p50'] for o in opened]):,.0f} us, p99 {med([o['latencyMicros']['p99'] for o in opened]):,.0f} us, "
          f"runs p99 {[round(o['latencyMicros']['p99']) for o in opened]}")
s = med([c['throughputPerSecond'] for c in runs("single-closed-*.json")])
c = med([c['throughputPerSecond'] for c in runs("cluster-closed-*.json")])
print(f"cluster / single closed loop: {c / s:.3f}")
for f in runs("failover-*.json"):
    if 'killed' in f:
        print(f"failover: leader {f['killed']} killed, new leader {f['newLeader']} after {f['toNewLeaderMillis']} ms")
for f in runs("failover-load-*.json"):
    print(f"failover load: sent {f['sent']}, answers {f['answers']}, max latency {f['latencyMicros']['max'] / 1000:,.0f} ms, errors {f.get('errors')}")
PY
