# Sourced by consumer-bench.sh and relay-bench.sh: the TRACING=on|off knob (default off).
# on: a local OTLP/HTTP sink (dev.onceonly.bench.OtlpSink) on port $1, and the services start with
# the SDK on, exporting over http/protobuf to it. TRACING_ENV holds the environment to start a
# service with (empty when off); tracing_stats prints what the sink received.
TRACING=${TRACING:-off}
TRACING_ENV=()
TRACING_SINK_PID=
TRACING_SINK_PORT=

tracing_start() { # <port> <log file>: starts the sink when TRACING=on
  case $TRACING in
    off) return 0 ;;
    on) ;;
    *) die "TRACING must be on or off, not '$TRACING'" ;;
  esac
  TRACING_SINK_PORT=$1
  if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then
    die "port $1 (OTLP sink) is taken: is an earlier benchmark still running?"
  fi
  java -cp "$BENCH/target/onceonly-bench.jar" dev.onceonly.bench.OtlpSink "$1" >"$2" 2>&1 &
  TRACING_SINK_PID=$!
  for _ in $(seq 100); do
    curl -sf -o /dev/null "http://127.0.0.1:$1/stats" && break
    sleep 0.1
  done
  curl -sf -o /dev/null "http://127.0.0.1:$1/stats" || die "the OTLP sink did not start (log $2)"
  TRACING_ENV=(OTEL_SDK_DISABLED=false OTEL_EXPORTER_OTLP_TRACES_ENDPOINT="http://127.0.0.1:$1"
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http/protobuf)
}

tracing_stats() { # one line: what the sink received so far, or "off"
  [[ -n $TRACING_SINK_PID ]] || { echo off; return 0; }
  curl -sf "http://127.0.0.1:$TRACING_SINK_PORT/stats" |
    awk -F= '{ v[$1] = $2 } END { printf "on: %d spans exported in %d requests, %.1f MB (undecodable %d, other paths %d)",
      v["otlp_spans"], v["otlp_requests"], v["otlp_bytes"] / 1048576, v["otlp_undecodable"], v["otlp_other_requests"] }'
}

tracing_spans() { # spans received so far (0 when off)
  [[ -n $TRACING_SINK_PID ]] || { echo 0; return 0; }
  curl -sf "http://127.0.0.1:$TRACING_SINK_PORT/stats" | awk -F= '$1 == "otlp_spans" { print $2 }'
}

tracing_stop() { # stops the sink this script started, by pid
  [[ -n $TRACING_SINK_PID ]] || return 0
  kill "$TRACING_SINK_PID" 2>/dev/null || true
  wait "$TRACING_SINK_PID" 2>/dev/null || true
  TRACING_SINK_PID=
}
