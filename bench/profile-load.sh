#!/usr/bin/env bash
# A CPU profile of a running server under the load generator's closed loop, per decision: a server
# holding N campaigns (bench/million.sh's file shape: ASAP and EVEN, a year's flight, budgets that
# never run out) is started as bin/pacer starts it, given WARMS unmeasured loads, then
# async-profiler (Maven Central, tools.profiler:async-profiler, as bench/flame.sh fetches it) is
# attached over one more load, with jcmd, and detached when it ends. Start-up, set-up and the warm
# loads are not in the profile, as they are in bench/flame.sh's. Loopback only, bounded in time.
#
#   bench/profile-load.sh JAR N OUT.collapsed
#   bench/profile-load.sh server/target/pacer.jar 1000000 /tmp/p1m.collapsed
#   WARMS=8 bench/profile-load.sh server/target/pacer.jar 1000 /tmp/p1k.collapsed
#
# Environment: LOAD_CAMPAIGNS (the load's spread, default N), WARMS (default 2), WARM and DUR (each
# load's length, default 8s), SERVER_OPTS (more JVM options for the server).
# Writes OUT.collapsed (async-profiler's collapsed stacks, a thread's name first in each) and
# OUT.decisions (decisions made during the profiled load), then prints the gateway I/O thread's ns a
# decision by frame (bench/collapsed.py top). Two such profiles compare with
# bench/collapsed.py diff A.collapsed B.collapsed.
set -euo pipefail
jar=$(realpath "$1"); n=$2; out=$(realpath -m "$3"); spread=${LOAD_CAMPAIGNS:-$n}
cd "$(dirname "$0")/.."
AP_VERSION=4.1
GP=19420; AP=19421
. bin/jvm-options

lib=$PWD/bench/target/async-profiler/linux-x64/libasyncProfiler.so
if [ ! -f "$lib" ]; then
  ./mvnw -q -B dependency:get -Dartifact=tools.profiler:async-profiler:$AP_VERSION > /dev/null
  mkdir -p bench/target/async-profiler
  unzip -q -o ~/.m2/repository/tools/profiler/async-profiler/$AP_VERSION/async-profiler-$AP_VERSION.jar \
    'linux-x64/*' -d bench/target/async-profiler
fi

work=$(mktemp -d /tmp/pacer-profile.XXXXXX)
python3 - "$n" "$work/campaigns.json" <<'PY'
import sys
n, path = int(sys.argv[1]), sys.argv[2]
with open(path, 'w') as f:
    f.write('{"campaigns":[\n')
    for i in range(1, n + 1):
        f.write('{"id":%d,"budgetMicros":1000000000000,"start":"2026-01-01T00:00:00Z","end":"2027-01-01T00:00:00Z","pacing":"%s"}%s\n'
                % (i, "EVEN" if i % 2 else "ASAP", "," if i < n else ""))
    f.write(']}\n')
PY
# shellcheck disable=SC2086 # option lists are word-split on purpose
java $(pacer_jvm_options java "$jar") ${SERVER_OPTS:-} -Dpacer.home="$work" -Dpacer.gateway.port=$GP -Dpacer.admin.port=$AP \
  -Dpacer.campaigns.file="$work/campaigns.json" -Dpacer.journal.snapshot-interval=1h -jar "$jar" serve > "$work/serve.log" 2>&1 &
pid=$!
trap 'kill -TERM $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 1200); do
  curl -sf "localhost:$AP/health" > /dev/null && break
  kill -0 $pid 2> /dev/null || { cat "$work/serve.log"; exit 1; }
  sleep 0.05
done

load() { # DURATION: decisions a second
  # shellcheck disable=SC2086
  java $pacer_opens -jar "$jar" loadtest --port $GP --campaigns "$spread" -c 8 -w 16 -d "$1" --warmup 0s --json 2> /dev/null |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["throughputPerSecond"])'
}
for i in $(seq 1 "${WARMS:-2}"); do echo "warm load $i: $(load "${WARM:-8s}") decisions/s"; done
jcmd $pid JVMTI.agent_load "$lib" '"start,event=cpu,interval=1ms,threads"' > /dev/null
s=$(date +%s.%N)
rate=$(load "${DUR:-8s}")
seconds=$(printf '%.1f' "$(echo "$(date +%s.%N) - $s" | bc)")
jcmd $pid JVMTI.agent_load "$lib" "\"stop,file=$out,collapsed\"" > /dev/null
# decisions in the load's own seconds (the profile also spans the load generator's start and end)
decisions=$(python3 -c 'import sys; print(round(float(sys.argv[1]) * float(sys.argv[2].rstrip("s"))))' "$rate" "${DUR:-8s}")
echo "$decisions" > "${out%.collapsed}.decisions"
echo "profiled load: $rate decisions/s, $decisions decisions (profile attached for $seconds s)"
python3 bench/collapsed.py top "$out"
