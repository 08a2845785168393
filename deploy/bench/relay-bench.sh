#!/usr/bin/env bash
# OnceOnly relay benchmark: outbox-relay draining a pre-filled outbox to the provider sandbox,
# against the SQL-only drain ceiling measured by pgbench in the same run; commit-to-delivered
# latency under a steady half load; the relay's RSS; the consumer's rate while the relay drains.
# Prints figures (it is not a test) and appends them to deploy/bench/results/relay-<timestamp>.txt.
# See deploy/bench/RELAY.md.
#
# Usage: deploy/bench/relay-bench.sh
# Knobs (environment): DRAIN_ROWS=150000 WARMUP_ROWS=100000 CEILING_ROWS=400000 CEILING_SECONDS=15 CEILING_BATCH=10
#   LATENCY_SECONDS=20 LATENCY_ROWS_PER_COMMIT=4 LATENCY_PCT=50 CONSUMER_EVENTS=10000 CONSUMER_WARMUP=2000 RELAY_BATCH_SIZE RELAY_MAX_IN_FLIGHT
#   RELAY_JAVA_OPTS="-Xmx160m -XX:+UseSerialGC ..." SANDBOX_JAVA_OPTS=-Xmx256m QUIET_PCT=30 QUIET_MAX=30 SKIP_BUILD=0
#   TRACING=off|on (on: relay and consumer export spans over OTLP/HTTP to a local sink, tracing.sh)
# Exits 0 when it measured, MISS or not; non-zero only when something broke.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BENCH=$ROOT/deploy/bench
SQL=$BENCH/sql

# 150,000: past 130,000 waiting rows PostgreSQL once JIT-compiled every lease (RELAY.md, "Leases and
# PostgreSQL's JIT"), which 50,000-row drains never showed; and the drain lasts about 12 s, not 4.
DRAIN_ROWS=${DRAIN_ROWS:-150000}
WARMUP_ROWS=${WARMUP_ROWS:-100000}
CEILING_ROWS=${CEILING_ROWS:-400000}
CEILING_SECONDS=${CEILING_SECONDS:-15}
CEILING_BATCH=${CEILING_BATCH:-10}
CEILING_CLIENTS=4
LATENCY_SECONDS=${LATENCY_SECONDS:-20}
LATENCY_ROWS_PER_COMMIT=${LATENCY_ROWS_PER_COMMIT:-4}
# The latency stream's rate in % of the drain's: issue 37's target is at half (50); lower shows how
# much of the tail is the relay's own path and how much the CPU the rest of the machine leaves it.
LATENCY_PCT=${LATENCY_PCT:-50}
CONSUMER_EVENTS=${CONSUMER_EVENTS:-10000}
CONSUMER_WARMUP=${CONSUMER_WARMUP:-2000}
QUIET_PCT=${QUIET_PCT:-30}
QUIET_MAX=${QUIET_MAX:-30}
SKIP_BUILD=${SKIP_BUILD:-0}
# The consumer benchmark's flags (deploy/bench/README.md): the heap capped so the whole process
# stays under 256 MB, Serial GC (no G1 remembered sets or concurrent threads on 2 cores), bounded
# metaspace and code cache, small thread stacks (the relay runs up to max-in-flight calls at once).
JVM_OPTS_DEFAULT="-Xms64m -Xmx160m -XX:+UseSerialGC -XX:MaxMetaspaceSize=96m -XX:ReservedCodeCacheSize=64m -Xss512k"
RELAY_JAVA_OPTS=${RELAY_JAVA_OPTS:-$JVM_OPTS_DEFAULT}
CONSUMER_JAVA_OPTS=${CONSUMER_JAVA_OPTS:-$JVM_OPTS_DEFAULT}

SANDBOX_PORT=18089
RELAY_PORT=18081
CONSUMER_PORT=18082
SANDBOX_URL=http://127.0.0.1:$SANDBOX_PORT
# Health and metrics of the two services are on management ports of their own.
RELAY_MANAGEMENT_PORT=19081
CONSUMER_MANAGEMENT_PORT=19082
RELAY_MANAGEMENT_URL=http://127.0.0.1:$RELAY_MANAGEMENT_PORT
CONSUMER_MANAGEMENT_URL=http://127.0.0.1:$CONSUMER_MANAGEMENT_PORT
DB=onceonly_relaybench
CEILING_DB=onceonly_relayceiling
VHOST=onceonly-relaybench
DB_URL=jdbc:postgresql://127.0.0.1:5432/$DB
PG=(psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -U postgres)
export PGOPTIONS="-c client_min_messages=warning"

SANDBOX_JAR=$ROOT/deploy/provider-sandbox/target/quarkus-app/quarkus-run.jar
CONSUMER_JAR=$ROOT/consumer-service/target/quarkus-app/quarkus-run.jar
RELAY_JAR=$ROOT/outbox-relay/target/quarkus-app/quarkus-run.jar
BENCH_JAR=$BENCH/target/onceonly-bench.jar

STAMP=$(date +%Y%m%d-%H%M%S)
RESULTS=$BENCH/results
REPORT=$RESULTS/relay-$STAMP.txt
LOGS=$RESULTS/relay-$STAMP
WORK=$(mktemp -d)
declare -A PIDS=()

say() { printf '%s  %s\n' "$(date +%T)" "$*"; }
die() { printf 'relay-bench: %s\n' "$*" >&2; exit 1; }
kv() { grep -m1 "^$2=" "$1" | cut -d= -f2-; }
calc() { awk "BEGIN { printf \"$1\", $2 }"; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
sql() { "${PG[@]}" -d "$DB" -At -F ' ' -c "$1"; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
bench_java() { java -cp "$BENCH_JAR:$BENCH/target/lib/*" "$@"; }
# shellcheck source=tracing.sh
source "$BENCH/tracing.sh"
OTLP_PORT=18318

# --- processes: only what this script started (services.sh) --------------------------------------
# shellcheck source=services.sh
source "$BENCH/services.sh"
# shellcheck source=figures.sh
source "$BENCH/figures.sh"
rss_start() { # <name> <pid>: VmRSS in kB every 0.5 s into $WORK/<name>.rss
  (while [[ -r /proc/$2/status ]]; do
    awk '/^VmRSS:/ { print $2 }' "/proc/$2/status" 2>/dev/null || true
    sleep 0.5
  done) >"$WORK/$1.rss" &
  PIDS[rss-$1]=$!
}
rss_stop() { # <name>: prints max MB
  local pid=${PIDS[rss-$1]:-}
  [[ -n $pid ]] && { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; unset "PIDS[rss-$1]"; }
  awk 'BEGIN { m = 0 } $1 > m { m = $1 } END { printf "%.1f", m / 1024 }' "$WORK/$1.rss"
}
# CPU ticks of the services this script started (relay, sandbox, consumer), then the time
cpu_snap() { # relay sandbox consumer machine-busy (clock ticks), then the time
  local name
  for name in outbox-relay provider-sandbox consumer-service; do
    printf '%s ' "$(awk '{ print $14 + $15 }' "/proc/${PIDS[$name]:-0}/stat" 2>/dev/null || echo 0)"
  done
  printf '%s ' "$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat)"
  date +%s.%N
}
# per_row <before> <after> <rows>: the machine's busy CPU per row over the interval, in ms, then its
# relay, sandbox and everything-else parts, then how busy the machine was (% of one core)
per_row() {
  awk -v hz="$(getconf CLK_TCK)" -v a="$1" -v b="$2" -v n="$3" 'BEGIN {
    split(a, x, " "); split(b, y, " "); s = y[5] - x[5]
    m = 1000 * (y[4] - x[4]) / hz / n; r = 1000 * (y[1] - x[1]) / hz / n; p = 1000 * (y[2] - x[2]) / hz / n
    c = 1000 * (y[3] - x[3]) / hz / n
    printf "%.3f %.3f %.3f %.3f %.0f\n", m, r, p, m - r - p - c, 100 * (y[4] - x[4]) / hz / s }'
}
cpu_line() { # <before> <after>: % of one core per service over the interval, and the rest
  awk -v hz="$(getconf CLK_TCK)" -v a="$1" -v b="$2" -v cores="$(nproc)" 'BEGIN {
    split(a, x, " "); split(b, y, " "); s = y[5] - x[5]
    r = 100 * (y[1] - x[1]) / hz / s; p = 100 * (y[2] - x[2]) / hz / s; c = 100 * (y[3] - x[3]) / hz / s
    m = 100 * (y[4] - x[4]) / hz / s
    printf "relay %.0f%%, sandbox %.0f%%, consumer %.0f%%, everything else (PostgreSQL, pgbench, ...) %.0f%%; machine %.0f%% of %d%% (%.1f s)",
      r, p, c, m - r - p - c, m, 100 * cores, s }'
}
jit_ticks() { # <pid>: CPU ticks of the process's JIT compiler threads so far
  local t=0 f
  for f in /proc/"$1"/task/*; do
    [[ $(cat "$f/comm" 2>/dev/null) == *Compiler* ]] || continue
    t=$((t + $(awk '{ sub(/.*\) /, ""); split($0, a, " "); print a[12] + a[13] }' "$f/stat" 2>/dev/null || echo 0)))
  done
  echo "$t"
}
hwm() { awk '/^VmHWM:/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  for name in "${!PIDS[@]}"; do
    if [[ $name == rss-* ]]; then kill "${PIDS[$name]}" 2>/dev/null || true; fi
  done
  for name in outbox-relay consumer-service provider-sandbox; do stop "$name"; done
  tracing_stop
  rm -rf "$WORK"
  [[ $rc -eq 0 ]] || printf 'relay-bench: failed (exit %d); logs in %s\n' "$rc" "$LOGS" >&2
  exit "$rc"
}
quiet_gate() { # <pid|0>: wait (at most QUIET_MAX s) until other processes use < QUIET_PCT % of a core
  [[ -f $BENCH_JAR ]] || return 0
  bench_java dev.onceonly.bench.QuietGate "$QUIET_PCT" "$QUIET_MAX" "$1" >"$WORK/quiet" 2>/dev/null || return 0
  local waited
  waited=$(kv "$WORK/quiet" quiet_wait_seconds)
  [[ ${waited:-0} -le 2 ]] || say "  waited ${waited} s for other processes (now $(kv "$WORK/quiet" quiet_others_pct)% of a core)"
}

# --- 0. preflight -------------------------------------------------------------------------------
for cmd in java psql pgbench rabbitmqctl curl jq awk; do
  command -v "$cmd" >/dev/null || die "$cmd is not installed"
done
"${PG[@]}" -d postgres -Atc 'select 1' >/dev/null ||
  die "PostgreSQL does not answer on 127.0.0.1:5432 as postgres (start it: pg_ctlcluster 15 main start)"
rabbitmqctl -q list_vhosts >/dev/null 2>&1 || die "rabbitmqctl cannot reach RabbitMQ (start it: rabbitmq-server -detached)"
for port in $SANDBOX_PORT $RELAY_PORT $CONSUMER_PORT $RELAY_MANAGEMENT_PORT $CONSUMER_MANAGEMENT_PORT; do
  port_open "$port" && die "port $port is taken: is an earlier relay benchmark still running?"
done
mkdir -p "$LOGS"
trap cleanup EXIT
trap 'exit 130' INT TERM
say "relay benchmark $STAMP; load average at start $(load) ($(nproc) cores)"

# --- 1. build (only what is missing) --------------------------------------------------------------
if [[ $SKIP_BUILD != 1 ]] && ! [[ -f $SANDBOX_JAR && -f $CONSUMER_JAR && -f $RELAY_JAR ]]; then
  say "building shared-model, consumer-service, outbox-relay, provider-sandbox"
  (cd "$ROOT" && ./mvnw -B -q install -DskipTests -pl shared-model,consumer-service,outbox-relay,deploy/provider-sandbox -am)
fi
if [[ $SKIP_BUILD != 1 && ! -f $BENCH_JAR ]]; then
  say "building the bench tools (publisher) in deploy/bench"
  (cd "$ROOT" && ./mvnw -B -q install -DskipTests -pl deploy/bench -am)
fi
for jar in "$SANDBOX_JAR" "$CONSUMER_JAR" "$RELAY_JAR"; do [[ -f $jar ]] || die "$jar is missing"; done
say "jars: relay built $(date -r "$RELAY_JAR" +'%F %T'), consumer $(date -r "$CONSUMER_JAR" +'%F %T')"

# --- 2. SQL-only drain ceiling --------------------------------------------------------------------
say "[ceiling] database $CEILING_DB: outbox migrations V*.sql, $CEILING_ROWS due rows"
"${PG[@]}" -d postgres -c "DROP DATABASE IF EXISTS $CEILING_DB WITH (FORCE)" -c "CREATE DATABASE $CEILING_DB"
"${PG[@]}" -d "$CEILING_DB" -c 'CREATE SCHEMA outbox'
for f in $(ls "$ROOT"/shared-model/src/main/resources/db/outbox/V*__*.sql | sort -V); do
  PGOPTIONS="$PGOPTIONS -c search_path=outbox" "${PG[@]}" -d "$CEILING_DB" -f "$f"
done
"${PG[@]}" -d "$CEILING_DB" -v rows="$CEILING_ROWS" -v prefix=ceiling -f "$SQL/relay-prefill.sql"
"${PG[@]}" -d "$CEILING_DB" -c 'VACUUM ANALYZE outbox.outbox' -c CHECKPOINT
quiet_gate 0
say "[ceiling] pgbench lease+deliver batch $CEILING_BATCH, $CEILING_CLIENTS clients, -j 2, -M prepared, ${CEILING_SECONDS} s; load $(load)"
ceiling_cpu0=$(cpu_snap)
pgbench -n -h 127.0.0.1 -U postgres -M prepared -c "$CEILING_CLIENTS" -j 2 -T "$CEILING_SECONDS" \
  -D batch="$CEILING_BATCH" -f "$SQL/relay-ceiling-lease.sql" "$CEILING_DB" >"$WORK/ceiling.out" 2>&1 ||
  { cat "$WORK/ceiling.out" >&2; die "pgbench ceiling failed"; }
ceiling_cpu1=$(cpu_snap)
grep -q 'number of failed transactions: 0 ' "$WORK/ceiling.out" ||
  { cat "$WORK/ceiling.out" >&2; die "pgbench ceiling had failed transactions"; }
# Rows delivered over the span of their delivered_at: right even when the rows ran out before the
# end (pgbench then runs empty transactions, and rows / duration would understate the ceiling).
read -r ceiling_rows ceiling_left ceiling_span < <("${PG[@]}" -d "$CEILING_DB" -At -F ' ' -c \
  "SELECT count(*) FILTER (WHERE status = 'delivered'), count(*) FILTER (WHERE status = 'pending'),
          extract(epoch FROM max(delivered_at) - min(delivered_at)) FROM outbox.outbox")
[[ $ceiling_left -gt 0 ]] || say "  the ceiling ran out of rows after $(calc '%.1f' "$ceiling_span") s (CEILING_ROWS=$CEILING_ROWS); the rate below is over that span"
ceiling_tps=$(awk '/^tps = /{ printf "%.0f", $3 }' "$WORK/ceiling.out")
ceiling=$(calc '%.0f' "$ceiling_rows / $ceiling_span")
# The machine's CPU per delivered row (PostgreSQL and pgbench): the model below compares it with
# the drain's.
read -r ceiling_ms _ _ _ ceiling_busy < <(per_row "$ceiling_cpu0" "$ceiling_cpu1" "$ceiling_rows")
say "[ceiling] $ceiling rows/s ($ceiling_tps tx/s, $ceiling_rows rows, $ceiling_left left); machine CPU $ceiling_ms ms per row, $ceiling_busy % busy; load $(load)"
"${PG[@]}" -d postgres -c "DROP DATABASE IF EXISTS $CEILING_DB WITH (FORCE)"

# --- 3. services: sandbox and consumer (which migrates schemas loyalty and outbox) ----------------
say "[services] database $DB and vhost $VHOST recreated; starting provider-sandbox :$SANDBOX_PORT and consumer-service :$CONSUMER_PORT"
"${PG[@]}" -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"
rabbitmqctl -q delete_vhost "$VHOST" >/dev/null 2>&1 || true
rabbitmqctl -q add_vhost "$VHOST" >/dev/null
rabbitmqctl -q set_permissions -p "$VHOST" guest '.*' '.*' '.*' >/dev/null
# The packaged services refuse to start without an API user: one for this run only.
BENCH_PASSWORD=$(head -c 32 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 16)
BENCH_HASH=$(printf 'bench:onceonly:%s' "$BENCH_PASSWORD" | sha512sum | cut -d' ' -f1)
AUTH_ENV=(QUARKUS_SECURITY_USERS_EMBEDDED_USERS_BENCH="$BENCH_HASH" QUARKUS_SECURITY_USERS_EMBEDDED_ROLES_BENCH=outbox-admin)
DB_ENV=(DB_URL="$DB_URL" DB_USER=postgres DB_PASSWORD=)
tracing_start "$OTLP_PORT" "$LOGS/otlp-sink.log"
start provider-sandbox "$SANDBOX_JAR" "${SANDBOX_JAVA_OPTS:--Xmx256m} -Xlog:gc:file=$LOGS/provider-sandbox-gc.log" \
  QUARKUS_HTTP_PORT="$SANDBOX_PORT"
start consumer-service "$CONSUMER_JAR" "$CONSUMER_JAVA_OPTS -Dquarkus.micrometer.export.prometheus.step=10s" \
  "${TRACING_ENV[@]}" "${DB_ENV[@]}" "${AUTH_ENV[@]}" HTTP_PORT="$CONSUMER_PORT" MANAGEMENT_PORT="$CONSUMER_MANAGEMENT_PORT" CONSUMER_THREADS=4 \
  RABBITMQ_HOST=127.0.0.1 RABBITMQ_PORT=5672 RABBITMQ_USER=guest RABBITMQ_PASSWORD=guest RABBITMQ_VHOST="$VHOST"
await_ready provider-sandbox "$SANDBOX_URL"
await_ready consumer-service "$CONSUMER_MANAGEMENT_URL"
curl -fsS -X DELETE "$SANDBOX_URL/sandbox/faults" -o /dev/null || true
CONSUMER_PID=${PIDS[consumer-service]}
say "[services] ready (sandbox pid ${PIDS[provider-sandbox]}, consumer pid $CONSUMER_PID); sandbox faults off"

gc_pauses() { # <service>: count, total and longest pause in its GC log
  awk '/Pause/ { ms = $NF; sub(/ms/, "", ms); n++; t += ms; if (ms > m) m = ms }
       END { printf "%d, %.0f ms in all, longest %.1f ms", n, t, m }' "$LOGS/$1-gc.log" 2>/dev/null || echo n/a
}
start_relay() {
  start outbox-relay "$RELAY_JAR" "$RELAY_JAVA_OPTS -Xlog:gc:file=$LOGS/outbox-relay-gc.log" "${TRACING_ENV[@]}" "${DB_ENV[@]}" "${AUTH_ENV[@]}" HTTP_PORT="$RELAY_PORT" \
    MANAGEMENT_PORT="$RELAY_MANAGEMENT_PORT" RELAY_ID=relaybench PROVIDER_URL="$SANDBOX_URL" \
    ${RELAY_BATCH_SIZE:+RELAY_BATCH_SIZE=$RELAY_BATCH_SIZE} ${RELAY_MAX_IN_FLIGHT:+RELAY_MAX_IN_FLIGHT=$RELAY_MAX_IN_FLIGHT}
  RELAY_PID=${PIDS[outbox-relay]}
}
publish() { # <phase> <series> <count>: OrderCompleted through RabbitMQ until both consumers applied them
  bench_java dev.onceonly.bench.Publish --run "$STAMP" --series "$2" --count "$3" --await applied \
    --occurred-at "$OCCURRED_AT" --customers 10000 --max-backlog 4000 \
    --metrics-url "$CONSUMER_MANAGEMENT_URL/q/metrics" --consumer-pid "$CONSUMER_PID" \
    --rabbitmq-vhost "$VHOST" >"$WORK/$1.kv" 2>"$WORK/$1.err" || { tail "$WORK/$1.err" >&2; die "publishing $1 failed"; }
}
OCCURRED_AT=$(date -u +%Y-%m-%dT%H:%M:%SZ)

# --- 4. the consumer alone (relay not running) ----------------------------------------------------
consumer_alone=
if [[ -f $BENCH_JAR ]]; then
  say "[consumer alone] warm-up $CONSUMER_WARMUP events, then $CONSUMER_EVENTS fresh OrderCompleted, relay not running; load $(load)"
  publish warmup warm "$CONSUMER_WARMUP"
  quiet_gate "$CONSUMER_PID"
  "${PG[@]}" -d postgres -c CHECKPOINT
  say "[consumer alone] measuring; load $(load)"
  publish alone alone "$CONSUMER_EVENTS"
  consumer_alone=$(calc '%.0f' "$(kv "$WORK/alone.kv" events_per_s)")
  say "[consumer alone] $consumer_alone events/s ($(kv "$WORK/alone.kv" tx_per_s) consumer tx/s, $(kv "$WORK/alone.kv" seconds) s); load $(load)"
  # Their receipts are set aside so the drain below delivers exactly its own rows.
  sql "UPDATE outbox.outbox SET status = 'cancelled', cancelled_at = now() WHERE status = 'pending'" >/dev/null
else
  say "[consumer alone] SKIPPED: $BENCH_JAR missing (build deploy/bench)"
fi

# --- 5. drain: warm the relay and the sandbox up, then prefill and wait for every row delivered -----
# Both JVMs start cold; a relay in production runs for weeks. A first drain of WARMUP_ROWS lets the
# JIT compile the delivery path (its cold rate is printed); the measured drain follows, the relay
# running and woken by the prefill's NOTIFY, as it would be by a burst of commits. The JIT
# compiler threads' CPU during the measured drain is printed: after 50,000 warm-up rows they still
# took 3.7 s of CPU in a 6.8 s drain (8,184 rows/s, 14,202 in the drain after it).
# The wait must not compete with what it measures. Polling with psql from here cost, per look, a
# Perl wrapper, a new backend and a full scan of the table, four times a second: a quarter of the
# machine during the drain (perf). Now one session looks every 50 ms (psql's \watch), through the
# lease index (a scan of the table would walk the drain's dead rows), for a row still pending or in
# flight; each look is a transaction of its own (a single long one, such as a DO loop, held back
# the removal of dead rows and slowed the drain to a third).
await_settled() { # <where> <seconds>: fails if rows matching <where> still wait after <seconds>
  ( # psql ends on a broken pipe once grep has seen "f": only grep's status counts
    set +o pipefail
    printf '%s\n' 'SET enable_seqscan = off;' 'SET enable_bitmapscan = off;' \
      "SELECT EXISTS (SELECT 1 FROM outbox.outbox WHERE status IN ('pending', 'in_flight') AND $1) \\watch 0.05" |
      timeout "$2" "${PG[@]}" -d "$DB" -At 2>"$WORK/await.err" | grep -m1 -qx f
  ) &
  local waiter=$!
  while kill -0 "$waiter" 2>/dev/null; do
    if ! kill -0 "$RELAY_PID" 2>/dev/null; then
      kill "$waiter" 2>/dev/null || true
      tail -n 30 "$LOGS/outbox-relay.log" >&2
      die "outbox-relay exited"
    fi
    sleep 0.5
  done
  wait "$waiter"
}
# The count follows once, at the end.
await_delivered() { # <where> <rows> <what>
  local n
  await_settled "$1" 300 || die "$3 stalled: rows still waiting after 300 s $(cat "$WORK/await.err")"
  n=$(sql "SELECT count(*) FROM outbox.outbox WHERE $1 AND status = 'delivered'")
  [[ $n -ge $2 ]] || die "$3: $n of $2 delivered; by status: $(sql "SELECT string_agg(status || ' ' || n, ', ')
      FROM (SELECT status, count(*) AS n FROM outbox.outbox WHERE $1 GROUP BY status) s")"
}
say "[warm-up] prefilling $WARMUP_ROWS due send_receipt rows"
"${PG[@]}" -d "$DB" -v rows="$WARMUP_ROWS" -v prefix="warm-$STAMP" -f "$SQL/relay-prefill.sql"
"${PG[@]}" -d "$DB" -c 'VACUUM ANALYZE outbox.outbox' -c CHECKPOINT
say "[warm-up] starting outbox-relay :$RELAY_PORT (JVM $RELAY_JAVA_OPTS); load $(load)"
warm_t0=$(date +%s.%N)
start_relay
await_delivered "source_consumer = 'relaybench-warm-$STAMP'" "$WARMUP_ROWS" "warm-up drain"
warm_rate_wall=$(calc '%.0f' "$WARMUP_ROWS / ($(date +%s.%N) - $warm_t0)")
say "[warm-up] $WARMUP_ROWS rows delivered, $warm_rate_wall rows/s from the relay's launch (JVM start and JIT included)"
"${PG[@]}" -d postgres -c CHECKPOINT
curl -fsS -X POST "$SANDBOX_URL/sandbox/reset" -o /dev/null
quiet_gate "$RELAY_PID"
say "[drain] prefilling $DRAIN_ROWS due send_receipt rows; the relay wakes on their commit; load $(load)"
drain_t0=$(date +%s.%N)
cpu0=$(cpu_snap)
jit0_relay=$(jit_ticks "$RELAY_PID")
jit0_sandbox=$(jit_ticks "${PIDS[provider-sandbox]}")
rss_start drain "$RELAY_PID"
"${PG[@]}" -d "$DB" -v rows="$DRAIN_ROWS" -v prefix="drain-$STAMP" -f "$SQL/relay-prefill.sql"
# From the prefill's commit on, the machine's CPU is the drain's: the model's figure per row.
drain_cpu_committed=$(cpu_snap)
DRAIN_WHERE="source_consumer = 'relaybench-drain-$STAMP'"
await_delivered "$DRAIN_WHERE" "$DRAIN_ROWS" "drain"
delivered=$DRAIN_ROWS
drain_t1=$(date +%s.%N)
drain_cpu1=$(cpu_snap)
drain_cpu=$(cpu_line "$cpu0" "$drain_cpu1")
read -r drain_ms drain_relay_ms drain_sandbox_ms drain_rest_ms drain_busy < <(per_row "$drain_cpu_committed" "$drain_cpu1" "$DRAIN_ROWS")
drain_jit=$(awk -v hz="$(getconf CLK_TCK)" -v s="$(calc '%.3f' "$drain_t1 - $drain_t0")" \
  -v r="$(($(jit_ticks "$RELAY_PID") - jit0_relay))" -v p="$(($(jit_ticks "${PIDS[provider-sandbox]}") - jit0_sandbox))" \
  'BEGIN { printf "relay %.0f%%, sandbox %.0f%% of a core", 100 * r / hz / s, 100 * p / hz / s }')
drain_rss=$(rss_stop drain)
read -r drain_span drain_first_after_start < <(sql "SELECT extract(epoch FROM max(delivered_at) - min(delivered_at)),
    extract(epoch FROM min(delivered_at)) - $drain_t0 FROM outbox.outbox WHERE $DRAIN_WHERE")
drain_rate=$(calc '%.0f' "$DRAIN_ROWS / $drain_span")
drain_rate_wall=$(calc '%.0f' "$DRAIN_ROWS / ($drain_t1 - $drain_t0)")
curl -fsS "$SANDBOX_URL/sandbox/stats" >"$WORK/drain-stats.json"
drain_effective=$(jq '.receipts.effectiveCalls' "$WORK/drain-stats.json")
drain_raw=$(jq '.receipts.rawCalls' "$WORK/drain-stats.json")
drain_attempts=$(sql "SELECT sum(attempts) FROM outbox.outbox WHERE $DRAIN_WHERE")
# How long one provider call took, as the relay recorded it (started_at to finished_at).
drain_calls=$(sql "SELECT 'avg ' || round(avg(ms)::numeric, 1) || ', p50 ' ||
    round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1) || ', p99 ' ||
    round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 1) || ' ms'
  FROM (SELECT extract(epoch FROM a.finished_at - a.started_at) * 1000 AS ms
          FROM outbox.outbox_attempts a JOIN outbox.outbox o ON o.id = a.outbox_id WHERE o.$DRAIN_WHERE) c")
say "[drain] $drain_rate deliveries/s (first to last delivered_at, $(calc '%.1f' "$drain_span") s; first delivery $(calc '%.1f' "$drain_first_after_start") s after the prefill began; $drain_rate_wall/s from then); RSS max $drain_rss MB; load $(load)"
say "[drain] CPU: $drain_cpu; one provider call: $drain_calls"
say "[drain] JIT compiler threads during the drain: $drain_jit (the warm-up's $WARMUP_ROWS rows should leave little)"
say "[drain] sandbox receipts: effective $drain_effective, raw calls $drain_raw; outbox attempts $drain_attempts"

# --- 6. commit-to-delivered latency under a steady half load --------------------------------------
latency_rate=$((drain_rate * LATENCY_PCT / 100))
latency_tx_rate=$(((latency_rate + LATENCY_ROWS_PER_COMMIT - 1) / LATENCY_ROWS_PER_COMMIT))
# A steady stream meets a table in steady state: the drain left its rows' dead entries in the lease
# indexes, which autovacuum (outbox's own thresholds, V4) removes within its next round; here now.
"${PG[@]}" -d "$DB" -c 'VACUUM ANALYZE outbox.outbox' -c CHECKPOINT
# Like the other phases, the stream meets an empty sandbox (it keeps every call in memory, and the
# drain's rows would lengthen its GC pauses, which delay every call in flight).
curl -fsS -X POST "$SANDBOX_URL/sandbox/reset" -o /dev/null
quiet_gate "$RELAY_PID"
say "[latency] pgbench --rate $latency_tx_rate commits/s of $LATENCY_ROWS_PER_COMMIT rows ($latency_rate rows/s, one NOTIFY per commit), 8 clients, ${LATENCY_SECONDS} s; load $(load)"
rss_start latency "$RELAY_PID"
cpu0=$(cpu_snap)
# -l: pgbench logs every transaction with the moment it saw the commit acknowledged; the k-th line
# of client c is the k-th transaction that client committed (a client's transactions run one after
# another), holding its rows (k-1)*N+1 .. k*N in insert order.
pgbench -n -h 127.0.0.1 -U postgres -M prepared -c 8 -j 2 -T "$LATENCY_SECONDS" --rate "$latency_tx_rate" \
  -D rows="$LATENCY_ROWS_PER_COMMIT" \
  -l --log-prefix="$WORK/latlog" -f "$SQL/relay-latency-insert.sql" "$DB" >"$WORK/latency.out" 2>&1 ||
  { cat "$WORK/latency.out" >&2; die "pgbench latency stream failed"; }
LAT_WHERE="source_consumer = 'relaybench-latency'"
await_settled "$LAT_WHERE" 60 || say "[latency] rows still waiting after 60 s; counted as undelivered below"
latency_cpu1=$(cpu_snap)
latency_cpu=$(cpu_line "$cpu0" "$latency_cpu1")
# Only how busy the machine was is read here (it does not depend on the row count given).
read -r _ _ _ _ latency_busy < <(per_row "$cpu0" "$latency_cpu1" 1)
latency_rss=$(rss_stop latency)
read -r lat_rows lat_undelivered lat_p50 lat_p99 lat_max < <(sql "SELECT count(*), count(*) FILTER (WHERE delivered_at IS NULL),
    round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1),
    round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 1), round(max(ms)::numeric, 1)
  FROM (SELECT delivered_at, extract(epoch FROM delivered_at - created_at) * 1000 AS ms
          FROM outbox.outbox WHERE $LAT_WHERE) s")
# Commit to delivered: from the moment the writer saw its commit acknowledged (pgbench's log) to
# delivered_at. The ack comes after the commit, so this can only flatter by the ack's own trip.
sql "CREATE TABLE IF NOT EXISTS relaybench_commits (client int, n int, acked_us bigint); TRUNCATE relaybench_commits" >/dev/null
cat "$WORK"/latlog.* | awk '{ printf "%d,%d,%d%06d\n", $1, $2, $5, $6 }' |
  "${PG[@]}" -d "$DB" -c "\copy relaybench_commits FROM STDIN WITH (FORMAT csv)" >/dev/null
read -r ack_rows ack_p50 ack_p99 ack_max < <(sql "WITH r AS (
    SELECT delivered_at, substr(payload->>'customerId', 6)::int AS client,
           row_number() OVER (PARTITION BY payload->>'customerId' ORDER BY created_at, id) AS n
      FROM outbox.outbox WHERE $LAT_WHERE),
  j AS (SELECT extract(epoch FROM r.delivered_at - (timestamptz 'epoch' + c.acked_us * interval '1 microsecond')) * 1000 AS ms
          FROM r JOIN relaybench_commits c ON c.client = r.client
                AND c.n = (r.n - 1) / $LATENCY_ROWS_PER_COMMIT + 1)
  SELECT count(*), round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1),
         round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 1), round(max(ms)::numeric, 1) FROM j")
[[ $ack_rows -eq $lat_rows ]] || say "[latency] WARNING: $ack_rows of $lat_rows rows matched a pgbench commit; the commit-to-delivered figure covers those only"
read -r lat_parts < <(sql "SELECT concat_ws(', ',
    'insert start to call start ' || round(percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM a.started_at - o.created_at) * 1000)::numeric, 1),
    'call ' || round(percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM a.finished_at - a.started_at) * 1000)::numeric, 1),
    'call end to delivered_at ' || round(percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM o.delivered_at - a.finished_at) * 1000)::numeric, 1))
  FROM outbox.outbox o JOIN outbox.outbox_attempts a ON a.outbox_id = o.id WHERE o.$LAT_WHERE")
lat_achieved=$(awk -v n="$LATENCY_ROWS_PER_COMMIT" '/^tps = /{ printf "%.0f", $3 * n }' "$WORK/latency.out")
lat_lag=$(grep -m1 'schedule lag' "$WORK/latency.out" | sed 's/.*lag[:=]* *//' || true)
relay_hwm=$(hwm "$RELAY_PID")
relay_metric=$(curl -fsS "$RELAY_MANAGEMENT_URL/q/metrics" 2>/dev/null | grep '^onceonly_relay_delivery_latency_seconds{' |
  grep -E 'quantile="0\.(5|99)"' | awk '{ match($0, /quantile="[0-9.]+"/); printf "p%s %.1f ms\n", substr($0, RSTART + 10, RLENGTH - 11), $NF * 1000 }' | tr '\n' ' ' || true)
say "[latency] $lat_rows rows at $lat_achieved/s: commit to delivered p50 $ack_p50 ms, p99 $ack_p99 ms, max $ack_max ms; insert start to delivered p50 $lat_p50, p99 $lat_p99 ms ($lat_undelivered undelivered); RSS max $latency_rss MB; load $(load)"

# --- 7. the consumer while the relay drains -------------------------------------------------------
consumer_drain=
if [[ -f $BENCH_JAR ]]; then
  curl -fsS -X POST "$SANDBOX_URL/sandbox/reset" -o /dev/null
  quiet_gate "$CONSUMER_PID"
  say "[consumer + drain] $DRAIN_ROWS rows committed at once (relay running), then $CONSUMER_EVENTS fresh events; load $(load)"
  rss_start with "$RELAY_PID"
  "${PG[@]}" -d "$DB" -v rows="$DRAIN_ROWS" -v prefix="with-$STAMP" -f "$SQL/relay-prefill.sql"
  with_t0=$(date +%s.%N)
  cpu0=$(cpu_snap)
  publish with with "$CONSUMER_EVENTS"
  with_t1=$(date +%s.%N)
  with_cpu=$(cpu_line "$cpu0" "$(cpu_snap)")
  with_rss=$(rss_stop with)
  consumer_drain=$(calc '%.0f' "$(kv "$WORK/with.kv" events_per_s)")
  read -r with_left with_last with_delivered < <(sql "SELECT count(*) FILTER (WHERE status <> 'delivered'),
      coalesce(extract(epoch FROM max(delivered_at)), 0),
      count(*) FILTER (WHERE delivered_at BETWEEN to_timestamp($with_t0) AND to_timestamp($with_t1))
      FROM outbox.outbox WHERE source_consumer = 'relaybench-with-$STAMP'")
  if [[ $with_left -gt 0 ]]; then
    overlap="the drain was still running when the consumer finished ($with_left rows left)"
  else
    overlap="the drain ended $(calc '%.1f' "$with_last - $with_t0") s into the consumer's $(calc '%.1f' "$with_t1 - $with_t0") s"
  fi
  say "[consumer + drain] $consumer_drain events/s ($(kv "$WORK/with.kv" seconds) s); $overlap; relay RSS max $with_rss MB; load $(load)"
fi
relay_hwm=$(hwm "$RELAY_PID")
# Both services flush their last spans when they stop; the sink's count follows.
stop outbox-relay
stop consumer-service
TRACING_LINE=$(tracing_stats)

# --- 8. the figures --------------------------------------------------------------------------------
drain_ratio=$(calc '%.2f' "$drain_rate / $ceiling")
read -r rss_max rss_phase < <(largest drain="$drain_rss" latency="$latency_rss" ${with_rss:+with="$with_rss"})
row() { printf '%-40s %-30s %-20s %s\n' "$@"; }
{
  echo
  echo "OnceOnly relay benchmark, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(cores), $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "relay: batch ${RELAY_BATCH_SIZE:-50 (default)}, max-in-flight ${RELAY_MAX_IN_FLIGHT:-256 (default)}, NOTIFY on, synchronous_commit off (relay default)"
  echo "relay JVM: $RELAY_JAVA_OPTS, MALLOC_ARENA_MAX=2"
  echo "tracing (relay and consumer): $TRACING_LINE"
  echo
  row figure measured target result
  row "ceiling: SQL lease+deliver, batch $CEILING_BATCH" "$ceiling rows/s" "(ref. ~6,800)" "4 clients, -j 2, $ceiling_rows rows in $(calc '%.1f' "$ceiling_span") s"
  row "drain: $DRAIN_ROWS rows to the sandbox" "$drain_rate deliveries/s" ">= 1.0 x ceiling" "$(verdict "$drain_ratio >= 1.0") ($drain_ratio x)"
  row "drain: sandbox effective receipts" "$drain_effective" "= $DRAIN_ROWS" "$(verdict "$drain_effective == $DRAIN_ROWS")"
  row "commit-to-delivered p50 / p99 at $lat_achieved rows/s" "$ack_p50 / $ack_p99 ms" "p99 <= 20 ms" "$(verdict "$ack_p99 <= 20") ($LATENCY_PCT % of the drain's rate)"
  row "relay RSS max (drain, latency${with_rss:+, with})" "$rss_max MB ($rss_phase; VmHWM $relay_hwm MB)" "<= 256 MB" \
    "$(verdict "$rss_max <= 256 && $relay_hwm <= 256")"
  if [[ -n $consumer_alone && -n $consumer_drain ]]; then
    ratio=$(calc '%.2f' "$consumer_drain / $consumer_alone")
    row "consumer while the relay drains" "$consumer_drain vs $consumer_alone events/s" ">= 0.85 x alone" "$(verdict "$ratio >= 0.85") ($ratio x)"
  else
    row "consumer while the relay drains" "not measured" ">= 0.85 x alone" "n/a (no bench jar)"
  fi
  echo
  echo "model (the machine's busy CPU per row; both runs fill at most $(nproc) cores):"
  echo "  ceiling: $ceiling_ms ms per row (PostgreSQL and pgbench), machine $ceiling_busy % busy"
  echo "  drain: $drain_ms ms per row (relay $drain_relay_ms, sandbox $drain_sandbox_ms, PostgreSQL and the rest $drain_rest_ms), machine $drain_busy % busy"
  drain_bound=$(calc '%.0f' "$(nproc) * 1000 / $drain_ms")
  echo "  so, filling the machine, the drain could reach at most $drain_bound rows/s here: $(calc '%.2f' "$drain_bound / $ceiling") x the ceiling measured"
  echo "  latency stream: machine $latency_busy % busy"
  if [[ -n $consumer_alone && -n $consumer_drain ]]; then
    # With the machine full, what the drain takes the consumer loses: the drain's rows during the
    # consumer's phase at the drain's CPU per row, against the consumer's CPU per event alone.
    alone_busy=$(kv "$WORK/alone.kv" cpu_machine_pct)
    with_rows_s=$(calc '%.0f' "$with_delivered / ($with_t1 - $with_t0)")
    with_drain_pct=$(calc '%.0f' "$with_rows_s * $drain_ms / 10")
    echo "  consumer alone: machine $(calc '%.0f' "$alone_busy") % busy; while it ran beside the drain, the relay delivered $with_rows_s rows/s:"
    echo "  at $drain_ms ms a row that is $with_drain_pct % of a core, which leaves the consumer at most" \
      "$(calc '%.2f' "($(nproc) * 100 - $with_drain_pct) / $alone_busy") x its rate alone"
  fi
  echo
  echo "more:"
  echo "  drain: first to last delivered_at $(calc '%.1f' "$drain_span") s; first delivery $(calc '%.1f' "$drain_first_after_start") s after the prefill began (its insert included); from then $drain_rate_wall rows/s"
  echo "  warm-up: $WARMUP_ROWS rows first, cold: $warm_rate_wall rows/s from the relay's launch (JVM start and JIT included)"
  echo "  drain: one provider call (outbox_attempts started_at to finished_at): $drain_calls"
  echo "  drain: JIT compiler threads during the drain: $drain_jit"
  echo "  drain: sandbox raw calls $drain_raw, outbox attempts $drain_attempts (1 per row = no retries)"
  echo "  latency: $lat_rows rows, target rate $latency_rate/s ($LATENCY_PCT % of the drain's rate), achieved $lat_achieved/s, max $lat_max ms, undelivered $lat_undelivered, pgbench schedule lag ${lat_lag:-?}"
  echo "  relay's own timer onceonly_relay_delivery_latency_seconds (decaying window, at the end of the stream; the drain's old rows may still be in it): ${relay_metric:-n/a}"
  echo "  commit-to-delivered runs from the writer seeing its commit acknowledged (pgbench -l) to delivered_at; max $ack_max ms ($ack_rows rows matched)"
  echo "  insert start to delivered (created_at is the insert's transaction start, so this adds the writer's own commit and any wait for the CPU before it): p50 $lat_p50, p99 $lat_p99 ms"
  echo "  p99 of the parts, ms: $lat_parts"
  echo "  GC pauses (whole run): relay $(gc_pauses outbox-relay); sandbox $(gc_pauses provider-sandbox)"
  echo "  relay RSS max: drain $drain_rss MB, latency $latency_rss MB${with_rss:+, consumer+drain $with_rss MB}; VmHWM at end $relay_hwm MB"
  if [[ -n $consumer_alone && -n $consumer_drain ]]; then
    echo "  consumer alone: $(kv "$WORK/alone.kv" seconds) s, $(kv "$WORK/alone.kv" tx_per_s) tx/s, CPU others $(kv "$WORK/alone.kv" cpu_others_pct)% of a core"
    echo "  consumer + drain: $(kv "$WORK/with.kv" seconds) s, $(kv "$WORK/with.kv" tx_per_s) tx/s, CPU others (relay counted here) $(kv "$WORK/with.kv" cpu_others_pct)% of a core; $overlap"
  fi
  echo "  CPU, % of one core:"
  echo "    drain           : $drain_cpu"
  echo "    latency         : $latency_cpu"
  [[ -z ${with_cpu:-} ]] || echo "    consumer + drain: $with_cpu"
  echo "  the ceiling runs with synchronous_commit on (as the reference); the relay commits with it off"
  echo "  load average at end: $(load)"
  echo "  logs: $LOGS"
} | tee -a "$REPORT"
say "figures appended to $REPORT"
