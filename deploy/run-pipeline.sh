#!/usr/bin/env bash
# OnceOnly main job: the whole pipeline on this machine, without Docker.
#
# PostgreSQL and RabbitMQ (started if down, with a fresh database onceonly_demo and vhost
# onceonly-demo), the provider sandbox with faults switched on, consumer-service and outbox-relay;
# a stream of a few thousand events with duplicates, concurrent redeliveries, a conflict, a poison
# message and redemptions; then the proof, computed from the database, the consumer's metrics, the
# dead-letter queues and the sandbox's counters. Exits 0 only if every check holds.
# With --transport kafka the stream goes through a Kafka broker of the run's own instead of
# RabbitMQ (deploy/kafka-broker, data under deploy/.run/kafka, started fresh): consumer-service
# reads it with ONCEONLY_TRANSPORT=kafka, and the proof reads dead-letter topics and consumer
# groups' offsets where it reads queues on RabbitMQ.
#
# Usage: deploy/run-pipeline.sh [--transport rabbitmq|kafka] [--keep-running] [--skip-build]
#        deploy/run-pipeline.sh --stop        stops what --keep-running left running
# Knobs (environment): ORDERS=1500 CUSTOMERS=300 SEED=<random> DRAIN_TIMEOUT=180
#   KAFKA_PORT=19092 (with --transport kafka; its controller takes the next port)
#   CONSUMER_PORT=8080 RELAY_PORT=8081 SANDBOX_PORT=8089 (API ports)
#   CONSUMER_MANAGEMENT_PORT=9000 RELAY_MANAGEMENT_PORT=9001 (health and metrics)
#   JAVA_OPTS="-Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC" (the services')
#   FAULTS='<JSON for PUT /sandbox/faults>'
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

RUN=$ROOT/deploy/.run
PIDS=$RUN/pids
KAFKA_DIR=$RUN/kafka
KAFKA_SH=$ROOT/deploy/kafka-broker/kafka.sh
SUMMARY=$RUN/feed-summary.json
PIPELINE=$ROOT/deploy/pipeline

DB=onceonly_demo
VHOST=onceonly-demo
DB_URL=jdbc:postgresql://127.0.0.1:5432/$DB
CONSUMER_PORT=${CONSUMER_PORT:-8080}
RELAY_PORT=${RELAY_PORT:-8081}
SANDBOX_PORT=${SANDBOX_PORT:-8089}
CONSUMER_MANAGEMENT_PORT=${CONSUMER_MANAGEMENT_PORT:-9000}
RELAY_MANAGEMENT_PORT=${RELAY_MANAGEMENT_PORT:-9001}
CONSUMER_URL=http://127.0.0.1:$CONSUMER_PORT
RELAY_URL=http://127.0.0.1:$RELAY_PORT
SANDBOX_URL=http://127.0.0.1:$SANDBOX_PORT
# Health and metrics of the two services are on their management ports (the sandbox has none).
CONSUMER_MANAGEMENT_URL=http://127.0.0.1:$CONSUMER_MANAGEMENT_PORT
RELAY_MANAGEMENT_URL=http://127.0.0.1:$RELAY_MANAGEMENT_PORT
ORDERS=${ORDERS:-1500}
CUSTOMERS=${CUSTOMERS:-300}
SEED=${SEED:-$((RANDOM * 32768 + RANDOM))}
DRAIN_TIMEOUT=${DRAIN_TIMEOUT:-180}
TRANSPORT=rabbitmq
KAFKA_PORT=${KAFKA_PORT:-19092}
# The broker of a pipeline run on C1 only, as the services: a run of minutes never pays back C2.
KAFKA_JAVA_OPTS=${KAFKA_BROKER_JAVA_OPTS:-"-Xms64m -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:+ExitOnOutOfMemoryError"}
# C1 only: a run of a few thousand messages never pays back the optimizing compiler, whose threads
# would take CPU from three JVMs starting at once on two cores.
JAVA_OPTS=${JAVA_OPTS:-"-Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC"}
# A provider having a bad day: 10 % 5xx, 3 % 429 with Retry-After, 5 % of receipts and 8 % of
# payouts take effect and then fail (500 for receipts, a dropped connection for payouts), 0.5 %
# hang 5 s, past the relay's read timeout (2 s here, RELAY_SETTINGS), 5 ms added to every call.
# Nothing permanent: every row must end delivered.
FAULTS=${FAULTS:-'{"errorRate":0.10,"throttleRate":0.03,"retryAfterSeconds":1,"latencyMs":5,
  "hangRate":0.005,"hangMs":5000,
  "receipts":{"effectThenFailRate":0.05,"effectThenFailMode":"500"},
  "payouts":{"effectThenFailRate":0.08,"effectThenFailMode":"drop"}}'}

# The relay's timings for a run of minutes: the production defaults (read timeout 10 s, backoff from
# 1 s up to 5 min) would leave the last retried rows waiting half a minute after the rest.
RELAY_SETTINGS=()
for destination in send_receipt issue_payout; do
  RELAY_SETTINGS+=(-Drelay.destinations.\"$destination\".http.read-timeout=2s
    -Drelay.destinations.\"$destination\".backoff.initial=200ms -Drelay.destinations.\"$destination\".backoff.max=2s)
done

CONSUMER_JAR=consumer-service/target/quarkus-app/quarkus-run.jar
RELAY_JAR=outbox-relay/target/quarkus-app/quarkus-run.jar
SANDBOX_JAR=deploy/provider-sandbox/target/quarkus-app/quarkus-run.jar
PIPELINE_JAR=deploy/pipeline/target/onceonly-pipeline.jar
MODULES=shared-model,consumer-service,outbox-relay,deploy/provider-sandbox,deploy/pipeline

KEEP_RUNNING=0
SKIP_BUILD=0
PG=(env PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -U postgres -d postgres)

say() { printf '%s\n' "$*"; }
step() { printf '\n[%s] %s   (at %d s)\n' "$1" "$2" $((SECONDS - STARTED_AT)); }
die() { printf 'run-pipeline: %s\n' "$*" >&2; exit 1; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
pipeline_java() {
  java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    -cp "$PIPELINE/target/onceonly-pipeline.jar:$PIPELINE/target/lib/*" "$@"
}
amqp_args=(--amqp-host=127.0.0.1 --amqp-port=5672 --amqp-vhost="$VHOST" --amqp-user=guest --amqp-password=guest)
kafka_args=(--transport=kafka --kafka-bootstrap="127.0.0.1:$KAFKA_PORT")

# --- stopping: only the processes this script started, by the PIDs it wrote -------------------
# A PID is signalled only if its command line still names the jar this script started with it.
stop_services() {
  [[ -f $PIDS ]] || return 0
  local name pid jar stopping=()
  while read -r name pid jar; do # all at once: each takes a few seconds to shut down
    if [[ -r /proc/$pid/cmdline ]] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$jar"; then
      kill "$pid" 2>/dev/null || true
      stopping+=("$name:$pid")
    fi
  done < <(tac "$PIDS")
  for entry in "${stopping[@]}"; do
    name=${entry%%:*} pid=${entry##*:}
    for _ in $(seq 1 75); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    if kill -0 "$pid" 2>/dev/null; then
      say "  $name (pid $pid) did not stop within 15 s: killing it"
      kill -9 "$pid" 2>/dev/null || true
    fi
    say "  stopped $name (pid $pid)"
  done
  rm -f "$PIDS"
}

# The run's Kafka broker, if one runs: kafka.sh signals only the broker of that port and directory.
stop_kafka() {
  [[ -f $RUN/kafka.port ]] || return 0
  "$KAFKA_SH" stop "$(cat "$RUN/kafka.port")" "$KAFKA_DIR" | sed 's/^/  /'
  rm -f "$RUN/kafka.port"
}

running_from_pids() {
  [[ -f $PIDS ]] || return 1
  local name pid jar
  while read -r name pid jar; do
    [[ -r /proc/$pid/cmdline ]] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$jar" && return 0
  done <"$PIDS"
  return 1
}

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; }

while [[ $# -gt 0 ]]; do
  case $1 in
    --keep-running) KEEP_RUNNING=1 ;;
    --transport)
      [[ $# -ge 2 ]] || die "--transport needs a value: rabbitmq or kafka"
      TRANSPORT=$2
      shift ;;
    --transport=*) TRANSPORT=${1#--transport=} ;;
    --skip-build) SKIP_BUILD=1 ;;
    --stop)
      if running_from_pids; then stop_services; else say "nothing of run-pipeline.sh is running"; rm -f "$PIDS"; fi
      stop_kafka
      exit 0 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
  shift
done

case $TRANSPORT in
  rabbitmq) BROKER_NAME=RabbitMQ ;;
  kafka)
    BROKER_NAME=Kafka
    [[ $KAFKA_PORT =~ ^[0-9]+$ && $KAFKA_PORT -ge 1024 && $KAFKA_PORT -le 32766 ]] ||
      die "KAFKA_PORT must be a number in 1024..32766 (its controller takes the next port), was '$KAFKA_PORT'"
    ;;
  *) die "--transport must be rabbitmq or kafka, was '$TRANSPORT'" ;;
esac

STARTED_AT=$SECONDS
REACHED_PROOF=0
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  # --keep-running keeps them once the run got to its proof, passed or not, for inspection.
  if [[ $KEEP_RUNNING -eq 1 && $REACHED_PROOF -eq 1 ]]; then
    say ""
    say "Left running (--keep-running): PIDs in ${PIDS#"$ROOT"/}; stop them with: deploy/run-pipeline.sh --stop"
  else
    say ""
    say "stopping the services started by this run"
    stop_services
    stop_kafka
  fi
  say "total time: $((SECONDS - STARTED_AT)) s"
  exit "$rc"
}

say "== OnceOnly main job: the whole pipeline on this machine ($BROKER_NAME) =="

# --- 0. preflight -------------------------------------------------------------------------------
broker_tools=(rabbitmqctl)
[[ $TRANSPORT == kafka ]] && broker_tools=()
for cmd in java psql curl "${broker_tools[@]}"; do
  command -v "$cmd" >/dev/null || die "$cmd is not installed"
done
mkdir -p "$RUN"
if running_from_pids; then
  die "an earlier run is still running (see ${PIDS#"$ROOT"/}): stop it first with deploy/run-pipeline.sh --stop"
fi
rm -f "$PIDS"
ports=("$CONSUMER_PORT" "$RELAY_PORT" "$SANDBOX_PORT" "$CONSUMER_MANAGEMENT_PORT" "$RELAY_MANAGEMENT_PORT")
[[ $TRANSPORT == kafka ]] && ports+=("$KAFKA_PORT" $((KAFKA_PORT + 1)))
for port in "${ports[@]}"; do
  port_open "$port" && die "port $port is taken by another process; free it or set CONSUMER_PORT / RELAY_PORT / SANDBOX_PORT / CONSUMER_MANAGEMENT_PORT / RELAY_MANAGEMENT_PORT / KAFKA_PORT"
done
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- 1. PostgreSQL and RabbitMQ, a fresh database and vhost --------------------------------------
# In the background while the build runs: neither needs the other. Its lines go to a log of its
# own and are printed once both are done. With --transport kafka, PostgreSQL only here: the run's
# Kafka broker starts after the build (step 2), which builds the broker's module too.
prepare_services() {
  if ! port_open 5432; then
    say "  starting PostgreSQL"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start
  fi
  for _ in $(seq 1 60); do "${PG[@]}" -Atc 'select 1' >/dev/null 2>&1 && break; sleep 1; done
  "${PG[@]}" -Atc 'select 1' >/dev/null || die "PostgreSQL does not answer on 127.0.0.1:5432 as postgres"
  if [[ $TRANSPORT == kafka ]]; then
    "${PG[@]}" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"
    say "  PostgreSQL up; fresh database $DB (tests use others)"
    return 0
  fi
  if ! port_open 5672; then
    say "  starting RabbitMQ"
    rabbitmq-server -detached
  fi
  for _ in $(seq 1 30); do rabbitmqctl -q await_startup >/dev/null 2>&1 && break; sleep 2; done
  rabbitmqctl -q await_startup >/dev/null 2>&1 || die "RabbitMQ did not start (rabbitmqctl await_startup)"
  "${PG[@]}" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"
  rabbitmqctl -q delete_vhost "$VHOST" >/dev/null 2>&1 || true
  rabbitmqctl -q add_vhost "$VHOST" >/dev/null
  rabbitmqctl -q set_permissions -p "$VHOST" guest ".*" ".*" ".*" >/dev/null
  say "  PostgreSQL and RabbitMQ up; fresh database $DB and vhost $VHOST (tests use others)"
}
if [[ $TRANSPORT == kafka ]]; then
  step 1/7 "PostgreSQL (prepared in the background while the build runs)"
else
  step 1/7 "PostgreSQL and RabbitMQ (prepared in the background while the build runs)"
fi
prepare_services >"$RUN/services.log" 2>&1 &
SERVICES_PID=$!

# --- 2. build -----------------------------------------------------------------------------------
step 2/7 "build"
stale() { # true if a jar is missing or a source or pom is newer than the oldest jar
  local oldest=
  for jar in $CONSUMER_JAR $RELAY_JAR $SANDBOX_JAR $PIPELINE_JAR; do
    [[ -f $jar ]] || return 0
    [[ -z $oldest || $jar -ot $oldest ]] && oldest=$jar
  done
  [[ -n $(find . \( -name target -o -name .git -o -name .run -o -name node_modules \) -prune -o \
    \( -name pom.xml -o -path '*/src/main/*' \) -type f -newer "$oldest" -print -quit) ]]
}
# What the run needs and nothing else: no tests compiled, no code generation (the modules have no
# generator), no format check; two modules at a time, and Maven's JVM on C1 only, which halves the
# build's CPU (deploy/pipeline/README.md, "How long it takes").
[[ $TRANSPORT == kafka ]] && MODULES+=,deploy/kafka-broker
BUILD=(./mvnw -B -q package -T 2 -Dquarkus.analytics.disabled=true -Dmaven.test.skip=true -Dquarkus.generate-code.skip=true -Dspotless.check.skip=true
  -pl "$MODULES" -am)
if [[ $SKIP_BUILD -eq 1 ]]; then
  say "  skipped (--skip-build)"
elif stale; then
  say "  ${BUILD[*]}"
  MAVEN_OPTS="${MAVEN_OPTS:-} -XX:TieredStopAtLevel=1" "${BUILD[@]}"
  say "  built"
else
  say "  up to date (every jar is newer than its sources)"
fi
for jar in $CONSUMER_JAR $RELAY_JAR $SANDBOX_JAR $PIPELINE_JAR; do
  [[ -f $jar ]] || die "$jar is missing: run without --skip-build"
done
wait "$SERVICES_PID" || { sed 's/^/  /' "$RUN/services.log" >&2; die "PostgreSQL and $BROKER_NAME could not be prepared (above)"; }
cat "$RUN/services.log"
if [[ $TRANSPORT == kafka ]]; then
  # A fresh broker: no topic, record or consumer group of an earlier run. Three partitions a topic,
  # created when consumer-service subscribes or the feed first publishes.
  [[ -f $RUN/kafka.port ]] && stop_kafka
  rm -rf "$KAFKA_DIR"
  echo "$KAFKA_PORT" >"$RUN/kafka.port"
  if ! KAFKA_BROKER_JAVA_OPTS=$KAFKA_JAVA_OPTS "$KAFKA_SH" start "$KAFKA_PORT" "$KAFKA_DIR" --partitions=3 2>&1 | sed 's/^/  /'; then
    die "the Kafka broker did not start (above; its log is ${KAFKA_DIR#"$ROOT"/}/broker.log)"
  fi
fi

# --- 3. start the sandbox, the consumer and the relay --------------------------------------------
step 3/7 "start the provider sandbox, consumer-service and outbox-relay"
start() { # <name> <jar> [-D<system property>...] <env...>: java -jar in its own session, logging to deploy/.run/<name>.log
  local name=$1 jar=$2 properties=()
  shift 2
  while [[ ${1:-} == -D* ]]; do
    properties+=("$1")
    shift
  done
  # shellcheck disable=SC2086 # JAVA_OPTS holds several options
  env "$@" setsid java $JAVA_OPTS "${properties[@]}" -jar "$jar" >"$RUN/$name.log" 2>&1 </dev/null &
  echo "$name $! $jar" >>"$PIDS"
}
await_ready() { # <name> <health url, the management port for the services>
  local name=$1 url=$2 pid
  pid=$(awk -v n="$1" '$1 == n { print $2 }' "$PIDS")
  for _ in $(seq 1 120); do
    curl -fs -o /dev/null "$url/q/health/ready" && { say "  $name ready on $url (pid $pid)"; return 0; }
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  say "  $name did not become ready; last lines of deploy/.run/$name.log:"
  tail -n 30 "$RUN/$name.log" | sed 's/^/    /'
  exit 1
}
DB_ENV=(DB_URL="$DB_URL" DB_USER=postgres DB_PASSWORD=)
# The operator API needs a user: one is made for this run (role outbox-admin), its password is
# printed at the end. The services get only the hash, as they would from a Kubernetes Secret.
OPERATOR_PASSWORD=${OPERATOR_PASSWORD:-$(head -c 32 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 16)}
OPERATOR_HASH=$(printf 'operator:onceonly:%s' "$OPERATOR_PASSWORD" | sha512sum | cut -d' ' -f1)
AUTH_ENV=(QUARKUS_SECURITY_USERS_EMBEDDED_USERS_OPERATOR="$OPERATOR_HASH"
  QUARKUS_SECURITY_USERS_EMBEDDED_ROLES_OPERATOR=outbox-admin)
# All three start at once. The relay only checks the outbox schema, which the consumer migrates:
# until it is there the relay waits (live, not ready) and looks again every second.
start provider-sandbox "$SANDBOX_JAR" QUARKUS_HTTP_PORT="$SANDBOX_PORT"
if [[ $TRANSPORT == kafka ]]; then
  # The packaged service's start check asks for RABBITMQ_PASSWORD whatever the transport
  # (docs/kafka.md, "The loyalty example on Kafka"); nothing uses it on Kafka.
  BROKER_ENV=(ONCEONLY_TRANSPORT=kafka KAFKA_BOOTSTRAP_SERVERS="127.0.0.1:$KAFKA_PORT" RABBITMQ_PASSWORD=unused-on-kafka)
  broker_args=("${kafka_args[@]}")
else
  BROKER_ENV=(RABBITMQ_HOST=127.0.0.1 RABBITMQ_PORT=5672 RABBITMQ_USER=guest RABBITMQ_PASSWORD=guest RABBITMQ_VHOST="$VHOST")
  broker_args=("${amqp_args[@]}")
fi
start consumer-service "$CONSUMER_JAR" "${DB_ENV[@]}" "${AUTH_ENV[@]}" HTTP_PORT="$CONSUMER_PORT" MANAGEMENT_PORT="$CONSUMER_MANAGEMENT_PORT" CONSUMER_THREADS=4 \
  "${BROKER_ENV[@]}"
start outbox-relay "$RELAY_JAR" "${RELAY_SETTINGS[@]}" "${DB_ENV[@]}" "${AUTH_ENV[@]}" HTTP_PORT="$RELAY_PORT" MANAGEMENT_PORT="$RELAY_MANAGEMENT_PORT" \
  RELAY_ID=demo-relay PROVIDER_URL="$SANDBOX_URL"
await_ready provider-sandbox "$SANDBOX_URL"
curl -fsS -X POST "$SANDBOX_URL/sandbox/reset" -o /dev/null
printf '%s' "$FAULTS" | curl -fsS -X PUT -H 'Content-Type: application/json' --data-binary @- \
  "$SANDBOX_URL/sandbox/faults" -o "$RUN/faults.json" || die "the sandbox refused the fault settings: $FAULTS"
say "  faults on: $(tr -d ' \n' <<<"$FAULTS")"

await_ready consumer-service "$CONSUMER_MANAGEMENT_URL"
await_ready outbox-relay "$RELAY_MANAGEMENT_URL"

# --- 4. feed ------------------------------------------------------------------------------------
step 4/7 "feed: duplicates, concurrent redeliveries, a conflict, a poison message, redemptions"
pipeline_java dev.onceonly.pipeline.Feed --consumer-management-url="$CONSUMER_MANAGEMENT_URL" --summary="$SUMMARY" \
  --orders="$ORDERS" --customers="$CUSTOMERS" --seed="$SEED" "${broker_args[@]}"

# --- 5. drain -----------------------------------------------------------------------------------
if [[ $TRANSPORT == kafka ]]; then
  step 5/7 "drain: consumer groups' offsets committed to the end, consumers done, outbox delivered (at most $DRAIN_TIMEOUT s)"
else
  step 5/7 "drain: queues empty, consumers done, outbox delivered (at most $DRAIN_TIMEOUT s)"
fi
drained=0
pipeline_java dev.onceonly.pipeline.Drain --consumer-management-url="$CONSUMER_MANAGEMENT_URL" --summary="$SUMMARY" \
  --db-url="$DB_URL" --timeout-seconds="$DRAIN_TIMEOUT" "${broker_args[@]}" && drained=1
curl -fsS -X DELETE "$SANDBOX_URL/sandbox/faults" -o /dev/null && say "  faults switched off"
[[ $drained -eq 1 ]] || say "  not drained: the proof below shows what is missing"

# --- 6. proof -----------------------------------------------------------------------------------
step 6/7 "proof"
proved=0
pipeline_java dev.onceonly.pipeline.Verify --summary="$SUMMARY" --db-url="$DB_URL" \
  --consumer-management-url="$CONSUMER_MANAGEMENT_URL" --sandbox-url="$SANDBOX_URL" "${broker_args[@]}" && proved=1
REACHED_PROOF=1

# --- 7. where to look ---------------------------------------------------------------------------
step 7/7 "where to look"
show() { # <heading> <label> <url>...: the pairs whose URL answers now, asked with one curl
  local heading=$1 labels=() urls=() args=() codes i
  shift
  while [[ $# -gt 0 ]]; do
    labels+=("$1") urls+=("$2") args+=(-o /dev/null "$2")
    shift 2
  done
  mapfile -t codes < <(curl -s -u "operator:$OPERATOR_PASSWORD" -w '%{http_code}\n' "${args[@]}")
  say " $heading"
  for i in "${!urls[@]}"; do
    [[ ${codes[i]:-} == 2* ]] && printf '  %-22s %s\n' "${labels[i]}" "${urls[i]}"
  done
  return 0
}
first_customer=cust-0000
say " operator API user: operator / $OPERATOR_PASSWORD (role outbox-admin; curl -u operator:...)"
show consumer-service \
  "balance" "$CONSUMER_URL/balances/$first_customer" \
  "ledger" "$CONSUMER_URL/ledger?customerId=$first_customer" \
  "claim" "$CONSUMER_URL/claims/loyalty/order-completed:ord-00001" \
  "conflicts" "$CONSUMER_URL/conflicts" \
  "rejections" "$CONSUMER_URL/rejections" \
  "OpenAPI" "$CONSUMER_URL/q/openapi"
show outbox-relay \
  "outbox rows" "$RELAY_URL/outbox?status=delivered&kind=send_receipt&size=20" \
  "outbox stats" "$RELAY_URL/outbox/stats" \
  "OpenAPI" "$RELAY_URL/q/openapi"
show "provider sandbox" \
  "stats" "$SANDBOX_URL/sandbox/stats" \
  "faults" "$SANDBOX_URL/sandbox/faults" \
  "payout effects" "$SANDBOX_URL/sandbox/effects/payouts?limit=20" \
  "one receipt's calls" "$SANDBOX_URL/sandbox/calls/receipts/oo1:send_receipt:receipts:order-completed:ord-00001"
show "metrics and health" \
  "consumer metrics" "$CONSUMER_MANAGEMENT_URL/q/metrics" \
  "relay metrics" "$RELAY_MANAGEMENT_URL/q/metrics" \
  "consumer health" "$CONSUMER_MANAGEMENT_URL/q/health" \
  "relay health" "$RELAY_MANAGEMENT_URL/q/health" \
  "sandbox health" "$SANDBOX_URL/q/health"
say " data and operations"
say "  psql -h 127.0.0.1 -U postgres -d $DB   (schemas loyalty and outbox)"
if [[ $TRANSPORT == kafka ]]; then
  say "  Kafka at 127.0.0.1:$KAFKA_PORT: topics order.completed, reward.redeemed, customer.profile-changed;"
  say "    dead letters in onceonly.<consumer>.dlt, consumer groups consumer-service.<consumer> (docs/kafka.md)"
  say "  broker log: ${KAFKA_DIR#"$ROOT"/}/broker.log"
else
  say "  rabbitmqctl list_queues -p $VHOST name messages   (dead letters in onceonly.<consumer>.dlq)"
  say "  curl -u operator:$OPERATOR_PASSWORD -X POST '$CONSUMER_URL/dead-letters/loyalty/replay?limit=10'   (replays dead letters to their route)"
fi
say "  curl -X PUT $SANDBOX_URL/sandbox/faults -H 'Content-Type: application/json' -d '{\"errorRate\":0.2}'"
say " logs"
for name in provider-sandbox consumer-service outbox-relay; do say "  deploy/.run/$name.log"; done
say "  what the feed sent: ${SUMMARY#"$ROOT"/}"
if [[ $KEEP_RUNNING -eq 0 ]]; then
  say " the services stop now; run with --keep-running to browse these URLs, then deploy/run-pipeline.sh --stop"
fi

[[ $proved -eq 1 ]] || exit 1
exit 0
