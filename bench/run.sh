#!/usr/bin/env bash
# The benchmark suite: every figure of bench/BENCHMARKS.md in one run, on this machine, over
# loopback only, each load bounded in time. Needs: a JDK, python3 (to aggregate), and Debian's
# redis-server + redis-tools for the peer (apt-get install -y redis-server redis-tools).
#
#   bench/run.sh                  # everything: RUNS=3 runs of each load figure, 10 s each
#   RUNS=5 DURATION=20s bench/run.sh
#   ONLY="jmh closed" bench/run.sh  # some of: jmh closed client waits metrics journal open gc replay redis
#                                   # pacing deadline tls modes before
#   BASE_JAR=/tmp/base/server/target/pacer.jar ONLY=before bench/run.sh
#                                   # this commit against another build, alternating in one run
#   SERVER_OPTS=-Dpacer.pipeline.shards=4 BASE_JAR=... ONLY=before bench/run.sh
#                                   # every server started with these JVM options too
#
# Results: bench/results/<timestamp>/ (raw JSON, logs) and summary.md there, printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
DURATION=${DURATION:-10s}
WARMUP=${WARMUP:-3s}
GC_SECONDS=${GC_SECONDS:-60}
GC_RATE=${GC_RATE:-500000}
ONLY=${ONLY:-"jmh closed client waits metrics journal open gc replay redis pacing deadline tls modes"}
GW=19400; ADMIN=19401; TRIVIAL=19410; REDIS=16379
out="bench/results/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
wants() { [[ " $ONLY " == *" $1 "* ]]; }
log() { echo "[bench $(date -u +%H:%M:%S)] $*" >&2; }

./mvnw -q -B -DskipTests package
JAR=server/target/pacer.jar
BENCH=bench/target/benchmarks.jar
# shellcheck source=bin/jvm-options
. bin/jvm-options
OPENS="$pacer_opens"

{
  echo "date: $(date -u +%FT%TZ)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs) x $(nproc)"
  echo "memory: $(free -g | awk '/Mem:/{print $2}') GiB"
  echo "kernel: $(uname -r)"
  echo "java: $(java -version 2>&1 | head -1)"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
} > "$out/machine.txt"

server_pid=""
journal_dir=""
stop_server() {
  if [ -n "$server_pid" ]; then kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; server_pid=""; fi
  if [ -n "$journal_dir" ] && [ "${KEEP_JOURNAL:-}" != "1" ]; then rm -rf "$journal_dir"; fi
  journal_dir=""
}
trap 'stop_server; redis-cli -p $REDIS shutdown nosave >/dev/null 2>&1 || true' EXIT

wait_port() {
  for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done
  echo "port $1 did not open" >&2; return 1
}

launch_pacer() { # JOURNAL_DIR LOG [extra JVM options...]: starts a server journaling there, returns at once
  local dir=$1 log=$2; shift 2
  # shellcheck disable=SC2086 # SERVER_OPTS: JVM options, split as words
  java $OPENS -Dpacer.journal.dir="$dir" ${SERVER_OPTS:-} "$@" -Dpacer.gateway.port=$GW -Dpacer.admin.port=$ADMIN -Dpacer.campaigns.file= \
    -jar "${SERVER_JAR:-$JAR}" serve > "$log" 2>&1 &
  server_pid=$!
}

start_pacer() { # extra JVM options...; each server journals into a fresh directory, removed at stop
  journal_dir=$(mktemp -d /tmp/pacer-bench-journal.XXXXXX)
  launch_pacer "$journal_dir" "$out/pacer.log" "$@"
  wait_port $GW
}

loadtest() { # loadtest options...
  java $OPENS -jar "$JAR" loadtest "$@" --json
}

setup="--setup http://127.0.0.1:$ADMIN --campaigns 1000 --setup-budget-micros 1000000000000000 --setup-flight 2h"

if wants jmh; then
  log "JMH: pacing decision cost and in-process pipeline"
  java $OPENS -jar "$BENCH" -rf json -rff "$out/jmh.json" 'PacingDecisionBenchmark|PipelineBenchmark|ClientBenchmark' > "$out/jmh.txt" 2>&1
fi

if wants closed; then
  for r in $(seq 1 "$RUNS"); do
    log "closed loop 8 x 16, pacer, run $r"
    start_pacer
    loadtest --port $GW -c 8 -w 16 -d "$DURATION" --warmup "$WARMUP" $setup > "$out/closed-pacer-$r.json"
    stop_server
    log "closed loop 8 x 16, trivial server, run $r"
    java $OPENS -cp "$BENCH" io.pacer.bench.TrivialGateway $TRIVIAL > "$out/trivial.log" 2>&1 &
    server_pid=$!
    wait_port $TRIVIAL
    loadtest --port $TRIVIAL -c 8 -w 16 -d "$DURATION" --warmup "$WARMUP" > "$out/closed-trivial-$r.json"
    stop_server
  done
fi

# the client library against the generator's own connections, same pacer, alternating; then a
# stalled node: how long the library makes a caller wait with a 5 ms deadline
if wants client; then
  for r in $(seq 1 "$RUNS"); do
    start_pacer
    # the order alternates: the second run meets a pacer warmer, and with a fuller notice window
    order="raw client"; [ $((r % 2)) -eq 0 ] && order="client raw"
    for engine in $order; do
      log "closed loop 8 x 16, --engine $engine, run $r"
      loadtest --engine $engine --port $GW -c 8 -w 16 -d "$DURATION" --warmup "$WARMUP" $setup > "$out/client-$engine-$r.json" || true
    done
    stop_server
    log "fail-safe latency against a stalled node, 2,000 bids/s for 10 s, 5 ms deadline, run $r"
    java $OPENS -cp "$BENCH" io.pacer.bench.FailSafeLatency 2000 10 5 > "$out/failsafe-$r.json" 2> "$out/failsafe.log"
  done
fi

if wants waits; then
  for ws in phased blocking sleeping yielding; do
    log "wait strategy $ws: idle CPU for 5 s, then closed loop 8 x 16"
    start_pacer -Dpacer.pipeline.wait-strategy=$ws
    sleep 1
    t0=$(awk '{print $14+$15}' /proc/$server_pid/stat); sleep 5; t1=$(awk '{print $14+$15}' /proc/$server_pid/stat)
    echo "$(( (t1 - t0) * 100 / (5 * $(getconf CLK_TCK)) ))" > "$out/idle-$ws.txt"
    loadtest --port $GW -c 8 -w 16 -d "$DURATION" --warmup "$WARMUP" $setup > "$out/wait-$ws.json"
    stop_server
  done
fi

# same run, alternating: a setting on and off, closed loop then open loop 100k/s each time
compare_setting() { # name key
  for r in $(seq 1 "$RUNS"); do
    for enabled in true false; do
      log "$1 enabled=$enabled: closed loop 8 x 16, then open loop 100k/s, run $r"
      start_pacer "-D$2=$enabled"
      loadtest --port $GW -c 8 -w 16 -d "$DURATION" --warmup "$WARMUP" $setup > "$out/$1-$enabled-closed-$r.json"
      loadtest --port $GW -c 8 --rate 100000 -d "$DURATION" --warmup "$WARMUP" > "$out/$1-$enabled-open-$r.json" || true
      stop_server
    done
  done
}
if wants metrics; then compare_setting metrics pacer.metrics.enabled; fi
if wants journal; then compare_setting journal pacer.journal.enabled; fi

if wants open; then
  for rate in 100000 250000 500000; do
    for r in $(seq 1 "$RUNS"); do
      log "open loop $rate/s, run $r"
      start_pacer
      loadtest --port $GW -c 8 --rate "$rate" -d "$DURATION" --warmup "$WARMUP" $setup > "$out/open-$rate-$r.json" || true
      stop_server
    done
  done
fi

if wants gc; then
  log "GC and allocation during ${GC_SECONDS}s at ${GC_RATE}/s"
  start_pacer -Xlog:gc:file="$out/gc.log" -Xms4g -Xmx4g
  loadtest --port $GW -c 8 --rate 100000 -d 3s --warmup 0s $setup > /dev/null || true
  jstat -gc "$server_pid" > "$out/jstat-before.txt"
  gc_before=$(grep -c 'Pause Young' "$out/gc.log" || true)
  loadtest --port $GW -c 8 --rate "$GC_RATE" -d "${GC_SECONDS}s" --warmup 0s > "$out/gc-load.json" || true
  jstat -gc "$server_pid" > "$out/jstat-after.txt"
  gc_after=$(grep -c 'Pause Young' "$out/gc.log" || true)
  echo "$gc_before $gc_after" > "$out/gc-count.txt"
  stop_server
fi

if wants replay; then
  log "replay speed and recovery time: journal about 10M events"
  start_pacer
  keep="$journal_dir"
  loadtest --port $GW -c 8 -w 16 -d 30s --warmup 0s --max-requests 5000000 $setup > /dev/null || true
  KEEP_JOURNAL=1 stop_server
  du -sh "$keep" | cut -f1 > "$out/replay-size.txt"
  # as bin/pacer starts a replay (JAVA_OPTS is bin/pacer's, not read here)
  launch=$(JAVA_OPTS='' pacer_launch_options java "$JAR" replay)
  start=$(date +%s%N)
  # shellcheck disable=SC2086
  java $launch -jar "$JAR" replay --journal "$keep" --format json > "$out/replay.json" 2> "$out/replay.err" || true
  echo $(( ($(date +%s%N) - start) / 1000000 )) > "$out/replay-ms.txt"
  start=$(date +%s%N)
  # as the server that wrote the journal was started (SERVER_OPTS: a journal of four shards recovers
  # only into four), timed to /health
  launch_pacer "$keep" "$out/recovery.log"
  for _ in $(seq 1 1200); do
    curl -sf "http://127.0.0.1:$ADMIN/health" > /dev/null 2>&1 && break
    kill -0 "$server_pid" 2> /dev/null || { echo "the recovering server exited: $out/recovery.log" >&2; exit 1; }
    sleep 0.05
  done
  curl -sf "http://127.0.0.1:$ADMIN/health" > /dev/null 2>&1 ||
    { echo "the recovering server did not answer /health in 60 s: $out/recovery.log" >&2; exit 1; }
  echo $(( ($(date +%s%N) - start) / 1000000 )) > "$out/recovery-ms.txt"
  stop_server
  rm -rf "$keep"
fi

if wants redis; then
  log "peer: Redis + Lua budget script, redis-benchmark -P 16"
  redis-server --port $REDIS --bind 127.0.0.1 --save '' --appendonly no --daemonize yes > /dev/null
  sleep 0.5
  redis-cli -p $REDIS set budget:1 1000000000000000 > /dev/null
  sha=$(redis-cli -p $REDIS script load "local spent = tonumber(redis.call('GET', KEYS[1] .. ':spent') or '0'); local budget = tonumber(redis.call('GET', KEYS[1]) or '0'); local cost = tonumber(ARGV[1]); if spent + cost > budget then return 0 end; redis.call('INCRBY', KEYS[1] .. ':spent', cost); return 1")
  for r in $(seq 1 "$RUNS"); do
    redis-benchmark -p $REDIS -c 8 -P 16 -n 2000000 -q evalsha "$sha" 1 budget:1 1000 > "$out/redis-$r.txt" 2>&1
  done
  redis-cli -p $REDIS shutdown nosave > /dev/null 2>&1 || true
fi

if wants deadline; then
  # offered load 1.5x this machine's capacity (a closed-loop probe): a backlog forms; with and
  # without the deadline
  start_pacer
  loadtest --port $GW -c 8 -w 16 -d 5s --warmup 2s $setup > "$out/deadline-probe.json"
  stop_server
  rate=$(python3 -c "import json; print(int(1.5 * json.load(open('$out/deadline-probe.json'))['throughputPerSecond']))")
  for r in $(seq 1 "$RUNS"); do
    for deadline in 0s 5ms; do
      log "open loop at 1.5x capacity ($rate/s), queue-deadline=$deadline, run $r"
      start_pacer "-Dpacer.pipeline.queue-deadline=$deadline"
      loadtest --port $GW -c 8 --rate "$rate" -d "$DURATION" --warmup "$WARMUP" $setup > "$out/deadline-$deadline-$r.json" || true
      stop_server
    done
  done
fi

if wants tls; then
  TLS_DIR=server/src/test/resources/tls
  for r in $(seq 1 "$RUNS"); do
    log "closed loop 8 x 16, plain, TLS, then mutual TLS, run $r"
    start_pacer
    loadtest --port $GW -c 8 -w 16 -d "$DURATION" --warmup "$WARMUP" $setup > "$out/tls-plain-$r.json"
    stop_server
    # the pacer refuses a key file other users can read: a private copy
    tls_key=$(mktemp); chmod 600 "$tls_key"; cat "$TLS_DIR/localhost.key" > "$tls_key"
    start_pacer "-Dpacer.gateway.tls.cert-file=$PWD/$TLS_DIR/localhost.crt" "-Dpacer.gateway.tls.key-file=$tls_key"
    loadtest --port $GW -c 8 -w 16 -d "$DURATION" --warmup "$WARMUP" $setup --tls --tls-trust "$TLS_DIR/localhost.crt" \
      > "$out/tls-tls-$r.json"
    grep -o "TLS with .*" "$out/pacer.log" | head -1 > "$out/tls-provider.txt" || true
    stop_server
    # mutual TLS: a CA made here, the load generator's certificate (CN loadtest) signed by it, and
    # permissions that let that identity send everything (so the per-frame checks run too)
    mtls=$(mktemp -d)
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "/CN=bench-ca" \
      -keyout "$mtls/ca.key" -out "$mtls/ca.crt" 2>/dev/null
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=loadtest" \
      -keyout "$mtls/client.key" -out "$mtls/client.csr" 2>/dev/null
    openssl x509 -req -in "$mtls/client.csr" -CA "$mtls/ca.crt" -CAkey "$mtls/ca.key" -CAcreateserial -days 2 \
      -out "$mtls/client.crt" 2>/dev/null
    start_pacer "-Dpacer.gateway.tls.cert-file=$PWD/$TLS_DIR/localhost.crt" "-Dpacer.gateway.tls.key-file=$tls_key" \
      "-Dpacer.gateway.tls.client-ca-file=$mtls/ca.crt" \
      "-Dpacer.gateways.loadtest.send.0=bid-request" "-Dpacer.gateways.loadtest.send.1=win-notice" \
      "-Dpacer.gateways.loadtest.send.2=loss-notice"
    loadtest --port $GW -c 8 -w 16 -d "$DURATION" --warmup "$WARMUP" $setup --tls --tls-trust "$TLS_DIR/localhost.crt" \
      --tls-cert "$mtls/client.crt" --tls-key "$mtls/client.key" > "$out/tls-mtls-$r.json"
    stop_server
    rm -rf "$mtls" "$tls_key"
  done
fi

# threading mode x wait strategy: idle CPU, closed loop, open loop at 10k/100k/250k against one
# warm server per setting, and the trivial server under the same loads; alternating, RUNS times
if wants modes; then
  for r in $(seq 1 "$RUNS"); do
    log "modes: trivial server, run $r"
    java $OPENS -cp "$BENCH" io.pacer.bench.TrivialGateway $TRIVIAL > "$out/trivial.log" 2>&1 &
    server_pid=$!
    wait_port $TRIVIAL
    loadtest --port $TRIVIAL -c 8 -w 16 -d "$DURATION" --warmup "$WARMUP" > "$out/modes-trivial-closed-$r.json"
    for rate in 10000 100000 250000; do
      loadtest --port $TRIVIAL -c 8 --rate $rate -d "$DURATION" --warmup "$WARMUP" > "$out/modes-trivial-open$rate-$r.json" || true
    done
    stop_server
    for setting in shared:phased dedicated:phased dedicated:blocking dedicated:yielding; do
      mode=${setting%%:*}; ws=${setting##*:}
      log "modes: $mode threading, $ws wait, run $r"
      start_pacer -Dpacer.pipeline.threading=$mode -Dpacer.pipeline.wait-strategy=$ws
      sleep 1
      t0=$(awk '{print $14+$15}' /proc/$server_pid/stat); sleep 3; t1=$(awk '{print $14+$15}' /proc/$server_pid/stat)
      echo "$(( (t1 - t0) * 100 / (3 * $(getconf CLK_TCK)) ))" > "$out/modes-$mode-$ws-idle-$r.txt"
      loadtest --port $GW -c 8 -w 16 -d "$DURATION" --warmup "$WARMUP" $setup > "$out/modes-$mode-$ws-closed-$r.json"
      for rate in 10000 100000 250000; do
        loadtest --port $GW -c 8 --rate $rate -d "$DURATION" --warmup "$WARMUP" > "$out/modes-$mode-$ws-open$rate-$r.json" || true
      done
      stop_server
    done
  done
fi

# this build against BASE_JAR (e.g. the commit before, built in a worktree): closed loop and open
# loop 100k/s, alternating in the same run
if wants before && [ -n "${BASE_JAR:-}" ]; then
  for r in $(seq 1 "$RUNS"); do
    # the order alternates: a server started right after another meets the first one's journal
    # still being written back by the kernel
    order="base this"; [ $((r % 2)) -eq 0 ] && order="this base"
    for which in $order; do
      log "before/after: $which, run $r"
      if [ $which = base ]; then SERVER_JAR=$BASE_JAR start_pacer; else start_pacer; fi
      loadtest --port $GW -c 8 -w 16 -d "$DURATION" --warmup "$WARMUP" $setup > "$out/before-$which-closed-$r.json"
      loadtest --port $GW -c 8 --rate 100000 -d "$DURATION" --warmup "$WARMUP" > "$out/before-$which-open-$r.json" || true
      stop_server
    done
  done
fi

if wants pacing; then
  log "pacing quality: bin/pacer demo (5x the traffic EVEN needs, 30% wins)"
  java $OPENS -jar "$JAR" demo --out "$out/pacing.html" > "$out/pacing.txt" 2> "$out/pacing.log" || true
fi

python3 bench/summarize.py "$out" | tee "$out/summary.md"
