#!/usr/bin/env bash
# CPU flame graph of the pacer under closed-loop load (8 connections x 16 in flight, a notice
# after every BID), with async-profiler from Maven Central (tools.profiler:async-profiler) as a
# JVM agent, rendered to SVG by bench/flamegraph.py. Loopback only, bounded in time.
#
#   bench/flame.sh OUT.svg [JAR] [extra -D options for the server...]
#   bench/flame.sh bench/flame-shared.svg
#   bench/flame.sh bench/flame-before.svg /tmp/base/server/target/pacer.jar
#   SIDE=client bench/flame.sh bench/flame-client.svg   # the load generator's side instead (ENGINE=raw|client)
set -euo pipefail
cd "$(dirname "$0")/.."
svg=$1; jar=${2:-server/target/pacer.jar}; shift; [ $# -gt 0 ] && shift
DURATION=${DURATION:-10s}; WARMUP=${WARMUP:-10s}
GW=19400; ADMIN=19401
OPENS="--add-opens java.base/jdk.internal.misc=ALL-UNNAMED"

# shellcheck source=bench/async-profiler.sh
. bench/async-profiler.sh
lib=$(async_profiler_lib)
[ -f server/target/pacer.jar ] || ./mvnw -q -B -DskipTests package

collapsed=$(mktemp /tmp/pacer-flame.XXXXXX.collapsed)
journal=$(mktemp -d /tmp/pacer-flame-journal.XXXXXX)
# the agent samples from the start, so start-up, setup and JIT compilation are in the graph too
# (their own towers); with the default 10 s warm-up the request path dominates
SIDE=${SIDE:-server}; ENGINE=${ENGINE:-client}
agent="-agentpath:$lib=start,event=cpu,interval=1ms,threads,file=$collapsed,collapsed"
server_agent=""; client_agent=""
if [ "$SIDE" = client ]; then client_agent=$agent; else server_agent=$agent; fi
java $OPENS $server_agent \
  -Dpacer.journal.dir="$journal" "$@" -Dpacer.gateway.port=$GW -Dpacer.admin.port=$ADMIN -Dpacer.campaigns.file= \
  -jar "$jar" serve > /tmp/pacer-flame-server.log 2>&1 &
pid=$!
trap 'kill -TERM $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$journal"' EXIT
for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$GW") 2>/dev/null && break; sleep 0.1; done
java $OPENS $client_agent -jar server/target/pacer.jar loadtest --engine "$ENGINE" --port $GW -c 8 -w 16 -d "$DURATION" --warmup "$WARMUP" \
  --setup "http://127.0.0.1:$ADMIN" --campaigns 1000 --setup-budget-micros 1000000000000000 --setup-flight 2h
kill -TERM $pid; wait $pid 2>/dev/null || true
python3 bench/flamegraph.py "$collapsed" "$svg" "$SIDE side, closed loop 8 x 16 (--engine $ENGINE), $(basename "$jar") $*: every thread"
cp "$collapsed" "${svg%.svg}.collapsed"
rm -f "$collapsed"
