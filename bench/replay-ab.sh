#!/usr/bin/env bash
# bench/replay-ab.sh JOURNAL_DIR "JAR [JVM OPTION...]"... : replays a journal with each variant in
# turn, ROUNDS rounds (default 9), each run a fresh JVM started as bin/pacer starts `replay` (the
# jar's class-sharing archive when it matches, the replay's collector, heap and inlining options),
# then the variant's own options, which come last and so win. Prints every run's wall time from
# launch to exit, and per variant the median. FORMAT=json replays with --format json (default:
# the text audit, as `bin/pacer replay` prints it). Every run must re-make every decision: a run
# that exits non-zero stops the script. The same variant may be given twice (an A/A check of the
# noise); each is timed on its own. A variant whose jar runs without its class data sharing
# archive (a copy of the jar) is named on standard error first.
#
#   bench/replay-ab.sh /tmp/journal "server/target/pacer.jar -XX:FreqInlineSize=325" server/target/pacer.jar
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: bench/replay-ab.sh JOURNAL_DIR \"JAR [JVM OPTION...]\"..." >&2
  exit 2
fi
# shellcheck source=bin/jvm-options
. "$(dirname "$0")/../bin/jvm-options"
journal=$1
shift
variants=("$@")
rounds=${ROUNDS:-9}
format=${FORMAT:-text}
err=$(mktemp)
trap 'rm -f "$err"' EXIT
declare -a runs
for variant in "${variants[@]}"; do
  read -r jar _ <<< "$variant"
  # a copy of a jar runs without its class data sharing archive: its every start is slower
  pacer_shares_classes java "$jar" || echo "note: [$variant] runs without its jar's class data sharing archive" >&2
done
for round in $(seq 1 "$rounds"); do
  for i in "${!variants[@]}"; do
    read -r jar options <<< "${variants[$i]}"
    jvm=$(JAVA_OPTS=$options pacer_launch_options java "$jar" replay)
    start=$(date +%s%N)
    rc=0
    # shellcheck disable=SC2086
    java $jvm -jar "$jar" replay --journal "$journal" --format "$format" > /dev/null 2> "$err" || rc=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    if [ "$rc" -ne 0 ]; then
      echo "round $round [${variants[$i]}]: failed (exit $rc):" >&2
      cat "$err" >&2
      exit 1
    fi
    runs[i]="${runs[i]:-} $ms"
    echo "round $round [${variants[$i]}]: $ms ms"
  done
done
for i in "${!variants[@]}"; do
  # shellcheck disable=SC2086
  median=$(printf '%s\n' ${runs[i]} | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
  echo "[${variants[$i]}] median $median ms of:${runs[i]}"
done
