#!/usr/bin/env bash
# A CPU profile of a running server under the load generator's closed loop, per decision: a server
# holding N campaigns (bench/campaigns-file.py's, as bench/million.sh's: EVEN and ASAP, a year's
# flight, budgets no load runs out) is started as bin/pacer starts it (pacer_launch_options from
# bin/jvm-options; JAVA_OPTS aside) and given WARMS unmeasured loads; then async-profiler (Maven
# Central, fetched by bench/async-profiler.sh as for bench/flame.sh) samples it, started and stopped
# with jcmd, over one more load. Unlike bench/flame.sh's, the profile holds neither start-up, set-up
# nor the warm loads. The load generator is the one in JAR. Loopback only, bounded in time.
#
#   bench/profile-load.sh JAR N OUT.collapsed
#   bench/profile-load.sh server/target/pacer.jar 1000000 /tmp/p1m.collapsed
#   WARMS=8 bench/profile-load.sh server/target/pacer.jar 1000 /tmp/p1k.collapsed
#
# Environment: LOAD_CAMPAIGNS (the load's spread, default N), WARMS (default 2), WARM and DUR (each
# load's length, default 8s), SERVER_OPTS (more JVM options for the server).
# Writes OUT.collapsed (async-profiler's collapsed stacks, a thread's name first in each) and
# OUT.decisions (the profiled load's answers), then prints the gateway I/O threads' ns a decision by
# frame (bench/collapsed.py top). Two such profiles compare with bench/collapsed.py diff A B.
set -euo pipefail
[ $# -eq 3 ] && [[ $3 == *.collapsed ]] && [[ $3 != *,* ]] ||
  { echo "usage: $0 JAR N OUT.collapsed (no comma in OUT: async-profiler splits its options on commas)" >&2; exit 2; }
jar=$(realpath "$1"); n=$2; out=$(realpath -m "$3"); spread=${LOAD_CAMPAIGNS:-$n}
[ -d "$(dirname "$out")" ] || { echo "no directory $(dirname "$out")" >&2; exit 2; }
cd "$(dirname "$0")/.."
GP=19430; AP=19431 # no other bench script's (run.sh, million.sh, flame.sh: 19400-19411; cluster.sh: 19400-19424)
. bin/jvm-options

# shellcheck source=bench/async-profiler.sh
. bench/async-profiler.sh
lib=$(async_profiler_lib)
if curl -sf "localhost:$AP/health" > /dev/null; then
  echo "something already answers on port $AP: stop it first" >&2; exit 1
fi

pid=""
work=$(mktemp -d /tmp/pacer-profile.XXXXXX)
stop() { # TERM, then KILL after 10 s
  [ -n "$pid" ] || return 0
  kill -TERM "$pid" 2> /dev/null || true
  for _ in $(seq 1 100); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2> /dev/null || true
  wait "$pid" 2> /dev/null || true
}
trap 'stop; rm -rf "$work"' EXIT
failed() { echo "$1; the server's log:" >&2; tail -20 "$work/serve.log" >&2; exit 1; }

python3 bench/campaigns-file.py "$n" "$work/campaigns.json"
# shellcheck disable=SC2046,SC2086 # option lists are word-split on purpose
java $(JAVA_OPTS='' pacer_launch_options java "$jar" serve) ${SERVER_OPTS:-} -Dpacer.home="$work" -Dpacer.gateway.port=$GP -Dpacer.admin.port=$AP \
  -Dpacer.campaigns.file="$work/campaigns.json" -Dpacer.journal.snapshot-interval=1h -jar "$jar" serve > "$work/serve.log" 2>&1 &
pid=$!
for _ in $(seq 1 1200); do
  kill -0 "$pid" 2> /dev/null || failed "the server exited"
  curl -sf "localhost:$AP/health" > /dev/null && break
  sleep 0.05
done
curl -sf "localhost:$AP/health" > /dev/null || failed "the server did not answer /health in 60 s"

load() { # DURATION: the load generator's JSON report
  java $pacer_opens -jar "$jar" loadtest --port $GP --campaigns "$spread" -c 8 -w 16 -d "$1" --warmup 0s --json 2> /dev/null
}
field() { python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
for i in $(seq 1 "${WARMS:-2}"); do
  rate=$(load "${WARM:-8s}" | field throughputPerSecond)
  echo "warm load $i: $rate decisions/s"
done
rm -f "$out"
agent() { # OPTIONS, quoted inside as jcmd needs them (else it reads "start,event" as an option's name)
  local said
  said=$(jcmd "$pid" JVMTI.agent_load "$lib" "$1" 2>&1) || failed "jcmd JVMTI.agent_load $1 failed: $said"
  grep -q "return code: 0" <<< "$said" || { echo "$said" >&2; failed "jcmd JVMTI.agent_load $1 failed"; }
}
agent '"start,event=cpu,interval=1ms,threads"'
report=$(load "${DUR:-8s}")
agent "\"stop,file=$out,collapsed\""
[ -s "$out" ] || failed "async-profiler wrote no $out"
rate=$(field throughputPerSecond <<< "$report")
decisions=$(field answers <<< "$report")
echo "$decisions" > "${out%.collapsed}.decisions"
echo "profiled load: $rate decisions/s, $decisions decisions"
python3 bench/collapsed.py top "$out"
