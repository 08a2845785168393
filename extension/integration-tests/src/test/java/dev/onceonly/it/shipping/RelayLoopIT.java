package dev.onceonly.it.shipping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The platform whole, each part a packaged process: the shipping service (built on the extension)
 * writes outbox rows, outbox-relay delivers them — to the provider sandbox over HTTP, and to
 * RabbitMQ, where the shipping consumer reads them back with the row's idempotency key as its claim
 * key — and a publish the relay repeats after a crash applies once downstream. RelayLoopKafkaIT is
 * the same loop over Kafka.
 */
class RelayLoopIT {

  private static RelayLoop loop;

  @BeforeAll
  static void services() throws Exception {
    Backing backing = new Backing("onceonly_shipping_loop_test");
    loop =
        RelayLoop.start(
            backing,
            Map.of(),
            Map.of(
                "TYPE", "rabbitmq",
                "RABBITMQ_HOST", backing.broker.get("rabbitmq-host"),
                "RABBITMQ_PORT", backing.broker.get("rabbitmq-port"),
                "RABBITMQ_USERNAME", backing.broker.get("rabbitmq-username"),
                "RABBITMQ_PASSWORD", backing.broker.get("rabbitmq-password"),
                "RABBITMQ_VIRTUAL_HOST", backing.broker.get("rabbitmq-virtual-host"),
                "RABBITMQ_EXCHANGE", Shop.EXCHANGE,
                "RABBITMQ_ROUTING_KEY", Shop.ROUTING_KEY));
  }

  @AfterAll
  static void stopServices() throws Exception {
    loop.close();
  }

  @Test
  void anOutboxRowWrittenByARestEndpointIsDeliveredByTheRelay() throws Exception {
    String order = "rest-" + UUID.randomUUID().toString().substring(0, 8);
    String key = "oo1:send_receipt:order-confirmations:" + order;
    try (ServiceProcess relay = loop.relay("relay-rest")) {
      assertThat(ServiceProcess.post(loop.shipping.http, "/orders/" + order + "/confirmation", ""))
          .isEqualTo(200);

      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  loop.backing.count(
                          "SELECT count(*) FROM outbox.outbox"
                              + " WHERE idempotency_key = ? AND status = 'delivered'",
                          key)
                      == 1);
      assertThat(ServiceProcess.get(loop.sandbox.http, "/sandbox/calls/receipts/" + key))
          .as("the provider took the call with the row's key")
          .contains(order);
    }
  }

  @Test
  void aPublishRepeatedAfterARelayCrashAppliesOnceDownstream() throws Exception {
    loop.aPublishRepeatedAfterARelayCrashAppliesOnce();
  }
}
