#!/usr/bin/env bash
# What a start of the broker costs: RUNS cycles (default 3) of a cold start on an empty directory, a
# restart after a clean stop and a restart after kill -9, each a new JVM started with kafka.sh.
# Per start: the JVM's uptime when it printed its ready line (wall time from launch to ready), the
# CPU time the broker process had used by then, its resident memory at ready and 5 s later; then
# the median of each per kind of start, and the time of each clean stop. CPU time is the figure to
# compare between runs: wall time grows with whatever else loads the machine (the load average
# is printed).
#
# Usage: deploy/kafka-broker/measure-start.sh [runs]
# Environment: KAFKA_BROKER_JAVA_OPTS as for kafka.sh; unset, the C1-only options of test-support's
#   launcher (KafkaBroker.DEFAULT_JAVA_OPTS) are measured. MAVEN_OPTS (for a build, if needed).
set -euo pipefail

MODULE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RUNS=${1:-3}
export KAFKA_BROKER_JAVA_OPTS=${KAFKA_BROKER_JAVA_OPTS:-"-Xms64m -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:+ExitOnOutOfMemoryError"}
TICKS=$(getconf CLK_TCK)
WORK=$(mktemp -d /tmp/onceonly-kafka-measure.XXXXXX)
trap 'for d in "$WORK"/*/; do "$MODULE/kafka.sh" kill "$PORT" "$d" >/dev/null 2>&1 || true; done; rm -rf "$WORK"' EXIT

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for _ in $(seq 1 50); do
  PORT=$((20000 + RANDOM % 12000))
  port_open "$PORT" || port_open $((PORT + 1)) || break
done

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

# start <dir> <kind>: starts, records "<kind> uptime-ms cpu-ms rss-kb rss-kb-5s"
start() {
  "$MODULE/kafka.sh" start "$PORT" "$1" >/dev/null
  local pid uptime cpu rss rss_later
  pid=$(tr -dc 0-9 <"$1/broker.pid")
  cpu=$(awk -v t="$TICKS" '{ print int(($14 + $15) * 1000 / t) }' "/proc/$pid/stat")
  rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
  uptime=$(grep -o 'jvm-uptime-ms=[0-9]*' "$1/broker.log" | tail -n 1 | cut -d= -f2)
  sleep 5
  rss_later=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
  printf '%-18s %8s %8s %8s %8s\n' "$2" "$uptime" "$cpu" "$rss" "$rss_later" | tee -a "$WORK/figures"
}

stop() {
  local started
  started=$(date +%s%N)
  "$MODULE/kafka.sh" stop "$PORT" "$1" >/dev/null
  printf '%-18s %8d\n' "clean stop" $((($(date +%s%N) - started) / 1000000)) | tee -a "$WORK/stops"
}

printf 'JVM options: %s\nload average before: %s\n\n' "$KAFKA_BROKER_JAVA_OPTS" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-18s %8s %8s %8s %8s\n' start uptime-ms cpu-ms rss-kB rss-kB+5s
for run in $(seq 1 "$RUNS"); do
  dir=$WORK/run-$run
  start "$dir" cold
  stop "$dir"
  start "$dir" "after stop"
  "$MODULE/kafka.sh" kill "$PORT" "$dir" >/dev/null
  start "$dir" "after kill -9"
  "$MODULE/kafka.sh" kill "$PORT" "$dir" >/dev/null
done

printf '\nmedians of %s runs\n%-18s %8s %8s %8s %8s\n' "$RUNS" start uptime-ms cpu-ms rss-kB rss-kB+5s
for kind in cold "after stop" "after kill -9"; do
  row=$(grep "^$kind  " "$WORK/figures" | sed "s/^$kind *//")
  printf '%-18s %8s %8s %8s %8s\n' "$kind" \
    "$(awk '{ print $1 }' <<<"$row" | median)" "$(awk '{ print $2 }' <<<"$row" | median)" \
    "$(awk '{ print $3 }' <<<"$row" | median)" "$(awk '{ print $4 }' <<<"$row" | median)"
done
printf '%-18s %8s (ms)\n' "clean stop" "$(awk '{ print $NF }' "$WORK/stops" | median)"
printf 'load average after: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
