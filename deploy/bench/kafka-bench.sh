#!/usr/bin/env bash
# OnceOnly Kafka consumer benchmark: consumer-service on Kafka (ONCEONLY_TRANSPORT=kafka), fresh
# orders then pure duplicates on topic order.completed, in one run against the PostgreSQL ceiling
# for the same transaction (pgbench, as consumer-bench.sh measures it) and against Kafka alone (a
# plain consumer that only reads and commits offsets: same topic, same records, as many consumer
# groups). Prints figures and the ratios (it is not a test) and appends them to
# deploy/bench/results/kafka-<timestamp>.txt. See deploy/bench/README.md, "Kafka".
#
# Usage: flock /tmp/onceonly-heavy.lock deploy/bench/kafka-bench.sh
# Knobs (environment): EVENTS=20000 WARMUP=40000 CONSUMER_THREADS=4 CONSUMER_PREFETCH=128
#   DB_POOL_SIZE (service default 16) PGBENCH_SECONDS=15 CUSTOMERS=10000 PARTITIONS=3
#   KAFKA_PORT=19392 (its controller takes the next port) CONSUMER_JAVA_OPTS="-Xmx160m ..."
#   QUIET_PCT=30 QUIET_MAX=120 SKIP_BUILD=0
# Exits 0 when it measured, MISS or not; non-zero only when something broke.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BENCH=$ROOT/deploy/bench
KAFKA_SH=$ROOT/deploy/kafka-broker/kafka.sh

PARTITIONS=${PARTITIONS:-3}
KAFKA_PORT=${KAFKA_PORT:-19392}
# The settings both consumer benchmarks share (EVENTS, WARMUP, threads, prefetch, pgbench, the
# consumer's JVM and ports), the ceiling, the quiet gate and the consumer's start and stop.
# shellcheck source=consumer-common.sh
source "$BENCH/consumer-common.sh"

REPORT=$RESULTS/kafka-$STAMP.txt
CONSUMER_LOG=$RESULTS/kafka-$STAMP-consumer.log
KAFKA_DIR=$WORK/kafka
KAFKA_STARTED=0

say() { printf '%s  %s\n' "$(date +%T)" "$*"; }
die() { printf 'kafka-bench: %s\n' "$*" >&2; exit 1; }
kv() { grep -m1 "^$2=" "$1" | cut -d= -f2-; }
calc() { awk "BEGIN { printf \"$1\", $2 }"; }
bench_java() {
  java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$BENCH/target/onceonly-bench.jar:$BENCH/target/lib/*" "$@"
}
# shellcheck source=figures.sh
source "$BENCH/figures.sh"
cleanup() {
  local rc=$?
  stop_consumer
  [[ $KAFKA_STARTED -eq 1 ]] && "$KAFKA_SH" stop "$KAFKA_PORT" "$KAFKA_DIR" >/dev/null 2>&1
  rm -rf "$WORK"
  [[ $rc -eq 0 ]] || printf 'kafka-bench: failed (exit %d); consumer log: %s\n' "$rc" "$CONSUMER_LOG" >&2
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- 0. preflight -------------------------------------------------------------------------------
for cmd in java psql pgbench curl awk; do
  command -v "$cmd" >/dev/null || die "$cmd is not installed"
done
[[ $KAFKA_PORT =~ ^[0-9]+$ && $KAFKA_PORT -ge 1024 && $KAFKA_PORT -le 32766 ]] ||
  die "KAFKA_PORT must be a number in 1024..32766 (its controller takes the next port), was '$KAFKA_PORT'"
"${PG[@]}" -d postgres -Atc 'select 1' >/dev/null ||
  die "PostgreSQL does not answer on 127.0.0.1:5432 as postgres (start it: pg_ctlcluster 15 main start)"
for port in "$HTTP_PORT" "$MANAGEMENT_PORT" "$KAFKA_PORT" $((KAFKA_PORT + 1)); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    die "port $port is taken: is an earlier benchmark still running?"
  fi
done
mkdir -p "$RESULTS"

# --- 1. build; 2. the PostgreSQL ceiling (pgbench, same tables and statements, no JVM or broker) --
build_and_measure_ceiling deploy/kafka-broker

# --- 3. a Kafka broker of the run's own, consumer-service on it ----------------------------------
say "kafka: a fresh broker on 127.0.0.1:$KAFKA_PORT, $PARTITIONS partitions a topic (data in $KAFKA_DIR)"
KAFKA_STARTED=1
"$KAFKA_SH" start "$KAFKA_PORT" "$KAFKA_DIR" --partitions="$PARTITIONS" | sed 's/^/  /'
KAFKA_PID=$(tr -dc 0-9 <"$KAFKA_DIR/broker.pid")
BOOTSTRAP=127.0.0.1:$KAFKA_PORT

say "consumer: database $DB, recreated empty"
"${PG[@]}" -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"
say "consumer: starting on Kafka (threads $THREADS, records in hand $PREFETCH, JVM $CONSUMER_JAVA_OPTS); log $CONSUMER_LOG"
# The packaged service's start check asks for RABBITMQ_PASSWORD whatever the transport
# (docs/kafka.md, "The loyalty example on Kafka"); nothing uses it on Kafka.
start_consumer ONCEONLY_TRANSPORT=kafka KAFKA_BOOTSTRAP_SERVERS="$BOOTSTRAP" RABBITMQ_PASSWORD=unused-on-kafka

OCCURRED_AT=$(date -u +%Y-%m-%dT%H:%M:%SZ)
phase() { # <name> <series> <count> <await>
  say "phase $1: $3 events to $BOOTSTRAP, series $2, until both consumers count $3 more '$4'"
  bench_java dev.onceonly.bench.KafkaPhase --mode service --kafka-bootstrap "$BOOTSTRAP" \
    --kafka-pid "$KAFKA_PID" --run "$STAMP" --series "$2" --count "$3" --await "$4" \
    --occurred-at "$OCCURRED_AT" --customers "$CUSTOMERS" \
    --metrics-url "http://127.0.0.1:$MANAGEMENT_PORT/q/metrics" --consumer-pid "$CONSUMER_PID" \
    >"$WORK/$1.kv" || die "phase $1 failed"
  say "  $(kv "$WORK/$1.kv" events_per_s) events/s, $(kv "$WORK/$1.kv" tx_per_s) consumer messages/s," \
    "$(kv "$WORK/$1.kv" seconds) s, RSS max $(kv "$WORK/$1.kv" rss_max_mb) MB"
}
# Kafka alone: two consumer groups of their own read every record of the topic and commit.
TOPIC_RECORDS=$((2 * WARMUP + 3 * EVENTS))
plain() { # <name>
  say "phase $1: Kafka alone, 2 consumer groups each reading the topic's $TOPIC_RECORDS records and committing"
  bench_java dev.onceonly.bench.KafkaPhase --mode plain --kafka-bootstrap "$BOOTSTRAP" \
    --kafka-pid "$KAFKA_PID" --count "$TOPIC_RECORDS" --group-prefix "bench-$1-$STAMP" \
    >"$WORK/$1.kv" || die "phase $1 failed"
  say "  $(kv "$WORK/$1.kv" tx_per_s) records/s, $(kv "$WORK/$1.kv" seconds) s"
}

# --- 4. warm-up, fresh, duplicates, then Kafka alone --------------------------------------------
warm_up_and_fresh
quiet_gate "$CONSUMER_PID"
phase duplicates main "$EVENTS" duplicate
phase duplicates-2 main "$EVENTS" duplicate
check_effects duplicates
FINAL_HWM=$(awk '/^VmHWM:/{printf "%.1f", $2/1024}' "/proc/$CONSUMER_PID/status")
stop_consumer
# The plain consumer runs in a JVM of its own started cold: twice, the better counts (the first
# read also warms the broker's page cache for the second, as consumer-service's reads were warm).
quiet_gate 0
plain plain
quiet_gate 0
plain plain-2

# The ceiling again, now that the consumer is gone (the higher of the two runs counts).
run_pgbench ceiling_fresh2 ceiling_fresh.sql -D run=2 -D seq=0

# --- 5. the figures --------------------------------------------------------------------------------
F=$WORK/fresh.kv; D=$WORK/duplicates.kv; D2=$WORK/duplicates-2.kv; K=$WORK/plain.kv; K2=$WORK/plain-2.kv
CD=$WORK/ceiling_dup.cpu; CF=$WORK/ceiling_fresh.cpu; CF2=$WORK/ceiling_fresh2.cpu
int() { calc '%.0f' "$1"; }
ceiling1=$(int "$(kv "$CF" tps)"); ceiling2=$(int "$(kv "$CF2" tps)")
ceiling=$((ceiling1 > ceiling2 ? ceiling1 : ceiling2)); ceiling_dup=$(int "$(kv "$CD" tps)")
fresh=$(int "$(kv "$F" tx_per_s)"); dups=$(int "$(kv "$D" tx_per_s)"); dups2=$(int "$(kv "$D2" tx_per_s)")
alone1=$(int "$(kv "$K" tx_per_s)"); alone2=$(int "$(kv "$K2" tx_per_s)")
alone=$((alone1 > alone2 ? alone1 : alone2))
fresh_ratio=$(calc '%.2f' "$fresh / $ceiling")
dup_ratio=$(calc '%.2f' "$dups / $fresh")
fresh_alone=$(calc '%.3f' "$fresh / $alone")
dups_alone=$(calc '%.3f' "$dups / $alone")
rss_sampled=()
for ph in fresh duplicates duplicates-2; do rss_sampled+=("$ph=$(kv "$WORK/$ph.kv" rss_max_mb)"); done
read -r rss rss_phase < <(largest "${rss_sampled[@]}")
cpu_line() { # <kv-file>
  printf 'consumer %s (JIT %s), postgres %s, kafka %s, bench %s, others %s (machine %s of %s)' \
    "$(kv "$1" cpu_consumer_pct)" "$(kv "$1" cpu_consumer_jit_pct || echo 0)" "$(kv "$1" cpu_postgres_pct)" \
    "$(kv "$1" cpu_kafka_pct || echo 0)" "$(kv "$1" cpu_bench_pct)" "$(kv "$1" cpu_others_pct)" \
    "$(kv "$1" cpu_machine_pct)" "$(($(kv "$1" cores) * 100))"
}
# CPU per message in ms: of one group, and of consumer, broker and PostgreSQL together
per_msg() { calc '%.3f' "$(kv "$1" "cpu_${2}_pct") * 10 / $(kv "$1" tx_per_s)"; }
all_per_msg() {
  calc '%.3f' "($(kv "$1" cpu_consumer_pct) + $(kv "$1" cpu_kafka_pct) + $(kv "$1" cpu_postgres_pct)) * 10 / $(kv "$1" tx_per_s)"
}
ms() { printf '%s / %s' "$(kv "$1" "${2}_p50_ms")" "$(kv "$1" "${2}_p99_ms")"; }

{
  echo
  echo "OnceOnly Kafka consumer benchmark, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(cores), $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "events $EVENTS (+ $WARMUP warm-up), threads $THREADS, records in hand $PREFETCH, pool ${DB_POOL_SIZE:-16 (default)}, customers $CUSTOMERS"
  echo "topic order.completed, $PARTITIONS partitions, keyed by customer; consumer groups consumer-service.loyalty and .receipts"
  echo "consumer JVM: $CONSUMER_JAVA_OPTS; broker JVM: ${KAFKA_BROKER_JAVA_OPTS:-kafka.sh default (C2)}"
  echo "load average before the figures: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  printf '%-36s %-26s %-18s %s\n' figure measured target result
  printf '%-36s %-26s %-18s %s\n' "ceiling: pgbench fresh tx (4 cl.)" "$ceiling TPS" "" "(runs: $ceiling1, $ceiling2)"
  printf '%-36s %-26s %-18s %s\n' "Kafka alone: records/s read+commit" "$alone" "" "(runs: $alone1, $alone2; 2 groups)"
  printf '%-36s %-26s %-18s %s\n' "fresh: consumer messages/s" "$fresh ($(int "$(kv "$F" events_per_s)") events/s)" \
    ">= 0.5 x ceiling" "$(verdict "$fresh_ratio >= 0.5") ($fresh_ratio x)"
  printf '%-36s %-26s %-18s %s\n' "duplicates: messages/s" "$dups ($(int "$(kv "$D" events_per_s)") events/s)" \
    ">= 2 x fresh" "$(verdict "$dup_ratio >= 2") ($dup_ratio x)"
  printf '%-36s %-26s %-18s %s\n' "fresh / Kafka alone" "$fresh_alone x" "" ""
  printf '%-36s %-26s %-18s %s\n' "duplicates / Kafka alone" "$dups_alone x" "" "(2nd duplicates run: $dups2 msg/s)"
  printf '%-36s %-26s %-18s %s\n' "max RSS under load" "$(calc '%.1f' "$rss") MB ($rss_phase)" "<= 256 MB" \
    "$(verdict "$rss <= 256")"
  printf '%-36s %-26s %-18s %s\n' "fresh p50/p99 ms loyalty" "$(ms "$F" loyalty)" "" ""
  printf '%-36s %-26s %-18s %s\n' "fresh p50/p99 ms receipts" "$(ms "$F" receipts)" "" ""
  printf '%-36s %-26s %-18s %s\n' "duplicates p50/p99 ms loyalty" "$(ms "$D" loyalty)" "" ""
  echo
  echo "more:"
  echo "  ceiling pgbench duplicates: $ceiling_dup TPS (consumer duplicates = $(calc '%.2f' "$dups / $ceiling_dup") x that)"
  echo "  RSS: idle ${IDLE_RSS} MB; max sampled, MB: ${rss_sampled[*]}; VmHWM at end ${FINAL_HWM} MB (includes start-up)"
  echo "  phase seconds: fresh $(kv "$F" seconds) (published in $(kv "$F" publish_seconds)), duplicates $(kv "$D" seconds) (published in $(kv "$D" publish_seconds)), Kafka alone $(kv "$K" seconds) and $(kv "$K2" seconds)"
  echo "  unexpected outcomes: fresh $(kv "$F" unexpected_outcomes), duplicates $(kv "$D" unexpected_outcomes) and $(kv "$D2" unexpected_outcomes)"
  echo "  CPU, % of one core:"
  echo "    ceiling fresh : $(cpu_line "$CF")"
  echo "    fresh         : $(cpu_line "$F")"
  echo "    duplicates    : $(cpu_line "$D")"
  echo "    duplicates 2  : $(cpu_line "$D2")"
  echo "    Kafka alone   : $(cpu_line "$K")"
  echo "    Kafka alone 2 : $(cpu_line "$K2")"
  for p in "$F:fresh" "$D:duplicates"; do
    echo "  CPU per message, ${p#*:}: consumer $(per_msg "${p%%:*}" consumer) ms, kafka $(per_msg "${p%%:*}" kafka) ms, postgres $(per_msg "${p%%:*}" postgres) ms, together $(all_per_msg "${p%%:*}") ms"
  done
  for p in "$K:Kafka alone" "$K2:Kafka alone 2"; do
    echo "  CPU per record, ${p#*:}: plain consumer $(per_msg "${p%%:*}" bench) ms, kafka $(per_msg "${p%%:*}" kafka) ms"
  done
  noisy "$CF:ceiling fresh" "$CF2:ceiling fresh (2nd)" "$CD:ceiling duplicates" "$F:fresh" "$D:duplicates" "$D2:duplicates 2" "$K:Kafka alone" "$K2:Kafka alone 2"
  echo "  consumer log: $CONSUMER_LOG"
} | tee -a "$REPORT"
say "figures appended to $REPORT"
