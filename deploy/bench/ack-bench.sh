#!/usr/bin/env bash
# What an ack costs RabbitMQ, acked alone against one ack with multiple per BATCH messages, as the
# consumer's committers ack (docs/rabbitmq.md, "Acks"). Needs RabbitMQ at 127.0.0.1:5672 (guest) and
# Java 17; builds the benchmark module unless SKIP_BUILD=1.
#   MESSAGES=20000 ROUNDS=8 BATCH=16 (the first two rounds warm up) deploy/bench/ack-bench.sh
set -euo pipefail
BENCH="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$BENCH/../.." && pwd)"
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  (cd "$ROOT" && ./mvnw -B -q install -DskipTests -pl shared-model,deploy/bench -am)
fi
java -cp "$BENCH/target/onceonly-bench.jar:$BENCH/target/lib/*" dev.onceonly.bench.AckCost \
  "${MESSAGES:-20000}" "${ROUNDS:-8}" "${BATCH:-16}"
