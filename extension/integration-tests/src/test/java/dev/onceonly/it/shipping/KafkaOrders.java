package dev.onceonly.it.shipping;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * The shipping service with its orders channel on Kafka: configuration only, the handler is the one
 * ShippingTest runs on RabbitMQ.
 */
public class KafkaOrders implements QuarkusTestProfile {

  static final String TOPIC = "shop.orders.kafka-test";
  static final String DEAD_LETTERS = TOPIC + ".dlt";
  static final String GROUP = "shipping.shipping";

  @Override
  public Map<String, String> getConfigOverrides() {
    return Map.of(
        "mp.messaging.incoming.orders.connector", "smallrye-kafka",
        "mp.messaging.incoming.orders.topic", TOPIC,
        // commit what was acked every 500 ms instead of 5 s, so that the test sees it soon
        "mp.messaging.incoming.orders.auto.commit.interval.ms", "500");
  }
}
