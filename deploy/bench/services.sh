# Sourced by relay-bench.sh and data-bench.sh: the services a benchmark starts, by name, each a
# packaged Quarkus jar. Needs LOGS (a directory for <name>.log), an associative array PIDS and
# die(); stops only what it started, by pid, checked against the jar it ran.
start() { # <name> <jar> <java opts> <env...>
  local name=$1 jar=$2 opts=$3
  shift 3
  # shellcheck disable=SC2086 # opts holds several options
  env MALLOC_ARENA_MAX=2 "$@" java $opts -jar "$jar" >"$LOGS/$name.log" 2>&1 </dev/null &
  PIDS[$name]=$!
}
stop() { # <name>
  local pid=${PIDS[$1]:-}
  [[ -n $pid ]] || return 0
  if [[ -r /proc/$pid/cmdline ]] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "quarkus-run.jar"; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid" 2>/dev/null || true; fi
  fi
  wait "$pid" 2>/dev/null || true
  unset "PIDS[$1]"
}
await_ready() { # <name> <url>: until <url>/q/health/ready answers, at most 120 s
  local pid=${PIDS[$1]}
  for _ in $(seq 480); do
    curl -sf -o /dev/null "$2/q/health/ready" && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.25
  done
  tail -n 30 "$LOGS/$1.log" >&2
  die "$1 did not become ready (log $LOGS/$1.log)"
}
