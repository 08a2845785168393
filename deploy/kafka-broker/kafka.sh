#!/usr/bin/env bash
# A single-node Kafka (KRaft: broker and controller in one process) on this machine, without Docker:
# deploy/kafka-broker's broker, for scripts (the pipeline, the chaos suite, the benchmarks).
#
# Usage: deploy/kafka-broker/kafka.sh start  <port> <dir> [broker option...]
#        deploy/kafka-broker/kafka.sh stop   <port> <dir>   SIGTERM, waits for the clean stop
#        deploy/kafka-broker/kafka.sh kill   <port> <dir>   kill -9, waits until it is gone
#        deploy/kafka-broker/kafka.sh status <port> <dir>   exit 0 if it runs, 1 if not
#
# start runs the broker in the background with <dir> as its home (storage <dir>/kraft, output
# <dir>/broker.log, pid <dir>/broker.pid), clients on 127.0.0.1:<port>, its controller on <port>+1,
# waits until it serves clients and prints its bootstrap address. Started again on the same <dir>
# it keeps its topics, records and committed offsets, after a stop or a kill. It builds the module
# first if it is not built. Broker options (see README.md): --auto-create-topics=false,
# --partitions=N, --set=KEY=VALUE.
# Exit status of start: 0 ready, 3 a port is taken, 1 any other failure (the log's end is printed).
# Environment: KAFKA_BROKER_JAVA_OPTS (JVM options of the broker, default below),
#   KAFKA_START_TIMEOUT (seconds, default 120), MAVEN_OPTS (for the build).
set -euo pipefail

MODULE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$MODULE/../.." && pwd)
MAIN=dev.onceonly.kafkabroker.KafkaBrokerMain
READY='onceonly-kafka-broker ready: bootstrap='
JAVA_OPTS=${KAFKA_BROKER_JAVA_OPTS:-"-Xms64m -Xmx256m -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError"}
START_TIMEOUT=${KAFKA_START_TIMEOUT:-120}

say() { printf 'kafka.sh: %s\n' "$*"; }
die() {
  printf 'kafka.sh: %s\n' "$@" >&2
  exit 1
}

[[ $# -ge 3 ]] || die "usage: kafka.sh start|stop|kill|status <port> <dir> [broker option...]"
command=$1 port=$2 dir=$3
shift 3
[[ $port =~ ^[0-9]+$ && $port -ge 1024 && $port -le 32766 ]] ||
  die "port must be a number in 1024..32766 (the controller takes the next one), was '$port'"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
log=$dir/broker.log
pid_file=$dir/broker.pid

# The broker's pid, if the pid file names a live broker of this port and directory; else nothing.
running_pid() {
  [[ -f $pid_file ]] || return 0
  local pid
  pid=$(tr -dc 0-9 <"$pid_file")
  [[ -n $pid && -r /proc/$pid/cmdline ]] || return 0
  local cmdline
  cmdline=$(tr '\0' ' ' <"/proc/$pid/cmdline")
  if [[ $cmdline == *"$MAIN"* && $cmdline == *"--port=$port "* && $cmdline == *"--data-dir=$dir "* ]]; then
    echo "$pid"
  fi
}

wait_gone() { # <pid> <seconds>
  for _ in $(seq 1 $(($2 * 10))); do
    [[ -d /proc/$1 ]] || return 0
    sleep 0.1
  done
  return 1
}

build_if_missing() {
  [[ -d $MODULE/target/classes && -d $MODULE/target/lib ]] && return 0
  say "building deploy/kafka-broker (target/classes or target/lib is missing)"
  (cd "$ROOT" && ./mvnw -B -q -pl deploy/kafka-broker -DskipTests package) ||
    die "the build of deploy/kafka-broker failed"
}

start() {
  local pid
  pid=$(running_pid)
  [[ -z $pid ]] || die "a broker runs already on port $port with $dir (pid $pid)"
  build_if_missing
  touch "$log"
  local from
  from=$(stat -c %s "$log")
  # shellcheck disable=SC2086 # JAVA_OPTS is a list of options
  nohup java $JAVA_OPTS -cp "$MODULE/target/classes:$MODULE/target/lib/*" "$MAIN" \
    --port="$port" --controller-port="$((port + 1))" --data-dir="$dir" "$@" \
    </dev/null >>"$log" 2>&1 &
  pid=$!
  local deadline=$((SECONDS + START_TIMEOUT))
  while ((SECONDS < deadline)); do
    if tail -c +$((from + 1)) "$log" | grep -qF "$READY"; then
      disown "$pid"
      say "ready: bootstrap=127.0.0.1:$port (pid $pid, log $log)"
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      local status=0
      wait "$pid" || status=$?
      tail -c +$((from + 1)) "$log" | tail -n 20 >&2
      printf 'kafka.sh: the broker for port %s exited with status %s before it was ready; its log is %s\n' \
        "$port" "$status" "$log" >&2
      [[ $status -eq 3 ]] && exit 3
      exit 1
    fi
    sleep 0.2
  done
  kill -9 "$pid" 2>/dev/null || true
  tail -c +$((from + 1)) "$log" | tail -n 20 >&2
  die "the broker for port $port was not ready within $START_TIMEOUT s and was killed; its log is $log"
}

# Ends the broker with <signal> (TERM: a clean stop, kill -9 after 30 s; KILL), waits until it is gone.
end_broker() {
  local pid
  pid=$(running_pid)
  if [[ -z $pid ]]; then
    say "no broker runs on port $port with $dir"
    return 0
  fi
  kill "-$1" "$pid"
  if [[ $1 == TERM ]] && ! wait_gone "$pid" 30; then
    say "did not stop within 30 s: kill -9"
    kill -9 "$pid" 2>/dev/null || true
  fi
  wait_gone "$pid" 10 || die "broker pid $pid survived kill -9"
  say "$2 (pid $pid)"
}

case $command in
  start) start "$@" ;;
  stop) end_broker TERM stopped ;;
  kill) end_broker KILL killed ;;
  status)
    pid=$(running_pid)
    if [[ -n $pid ]]; then
      say "running on port $port (pid $pid)"
    else
      say "not running on port $port"
      exit 1
    fi
    ;;
  *) die "unknown command '$command': start, stop, kill or status" ;;
esac
