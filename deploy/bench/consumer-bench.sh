#!/usr/bin/env bash
# OnceOnly consumer benchmark: fresh messages, then pure duplicates, through RabbitMQ into
# consumer-service, against the PostgreSQL ceiling for the same transaction measured by pgbench
# in the same run. Prints figures (it is not a test) and appends them to
# deploy/bench/results/consumer-<timestamp>.txt. See deploy/bench/README.md.
#
# Usage: deploy/bench/consumer-bench.sh
# Knobs (environment): EVENTS=20000 WARMUP=40000 POISON=10000 POISON_WARMUP=20000 DLQ_LAZY=1 CONSUMER_THREADS=4 CONSUMER_PREFETCH=128
#   DB_POOL_SIZE (service default 16) PGBENCH_SECONDS=15 MAX_BACKLOG=800 CUSTOMERS=10000
#   CONSUMER_JAVA_OPTS="-Xmx160m -XX:+UseSerialGC ..." QUIET_PCT=30 QUIET_MAX=120 SKIP_BUILD=0
#   TRACING=off|on (on: the consumer exports spans over OTLP/HTTP to a local sink, tracing.sh)
# Exits 0 when it measured, MISS or not; non-zero only when something broke.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BENCH=$ROOT/deploy/bench

POISON=${POISON:-10000}
POISON_WARMUP=${POISON_WARMUP:-20000}
DLQ_LAZY=${DLQ_LAZY:-1}
# Six times what the consumer holds unacknowledged from a queue (prefetch 128): it always has work
# waiting, and RabbitMQ's cost of a deep queue is not charged to it (README, the publisher).
MAX_BACKLOG=${MAX_BACKLOG:-800}
VHOST=onceonly-bench
# The settings both consumer benchmarks share (EVENTS, WARMUP, threads, prefetch, pgbench, the
# consumer's JVM and ports), the ceiling, the quiet gate and the consumer's start and stop.
# shellcheck source=consumer-common.sh
source "$BENCH/consumer-common.sh"

REPORT=$RESULTS/consumer-$STAMP.txt
CONSUMER_LOG=$RESULTS/consumer-$STAMP.log

say() { printf '%s  %s\n' "$(date +%T)" "$*"; }
die() { printf 'consumer-bench: %s\n' "$*" >&2; exit 1; }
kv() { grep -m1 "^$2=" "$1" | cut -d= -f2-; }
calc() { awk "BEGIN { printf \"$1\", $2 }"; }
bench_java() { java -cp "$BENCH/target/onceonly-bench.jar:$BENCH/target/lib/*" "$@"; }
# shellcheck source=tracing.sh
source "$BENCH/tracing.sh"
# shellcheck source=figures.sh
source "$BENCH/figures.sh"
OTLP_PORT=18317

cleanup() {
  local rc=$?
  stop_consumer
  tracing_stop
  rm -rf "$WORK"
  [[ $rc -eq 0 ]] || printf 'consumer-bench: failed (exit %d); consumer log: %s\n' "$rc" "$CONSUMER_LOG" >&2
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- 0. preflight -------------------------------------------------------------------------------
for cmd in java psql pgbench rabbitmqctl curl awk; do
  command -v "$cmd" >/dev/null || die "$cmd is not installed"
done
"${PG[@]}" -d postgres -Atc 'select 1' >/dev/null ||
  die "PostgreSQL does not answer on 127.0.0.1:5432 as postgres (start it: pg_ctlcluster 15 main start)"
rabbitmqctl -q list_vhosts >/dev/null 2>&1 || die "rabbitmqctl cannot reach RabbitMQ (start it: rabbitmq-server -detached)"
if (exec 3<>"/dev/tcp/127.0.0.1/$HTTP_PORT") 2>/dev/null; then
  die "port $HTTP_PORT is taken: is an earlier benchmark's consumer still running?"
fi
mkdir -p "$RESULTS"

# --- 1. build; 2. the PostgreSQL ceiling (pgbench, same tables and statements, no JVM or broker) --
build_and_measure_ceiling

# --- 3. consumer-service on its own database and vhost -------------------------------------------
say "consumer: database $DB and vhost $VHOST, recreated empty"
"${PG[@]}" -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"
rabbitmqctl -q delete_vhost "$VHOST" >/dev/null 2>&1 || true
rabbitmqctl -q add_vhost "$VHOST" >/dev/null
rabbitmqctl -q set_permissions -p "$VHOST" guest '.*' '.*' '.*' >/dev/null
# Dead-letter queues on disk, as docs/dead-letters.md asks of a broker older than 3.12 (DLQ_LAZY=0: without).
if [[ $DLQ_LAZY == 1 ]]; then
  rabbitmqctl -q set_policy -p "$VHOST" --apply-to queues onceonly-dead-letters \
    '^onceonly\.[^.]+\.dlq$' '{"queue-mode":"lazy"}' >/dev/null
fi

tracing_start "$OTLP_PORT" "$RESULTS/consumer-$STAMP-otlp.log"
say "consumer: starting (tracing $TRACING, threads $THREADS, prefetch $PREFETCH, JVM $CONSUMER_JAVA_OPTS); log $CONSUMER_LOG"
start_consumer "${TRACING_ENV[@]}" RABBITMQ_HOST=127.0.0.1 RABBITMQ_PORT=5672 RABBITMQ_USER=guest \
  RABBITMQ_PASSWORD=guest RABBITMQ_VHOST="$VHOST"

OCCURRED_AT=$(date -u +%Y-%m-%dT%H:%M:%SZ)
batch_totals() { # prints "<transactions> <messages>" of the group commit so far
  curl -sf "http://127.0.0.1:$MANAGEMENT_PORT/q/metrics" \
    | awk '/^onceonly_consumer_batch_messages_count/{c=$2} /^onceonly_consumer_batch_messages_sum/{s=$2} END{printf "%d %d", c, s}'
}
phase() { # <name> <series> <count> <await> [events|poison]
  say "phase $1: $3 ${5:-events}, series $2, until both consumers count $3 more '$4'"
  local before after
  before=$(batch_totals)
  bench_java dev.onceonly.bench.Publish --run "$STAMP" --series "$2" --count "$3" --await "$4" \
    --bodies "${5:-events}" \
    --occurred-at "$OCCURRED_AT" --customers "$CUSTOMERS" --max-backlog "$MAX_BACKLOG" \
    --metrics-url "http://127.0.0.1:$MANAGEMENT_PORT/q/metrics" --consumer-pid "$CONSUMER_PID" \
    --rabbitmq-vhost "$VHOST" >"$WORK/$1.kv" || die "phase $1 failed"
  after=$(batch_totals)
  echo "batch_transactions=$((${after% *} - ${before% *}))" >>"$WORK/$1.kv"
  echo "batch_messages=$((${after#* } - ${before#* }))" >>"$WORK/$1.kv"
  say "  $(kv "$WORK/$1.kv" events_per_s) events/s, $(kv "$WORK/$1.kv" tx_per_s) consumer messages/s," \
    "$(kv "$WORK/$1.kv" seconds) s, RSS max $(kv "$WORK/$1.kv" rss_max_mb) MB"
}
dead_letters() { # prints "<loyalty dlq> <receipts dlq>" messages
  rabbitmqctl -q list_queues -p "$VHOST" name messages \
    | awk '$1=="onceonly.loyalty.dlq"{l=$2} $1=="onceonly.receipts.dlq"{r=$2} END{printf "%d %d", l, r}'
}
# The broker confirms a dead letter once it is stored; the queue's own count (what list_queues
# answers, ahead of the deliveries still in the queue's mailbox) can trail it by thousands of
# messages when the lazy dead-letter queues write to a slow disk: measured 7,111 of 15,000 at the
# moment the consumer had counted all of them, and all 15,000 a few seconds later. So the count is
# awaited, up to 60 s, before it is judged.
check_dead_letters() { # <phase> <expected in each dead-letter queue>
  local got
  for _ in $(seq 120); do
    got=$(dead_letters)
    [[ $got == "$2 $2" ]] && break
    sleep 0.5
  done
  [[ $got == "$2 $2" ]] || die "after $1: loyalty/receipts dead-letter queues hold '$got', expected '$2 $2'"
  say "  every invalid message dead-lettered by both consumers: $2 in each dead-letter queue"
}

# --- 4. warm-up, fresh, duplicates, poison ---------------------------------------------------------
warm_up_and_fresh
# Invalid messages (half not JSON, half a negative amount, as in the chaos suite's poison flood):
# decoded, refused, dead-lettered with their reason and acked after the broker confirmed the
# dead letter. Their path has code of its own, warmed first with twice as many: after 5,000 the
# compiler still took 14 % of a core during the measured phase, 34 % with tracing on (RESULTS.md,
# 2026-12-07, fourth session).
phase warmup-poison warm "$POISON_WARMUP" dead_lettered poison
quiet_gate "$CONSUMER_PID"
phase poison main "$POISON" dead_lettered poison
check_dead_letters poison "$((POISON_WARMUP + POISON))"
# Duplicates alone and with an invalid message after every ninth, in the order alone, poisoned,
# poisoned, alone, so that both kinds sit at the same place on average.
quiet_gate "$CONSUMER_PID"
phase duplicates main "$EVENTS" duplicate
phase poisoned main "$EVENTS" duplicate poisoned
phase poisoned-2 main "$EVENTS" duplicate poisoned
phase duplicates-2 main "$EVENTS" duplicate
check_effects duplicates
check_dead_letters poisoned "$((POISON_WARMUP + POISON + 2 * (EVENTS / 9)))"
FINAL_HWM=$(awk '/^VmHWM:/{printf "%.1f", $2/1024}' "/proc/$CONSUMER_PID/status")
stop_consumer
TRACING_LINE=$(tracing_stats) # after the stop: the consumer flushes its last spans on shutdown
tracing_stop

# The ceiling again, now that the consumer is gone: other people's load only ever lowers a
# ceiling, so the higher of the two runs is the better estimate.
run_pgbench ceiling_fresh2 ceiling_fresh.sql -D run=2 -D seq=0

# --- 5. the figures --------------------------------------------------------------------------------
F=$WORK/fresh.kv; D=$WORK/duplicates.kv; D2=$WORK/duplicates-2.kv; P=$WORK/poison.kv
M=$WORK/poisoned.kv; M2=$WORK/poisoned-2.kv; CD=$WORK/ceiling_dup.cpu
CF=$WORK/ceiling_fresh.cpu; CF2=$WORK/ceiling_fresh2.cpu
int() { calc '%.0f' "$1"; }
ceiling1=$(int "$(kv "$CF" tps)"); ceiling2=$(int "$(kv "$CF2" tps)")
ceiling=$((ceiling1 > ceiling2 ? ceiling1 : ceiling2)); ceiling_dup=$(int "$(kv "$CD" tps)")
fresh=$(int "$(kv "$F" tx_per_s)"); dups=$(int "$(kv "$D" tx_per_s)"); poison=$(int "$(kv "$P" tx_per_s)")
# CPU per consumer message in ms, of the consumer, the broker, PostgreSQL, and of the three together
per_msg() { calc '%.3f' "$(kv "$1" "cpu_${2}_pct") * 10 / $(kv "$1" tx_per_s)"; }
# healthy messages per second over two phases together
rate2() { calc '%.0f' "2 * $EVENTS * 2 / ($(kv "$1" seconds) + $(kv "$2" seconds))"; }
dups_alone=$(rate2 "$D" "$D2"); dups_poisoned=$(rate2 "$M" "$M2")
poisoned_ratio=$(calc '%.2f' "$dups_poisoned / $dups_alone")
all_per_msg() {
  calc '%.3f' "($(kv "$1" cpu_consumer_pct) + $(kv "$1" cpu_rabbitmq_pct) + $(kv "$1" cpu_postgres_pct)) * 10 / $(kv "$1" tx_per_s)"
}
fresh_ratio=$(calc '%.2f' "$fresh / $ceiling")
dup_ratio=$(calc '%.2f' "$dups / $fresh")
dup_ceiling_ratio=$(calc '%.2f' "$dups / $ceiling_dup")
fresh_all_ms=$(all_per_msg "$F")
# The model: the machine's busy CPU per ceiling transaction (of the run that set the ceiling) and
# per fresh message; filling every core, fresh could not run faster than cores / its CPU.
CC=$CF; [[ $ceiling2 -gt $ceiling1 ]] && CC=$CF2
ceiling_machine_ms=$(calc '%.3f' "$(kv "$CC" cpu_machine_pct) * 10 / $(kv "$CC" tps)")
fresh_machine_ms=$(per_msg "$F" machine)
fresh_bound=$(calc '%.0f' "$(nproc) * 1000 / $fresh_machine_ms")
# the largest RSS sampled in any measured phase, and which
MEASURED=(fresh duplicates poison poisoned poisoned-2 duplicates-2)
rss_sampled=()
for ph in "${MEASURED[@]}"; do rss_sampled+=("$ph=$(kv "$WORK/$ph.kv" rss_max_mb)"); done
read -r rss rss_phase < <(largest "${rss_sampled[@]}")
cpu_line() { # <kv-file>
  printf 'consumer %s (JIT %s), postgres %s, rabbitmq %s, bench %s, others %s (machine %s of %s)' \
    "$(kv "$1" cpu_consumer_pct)" "$(kv "$1" cpu_consumer_jit_pct || echo 0)" "$(kv "$1" cpu_postgres_pct)" "$(kv "$1" cpu_rabbitmq_pct)" \
    "$(kv "$1" cpu_bench_pct)" "$(kv "$1" cpu_others_pct)" "$(kv "$1" cpu_machine_pct)" \
    "$(($(kv "$1" cores) * 100))"
}
ms() { printf '%s / %s' "$(kv "$1" "${2}_p50_ms")" "$(kv "$1" "${2}_p99_ms")"; }
ms_more() { printf 'mean %s, worst p99 %s' "$(kv "$1" "${2}_mean_ms")" "$(kv "$1" "${2}_p99_max_ms")"; }

{
  echo
  echo "OnceOnly consumer benchmark, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(cores), $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "events $EVENTS (+ $WARMUP warm-up), threads $THREADS, prefetch $PREFETCH, pool ${DB_POOL_SIZE:-16 (default)}, customers $CUSTOMERS, backlog cap $MAX_BACKLOG"
  echo "consumer JVM: $CONSUMER_JAVA_OPTS"
  echo "dead-letter queues: $([[ $DLQ_LAZY == 1 ]] && echo 'lazy (policy onceonly-dead-letters)' || echo 'the broker default') on RabbitMQ $(rabbitmqctl -q version 2>/dev/null || echo '?')"
  echo "tracing: $TRACING_LINE; consumer messages handled $((4 * WARMUP + 10 * EVENTS))," \
    "invalid ones dead-lettered $((2 * (POISON_WARMUP + POISON + 2 * (EVENTS / 9))))"
  echo
  printf '%-34s %-26s %-24s %s\n' figure measured target result
  printf '%-34s %-26s %-24s %s\n' "ceiling: pgbench fresh tx (4 cl.)" "$ceiling TPS" "" "(runs: $ceiling1, $ceiling2)"
  printf '%-34s %-26s %-24s %s\n' "fresh: consumer messages/s" "$fresh ($(int "$(kv "$F" events_per_s)") events/s)" \
    ">= 1.5 x ceiling" "$(verdict "$fresh_ratio >= 1.5") ($fresh_ratio x)"
  printf '%-34s %-26s %-24s %s\n' "duplicates: messages/s" "$dups ($(int "$(kv "$D" events_per_s)") events/s)" \
    ">= 1.0 x dup. ceiling" "$(verdict "$dup_ceiling_ratio >= 1.0") ($dup_ceiling_ratio x $ceiling_dup TPS; $dup_ratio x fresh)"
  printf '%-34s %-26s %-24s %s\n' "CPU per fresh message, all" "$fresh_all_ms ms" "<= 0.27 ms" \
    "$(verdict "$fresh_all_ms <= 0.27") (consumer $(per_msg "$F" consumer), rabbitmq $(per_msg "$F" rabbitmq), postgres $(per_msg "$F" postgres))"
  printf '%-34s %-26s %-24s %s\n' "poison: invalid messages/s" "$poison ($(int "$(kv "$P" events_per_s)") published/s)" \
    "" "(all CPU $(all_per_msg "$P") ms per message; fresh $fresh_all_ms, duplicates $(all_per_msg "$D"))"
  printf '%-34s %-26s %-24s %s\n' "duplicates with 10 % poison: msg/s" "$dups_poisoned (alone $dups_alone)" \
    ">= 0.9 x alone" "$(verdict "$poisoned_ratio >= 0.9") ($poisoned_ratio x)"
  printf '%-34s %-26s %-24s %s\n' "max RSS under load" "$(calc '%.1f' "$rss") MB ($rss_phase)" "<= 200 MB" \
    "$(verdict "$rss <= 200")"
  printf '%-34s %-26s %-24s %s\n' "fresh p50/p99 ms loyalty" "$(ms "$F" loyalty)" "" "$(ms_more "$F" loyalty)"
  printf '%-34s %-26s %-24s %s\n' "fresh p50/p99 ms receipts" "$(ms "$F" receipts)" "" "$(ms_more "$F" receipts)"
  printf '%-34s %-26s %-24s %s\n' "duplicates p50/p99 ms loyalty" "$(ms "$D" loyalty)" "" "$(ms_more "$D" loyalty)"
  printf '%-34s %-26s %-24s %s\n' "duplicates p50/p99 ms receipts" "$(ms "$D" receipts)" "" "$(ms_more "$D" receipts)"
  echo
  echo "model (the machine's busy CPU per message; both runs fill at most $(nproc) cores):"
  echo "  ceiling: $ceiling_machine_ms ms per transaction, one event: two messages' work (PostgreSQL and pgbench), machine $(calc '%.0f' "$(kv "$CC" cpu_machine_pct)") % busy"
  echo "  fresh: $fresh_machine_ms ms per message (consumer $(per_msg "$F" consumer), rabbitmq $(per_msg "$F" rabbitmq), postgres $(per_msg "$F" postgres), publisher $(per_msg "$F" bench), others $(per_msg "$F" others)), machine $(calc '%.0f' "$(kv "$F" cpu_machine_pct)") % busy"
  echo "  so, filling the machine, fresh could reach at most $fresh_bound messages/s here: $(calc '%.2f' "$fresh_bound / $ceiling") x the ceiling measured;"
  echo "  1.5 x needs at most $(calc '%.3f' "$(nproc) * 1000 / (1.5 * $ceiling)") ms per fresh message"
  echo
  echo "more:"
  echo "  ceiling pgbench duplicates: $ceiling_dup TPS (consumer duplicates = $(calc '%.2f' "$dups / $ceiling_dup") x that)"
  echo "  pgbench latency avg: fresh $(kv "$CF" latency_ms) / $(kv "$CF2" latency_ms) ms, duplicates $(kv "$CD" latency_ms) ms"
  echo "  RSS: idle ${IDLE_RSS} MB; max sampled, MB: ${rss_sampled[*]}; VmHWM at end ${FINAL_HWM} MB (includes start-up)"
  echo "  phase seconds: fresh $(kv "$F" seconds) (published and confirmed in $(kv "$F" publish_seconds)), duplicates $(kv "$D" seconds) (published in $(kv "$D" publish_seconds))"
  echo "  queue depth max: fresh $(kv "$F" max_queue_depth), duplicates $(kv "$D" max_queue_depth); publisher paused for the backlog cap: fresh $(kv "$F" publisher_paused_seconds) s, duplicates $(kv "$D" publisher_paused_seconds) s"
  echo "  unexpected outcomes: fresh $(kv "$F" unexpected_outcomes), duplicates $(kv "$D" unexpected_outcomes) and $(kv "$D2" unexpected_outcomes), poison $(kv "$P" unexpected_outcomes), poisoned $(kv "$M" unexpected_outcomes) and $(kv "$M2" unexpected_outcomes)"
  echo "  CPU, % of one core:"
  echo "    ceiling fresh : $(cpu_line "$CF")"
  echo "    ceiling dup   : $(cpu_line "$CD")"
  echo "    fresh         : $(cpu_line "$F")"
  echo "    duplicates    : $(cpu_line "$D")"
  echo "    poison        : $(cpu_line "$P")"
  echo "    duplicates 2  : $(cpu_line "$D2")"
  echo "    poisoned      : $(cpu_line "$M")"
  echo "    poisoned 2    : $(cpu_line "$M2")"
  echo "  duplicates alone: $(kv "$D" tx_per_s), $(kv "$D2" tx_per_s) msg/s; with 10 % poison: $(kv "$M" tx_per_s), $(kv "$M2" tx_per_s) msg/s"
  for p in "$F:fresh" "$D:duplicates" "$M:poisoned"; do
    echo "  group commit, ${p#*:}: $(kv "${p%%:*}" batch_messages) messages in $(kv "${p%%:*}" batch_transactions) transactions = $(calc '%.1f' "$(kv "${p%%:*}" batch_messages) / $(kv "${p%%:*}" batch_transactions)") per transaction"
  done
  echo "  consumer CPU per message: fresh $(calc '%.2f' "$(kv "$F" cpu_consumer_pct) * 10 / $(kv "$F" tx_per_s)") ms, duplicates $(calc '%.2f' "$(kv "$D" cpu_consumer_pct) * 10 / $(kv "$D" tx_per_s)") ms"
  for p in "$F:fresh" "$D:duplicates" "$P:poison" "$M:poisoned"; do
    echo "  CPU per message, ${p#*:}: consumer $(per_msg "${p%%:*}" consumer) ms, rabbitmq $(per_msg "${p%%:*}" rabbitmq) ms, postgres $(per_msg "${p%%:*}" postgres) ms, together $(all_per_msg "${p%%:*}") ms"
  done
  noisy "$CF:ceiling fresh" "$CF2:ceiling fresh (2nd)" "$CD:ceiling duplicates" "$F:fresh" "$D:duplicates" "$P:poison" "$M:poisoned" "$M2:poisoned 2" "$D2:duplicates 2"
  echo "  consumer log: $CONSUMER_LOG"
} | tee -a "$REPORT"
say "figures appended to $REPORT"
