package dev.onceonly.it.shipping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The platform whole, each part a packaged process: the shipping service (built on the extension)
 * writes outbox rows, outbox-relay delivers them — to the provider sandbox over HTTP, and to
 * RabbitMQ, where the shipping consumer reads them back with the row's idempotency key as its claim
 * key — and a publish the relay repeats after a crash applies once downstream.
 */
class RelayLoopIT {

  private static final String OPERATOR_PASSWORD = "loop-test-operator";

  private static Backing backing;
  private static ServiceProcess sandbox;
  private static ServiceProcess shipping;

  @BeforeAll
  static void services() throws Exception {
    backing = new Backing("onceonly_shipping_loop_test");
    sandbox = ServiceProcess.start("provider-sandbox", System.getProperty("sandbox.jar"), Map.of());
    shipping =
        ServiceProcess.start("shipping", System.getProperty("shipping.jar"), backing.env())
            .awaitReady();
    sandbox.awaitReady(sandbox.http);
  }

  @AfterAll
  static void stopServices() throws Exception {
    shipping.close();
    sandbox.close();
    backing.close();
  }

  @Test
  void anOutboxRowWrittenByARestEndpointIsDeliveredByTheRelay() throws Exception {
    String order = "rest-" + UUID.randomUUID().toString().substring(0, 8);
    String key = "oo1:send_receipt:order-confirmations:" + order;
    try (ServiceProcess relay = relay("relay-rest")) {
      assertThat(ServiceProcess.post(shipping.http, "/orders/" + order + "/confirmation", ""))
          .isEqualTo(200);

      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  backing.count(
                          "SELECT count(*) FROM outbox.outbox"
                              + " WHERE idempotency_key = ? AND status = 'delivered'",
                          key)
                      == 1);
      assertThat(ServiceProcess.get(sandbox.http, "/sandbox/calls/receipts/" + key))
          .as("the provider took the call with the row's key")
          .contains(order);
    }
  }

  @Test
  void aPublishRepeatedAfterARelayCrashAppliesOnceDownstream() throws Exception {
    String order = "loop-" + UUID.randomUUID().toString().substring(0, 8);
    String key = "oo1:orders:shop-orders:" + order;
    String body =
        "{\"orderId\":\""
            + order
            + "\",\"customerId\":\"c-loop\",\"weightGrams\":700,\"occurredAt\":\""
            + Instant.now()
            + "\"}";
    ServiceProcess first = relay("relay-1");
    assertThat(ServiceProcess.post(shipping.http, "/shop/orders", body)).isEqualTo(200);
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                backing.count(
                        "SELECT count(*) FROM onceonly.processed_messages"
                            + " WHERE consumer = 'shipping' AND message_key = ?",
                        key)
                    == 1);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                backing.count(
                        "SELECT count(*) FROM outbox.outbox"
                            + " WHERE idempotency_key = ? AND status = 'delivered'",
                        key)
                    == 1);
    double duplicatesBefore = shipping.outcomes("shipping", "duplicate");

    // The relay dies (kill -9) between the broker's confirm and the write of the outcome: what it
    // leaves is the row in flight under its lease, which expires.
    first.process().destroyForcibly().waitFor();
    assertThat(
            backing.update(
                "UPDATE outbox.outbox SET status = 'in_flight', delivered_at = NULL,"
                    + " lease_owner = 'relay-1', lease_until = now() - interval '1 second'"
                    + " WHERE idempotency_key = ?",
                key))
        .isEqualTo(1);

    try (ServiceProcess second = relay("relay-2")) {
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> shipping.outcomes("shipping", "duplicate") > duplicatesBefore);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  backing.count(
                          "SELECT count(*) FROM outbox.outbox WHERE idempotency_key = ?"
                              + " AND status = 'delivered' AND attempts = 2",
                          key)
                      == 1);
    }
    assertThat(backing.count("SELECT count(*) FROM shipping.shipments WHERE order_id = ?", order))
        .as("the repeated publish applied once")
        .isEqualTo(1);
    assertThat(
            backing.count(
                "SELECT count(*) FROM outbox.outbox WHERE kind = 'create-label'"
                    + " AND payload->>'orderId' = ?",
                order))
        .isEqualTo(1);
  }

  /** An outbox-relay with the loyalty example's HTTP destinations and one RabbitMQ destination. */
  private static ServiceProcess relay(String id) throws IOException {
    Map<String, String> env = new HashMap<>(backing.env());
    env.put("RELAY_ID", id);
    env.put("PROVIDER_URL", "http://127.0.0.1:" + sandbox.http);
    env.put("QUARKUS_SECURITY_USERS_EMBEDDED_USERS_OPERATOR", operatorHash());
    env.put("QUARKUS_SECURITY_USERS_EMBEDDED_ROLES_OPERATOR", "outbox-admin");
    String d = "RELAY_DESTINATIONS__ORDERS__";
    env.put(d + "TYPE", "rabbitmq");
    env.put(d + "RABBITMQ_HOST", backing.broker.get("rabbitmq-host"));
    env.put(d + "RABBITMQ_PORT", backing.broker.get("rabbitmq-port"));
    env.put(d + "RABBITMQ_USERNAME", backing.broker.get("rabbitmq-username"));
    env.put(d + "RABBITMQ_PASSWORD", backing.broker.get("rabbitmq-password"));
    env.put(d + "RABBITMQ_VIRTUAL_HOST", backing.broker.get("rabbitmq-virtual-host"));
    env.put(d + "RABBITMQ_EXCHANGE", Shop.EXCHANGE);
    env.put(d + "RABBITMQ_ROUTING_KEY", Shop.ROUTING_KEY);
    return ServiceProcess.start(id, System.getProperty("relay.jar"), env).awaitReady();
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
