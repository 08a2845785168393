package dev.onceonly.consumer.kafka;

import dev.onceonly.testsupport.KafkaResource;
import dev.onceonly.testsupport.PostgresResource;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.List;
import java.util.Map;

/**
 * consumer-service with its three consumers on Kafka as production switches them, by {@code
 * ONCEONLY_TRANSPORT=kafka} alone (here the property it sets), against a real broker of its own
 * (three partitions a topic) and PostgreSQL. RabbitMQ points at a port nothing listens on: a Kafka
 * service must not need it.
 */
public class KafkaTransport implements QuarkusTestProfile {

  @Override
  public Map<String, String> getConfigOverrides() {
    return Map.of(
        "onceonly.transport", "kafka",
        "rabbitmq-host", "127.0.0.1",
        "rabbitmq-port", "1",
        // commit what was acked every 500 ms instead of 5 s, so that the test sees it soon
        "mp.messaging.incoming.loyalty.auto.commit.interval.ms", "500",
        "mp.messaging.incoming.receipts.auto.commit.interval.ms", "500",
        "mp.messaging.incoming.profiles.auto.commit.interval.ms", "500");
  }

  @Override
  public List<TestResourceEntry> testResources() {
    return List.of(
        new TestResourceEntry(
            PostgresResource.class, Map.of("database", "onceonly_consumer_kafka_test")),
        new TestResourceEntry(KafkaResource.class, Map.of("shared", "false", "partitions", "3")));
  }

  @Override
  public boolean disableGlobalTestResources() {
    return true;
  }
}
