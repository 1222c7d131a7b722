#!/usr/bin/env bash
# Regenerates pacer.classlist: the classes the build puts in the class data sharing archive
# (server/pom.xml, server/target/pacer.jsa), i.e. those a server loads starting on a campaigns
# file, answering the gateway protocol and the admin API, journaling and stopping, and those a
# replay of its journal loads. Run it after a build when the code has moved on: a listed class no
# longer there is skipped by the dump, a class not listed is loaded as usual (only slower).
# Loopback only, bounded in time.
#
#   server/src/main/cds/update-classlist.sh && ./mvnw -q -B -DskipTests package
set -euo pipefail
cd "$(dirname "$0")/../../../.."
jar=server/target/pacer.jar
out=server/src/main/cds/pacer.classlist
GW=19700; ADMIN=19701
work=$(mktemp -d /tmp/pacer-classlist.XXXXXX)
pid=""
trap '[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null; rm -rf "$work"' EXIT
. bin/jvm-options
J="java $pacer_opens"

printf '{"campaigns":[{"id":1,"budgetMicros":1000000000,"start":"2026-01-01T00:00:00Z","end":"2036-01-01T00:00:00Z","pacing":"EVEN"},%s\n' \
  '{"id":2,"budgetMicros":1000000000,"start":"2026-01-01T00:00:00Z","end":"2036-01-01T00:00:00Z","pacing":"ASAP"}]}' > "$work/campaigns.json"
$J -XX:DumpLoadedClassList="$work/serve.lst" -Dpacer.home="$work" -Dpacer.journal.dir="$work/journal" \
  -Dpacer.gateway.port=$GW -Dpacer.admin.port=$ADMIN -Dpacer.campaigns.file="$work/campaigns.json" \
  -jar "$jar" serve > "$work/serve.log" 2>&1 &
pid=$!
for _ in $(seq 1 300); do curl -sf "localhost:$ADMIN/health" > /dev/null && break; sleep 0.1; done
for path in health campaigns campaigns/1 metrics; do curl -sf "localhost:$ADMIN/$path" > /dev/null; done
$J -jar "$jar" loadtest --port $GW --campaigns 2 -c 2 -w 4 -d 2s --warmup 1s > /dev/null 2>&1
kill -TERM "$pid"; wait "$pid" || true; pid=""
$J -XX:DumpLoadedClassList="$work/replay.lst" -jar "$jar" replay --journal "$work/journal" > /dev/null
# each class once, in the order first loaded (a class's supertypes come before it)
# (the JDK's own header comment kept; proxies are made at run time and cannot be archived)
{ echo "# The classes archived for class data sharing; written by server/src/main/cds/update-classlist.sh"
  cat "$work/serve.lst" "$work/replay.lst"; } | grep -v '\$Proxy' | awk '!seen[$0]++' > "$out"
echo "$out: $(wc -l < "$out") classes"
