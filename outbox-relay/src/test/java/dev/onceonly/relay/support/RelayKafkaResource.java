package dev.onceonly.relay.support;

import dev.onceonly.testsupport.KafkaBroker;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * A Kafka broker of the relay's Kafka tests' own, and the destination {@value #DESTINATION}
 * publishing to topic {@value #TOPIC} (3 partitions, made at start). Always a {@link KafkaBroker}
 * process (deploy/kafka-broker, no Docker needed), never the JVM's shared broker nor a container:
 * the outage test kills it with kill -9 and starts it again at the same address with its data,
 * which a container cannot do. Short timeouts and a breaker that opens after 3 outages for 1 s, so
 * that an outage shows in seconds; 2 attempts, so that an outage longer than the retry budget is
 * quick to reach.
 */
public class RelayKafkaResource implements QuarkusTestResourceLifecycleManager {

  public static final String DESTINATION = "kafka_events";
  public static final String TOPIC = "onceonly.relay.test.events";
  public static final int MAX_ATTEMPTS = 2;
  public static final int PARTITIONS = 3;

  /** The producer's {@code max.request.size}: a row larger than this never fits. */
  public static final int MAX_RECORD = 16_384;

  private static volatile KafkaBroker broker;

  @Override
  public Map<String, String> start() {
    broker = KafkaBroker.builder().start();
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
      admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1))).all().get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot create topic " + TOPIC, e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    Map<String, String> config = new HashMap<>();
    String prefix = "relay.destinations.\"" + DESTINATION + "\".";
    config.put(prefix + "type", "kafka");
    config.put(prefix + "kafka.bootstrap-servers", broker.bootstrapServers());
    config.put(prefix + "kafka.topic", TOPIC);
    config.put(prefix + "kafka.connect-timeout", "1s");
    config.put(prefix + "kafka.send-timeout", "2s");
    config.put(prefix + "kafka.properties.\"linger.ms\"", "1");
    config.put(prefix + "kafka.properties.\"max.request.size\"", Integer.toString(MAX_RECORD));
    config.put(prefix + "max-attempts", Integer.toString(MAX_ATTEMPTS));
    config.put(prefix + "backoff.initial", "200ms");
    config.put(prefix + "backoff.max", "1s");
    config.put(prefix + "breaker.failure-threshold", "3");
    config.put(prefix + "breaker.cool-down", "1s");
    return config;
  }

  @Override
  public void stop() {
    if (broker != null) {
      broker.stop();
    }
  }

  /** The broker, to read from, kill and start again. */
  public static KafkaBroker broker() {
    return broker;
  }
}
