#!/usr/bin/env bash
# OnceOnly chaos suite: exactly-once is worth what it survives.
#
# Starts a private PostgreSQL 15 and a private RabbitMQ node (their own ports and temporary
# directories: the scenarios stop them, never the machine's shared ones), the provider sandbox, two
# consumer-service instances and two outbox-relays from their jars; runs each scenario (a stream
# with duplicates, concurrent redeliveries, redemptions and profile updates while one fault is
# injected), checks the invariants from the database, the queues and the sandbox, and prints a row
# per scenario. Exits 0 only if every verdict passes. README: deploy/chaos/README.md.
#
# Usage: deploy/chaos/run-chaos.sh [--full] [--only=1,2,...] [--seed=N] [--port-base=28000]
#   default  the trimmed set: short streams and fault windows (PostgreSQL down 10 s, xmin held 30 s)
#   --full   the issue's durations and longer streams (PostgreSQL down 60 s, xmin held 5 min)
# Logs of every process: deploy/chaos/target/chaos-run/; the table also in table.md there.
# Ports used: the port base (28000, below the ephemeral range) + 0..15 for the services, + 432 PostgreSQL, + 672/673 RabbitMQ;
# scenarios 11 and 12 (a RabbitMQ cluster): + 672/673, 682/683, 692/693 for its three nodes, + 702..711 for rabbitmqctl;
# scenarios 15-17 (Kafka, on a broker of their own: deploy/kafka-broker): + 92/93.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"

for arg in "$@"; do
  case $arg in
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
  esac
done

JARS=(consumer-service/target/quarkus-app/quarkus-run.jar outbox-relay/target/quarkus-app/quarkus-run.jar
  deploy/provider-sandbox/target/quarkus-app/quarkus-run.jar deploy/chaos/target/onceonly-chaos.jar)
stale() { # a jar missing, or a source of what the suite runs newer than the oldest jar
  local oldest=
  for jar in "${JARS[@]}"; do
    [[ -f $jar ]] || return 0
    [[ -z $oldest || $jar -ot $oldest ]] && oldest=$jar
  done
  [[ -n $(find pom.xml shared-model extension consumer-service outbox-relay deploy/provider-sandbox deploy/pipeline deploy/kafka-broker deploy/chaos \
    -path '*/target' -prune -o -type f -newer "$oldest" -print -quit) ]]
}
if stale; then
  echo "building: ./mvnw -B -q package -DskipTests -pl deploy/chaos -am"
  ./mvnw -B -q package -DskipTests -pl deploy/chaos -am
fi

# The Kafka clients' own warnings (a broker a scenario stopped, "could not be established" many
# times a second) are left out: the scenarios say what they did.
exec java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Dorg.slf4j.simpleLogger.log.org.apache.kafka=error \
  -cp "deploy/chaos/target/onceonly-chaos.jar:deploy/chaos/target/lib/*" \
  dev.onceonly.chaos.ChaosSuite --root="$ROOT" "$@"
