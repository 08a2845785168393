# Sourced by consumer-bench.sh and kafka-bench.sh: what both consumer benchmarks do alike, and
# the settings they share. Needs ROOT and BENCH; its functions need say(), die(), kv() and
# bench_java().

EVENTS=${EVENTS:-20000}
# Steady state, as a consumer in production runs for weeks: after 10,000 events the C2 compiler
# still took a third of the consumer's CPU in the measured fresh phase (README, "Warm-up").
WARMUP=${WARMUP:-40000}
THREADS=${CONSUMER_THREADS:-4}
PREFETCH=${CONSUMER_PREFETCH:-128}
PGBENCH_SECONDS=${PGBENCH_SECONDS:-15}
PGBENCH_CLIENTS=4
CUSTOMERS=${CUSTOMERS:-10000}
QUIET_PCT=${QUIET_PCT:-30}
QUIET_MAX=${QUIET_MAX:-120}
SKIP_BUILD=${SKIP_BUILD:-0}
# Heap capped so that the whole process stays under the 256 MB RSS target; Serial GC because on
# 2 cores it costs no throughput here and keeps G1's native overhead off the RSS; a small initial
# heap (the live heap is ~25 MB) and the native heap trimmed every 5 s: 19 MB less RSS (README).
CONSUMER_JAVA_OPTS=${CONSUMER_JAVA_OPTS:-"-Xms16m -Xmx160m -XX:+UseSerialGC -XX:MaxMetaspaceSize=96m -XX:ReservedCodeCacheSize=64m -Xss512k -XX:+UnlockExperimentalVMOptions -XX:TrimNativeHeapInterval=5000"}

HTTP_PORT=18080
MANAGEMENT_PORT=19080 # health and metrics
DB=onceonly_bench
PGBENCH_DB=onceonly_pgbench
PG=(psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -U postgres)
export PGOPTIONS="-c client_min_messages=warning"

STAMP=$(date +%Y%m%d-%H%M%S)
RESULTS=$BENCH/results
WORK=$(mktemp -d)
CONSUMER_PID=

# start_consumer <env...>: consumer-service from its packaged jar on database $DB with the bench's
# JVM and ports, the broker's settings given as env; logs to $CONSUMER_LOG, waits until it is
# ready, sets CONSUMER_PID and IDLE_RSS.
start_consumer() {
  # The service refuses to start in production without an API user: one viewer for this run only.
  local password hash
  password=$(head -c 32 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 16)
  hash=$(printf 'bench:onceonly:%s' "$password" | sha512sum | cut -d' ' -f1)
  # The Prometheus step bounds Micrometer's decaying percentile window to ~10 s, so the p50/p99
  # read at the end of a phase describe that phase, not the one before.
  # MALLOC_ARENA_MAX=2: glibc's default of up to 8 malloc arenas per core grows RSS with every
  # thread that allocates natively; 2 is the usual container setting (the relay benchmark's too).
  # shellcheck disable=SC2086
  env "$@" MALLOC_ARENA_MAX=2 DB_URL="jdbc:postgresql://127.0.0.1:5432/$DB" DB_USER=postgres DB_PASSWORD= \
    CONSUMER_THREADS="$THREADS" CONSUMER_PREFETCH="$PREFETCH" \
    HTTP_PORT="$HTTP_PORT" MANAGEMENT_PORT="$MANAGEMENT_PORT" ${DB_POOL_SIZE:+DB_POOL_SIZE=$DB_POOL_SIZE} \
    QUARKUS_SECURITY_USERS_EMBEDDED_USERS_BENCH="$hash" \
    QUARKUS_SECURITY_USERS_EMBEDDED_ROLES_BENCH=outbox-viewer \
    java $CONSUMER_JAVA_OPTS -Dquarkus.micrometer.export.prometheus.step=10s \
    -jar "$ROOT/consumer-service/target/quarkus-app/quarkus-run.jar" >"$CONSUMER_LOG" 2>&1 &
  CONSUMER_PID=$!
  for _ in $(seq 300); do
    kill -0 "$CONSUMER_PID" 2>/dev/null || { tail -30 "$CONSUMER_LOG" >&2; die "consumer-service exited at start"; }
    curl -sf "http://127.0.0.1:$MANAGEMENT_PORT/q/health/ready" >/dev/null 2>&1 && break
    sleep 0.3
  done
  curl -sf "http://127.0.0.1:$MANAGEMENT_PORT/q/health/ready" >/dev/null || die "consumer-service not ready after 90 s"
  IDLE_RSS=$(awk '/^VmRSS:/{printf "%.0f", $2/1024}' "/proc/$CONSUMER_PID/status")
  say "consumer: ready, pid $CONSUMER_PID, RSS ${IDLE_RSS} MB idle"
}

stop_consumer() {
  [[ -n $CONSUMER_PID ]] || return 0
  if kill -0 "$CONSUMER_PID" 2>/dev/null; then
    kill "$CONSUMER_PID"
    for _ in $(seq 100); do kill -0 "$CONSUMER_PID" 2>/dev/null || break; sleep 0.2; done
    kill -0 "$CONSUMER_PID" 2>/dev/null && kill -9 "$CONSUMER_PID"
    wait "$CONSUMER_PID" 2>/dev/null || true
  fi
  CONSUMER_PID=
}

quiet_gate() { # <consumer-pid|0> : wait until other people's processes calm down
  bench_java dev.onceonly.bench.QuietGate "$QUIET_PCT" "$QUIET_MAX" "$1" >"$WORK/quiet"
  local waited others
  waited=$(kv "$WORK/quiet" quiet_wait_seconds); others=$(kv "$WORK/quiet" quiet_others_pct)
  if [[ $waited -gt 2 ]]; then
    say "  waited ${waited} s for other processes to calm down (now ${others}% of a core)"
  fi
}

# build_and_measure_ceiling [module...]: builds shared-model, consumer-service, this module and the
# modules named (SKIP_BUILD=1 skips it), then measures the ceiling of a fresh and of a duplicate
# message's transaction ($WORK/ceiling_fresh.cpu, $WORK/ceiling_dup.cpu).
build_and_measure_ceiling() {
  if [[ $SKIP_BUILD != 1 ]]; then
    local modules=shared-model,consumer-service,deploy/bench
    for module in "$@"; do modules+=,$module; done
    say "building $modules (SKIP_BUILD=1 skips this)"
    (cd "$ROOT" && ./mvnw -B -q install -DskipTests -pl "$modules" -am)
  fi
  [[ -f $ROOT/consumer-service/target/quarkus-app/quarkus-run.jar ]] || die "consumer-service is not built"
  [[ -f $BENCH/target/onceonly-bench.jar ]] || die "deploy/bench is not built"
  prepare_ceiling
  run_pgbench ceiling_fresh ceiling_fresh.sql -D run=1 -D seq=0
  run_pgbench ceiling_dup ceiling_duplicate.sql
}

# The PostgreSQL ceiling (pgbench, same tables and statements, no JVM or broker): database
# $PGBENCH_DB from the service's own migrations.
prepare_ceiling() {
  say "ceiling: database $PGBENCH_DB from the service's own migrations"
  "${PG[@]}" -d postgres -c "DROP DATABASE IF EXISTS $PGBENCH_DB WITH (FORCE)" -c "CREATE DATABASE $PGBENCH_DB"
  "${PG[@]}" -d "$PGBENCH_DB" -c 'CREATE SCHEMA loyalty' -c 'CREATE SCHEMA outbox'
  for dir in consumer-service/src/main/resources/db/loyalty:loyalty shared-model/src/main/resources/db/outbox:outbox; do
    for f in $(ls "$ROOT/${dir%%:*}"/V*__*.sql | sort -V); do
      PGOPTIONS="$PGOPTIONS -c search_path=${dir##*:}" "${PG[@]}" -d "$PGBENCH_DB" -f "$f"
    done
  done
  "${PG[@]}" -d "$PGBENCH_DB" -f "$BENCH/sql/ceiling_setup.sql"
}

run_pgbench() { # <name> <script> [pgbench args]
  local name=$1 script=$2; shift 2
  quiet_gate 0
  "${PG[@]}" -d postgres -c CHECKPOINT
  say "ceiling: pgbench $name, $PGBENCH_CLIENTS clients, -j 2, -M prepared, ${PGBENCH_SECONDS} s"
  bench_java dev.onceonly.bench.CpuWatch "$WORK/$name.cpu" \
    pgbench -n -h 127.0.0.1 -U postgres -M prepared -c "$PGBENCH_CLIENTS" -j 2 -T "$PGBENCH_SECONDS" \
    "$@" -f "$BENCH/sql/$script" "$PGBENCH_DB" >"$WORK/$name.out" 2>&1 ||
    { cat "$WORK/$name.out" >&2; die "pgbench $name failed"; }
  grep -q 'number of failed transactions: 0 ' "$WORK/$name.out" ||
    { cat "$WORK/$name.out" >&2; die "pgbench $name had failed transactions"; }
  awk '/^tps = /{print "tps=" $3} /^latency average/{print "latency_ms=" $4}' "$WORK/$name.out" >>"$WORK/$name.cpu"
  say "  $(kv "$WORK/$name.cpu" tps) TPS, latency $(kv "$WORK/$name.cpu" latency_ms) ms"
}

# warm_up_and_fresh: WARMUP events as fresh and again as duplicates, not counted, then the measured
# phase "fresh" (EVENTS new events) and its effects; phase() is the script's own.
warm_up_and_fresh() {
  phase warmup warm "$WARMUP" applied
  # The duplicate path has code of its own for the JIT to compile: warm it too, with the same events.
  phase warmup-duplicates warm "$WARMUP" duplicate
  quiet_gate "$CONSUMER_PID"
  "${PG[@]}" -d postgres -c CHECKPOINT
  phase fresh main "$EVENTS" applied
  check_effects fresh
}

effects() { # prints "ledger outbox claims balanced"
  "${PG[@]}" -d "$DB" -At -F ' ' -c "SELECT (SELECT count(*) FROM loyalty.point_ledger),
      (SELECT count(*) FROM outbox.outbox), (SELECT count(*) FROM onceonly.processed_messages),
      (SELECT coalesce(sum(points), 0) FROM loyalty.balances)
        = (SELECT coalesce(sum(points), 0) FROM loyalty.point_ledger)"
}
check_effects() { # <phase>
  local expected="$((WARMUP + EVENTS)) $((WARMUP + EVENTS)) $((2 * (WARMUP + EVENTS))) t" got
  got=$(effects)
  [[ $got == "$expected" ]] || die "after $1: ledger/outbox/claims/balanced = '$got', expected '$expected'"
  say "  effects exactly once: $((WARMUP + EVENTS)) ledger rows, $((WARMUP + EVENTS)) outbox rows, balances = ledger"
}

# noisy <kv-file>:<phase>...: a NOISY line for each phase in which other processes used more than
# a quarter of a core.
noisy() {
  local f others
  for f in "$@"; do
    others=$(kv "${f%%:*}" cpu_others_pct)
    if awk "BEGIN { exit !($others > 25) }"; then
      echo "  NOISY: other processes used ${others}% of a core during ${f#*:}; its figure is too low, run again when the machine is quiet"
    fi
  done
}
