#!/usr/bin/env bash
# OnceOnly data-over-time benchmark (issue 12): what the claims and the outbox cost once they hold
# weeks of data. Prints figures (it is not a test) and appends them to
# deploy/bench/results/data-<timestamp>.txt. See "Data over time" in deploy/bench/README.md.
#
#   1. claims: consumer-service on an empty claims table against one holding CLAIMS claims over
#      CLAIM_DAYS daily partitions; fresh and duplicate rates and handle-time p99, interleaved
#      (empty, full, full, empty, ...), medians side by side. Targets: rates within 10 %, p99 within 20 %.
#   2. retention: one day of RETENTION_CLAIMS claims removed by dropping its partition (detach
#      concurrently + drop, as claim.ClaimPartitionRepository does) or by a batched delete
#      (DELETE_BATCH per transaction): time and WAL alone, and the consumer's rate while each runs.
#   3. outbox: OUTBOX_ROWS delivered rows (with attempts and keys) removed by the relay's own
#      retention job while the relay drains DRAIN_ROWS fresh rows, against the same drain with the
#      finished rows too young to remove. Target: the drain keeps >= 80 % of its rate.
#
# Usage: deploy/bench/data-bench.sh            (full sizes, about 20 minutes on 2 cores)
#        CLAIMS=200000 RETENTION_CLAIMS=100000 OUTBOX_ROWS=100000 EVENTS=3000 WARMUP=3000 REPS=2 \
#          deploy/bench/data-bench.sh          (smoke run, about 10 minutes)
# Knobs (environment): CLAIMS=10000000 CLAIM_DAYS=30 EVENTS=10000 WARMUP=10000 REPS=3
#   RETENTION_CLAIMS=1000000 DELETE_BATCH=10000 RETENTION_REPS=2 OUTBOX_ROWS=1000000
#   DRAIN_ROWS=50000 RELAY_WARMUP_ROWS=100000 OUTBOX_REPS=2 PARTS=claims,retention,outbox
#   OUTBOX_RETENTION_INTERVAL=1s OUTBOX_RETENTION_BATCHES=200 (the relay's retention pace: a run
#   every interval, at most that many batches of 500) OUTBOX_RETENTION_WAIT=1200 (longest wait, s,
#   for the retention to finish after the drain)
#   CONSUMER_JAVA_OPTS RELAY_JAVA_OPTS QUIET_PCT=30 QUIET_MAX=30
# It uses the jars already built (./mvnw -B package -DskipTests -pl consumer-service,outbox-relay,
# deploy/provider-sandbox,deploy/bench -am). Exits 0 when it measured, targets met or not.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BENCH=$ROOT/deploy/bench
SQL=$BENCH/sql

CLAIMS=${CLAIMS:-10000000}
CLAIM_DAYS=${CLAIM_DAYS:-30}
EVENTS=${EVENTS:-10000}
WARMUP=${WARMUP:-10000}
REPS=${REPS:-3}
RETENTION_CLAIMS=${RETENTION_CLAIMS:-1000000}
DELETE_BATCH=${DELETE_BATCH:-10000}
RETENTION_REPS=${RETENTION_REPS:-2}
OUTBOX_ROWS=${OUTBOX_ROWS:-1000000}
DRAIN_ROWS=${DRAIN_ROWS:-50000}
RELAY_WARMUP_ROWS=${RELAY_WARMUP_ROWS:-100000}
OUTBOX_REPS=${OUTBOX_REPS:-2}
OUTBOX_RETENTION_INTERVAL=${OUTBOX_RETENTION_INTERVAL:-1s}
OUTBOX_RETENTION_BATCHES=${OUTBOX_RETENTION_BATCHES:-200}
OUTBOX_RETENTION_WAIT=${OUTBOX_RETENTION_WAIT:-1200}
PARTS=${PARTS:-claims,retention,outbox}
QUIET_PCT=${QUIET_PCT:-30}
QUIET_MAX=${QUIET_MAX:-30}
JVM_OPTS_DEFAULT="-Xms64m -Xmx160m -XX:+UseSerialGC -XX:MaxMetaspaceSize=96m -XX:ReservedCodeCacheSize=64m -Xss512k"
CONSUMER_JAVA_OPTS=${CONSUMER_JAVA_OPTS:-$JVM_OPTS_DEFAULT}
RELAY_JAVA_OPTS=${RELAY_JAVA_OPTS:-$JVM_OPTS_DEFAULT}

# Its own databases, vhosts and ports: nothing here is shared with tests or the other benchmarks.
DB_EMPTY=onceonly_databench_empty
DB_FULL=onceonly_databench_full
declare -A DBS=([empty]=$DB_EMPTY [full]=$DB_FULL)
declare -A VHOSTS=([empty]=onceonly-databench-empty [full]=onceonly-databench-full)
declare -A HTTP_PORTS=([empty]=18083 [full]=18084)
declare -A MGMT_PORTS=([empty]=19083 [full]=19084)
RELAY_PORT=18085
RELAY_MGMT_PORT=19085
SANDBOX_PORT=18091
SANDBOX_URL=http://127.0.0.1:$SANDBOX_PORT
PG=(psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -U postgres)
export PGOPTIONS="-c client_min_messages=warning"

SANDBOX_JAR=$ROOT/deploy/provider-sandbox/target/quarkus-app/quarkus-run.jar
CONSUMER_JAR=$ROOT/consumer-service/target/quarkus-app/quarkus-run.jar
RELAY_JAR=$ROOT/outbox-relay/target/quarkus-app/quarkus-run.jar
BENCH_JAR=$BENCH/target/onceonly-bench.jar

STAMP=$(date +%Y%m%d-%H%M%S)
RESULTS=$BENCH/results
REPORT=$RESULTS/data-$STAMP.txt
LOGS=$RESULTS/data-$STAMP
WORK=$(mktemp -d)
declare -A PIDS=()

say() { printf '%s  %s\n' "$(date +%T)" "$*"; }
die() { printf 'data-bench: %s\n' "$*" >&2; exit 1; }
kv() { grep -m1 "^$2=" "$1" | cut -d= -f2-; }
calc() { awk "BEGIN { printf \"$1\", $2 }"; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
sql() { "${PG[@]}" -d "$1" -At -F ' ' -c "$2"; }
has_part() { [[ ,$PARTS, == *,$1,* ]]; }
bench_java() { java -cp "$BENCH_JAR:$BENCH/target/lib/*" "$@"; }
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { printf "%.2f", NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
verdict() { awk "BEGIN { print ($1) ? \"MET\" : \"MISSED\" }"; }
mb() { calc '%.1f' "$1 / 1048576"; }
lsn() { sql postgres "SELECT pg_current_wal_lsn()"; }
wal_since() { sql postgres "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '$1')::bigint"; }
now_s() { date +%s.%N; }
machine_busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }
busy_pct() { # <busy ticks before> <t before>: % of one core the machine used since
  calc '%.0f' "100 * ($(machine_busy) - $1) / $(getconf CLK_TCK) / ($(now_s) - $2)"
}

# --- processes: only what this script started (services.sh) --------------------------------------
# shellcheck source=services.sh
source "$BENCH/services.sh"
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  [[ -z ${PIDS[stream]:-} ]] || { kill "${PIDS[stream]}" 2>/dev/null || true; wait "${PIDS[stream]}" 2>/dev/null || true; }
  for name in outbox-relay provider-sandbox consumer-full consumer-empty; do stop "$name"; done
  rm -rf "$WORK"
  [[ $rc -eq 0 ]] || printf 'data-bench: failed (exit %d); logs in %s\n' "$rc" "$LOGS" >&2
  exit "$rc"
}
quiet_gate() { # wait (at most QUIET_MAX s) until other processes use < QUIET_PCT % of a core
  bench_java dev.onceonly.bench.QuietGate "$QUIET_PCT" "$QUIET_MAX" "${1:-0}" >"$WORK/quiet" 2>/dev/null || return 0
  local waited
  waited=$(kv "$WORK/quiet" quiet_wait_seconds)
  [[ ${waited:-0} -le 2 ]] || say "  waited ${waited} s for other processes (now $(kv "$WORK/quiet" quiet_others_pct)% of a core)"
}

# --- 0. preflight -------------------------------------------------------------------------------
for cmd in java psql rabbitmqctl curl jq awk; do command -v "$cmd" >/dev/null || die "$cmd is not installed"; done
"${PG[@]}" -d postgres -Atc 'select 1' >/dev/null || die "PostgreSQL does not answer on 127.0.0.1:5432 as postgres"
rabbitmqctl -q list_vhosts >/dev/null 2>&1 || die "rabbitmqctl cannot reach RabbitMQ"
for jar in "$SANDBOX_JAR" "$CONSUMER_JAR" "$RELAY_JAR" "$BENCH_JAR"; do
  [[ -f $jar ]] || die "$jar is missing: ./mvnw -B package -DskipTests -pl consumer-service,outbox-relay,deploy/provider-sandbox,deploy/bench -am"
done
for port in "${HTTP_PORTS[@]}" "${MGMT_PORTS[@]}" $RELAY_PORT $RELAY_MGMT_PORT $SANDBOX_PORT; do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && die "port $port is taken: is an earlier data benchmark still running?"
done
mkdir -p "$LOGS"
trap cleanup EXIT
trap 'exit 130' INT TERM
say "data benchmark $STAMP: parts $PARTS; load $(load) ($(nproc) cores); logs $LOGS"

BENCH_PASSWORD=$(head -c 32 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 16)
BENCH_HASH=$(printf 'bench:onceonly:%s' "$BENCH_PASSWORD" | sha512sum | cut -d' ' -f1)
AUTH_ENV=(QUARKUS_SECURITY_USERS_EMBEDDED_USERS_BENCH="$BENCH_HASH" QUARKUS_SECURITY_USERS_EMBEDDED_ROLES_BENCH=outbox-admin)
OCCURRED_AT=$(date -u +%Y-%m-%dT%H:%M:%SZ) # today: inside the claim window, as events normally are

# --- 1. two consumers, each on its own database and vhost -----------------------------------------
# The service's own partition job keeps to its start-up run (creating the days ahead): the
# benchmark adds and removes past days itself and must not find them dropped under it.
start_consumer() { # <empty|full>
  local t=$1
  "${PG[@]}" -d postgres -c "DROP DATABASE IF EXISTS ${DBS[$t]} WITH (FORCE)" -c "CREATE DATABASE ${DBS[$t]}"
  rabbitmqctl -q delete_vhost "${VHOSTS[$t]}" >/dev/null 2>&1 || true
  rabbitmqctl -q add_vhost "${VHOSTS[$t]}" >/dev/null
  rabbitmqctl -q set_permissions -p "${VHOSTS[$t]}" guest '.*' '.*' '.*' >/dev/null
  start "consumer-$t" "$CONSUMER_JAR" "$CONSUMER_JAVA_OPTS -Dquarkus.micrometer.export.prometheus.step=10s" \
    DB_URL="jdbc:postgresql://127.0.0.1:5432/${DBS[$t]}" DB_USER=postgres DB_PASSWORD= "${AUTH_ENV[@]}" \
    HTTP_PORT="${HTTP_PORTS[$t]}" MANAGEMENT_PORT="${MGMT_PORTS[$t]}" CONSUMER_THREADS=4 \
    RABBITMQ_HOST=127.0.0.1 RABBITMQ_PORT=5672 RABBITMQ_USER=guest RABBITMQ_PASSWORD=guest RABBITMQ_VHOST="${VHOSTS[$t]}" \
    QUARKUS_ONCEONLY_CLAIMS_RETENTION_INTERVAL=24h QUARKUS_ONCEONLY_CLAIMS_RETENTION_DELAY=24h
  await_ready "consumer-$t" "http://127.0.0.1:${MGMT_PORTS[$t]}"
  say "[setup] consumer-$t ready on database ${DBS[$t]}, vhost ${VHOSTS[$t]} (pid ${PIDS[consumer-$t]})"
}
publish() { # <empty|full> <out kv> <series> <count> <applied|duplicate>
  local t=$1
  bench_java dev.onceonly.bench.Publish --run "$STAMP" --series "$3" --count "$4" --await "$5" \
    --occurred-at "$OCCURRED_AT" --customers 10000 --max-backlog 4000 \
    --metrics-url "http://127.0.0.1:${MGMT_PORTS[$t]}/q/metrics" --consumer-pid "${PIDS[consumer-$t]}" \
    --rabbitmq-vhost "${VHOSTS[$t]}" >"$2" 2>"$2.err" || { tail "$2.err" >&2; die "publishing $3 to consumer-$t failed"; }
}
applied() { # <empty|full>: applied messages so far, both consumers
  curl -fsS "http://127.0.0.1:${MGMT_PORTS[$1]}/q/metrics" |
    awk '/^onceonly_consumer_messages_total\{/ && /outcome="applied"/ { s += $NF } END { printf "%.0f", s }'
}
claims_size() { # <db>: claims and the size of the partitions, indexes included
  sql "$1" "SELECT count(*) || ' claims in ' || (SELECT count(*) FROM pg_inherits WHERE inhparent = 'onceonly.processed_messages'::regclass)
      || ' partitions, ' || pg_size_pretty((SELECT sum(pg_total_relation_size(inhrelid)) FROM pg_inherits
      WHERE inhparent = 'onceonly.processed_messages'::regclass)) FROM onceonly.processed_messages"
}

if has_part claims || has_part retention; then
  start_consumer full
fi
if has_part claims || has_part outbox; then
  start_consumer empty
fi

# --- 2. the full claims table ------------------------------------------------------------------------
if has_part claims; then
  say "[prefill] $CLAIMS claims over the $CLAIM_DAYS days before today into $DB_FULL (INSERT ... SELECT generate_series, one day per statement); load $(load)"
  t0=$(now_s)
  "${PG[@]}" -d "$DB_FULL" -v claims="$CLAIMS" -v days="$CLAIM_DAYS" -v from_day="$CLAIM_DAYS" -v prefix=pre \
    -f "$SQL/claims-prefill.sql" >/dev/null
  prefill_s=$(calc '%.0f' "$(now_s) - $t0")
  t0=$(now_s)
  "${PG[@]}" -d "$DB_FULL" -c 'VACUUM ANALYZE onceonly.processed_messages' -c CHECKPOINT
  vacuum_s=$(calc '%.0f' "$(now_s) - $t0")
  FULL_SIZE=$(claims_size "$DB_FULL")
  say "[prefill] $FULL_SIZE; insert $prefill_s s, VACUUM ANALYZE + CHECKPOINT $vacuum_s s"
fi

# --- 3. claim cost as the table grows: empty and full interleaved -----------------------------------
declare -A FIG=()
if has_part claims; then
  for t in empty full; do
    say "[claims] warm-up of consumer-$t: $WARMUP events fresh, then again as duplicates (not counted)"
    publish "$t" "$WORK/warm-$t.kv" warm "$WARMUP" applied
    publish "$t" "$WORK/warm-$t-dup.kv" warm "$WARMUP" duplicate
  done
  for r in $(seq "$REPS"); do
    if ((r % 2)); then order="empty full"; else order="full empty"; fi
    for t in $order; do
      quiet_gate "${PIDS[consumer-$t]}"
      "${PG[@]}" -d postgres -c CHECKPOINT
      l0=$(load)
      publish "$t" "$WORK/c-$t-$r-fresh.kv" "r$r" "$EVENTS" applied
      publish "$t" "$WORK/c-$t-$r-dup.kv" "r$r" "$EVENTS" duplicate
      f=$WORK/c-$t-$r-fresh.kv d=$WORK/c-$t-$r-dup.kv
      FIG[$t-fresh]+=" $(kv "$f" tx_per_s)"; FIG[$t-dup]+=" $(kv "$d" tx_per_s)"
      for c in loyalty receipts; do
        FIG[$t-fresh-$c-p99]+=" $(kv "$f" "${c}_p99_ms")"; FIG[$t-dup-$c-p99]+=" $(kv "$d" "${c}_p99_ms")"
      done
      FIG[$t-others]+=" $(kv "$f" cpu_others_pct) $(kv "$d" cpu_others_pct)"
      say "[claims] rep $r $t: fresh $(kv "$f" tx_per_s) msg/s (p99 loyalty $(kv "$f" loyalty_p99_ms), receipts $(kv "$f" receipts_p99_ms) ms)," \
        "duplicates $(kv "$d" tx_per_s) msg/s (p99 $(kv "$d" loyalty_p99_ms), $(kv "$d" receipts_p99_ms) ms);" \
        "CPU of others $(kv "$f" cpu_others_pct)% / $(kv "$d" cpu_others_pct)% of a core; load $l0 -> $(load)"
    done
  done
  # Every claim the phases wrote is there, the prefill's too.
  for t in empty full; do
    expected=$((2 * (WARMUP + REPS * EVENTS)))
    [[ $t == empty ]] || expected=$((expected + CLAIMS))
    got=$(sql "${DBS[$t]}" "SELECT count(*) FROM onceonly.processed_messages")
    [[ $got -eq $expected ]] || die "consumer-$t: $got claims, expected $expected"
  done
  EXPLAIN_CLAIM=$(sql "$DB_FULL" "EXPLAIN (COSTS OFF) INSERT INTO onceonly.processed_messages (consumer, message_key, payload_sha256, event_date)
      VALUES ('loyalty', 'order-completed:explain', repeat('0', 64), (now() AT TIME ZONE 'UTC')::date) ON CONFLICT DO NOTHING" | tr '\n' ' ' | tr -s ' ')
fi
has_part outbox || stop consumer-empty

# --- 4. retention of one day of claims: drop the partition, or delete it in batches ------------------
# Days 40 days back and older: beyond the 30-day window, the days the service drops.
RET_DAY=40
fill_day() { # <days back>: a partition of RETENTION_CLAIMS claims, vacuumed, then a checkpoint
  "${PG[@]}" -d "$DB_FULL" -v claims="$RETENTION_CLAIMS" -v days=1 -v from_day="$1" -v prefix="ret$1" \
    -f "$SQL/claims-prefill.sql" >/dev/null
  "${PG[@]}" -d "$DB_FULL" -c "VACUUM ANALYZE loyalty.$(partition "$1")" -c CHECKPOINT
}
partition() { sql "$DB_FULL" "SELECT 'processed_messages_p' || to_char((now() AT TIME ZONE 'UTC')::date - $1, 'YYYYMMDD')"; }
day_of() { sql "$DB_FULL" "SELECT (now() AT TIME ZONE 'UTC')::date - $1"; }
drop_day() { # <days back>: the statements of ClaimPartitionRepository (maintain + Session.drop)
  local p
  p=$(partition "$1")
  "${PG[@]}" -d "$DB_FULL" -c "SET lock_timeout = '5s'" -c "SET statement_timeout = '120s'" \
    -c "ALTER TABLE onceonly.processed_messages DETACH PARTITION onceonly.$p CONCURRENTLY" \
    -c "DROP TABLE IF EXISTS onceonly.$p"
}
delete_day() { # <days back> <out>: batches of DELETE_BATCH until one deletes fewer; EXPLAIN JSON to <out>
  local day batches=$((RETENTION_CLAIMS / DELETE_BATCH + 1)) files=()
  day=$(day_of "$1")
  for _ in $(seq "$batches"); do files+=(-f "$SQL/claims-delete-day.sql"); done
  "${PG[@]}" -d "$DB_FULL" -At -v day="$day" -v batch="$DELETE_BATCH" "${files[@]}" >"$2"
  [[ $(sql "$DB_FULL" "SELECT count(*) FROM onceonly.processed_messages WHERE event_date = '$day'") -eq 0 ]] ||
    die "the batched delete left claims of $day"
}
# WAL of one database since <lsn>, read back with pg_walinspect: the records that touch its
# relations and those of the same transactions (their commits). The cluster is shared: other
# databases' WAL in the same interval is not counted. Alone, nothing else writes to DB_FULL.
wal_of_db() { # <db> <lsn>
  sql "$1" "WITH r AS (SELECT xid, record_length, fpi_length, block_ref
                       FROM pg_get_wal_records_info('$2', pg_current_wal_flush_lsn())),
                 mine AS (SELECT DISTINCT xid FROM r
                           WHERE block_ref LIKE '%/' || (SELECT oid FROM pg_database WHERE datname = current_database()) || '/%'
                             AND xid <> 0)
            SELECT coalesce(sum(record_length), 0) || ' ' || coalesce(sum(fpi_length), 0) || ' ' || count(*) FROM r
             WHERE block_ref LIKE '%/' || (SELECT oid FROM pg_database WHERE datname = current_database()) || '/%'
                OR xid IN (SELECT xid FROM mine)"
}
delete_wal() { jq -s 'map(.[0].Plan."WAL Bytes") | add' "$1"; }
delete_fpi() { jq -s 'map(.[0].Plan."WAL FPI") | add' "$1"; }
background_wal() { # bytes/s the rest of the cluster writes now (3 s)
  local l0
  l0=$(lsn)
  sleep 3
  calc '%.0f' "$(wal_since "$l0") / 3"
}

if has_part retention; then
  say "[retention] alone: one day of $RETENTION_CLAIMS claims, dropped, then another deleted in batches of $DELETE_BATCH"
  "${PG[@]}" -d "$DB_FULL" -c 'CREATE EXTENSION IF NOT EXISTS pg_walinspect'
  fill_day "$RET_DAY"
  quiet_gate
  bg_drop=$(background_wal)
  l0=$(lsn); t0=$(now_s)
  drop_day "$RET_DAY"
  DROP_S=$(calc '%.3f' "$(now_s) - $t0"); DROP_WAL_CLUSTER=$(wal_since "$l0")
  read -r DROP_WAL DROP_FPI_BYTES DROP_RECORDS < <(wal_of_db "$DB_FULL" "$l0")
  say "[retention] drop alone: $DROP_S s, WAL $DROP_WAL bytes in $DROP_RECORDS records of $DB_FULL ($DROP_WAL_CLUSTER cluster-wide; other databases wrote about $bg_drop bytes/s just before); load $(load)"
  fill_day $((RET_DAY + 1))
  quiet_gate
  bg_delete=$(background_wal)
  l0=$(lsn); t0=$(now_s)
  delete_day $((RET_DAY + 1)) "$WORK/delete-alone.json"
  DELETE_S=$(calc '%.1f' "$(now_s) - $t0"); DELETE_WAL_CLUSTER=$(wal_since "$l0")
  DELETE_WAL=$(delete_wal "$WORK/delete-alone.json"); DELETE_FPI=$(delete_fpi "$WORK/delete-alone.json")
  read -r DELETE_WAL_DB _ _ < <(wal_of_db "$DB_FULL" "$l0")
  l0=$(lsn); t0=$(now_s)
  "${PG[@]}" -d "$DB_FULL" -c "VACUUM loyalty.$(partition $((RET_DAY + 1)))"
  VACUUM_S=$(calc '%.1f' "$(now_s) - $t0"); read -r VACUUM_WAL _ _ < <(wal_of_db "$DB_FULL" "$l0")
  drop_day $((RET_DAY + 1)) # the emptied partition itself goes too (not measured)
  say "[retention] delete alone: $DELETE_S s, WAL $(mb "$DELETE_WAL") MB by its statements ($DELETE_FPI full-page images; $(mb "$DELETE_WAL_DB") MB in $DB_FULL with the commits, $(mb "$DELETE_WAL_CLUSTER") MB cluster-wide, background $bg_delete bytes/s); then VACUUM $VACUUM_S s, $(mb "$VACUUM_WAL") MB; load $(load)"

  # The consumer's stream while each runs: a series long enough to outlast the delete twice over.
  stream_rate=$(median ${FIG[full-fresh]:-800})
  WINDOW=$(calc '%.0f' "($DELETE_S < 5) ? 5 : $DELETE_S")
  STREAM_EVENTS=$(calc '%.0f' "$stream_rate / 2 * (10 + 3 * $WINDOW)")
  ((STREAM_EVENTS >= 5000)) || STREAM_EVENTS=5000
  day=$((RET_DAY + 2))
  conditions=(none drop delete)
  for r in $(seq "$RETENTION_REPS"); do
    for i in 0 1 2; do
      cond=${conditions[$(((i + r - 1) % 3))]}
      if [[ $cond == none ]]; then "${PG[@]}" -d postgres -c CHECKPOINT; else fill_day "$day"; fi
      quiet_gate "${PIDS[consumer-full]}"
      l_start=$(load)
      c_launch=$(applied full)
      publish full "$WORK/s-$cond-$r.kv" "s$r-$cond" "$STREAM_EVENTS" applied &
      PIDS[stream]=$!
      # The publisher starts a JVM and encodes its events first: wait until the consumer has
      # applied 1,000 of them, then 2 s more for the stream to reach its pace.
      for _ in $(seq 240); do
        (($(applied full) - c_launch >= 1000)) && break
        kill -0 "${PIDS[stream]}" 2>/dev/null || die "the stream during $cond ended early (log $WORK/s-$cond-$r.kv.err)"
        sleep 0.5
      done
      sleep 2
      c0=$(applied full); t0=$(now_s); b0=$(machine_busy)
      case $cond in
        none) sleep "$WINDOW" ;;
        drop) drop_day "$day" ;;
        delete) delete_day "$day" "$WORK/delete-$r.json" ;;
      esac
      op_s=$(calc '%.2f' "$(now_s) - $t0")
      # A window shorter than 5 s says little about a rate: the drop's window is 5 s from its start.
      left=$(calc '%.2f' "5 - $op_s"); awk "BEGIN { exit !($left > 0) }" && sleep "$left"
      c1=$(applied full); t1=$(now_s); busy=$(busy_pct "$b0" "$t0")
      kill -0 "${PIDS[stream]}" 2>/dev/null && ended=no || ended=yes
      wait "${PIDS[stream]}" || die "the stream during $cond failed"
      unset "PIDS[stream]"
      rate=$(calc '%.0f' "($c1 - $c0) / ($t1 - $t0)")
      FIG[ret-$cond]+=" $rate"; FIG[ret-$cond-s]+=" $op_s"
      [[ $ended == no ]] || say "  WARNING: the stream ended before the $cond window did; its rate is too low (raise STREAM_EVENTS)"
      say "[retention] rep $r, $cond under the stream: consumer $rate msg/s over $(calc '%.1f' "$t1 - $t0") s (op $op_s s); machine ${busy}% of $(($(nproc) * 100))%; load $l_start -> $(load)"
      [[ $cond == none ]] || day=$((day + 1))
    done
  done
  for cond in drop delete; do
    FIG[ret-$cond-ratio]=$(calc '%.2f' "$(median ${FIG[ret-$cond]}) / $(median ${FIG[ret-none]})")
  done
  RET_CLAIMS_SIZE=$(claims_size "$DB_FULL")
fi
stop consumer-full

# --- 5. outbox retention while the relay drains -----------------------------------------------------
relay_busy() { awk '{ print $14 + $15 }' "/proc/${PIDS[outbox-relay]}/stat"; }
await_none() { # <db> <where> <seconds>: until no row matches (one look a second)
  for _ in $(seq "$3"); do
    [[ $(sql "$1" "SELECT EXISTS (SELECT 1 FROM outbox.outbox WHERE $2)") == f ]] && return 0
    kill -0 "${PIDS[outbox-relay]}" 2>/dev/null || die "outbox-relay exited (log $LOGS/outbox-relay.log)"
    sleep 1
  done
  return 1
}
if has_part outbox; then
  stop consumer-empty
  DB=$DB_EMPTY
  say "[outbox] provider-sandbox :$SANDBOX_PORT and outbox-relay :$RELAY_PORT on $DB (migrated by consumer-empty), retention every $OUTBOX_RETENTION_INTERVAL, at most $OUTBOX_RETENTION_BATCHES batches of 500 a run (relay defaults: 10m, 200, 500)"
  start provider-sandbox "$SANDBOX_JAR" "-Xmx256m" QUARKUS_HTTP_PORT="$SANDBOX_PORT"
  await_ready provider-sandbox "$SANDBOX_URL"
  curl -fsS -X DELETE "$SANDBOX_URL/sandbox/faults" -o /dev/null || true
  start outbox-relay "$RELAY_JAR" "$RELAY_JAVA_OPTS" DB_URL="jdbc:postgresql://127.0.0.1:5432/$DB" DB_USER=postgres DB_PASSWORD= \
    "${AUTH_ENV[@]}" HTTP_PORT="$RELAY_PORT" MANAGEMENT_PORT="$RELAY_MGMT_PORT" RELAY_ID=databench PROVIDER_URL="$SANDBOX_URL" \
    RELAY_RETENTION_INTERVAL="$OUTBOX_RETENTION_INTERVAL" RELAY_RETENTION_MAX_BATCHES_PER_RUN="$OUTBOX_RETENTION_BATCHES"
  await_ready outbox-relay "http://127.0.0.1:$RELAY_MGMT_PORT"
  say "[outbox] warm-up: the consumers' receipts and $RELAY_WARMUP_ROWS more rows delivered (JIT of the relay and the sandbox)"
  "${PG[@]}" -d "$DB" -v rows="$RELAY_WARMUP_ROWS" -v prefix="warm-$STAMP" -f "$SQL/relay-prefill.sql"
  await_none "$DB" "status IN ('pending', 'in_flight')" 600 || die "the warm-up drain stalled"
  outbox_conditions=(without with)
  for r in $(seq "$OUTBOX_REPS"); do
    for i in 0 1; do
      if ((r % 2)); then cond=${outbox_conditions[$i]}; else cond=${outbox_conditions[$((1 - i))]}; fi
      if [[ $cond == with ]]; then age='8 days'; else age='1 day'; fi
      prefix="$cond-$r-$STAMP"
      curl -fsS -X POST "$SANDBOX_URL/sandbox/reset" -o /dev/null
      "${PG[@]}" -d "$DB" -c 'TRUNCATE outbox.outbox, outbox.outbox_attempts, outbox.outbox_keys' -c CHECKPOINT
      quiet_gate "${PIDS[outbox-relay]}"
      l_start=$(load)
      # One transaction: the finished rows and the backlog appear together, so the drain (woken by
      # the commit's NOTIFY) and the retention job (every second) start together.
      t_fill=$(now_s)
      "${PG[@]}" -d "$DB" -1 -v finished_rows="$OUTBOX_ROWS" -v age="$age" -v rows="$DRAIN_ROWS" -v prefix="$prefix" \
        -f "$SQL/outbox-finished.sql" -f "$SQL/relay-prefill.sql"
      t0=$(now_s); l0=$(lsn); b0=$(machine_busy); rb0=$(relay_busy)
      await_none "$DB" "status IN ('pending', 'in_flight') AND source_consumer = 'relaybench-$prefix'" 600 ||
        die "the drain ($cond retention) stalled"
      t1=$(now_s); wal=$(wal_since "$l0"); busy=$(busy_pct "$b0" "$t0")
      relay_pct=$(calc '%.0f' "100 * ($(relay_busy) - $rb0) / $(getconf CLK_TCK) / ($t1 - $t0)")
      read -r n span < <(sql "$DB" "SELECT count(*), extract(epoch FROM max(delivered_at) - min(delivered_at))
          FROM outbox.outbox WHERE source_consumer = 'relaybench-$prefix' AND status = 'delivered'")
      [[ $n -eq $DRAIN_ROWS ]] || die "drain ($cond retention): $n of $DRAIN_ROWS delivered"
      effective=$(curl -fsS "$SANDBOX_URL/sandbox/stats" | jq '.receipts.effectiveCalls')
      [[ $effective -eq $DRAIN_ROWS ]] || die "drain ($cond retention): the sandbox took $effective receipts, expected $DRAIN_ROWS"
      rate=$(calc '%.0f' "$DRAIN_ROWS / $span")
      left=$(sql "$DB" "SELECT count(*) FROM outbox.outbox WHERE source_consumer = 'databench-$prefix'")
      FIG[outbox-$cond]+=" $rate"
      extra=
      if [[ $cond == with ]]; then
        FIG[outbox-removed-during]+=" $((OUTBOX_ROWS - left))"
        extra="; retention removed $((OUTBOX_ROWS - left)) of $OUTBOX_ROWS finished rows during the drain"
        if await_none "$DB" "source_consumer = 'databench-$prefix'" "$OUTBOX_RETENTION_WAIT"; then
          ret_s=$(calc '%.1f' "$(now_s) - $t0")
          FIG[outbox-ret-s]+=" $ret_s"
          extra+=", all of them in $ret_s s ($(calc '%.0f' "$OUTBOX_ROWS / $ret_s") rows/s)"
        else
          FIG[outbox-ret-s]+=" >$(calc '%.0f' "$(now_s) - $t0")"
          extra+=", not all after $(calc '%.0f' "$(now_s) - $t0") s (OUTBOX_RETENTION_WAIT)"
        fi
      fi
      FIG[outbox-$cond-wal]+=" $wal"
      say "[outbox] rep $r, retention $cond: drain $rate rows/s ($(calc '%.1f' "$span") s; prefill transaction $(calc '%.0f' "$t0 - $t_fill") s); WAL during the drain $(mb "$wal") MB; relay ${relay_pct}%, machine ${busy}% of $(($(nproc) * 100))%$extra; load $l_start -> $(load)"
    done
  done
  OUTBOX_RATIO=$(calc '%.2f' "$(median ${FIG[outbox-with]}) / $(median ${FIG[outbox-without]})")
fi

# --- 6. the figures ----------------------------------------------------------------------------------
row() { printf '%-34s %-22s %-22s %-8s %s\n' "$@"; }
list() { echo "$1" | sed 's/^ //; s/ /, /g'; }
{
  echo
  echo "OnceOnly data-over-time benchmark, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'); load average at end $(load)"
  echo "medians of interleaved repetitions; each repetition's figure in brackets"
  if has_part claims; then
    echo
    echo "1. claim cost as the table grows: $REPS x $EVENTS events (2 messages each), after $WARMUP warm-up; full = $FULL_SIZE"
    row figure "empty table" "full table" "full/empty" "target"
    for ph in fresh dup; do
      e=$(median ${FIG[empty-$ph]}); f=$(median ${FIG[full-$ph]}); ratio=$(calc '%.2f' "$f / $e")
      row "$ph: consumer messages/s" "$(calc '%.0f' "$e") [$(list "${FIG[empty-$ph]}")]" "$(calc '%.0f' "$f") [$(list "${FIG[full-$ph]}")]" "$ratio" ">= 0.90 $(verdict "$ratio >= 0.9")"
      for c in loyalty receipts; do
        e=$(median ${FIG[empty-$ph-$c-p99]}); f=$(median ${FIG[full-$ph-$c-p99]}); ratio=$(calc '%.2f' "$f / $e")
        row "$ph: p99 handle ms, $c" "$e [$(list "${FIG[empty-$ph-$c-p99]}")]" "$f [$(list "${FIG[full-$ph-$c-p99]}")]" "$ratio" "<= 1.20 $(verdict "$ratio <= 1.2")"
      done
    done
    echo "  CPU of other processes during the phases, % of a core: empty $(list "${FIG[empty-others]}"); full $(list "${FIG[full-others]}")"
    echo "  prefill: $prefill_s s insert, $vacuum_s s VACUUM ANALYZE + CHECKPOINT"
    echo "  claim insert plan on the full table: $EXPLAIN_CLAIM"
  fi
  if has_part retention; then
    echo
    echo "2. retention of one day of $RETENTION_CLAIMS claims (full table, consumer-full's stream of fresh events during each; $RETENTION_REPS repetitions)"
    row method "time alone" "WAL alone" "stream msg/s" "vs none"
    row "drop partition (detach conc.)" "$DROP_S s" "$(calc '%.2f' "$DROP_WAL / 1048576") MB" "$(calc '%.0f' "$(median ${FIG[ret-drop]})")" "${FIG[ret-drop-ratio]} [$(list "${FIG[ret-drop]}")]"
    row "batched delete, $DELETE_BATCH per tx" "$DELETE_S s" "$(mb "$DELETE_WAL") MB" "$(calc '%.0f' "$(median ${FIG[ret-delete]})")" "${FIG[ret-delete-ratio]} [$(list "${FIG[ret-delete]}")]"
    row "  + VACUUM after the delete" "$VACUUM_S s" "$(mb "$VACUUM_WAL") MB" "" ""
    row "no retention" "" "" "$(calc '%.0f' "$(median ${FIG[ret-none]})")" "1.00 [$(list "${FIG[ret-none]}")]"
    echo "  WAL alone: the drop's and the VACUUM's are the records of $DB_FULL's relations and their transactions (pg_walinspect; nothing else wrote there);"
    echo "    the drop wrote $DROP_WAL bytes in $DROP_RECORDS records ($DROP_WAL_CLUSTER cluster-wide, where other databases wrote about $bg_drop bytes/s)"
    echo "    the delete's is its statements' own (EXPLAIN (ANALYZE, WAL)), $DELETE_FPI full-page images; $(mb "$DELETE_WAL_DB") MB in $DB_FULL with the commits; $(mb "$DELETE_WAL_CLUSTER") MB cluster-wide"
    echo "  under the stream: drop took $(list "${FIG[ret-drop-s]}") s, delete $(list "${FIG[ret-delete-s]}") s; windows of at least 5 s from the start of each operation"
    echo "  after the runs: $RET_CLAIMS_SIZE"
  fi
  if has_part outbox; then
    echo
    echo "3. outbox retention while the relay drains $DRAIN_ROWS rows; $OUTBOX_ROWS delivered rows (1 attempt each, keys kept) in the table, 8 days old (removed) or 1 day old (kept)"
    row figure "without retention" "with retention" "with/without" "target"
    row "drain deliveries/s" "$(calc '%.0f' "$(median ${FIG[outbox-without]})") [$(list "${FIG[outbox-without]}")]" \
      "$(calc '%.0f' "$(median ${FIG[outbox-with]})") [$(list "${FIG[outbox-with]}")]" "$OUTBOX_RATIO" ">= 0.80 $(verdict "$OUTBOX_RATIO >= 0.8")"
    echo "  retention (batches of 500, one transaction each; a run every $OUTBOX_RETENTION_INTERVAL, at most $OUTBOX_RETENTION_BATCHES batches): all $OUTBOX_ROWS rows gone after $(list "${FIG[outbox-ret-s]}") s; removed during the drain: $(list "${FIG[outbox-removed-during]}")"
    echo "  WAL during the drain (cluster-wide): without $(list "${FIG[outbox-without-wal]}") B, with $(list "${FIG[outbox-with-wal]}") B"
  fi
  echo
  echo "  noise: a 2-core machine shared with other people's builds and tests; see each repetition's load and CPU lines in the log above"
  echo "  logs: $LOGS"
} | tee -a "$REPORT"
say "figures appended to $REPORT"
