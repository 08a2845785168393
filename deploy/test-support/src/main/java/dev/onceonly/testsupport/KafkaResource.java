package dev.onceonly.testsupport;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;
import org.testcontainers.kafka.KafkaContainer;

/**
 * Kafka for a Quarkus test: a Testcontainers container ({@code apache/kafka}, the version of the
 * kafka-clients the Quarkus BOM manages) where Docker answers, otherwise a {@link KafkaBroker}
 * process. By default that is the broker shared by every test of the JVM: use topics and consumer
 * groups of the test's own. Init arg {@code shared=false} starts a broker of the test's own
 * (stopped with the test), with init args {@code auto-create-topics} (default true) and {@code
 * partitions} (of a topic created on first use, default 1).
 *
 * <p>Provides {@code kafka.bootstrap.servers} and {@code
 * mp.messaging.connector.smallrye-kafka.bootstrap.servers}. The service itself sets {@code
 * quarkus.kafka.devservices.enabled=false}, as it does for PostgreSQL and RabbitMQ.
 */
public class KafkaResource implements QuarkusTestResourceLifecycleManager {

  static final String IMAGE = "apache/kafka:4.1.2";

  private boolean shared = true;
  private Map<String, String> initArgs = Map.of();
  private KafkaContainer container;
  private KafkaBroker own;

  @Override
  public void init(Map<String, String> initArgs) {
    this.initArgs = initArgs;
    shared = Boolean.parseBoolean(initArgs.getOrDefault("shared", "true"));
  }

  @Override
  public Map<String, String> start() {
    if (Docker.available()) {
      container = new KafkaContainer(IMAGE);
      container.start();
      return config(container.getBootstrapServers());
    }
    if (shared) {
      return config(KafkaBroker.shared().bootstrapServers());
    }
    KafkaBroker.Builder builder = KafkaBroker.builder();
    if (initArgs.containsKey("auto-create-topics")) {
      builder.autoCreateTopics(Boolean.parseBoolean(initArgs.get("auto-create-topics")));
    }
    if (initArgs.containsKey("partitions")) {
      builder.partitions(Integer.parseInt(initArgs.get("partitions")));
    }
    own = builder.start();
    return config(own.bootstrapServers());
  }

  @Override
  public void stop() {
    if (container != null) {
      container.stop();
    }
    if (own != null) {
      own.stop();
    }
  }

  private static Map<String, String> config(String bootstrapServers) {
    return Map.of(
        "kafka.bootstrap.servers", bootstrapServers,
        "mp.messaging.connector.smallrye-kafka.bootstrap.servers", bootstrapServers);
  }
}
