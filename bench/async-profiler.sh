# Sourced by bench/flame.sh and bench/profile-load.sh, from the repository's root:
# async_profiler_lib prints the absolute path of async-profiler's agent library, fetching it first if
# it is not there yet: tools.profiler:async-profiler from Maven Central, unpacked into
# bench/target/async-profiler (a benchmark tool, not a build dependency).
ASYNC_PROFILER_VERSION=4.1
async_profiler_lib() {
  local lib="$PWD/bench/target/async-profiler/linux-x64/libasyncProfiler.so"
  if [ ! -f "$lib" ]; then
    ./mvnw -q -B dependency:get -Dartifact=tools.profiler:async-profiler:$ASYNC_PROFILER_VERSION > /dev/null
    mkdir -p bench/target/async-profiler
    unzip -q -o ~/.m2/repository/tools/profiler/async-profiler/$ASYNC_PROFILER_VERSION/async-profiler-$ASYNC_PROFILER_VERSION.jar \
      'linux-x64/*' -d bench/target/async-profiler
  fi
  echo "$lib"
}
