package dev.onceonly.it.shipping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The loop of RelayLoopIT (RabbitMQ) and RelayLoopKafkaIT: outbox-relay processes with the loyalty
 * example's HTTP destinations and one destination {@code orders} of the broker's kind, and the
 * crash both prove harmless — a relay killed (kill -9) after the broker took its publish and before
 * it wrote the outcome, whose row another relay publishes again once the lease expired.
 */
final class RelayLoop implements AutoCloseable {

  /**
   * The relays' lease: above the longest call of every destination (HTTP 2 + 10 s, RabbitMQ and
   * Kafka 5 + 10 s), as the relay checks at start, and short enough that the test waits little for
   * a dead relay's lease to run out.
   */
  static final String LEASE = "20s";

  private static final String OPERATOR_PASSWORD = "loop-test-operator";

  final Backing backing;
  final ServiceProcess sandbox;
  final ServiceProcess shipping;
  private final Map<String, String> orders;

  private RelayLoop(
      Backing backing,
      ServiceProcess sandbox,
      ServiceProcess shipping,
      Map<String, String> orders) {
    this.backing = backing;
    this.sandbox = sandbox;
    this.shipping = shipping;
    this.orders = Map.copyOf(orders);
  }

  /**
   * Starts the provider sandbox and the shipping service on {@code backing} (its environment and
   * {@code shippingEnv}), both ready; the relays it starts later get {@code orders}.
   *
   * @param orders the destination {@code orders} as environment variables without their prefix
   *     ({@code TYPE}, {@code KAFKA_TOPIC}, ...)
   */
  static RelayLoop start(
      Backing backing, Map<String, String> shippingEnv, Map<String, String> orders)
      throws IOException {
    ServiceProcess sandbox =
        ServiceProcess.start("provider-sandbox", System.getProperty("sandbox.jar"), Map.of());
    Map<String, String> env = new HashMap<>(backing.env());
    env.putAll(shippingEnv);
    ServiceProcess shipping =
        ServiceProcess.start("shipping", System.getProperty("shipping.jar"), env).awaitReady();
    sandbox.awaitReady(sandbox.http);
    return new RelayLoop(backing, sandbox, shipping, orders);
  }

  /** An outbox-relay named {@code id}, started and ready. */
  ServiceProcess relay(String id) throws IOException {
    Map<String, String> env = new HashMap<>(backing.env());
    env.put("RELAY_ID", id);
    env.put("RELAY_LEASE_DURATION", LEASE);
    env.put("PROVIDER_URL", "http://127.0.0.1:" + sandbox.http);
    env.put("QUARKUS_SECURITY_USERS_EMBEDDED_USERS_OPERATOR", operatorHash());
    env.put("QUARKUS_SECURITY_USERS_EMBEDDED_ROLES_OPERATOR", "outbox-admin");
    orders.forEach((name, value) -> env.put("RELAY_DESTINATIONS__ORDERS__" + name, value));
    return ServiceProcess.start(id, System.getProperty("relay.jar"), env).awaitReady();
  }

  /**
   * Places an order through {@code shipping}'s shop endpoint (an outbox row for {@code orders});
   * the first relay publishes it and dies by kill -9 before it can record the outcome; a second
   * relay publishes it again once the lease ran out. The shipping consumer, claiming by the row's
   * idempotency key, applies the first copy and counts the second a duplicate: one shipment, one
   * label. The outcome's write is held back by a lock on {@code outbox.outbox_attempts} (the
   * relay's completion inserts the attempt in the statement that marks the row delivered), so the
   * kill lands between the broker's acknowledgement and the outcome every time. Returns the row's
   * idempotency key.
   */
  String aPublishRepeatedAfterARelayCrashAppliesOnce() throws Exception {
    String order = "loop-" + UUID.randomUUID().toString().substring(0, 8);
    String key = "oo1:orders:shop-orders:" + order;
    String body =
        "{\"orderId\":\""
            + order
            + "\",\"customerId\":\"c-loop\",\"weightGrams\":700,\"occurredAt\":\""
            + Instant.now()
            + "\"}";
    ServiceProcess first = relay("relay-1");
    try (Connection hold = backing.connect()) {
      hold.setAutoCommit(false);
      try (Statement s = hold.createStatement()) {
        s.execute("LOCK TABLE outbox.outbox_attempts IN SHARE MODE");
      }
      assertThat(ServiceProcess.post(shipping.http, "/shop/orders", body)).isEqualTo(200);
      await()
          .atMost(Duration.ofSeconds(60))
          .alias("the first publish applied downstream")
          .until(
              () ->
                  backing.count(
                          "SELECT count(*) FROM onceonly.processed_messages"
                              + " WHERE consumer = 'shipping' AND message_key = ?",
                          key)
                      == 1);
      assertThat(
              backing.count(
                  "SELECT count(*) FROM outbox.outbox WHERE idempotency_key = ?"
                      + " AND status = 'in_flight' AND lease_owner = 'relay-1' AND attempts = 1",
                  key))
          .as("the relay has not recorded the outcome")
          .isEqualTo(1);
      double duplicatesBefore = shipping.outcomes("shipping", "duplicate");

      first.process().destroyForcibly().waitFor();
      // Its statement, sent and waiting for the lock, would still run once the lock is gone: the
      // server has not noticed the client died. Ending the dead relay's sessions (no other relay
      // runs now) makes the outcome lost, as when the relay dies before sending it.
      try (Statement s = hold.createStatement()) {
        s.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                + " WHERE application_name = 'onceonly-outbox-relay'");
      }
      hold.rollback();

      try (ServiceProcess second = relay("relay-2")) {
        await()
            .atMost(Duration.ofSeconds(90))
            .alias("the second publish read as a duplicate")
            .until(() -> shipping.outcomes("shipping", "duplicate") > duplicatesBefore);
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    backing.count(
                            "SELECT count(*) FROM outbox.outbox WHERE idempotency_key = ?"
                                + " AND status = 'delivered' AND attempts = 2"
                                + " AND lease_owner IS NULL",
                            key)
                        == 1);
      }
    }
    backing.assertShippedOnce(order);
    assertThat(
            backing.count(
                "SELECT count(*) FROM outbox.outbox_attempts a JOIN outbox.outbox o"
                    + " ON o.id = a.outbox_id WHERE o.idempotency_key = ?",
                key))
        .as("the dead relay's attempt left no record; the second's did")
        .isEqualTo(1);
    return key;
  }

  /** Stops the shipping service and the sandbox, then the backing. */
  @Override
  public void close() throws Exception {
    shipping.close();
    sandbox.close();
    backing.close();
  }

  private static String operatorHash() {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-512")
              .digest(("operator:onceonly:" + OPERATOR_PASSWORD).getBytes(StandardCharsets.UTF_8));
      return String.format("%0128x", new BigInteger(1, digest));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
