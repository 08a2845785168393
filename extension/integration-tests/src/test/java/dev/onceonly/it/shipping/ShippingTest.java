package dev.onceonly.it.shipping;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import com.rabbitmq.client.GetResponse;
import dev.onceonly.api.Outbox;
import dev.onceonly.api.OutboxMessage;
import dev.onceonly.testsupport.PostgresResource;
import dev.onceonly.testsupport.RabbitMqResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The shipping service, built only on the extension's public API, against a real PostgreSQL and
 * RabbitMQ: what the platform promises any service that adopts it.
 */
@QuarkusTest
@QuarkusTestResource(
    value = PostgresResource.class,
    initArgs = @ResourceArg(name = "database", value = "onceonly_shipping_test"))
@QuarkusTestResource(RabbitMqResource.class)
class ShippingTest {

  @Inject AgroalDataSource db;
  @Inject Outbox outbox;

  private Shop shop;

  @BeforeEach
  void connect() {
    shop = Shop.connect(ConfigProvider.getConfig());
  }

  @AfterEach
  void disconnect() throws Exception {
    shop.close();
  }

  @Test
  void redeliveredMessageAppliesOnce() throws Exception {
    String order = unique("o");
    String body = Shop.json(order, "c-1", 1_200, Instant.now());
    shop.publish("order-placed:" + order, body);
    awaitClaim("order-placed:" + order);
    shop.publish("order-placed:" + order, body);

    awaitOutcomes("duplicate", 1);
    assertThat(count("SELECT count(*) FROM shipping.shipments WHERE order_id = ?", order))
        .isEqualTo(1);
    assertThat(labels(order)).as("one label queued for the relay").isEqualTo(1);
  }

  @Test
  void eightConcurrentCopiesApplyOnce() throws Exception {
    String order = unique("o");
    String body = Shop.json(order, "c-8", 800, Instant.now());
    double before = outcomes("duplicate");
    ExecutorService producers = Executors.newFixedThreadPool(8);
    try {
      List<Future<Void>> sent = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        Callable<Void> publish =
            () -> {
              try (Shop own = Shop.connect(ConfigProvider.getConfig())) {
                own.publish("order-placed:" + order, body);
              }
              return null;
            };
        sent.add(producers.submit(publish));
      }
      for (Future<Void> f : sent) {
        f.get();
      }
    } finally {
      producers.shutdown();
    }
    await().atMost(Duration.ofSeconds(30)).until(() -> outcomes("duplicate") - before >= 7);
    assertThat(count("SELECT count(*) FROM shipping.shipments WHERE order_id = ?", order))
        .isEqualTo(1);
    assertThat(labels(order)).isEqualTo(1);
  }

  @Test
  void sameKeyWithAnotherPayloadIsQuarantined() throws Exception {
    String order = unique("o");
    Instant at = Instant.now();
    shop.publish("order-placed:" + order, Shop.json(order, "c-2", 1_000, at));
    awaitClaim("order-placed:" + order);
    shop.publish("order-placed:" + order, Shop.json(order, "c-2", 9_999, at));

    await()
        .atMost(Duration.ofSeconds(30))
        .pollInSameThread()
        .until(
            () ->
                count(
                        "SELECT count(*) FROM onceonly.message_conflicts"
                            + " WHERE consumer = 'shipping' AND message_key = ?",
                        "order-placed:" + order)
                    == 1);
    assertThat(
            count(
                "SELECT count(*) FROM shipping.shipments WHERE order_id = ? AND weight_grams = 1000",
                order))
        .as("the first payload stays, the second is never applied")
        .isEqualTo(1);
    given()
        .auth()
        .preemptive()
        .basic("viewer", "viewer-secret")
        .queryParam("consumer", "shipping")
        .get("/conflicts")
        .then()
        .statusCode(200)
        .body(
            "find { it.messageKey == 'order-placed:" + order + "' }.consumer", equalTo("shipping"));
  }

  @Test
  void undecodableMessageIsDeadLetteredWithItsReason() throws Exception {
    String marker = unique("bad");
    shop.publish(marker, "{\"orderId\": \"" + marker + "\", \"weightGrams\": \"heavy\"}");
    GetResponse dead = awaitDeadLetter(marker);
    assertThat(dead.getProps().getHeaders().get("x-onceonly-failure").toString())
        .isEqualTo("invalid");
    assertThat(dead.getProps().getHeaders().get("x-onceonly-reason").toString())
        .contains("OrderPlaced");
  }

  @Test
  void messageWithoutKeyIsDeadLettered() throws Exception {
    String order = unique("o");
    shop.publish(null, Shop.json(order, "c-3", 100, Instant.now()));
    GetResponse dead = awaitDeadLetter(order);
    assertThat(dead.getProps().getHeaders().get("x-onceonly-reason").toString())
        .isEqualTo("no message key: the message has no message-id");
    assertThat(count("SELECT count(*) FROM shipping.shipments WHERE order_id = ?", order)).isZero();
  }

  @Test
  void rejectionIsRecordedWithoutAnEffect() throws Exception {
    String order = unique("o");
    shop.publish("order-placed:" + order, Shop.json(order, "c-4", 31_000, Instant.now()));
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInSameThread()
        .until(
            () ->
                count(
                        "SELECT count(*) FROM onceonly.rejections"
                            + " WHERE consumer = 'shipping' AND message_key = ? AND reason ="
                            + " 'too_heavy'",
                        "order-placed:" + order)
                    == 1);
    assertThat(count("SELECT count(*) FROM shipping.shipments WHERE order_id = ?", order)).isZero();
    assertThat(labels(order)).isZero();
  }

  @Test
  void restEndpointQueuesOneCallPerOrderInItsTransaction() throws Exception {
    String order = unique("o");
    given()
        .post("/orders/{id}/confirmation?remindInMinutes=60", order)
        .then()
        .statusCode(200)
        .body("queued", equalTo(true));
    given()
        .post("/orders/{id}/confirmation", order)
        .then()
        .statusCode(200)
        .body("queued", equalTo(false));

    assertThat(
            count(
                "SELECT count(*) FROM outbox.outbox WHERE idempotency_key = ?",
                "oo1:send_receipt:order-confirmations:" + order))
        .isEqualTo(1);
    assertThat(
            count(
                "SELECT count(*) FROM outbox.outbox WHERE idempotency_key = ?"
                    + " AND available_at > now() + interval '59 minutes'",
                "oo1:send_receipt:order-reminders:" + order))
        .as("the reminder waits until its time")
        .isEqualTo(1);
  }

  @Test
  void outboxRefusesToWriteOutsideATransaction() {
    assertThatThrownBy(
            () ->
                outbox.enqueue(
                    OutboxMessage.to("send_receipt")
                        .key("test", unique("k"))
                        .payload(Map.of("a", 1))
                        .build()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("outside a transaction");
  }

  private GetResponse awaitDeadLetter(String marker) {
    List<GetResponse> seen = new ArrayList<>();
    return await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              GetResponse r = shop.take(Shop.DEAD_LETTERS);
              if (r != null) {
                seen.add(r);
              }
              return seen.stream()
                  .filter(g -> new String(g.getBody()).contains(marker))
                  .findFirst()
                  .orElse(null);
            },
            r -> r != null);
  }

  private void awaitClaim(String key) {
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInSameThread()
        .until(
            () ->
                count(
                        "SELECT count(*) FROM onceonly.processed_messages"
                            + " WHERE consumer = 'shipping' AND message_key = ?",
                        key)
                    == 1);
  }

  private void awaitOutcomes(String outcome, int atLeast) {
    await().atMost(Duration.ofSeconds(30)).until(() -> outcomes(outcome) >= atLeast);
  }

  /** The platform's counter of one outcome for consumer shipping, read from /q/metrics. */
  static double outcomes(String outcome) {
    for (String line : metrics().split("\n")) {
      if (line.startsWith("onceonly_consumer_messages_total{")
          && line.contains("consumer=\"shipping\"")
          && line.contains("outcome=\"" + outcome + "\"")) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return 0;
  }

  /** The service's /q/metrics. */
  static String metrics() {
    return given()
        .baseUri("http://localhost")
        .port(ConfigProvider.getConfig().getValue("quarkus.management.port", Integer.class))
        .get("/q/metrics")
        .asString();
  }

  private long labels(String order) throws Exception {
    return count(
        "SELECT count(*) FROM outbox.outbox WHERE kind = 'create-label' AND payload->>'orderId' = ?",
        order);
  }

  private long count(String sql, Object... params) throws Exception {
    try (Connection c = db.getConnection()) {
      return Sql.count(c, sql, params);
    }
  }

  static String unique(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }
}
