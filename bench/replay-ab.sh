#!/usr/bin/env bash
# bench/replay-ab.sh JOURNAL_DIR "JAR [JVM OPTION...]"... : replays a journal with each variant in
# turn, ROUNDS rounds (default 9), each run a fresh JVM started as bin/pacer starts `replay` (the
# jar's class-sharing archive when it matches, the replay's collector, heap and inlining options),
# then the variant's own options, which come last and so win. Prints every run's wall time from
# launch to exit, and per variant the median. FORMAT=json replays with --format json (default:
# the text audit, as `bin/pacer replay` prints it). Every run must re-make every decision: a run
# that exits non-zero stops the script.
#
#   bench/replay-ab.sh /tmp/journal "server/target/pacer.jar -XX:FreqInlineSize=325" server/target/pacer.jar
set -euo pipefail
cd "$(dirname "$0")/.."
journal=$1
shift
[ $# -ge 1 ] || { echo "usage: bench/replay-ab.sh JOURNAL_DIR \"JAR [JVM OPTION...]\"..." >&2; exit 2; }
# shellcheck source=bin/jvm-options
. bin/jvm-options
rounds=${ROUNDS:-9}
format=${FORMAT:-text}
declare -A times
for round in $(seq 1 "$rounds"); do
  for variant in "$@"; do
    read -r jar options <<< "$variant"
    start=$(date +%s%N)
    # shellcheck disable=SC2046,SC2086
    if ! java $(pacer_jvm_options java "$jar") $(JAVA_OPTS=$options pacer_command_options replay) $options \
        -jar "$jar" replay --journal "$journal" --format "$format" > /dev/null 2> /tmp/replay-ab.err; then
      echo "round $round [$variant]: failed (exit $?):" >&2
      cat /tmp/replay-ab.err >&2
      exit 1
    fi
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    times[$variant]="${times[$variant]:-} $ms"
    echo "round $round [$variant]: $ms ms"
  done
done
for variant in "$@"; do
  # shellcheck disable=SC2086
  echo "[$variant] median $(printf '%s\n' ${times[$variant]} | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}') ms of:${times[$variant]}"
done
