package dev.onceonly.it.shipping;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.testsupport.KafkaBroker;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * RelayLoopIT's loop over Kafka: outbox-relay publishes the shop's outbox rows to a topic through a
 * {@code kafka} destination (the row's idempotency key in header {@code message-id}), the shipping
 * service, the same jar switched to Kafka by its environment, consumes that topic and claims by
 * that header, and a publish the relay repeats after a kill -9 between the broker's acknowledgement
 * and the write of its outcome is two records on the topic and one shipment.
 */
class RelayLoopKafkaIT {

  private static final String TOPIC = "shop.orders.loop-it";

  private static KafkaBroker broker;
  private static RelayLoop loop;

  @BeforeAll
  static void services() throws Exception {
    broker = KafkaBroker.shared();
    try (KafkaShop shop = new KafkaShop(broker.bootstrapServers())) {
      shop.createTopic(TOPIC, 3);
    }
    loop =
        RelayLoop.start(
            new Backing("onceonly_shipping_kafka_loop_test"),
            Map.of(
                "ORDERS_CONNECTOR",
                "smallrye-kafka",
                "ORDERS_TOPIC",
                TOPIC,
                "KAFKA_BOOTSTRAP_SERVERS",
                broker.bootstrapServers()),
            Map.of(
                "TYPE",
                "kafka",
                "KAFKA_BOOTSTRAP_SERVERS",
                broker.bootstrapServers(),
                "KAFKA_TOPIC",
                TOPIC));
  }

  @AfterAll
  static void stopServices() throws Exception {
    loop.close();
  }

  @Test
  void aPublishRepeatedAfterARelayCrashIsTwoRecordsAndAppliesOnce() throws Exception {
    String key = loop.aPublishRepeatedAfterARelayCrashAppliesOnce();

    try (KafkaShop shop = new KafkaShop(broker.bootstrapServers())) {
      assertThat(shop.readAll(TOPIC, Duration.ofSeconds(5)))
          .as("the relay published the row twice, with its key in message-id both times")
          .filteredOn(r -> key.equals(KafkaShop.header(r, "message-id")))
          .hasSize(2);
    }
  }
}
