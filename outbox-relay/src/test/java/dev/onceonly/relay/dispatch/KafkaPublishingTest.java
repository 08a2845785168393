package dev.onceonly.relay.dispatch;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onceonly.relay.completion.CompletionRepository;
import dev.onceonly.relay.destination.Destinations;
import dev.onceonly.relay.isolation.Breaker;
import dev.onceonly.relay.lease.OutboxRepository;
import dev.onceonly.relay.metrics.RelayMetrics;
import dev.onceonly.relay.support.Api;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxRows.Attempt;
import dev.onceonly.relay.support.OutboxRows.Row;
import dev.onceonly.relay.support.OutboxTestResource;
import dev.onceonly.relay.support.RelayKafkaResource;
import dev.onceonly.relay.support.TopicReader;
import dev.onceonly.relay.support.TopicReader.Received;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The relay publishing outbox rows to a real Kafka broker (destination {@code kafka_events}, {@link
 * RelayKafkaResource}), read back by a plain Kafka consumer as a downstream service would: each row
 * one record keyed by its ordering key, the row's idempotency key in header {@code message-id} (the
 * header a service on OnceOnly claims by default) and its trace context; a broker that is down
 * makes attempts fail and retry, opens the breaker and kills no row, and the rows go once it is
 * back; a publish repeated after a relay crash carries the same {@code message-id}.
 */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
@QuarkusTestResource(value = RelayKafkaResource.class, restrictToAnnotatedClass = true)
class KafkaPublishingTest {

  private static final String TRACE = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
  private static final String DESTINATION = RelayKafkaResource.DESTINATION;

  @Inject RelayRunner runner;
  @Inject Destinations destinations;
  @Inject OutboxRepository repository;
  @Inject Dispatcher dispatcher;
  @Inject CompletionRepository completions;
  @Inject RelayMetrics metrics;

  @TestHTTPResource(value = "/", management = true)
  URL management;

  @BeforeEach
  void brokerUp() {
    if (!RelayKafkaResource.broker().isRunning()) {
      RelayKafkaResource.broker().start();
    }
  }

  @Test
  void aRowIsOneRecordKeyedByItsOrderingKeyWithItsIdempotencyKeyAndTraceContext() {
    String prefix = OutboxRows.uniquePrefix("kafka-published");
    long first = insert(prefix + "a", "customer-7", "{\"orderId\":\"o-1\",\"n\":1}", TRACE);
    long second = insert(prefix + "b", "customer-7", "{\"orderId\":\"o-2\",\"n\":2}", null);
    long unordered = insert(prefix + "c", null, "{\"orderId\":\"o-3\",\"n\":3}", null);

    awaitDelivered(List.of(first, second, unordered), Duration.ofSeconds(30));

    List<Received> records = records(prefix);
    assertThat(records).hasSize(3);
    Received a = byKey(records, prefix + "a");
    assertThat(a.key()).isEqualTo("customer-7");
    assertThat(a.value()).isEqualTo(OutboxRows.payload(first));
    assertThat(a.header("content-type")).isEqualTo("application/json");
    assertThat(a.header("traceparent")).isEqualTo(TRACE);
    Received b = byKey(records, prefix + "b");
    assertThat(b.key()).isEqualTo("customer-7");
    assertThat(b.headers()).doesNotContainKey("traceparent");
    assertThat(b.partition()).as("one ordering key, one partition").isEqualTo(a.partition());
    assertThat(b.offset()).as("in the order of the rows").isGreaterThan(a.offset());
    assertThat(byKey(records, prefix + "c").key()).as("a row without an ordering key").isNull();
    assertThat(OutboxRows.attempts(first))
        .extracting(Attempt::outcome)
        .containsExactly("delivered");

    JsonPath stats = Api.viewer().get("/outbox/stats").then().statusCode(200).extract().jsonPath();
    String at = "byDestination." + DESTINATION + ".";
    assertThat(stats.getBoolean(at + "configured")).isTrue();
    assertThat(stats.getString(at + "target"))
        .isEqualTo(
            "publish to Kafka topic "
                + RelayKafkaResource.TOPIC
                + " on "
                + RelayKafkaResource.broker().bootstrapServers()
                + ", key the row's ordering key, idempotent (acks=all)");
    assertThat(stats.getString(at + "breaker")).isEqualTo("closed");
    assertThat(Api.viewer().get("/console").then().statusCode(200).extract().asString())
        .contains("data-destination=\"" + DESTINATION + "\"")
        .contains("publish to Kafka topic " + RelayKafkaResource.TOPIC);
    assertThat(metrics())
        .contains("onceonly_relay_attempts_total{destination=\"" + DESTINATION + "\"}")
        .contains("onceonly_relay_breaker_open{destination=\"" + DESTINATION + "\"} 0.0");
  }

  @Test
  void aBrokerThatIsDownFailsAttemptsOpensTheBreakerAndTheRowsGoOnceItIsBack() {
    String prefix = OutboxRows.uniquePrefix("kafka-down");
    Breaker breaker = destinations.route(DESTINATION).orElseThrow().breaker();
    RelayKafkaResource.broker().kill();
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ids.add(insert(prefix + i, "down-" + i, "{\"n\":" + i + "}", null));
    }

    // Down until the rows have failed more often than the whole retry budget of all of them.
    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(90))
        .until(
            () ->
                failedAttempts(prefix) > (long) ids.size() * RelayKafkaResource.MAX_ATTEMPTS
                    || count(prefix, "status = 'dead'") > 0);
    assertThat(count(prefix, "status = 'dead'")).as("no row dead while it is down").isZero();
    assertThat(breaker.state()).isNotEqualTo(Breaker.State.CLOSED);
    assertThat(
            Api.viewer()
                .get("/outbox/stats")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getString("byDestination." + DESTINATION + ".breaker"))
        .isIn("open", "half_open");
    assertThat(metrics())
        .contains("onceonly_relay_breaker_open{destination=\"" + DESTINATION + "\"} 1.0");
    List<Attempt> failed = OutboxRows.attempts(ids.get(0));
    assertThat(failed)
        .isNotEmpty()
        .allSatisfy(
            a -> {
              assertThat(a.outcome()).isEqualTo("retry");
              assertThat(a.error()).contains("Kafka");
            });

    RelayKafkaResource.broker().start();
    awaitDelivered(ids, Duration.ofSeconds(60));

    assertThat(breaker.state()).isEqualTo(Breaker.State.CLOSED);
    List<Received> records = records(prefix);
    assertThat(records.stream().map(r -> r.header("message-id")).collect(Collectors.toSet()))
        .as("every row went, with its idempotency key")
        .isEqualTo(Set.of(prefix + "0", prefix + "1", prefix + "2"));
    for (Received record : records) {
      String n = record.header("message-id").substring(prefix.length());
      assertThat(record.key()).isEqualTo("down-" + n);
    }
  }

  @Test
  void aRowLargerThanARecordMayBeIsDeadAtOnceSayingWhy() {
    String key = OutboxRows.uniquePrefix("kafka-large") + "order";
    String payload = "{\"blob\":\"" + "x".repeat(RelayKafkaResource.MAX_RECORD) + "\"}";
    long id = insert(key, null, payload, null);

    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(30))
        .until(() -> OutboxRows.status(id).equals("dead"));

    assertThat(OutboxRows.attempts(id))
        .singleElement()
        .satisfies(a -> assertThat(a.error()).contains("RecordTooLargeException"));
    assertThat(records(key)).isEmpty();
  }

  /**
   * A relay that dies between the broker's acknowledgement and writing the outcome: the record is
   * in the topic, the row still in flight under the dead relay's lease. Once the lease expires the
   * running relay publishes it again, and both records carry the same {@code message-id}: the key a
   * consumer on OnceOnly claims, so it applies the row once.
   */
  @Test
  void aPublishRepeatedAfterACrashCarriesTheSameMessageId() {
    String key = OutboxRows.uniquePrefix("kafka-crash") + "order";
    Poller running = runner.poller().orElseThrow();
    long id;
    running.leasing(false);
    try {
      Poller crashing =
          CrashingRelay.start(
              destinations.route(DESTINATION).orElseThrow(),
              Duration.ofSeconds(4),
              repository,
              dispatcher,
              completions,
              metrics);
      try {
        id = insert(key, "customer-9", "{\"orderId\":\"o-9\"}", TRACE);
        await()
            .pollInSameThread()
            .atMost(Duration.ofSeconds(20))
            .until(() -> !records(key).isEmpty());
      } finally {
        crashing.stop(Duration.ZERO);
      }
      Row orphaned = OutboxRows.row(id);
      assertThat(orphaned.status()).isEqualTo("in_flight");
      assertThat(orphaned.leaseOwner()).isEqualTo(CrashingRelay.OWNER);
      assertThat(OutboxRows.attempts(id)).as("the dead relay wrote nothing").isEmpty();
    } finally {
      running.leasing(true);
    }

    awaitDelivered(List.of(id), Duration.ofSeconds(30));

    // Two copies at least: on a slow machine the crashing relay's own lease may expire (and it
    // publish again) before the test has read the first copy and stopped it.
    List<Received> received = records(key);
    assertThat(received).hasSizeGreaterThanOrEqualTo(2);
    assertThat(received)
        .allSatisfy(
            r -> {
              assertThat(r.header("message-id")).isEqualTo(key);
              assertThat(r.key()).isEqualTo("customer-9");
              assertThat(r.value()).isEqualTo(received.get(0).value());
              assertThat(r.header("traceparent")).isEqualTo(TRACE);
            });
    int attempts = received.size();
    assertThat(OutboxRows.row(id).attempts()).isEqualTo(attempts);
    assertThat(OutboxRows.attempts(id))
        .extracting(Attempt::attempt, Attempt::relayId, Attempt::outcome)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(attempts, "relay-main", "delivered"));
  }

  private String metrics() {
    return given().baseUri(management.toString()).get("metrics").asString();
  }

  private static long insert(String key, String orderingKey, String payload, String trace) {
    return OutboxRows.longs(
            """
            INSERT INTO outbox.outbox (kind, payload, idempotency_key, ordering_key, trace_parent)
            VALUES (?, ?::jsonb, ?, ?, ?) RETURNING id
            """,
            DESTINATION,
            payload,
            key,
            orderingKey,
            trace)
        .get(0);
  }

  /** The topic's records whose {@code message-id} starts with {@code prefix}. */
  private static List<Received> records(String prefix) {
    return TopicReader.read(
        RelayKafkaResource.broker().bootstrapServers(),
        RelayKafkaResource.TOPIC,
        r -> r.header("message-id") != null && r.header("message-id").startsWith(prefix));
  }

  private static Received byKey(List<Received> records, String idempotencyKey) {
    return records.stream()
        .filter(r -> idempotencyKey.equals(r.header("message-id")))
        .findFirst()
        .orElseThrow();
  }

  private static void awaitDelivered(List<Long> ids, Duration atMost) {
    await()
        .pollInSameThread()
        .atMost(atMost)
        .until(() -> ids.stream().allMatch(id -> OutboxRows.status(id).equals("delivered")));
  }

  private static long failedAttempts(String prefix) {
    return OutboxRows.longs(
            "SELECT count(*) FROM outbox.outbox_attempts a JOIN outbox.outbox o"
                + " ON o.id = a.outbox_id WHERE o.idempotency_key LIKE ? AND a.outcome = 'retry'",
            prefix + "%")
        .get(0);
  }

  private static long count(String prefix, String where) {
    return OutboxRows.longs(
            "SELECT count(*) FROM outbox.outbox WHERE idempotency_key LIKE ? AND " + where,
            prefix + "%")
        .get(0);
  }
}
