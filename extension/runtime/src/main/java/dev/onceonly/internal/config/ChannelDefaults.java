package dev.onceonly.internal.config;

import dev.onceonly.internal.messaging.QueueArguments;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The connector settings a consumer's channel gets unless the application sets them, per connector:
 * what exactness needs on that broker. Applied when the service starts ({@link
 * ChannelDefaultsSource}), from the connector configured then, so that moving a consumer from
 * RabbitMQ to Kafka is configuration ({@code mp.messaging.incoming.<channel>.connector}).
 */
public final class ChannelDefaults {

  public static final String RABBITMQ = "smallrye-rabbitmq";
  public static final String KAFKA = "smallrye-kafka";

  /** The connectors OnceOnly consumes from. */
  public static final List<String> SUPPORTED = List.of(RABBITMQ, KAFKA);

  private ChannelDefaults() {}

  /**
   * The defaults for {@code channel} of {@code consumer} on {@code connector}.
   *
   * @throws IllegalStateException for a connector OnceOnly does not consume from
   */
  public static Map<String, String> of(String connector, String consumer, String channel) {
    Map<String, String> defaults = new LinkedHashMap<>();
    // Not the connector's span: the platform makes one span per message.
    switch (connector) {
      case RABBITMQ -> rabbitMq(defaults);
      case KAFKA -> kafka(defaults, consumer, channel);
      default ->
          throw new IllegalStateException(
              "channel "
                  + channel
                  + " of OnceOnly consumer "
                  + consumer
                  + " uses connector "
                  + connector
                  + "; OnceOnly consumes from "
                  + String.join(" and ", SUPPORTED));
    }
    // A paused start: the schema gate opens the channel once the database schema is complete.
    defaults.put("pausable", "true");
    defaults.put("pausable.initially-paused", "true");
    return defaults;
  }

  private static void rabbitMq(Map<String, String> defaults) {
    // Bodies as bytes: a malformed body must reach the platform to be dead-lettered with its
    // reason, not fail inside the connector.
    defaults.put("content-type-override", "application/octet-stream");
    defaults.put("auto-bind-dlq", "true");
    defaults.put("dlx.declare", "true");
    defaults.put("dead-letter-exchange", "${quarkus.onceonly.dead-letters.exchange:onceonly.dlx}");
    // Quorum queues with a delivery limit unless quarkus.onceonly.queues.type=classic: the
    // arguments come from beans because the limit exists for quorum queues only.
    defaults.put("queue.arguments", QueueArguments.CONSUMER_QUEUE);
    defaults.put("dead-letter-queue.arguments", QueueArguments.DEAD_LETTER_QUEUE);
    defaults.put("failure-strategy", "reject");
    defaults.put("tracing.enabled", "false");
    defaults.put("max-outstanding-messages", "128");
  }

  /**
   * Kafka (docs/kafka.md): keys and values as bytes (a malformed body reaches the platform and its
   * dead-letter topic as it came); offsets committed only by the connector's {@code throttled}
   * strategy, which commits per partition the offset after the last record acked with every record
   * before it acked too (the platform acks after its transaction committed), at most every {@code
   * auto.commit.interval.ms} and for a revoked partition at once; dead letters to {@code
   * <topic>.dlt} ({@code <channel>.dlt} for a channel that reads several {@code topics}) through
   * the connector's {@code dead-letter-queue} strategy; a new group starts at the earliest record
   * (the claims absorb what was read before); a consumer group of its own per consumer, so that two
   * consumers of one topic each see every record, and the client named after it (its metrics, the
   * lag among them, are labelled by client id).
   */
  private static void kafka(Map<String, String> defaults, String consumer, String channel) {
    String topic = "${mp.messaging.incoming." + channel + ".topic:" + channel + "}";
    defaults.put("key.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
    defaults.put(
        "value.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
    defaults.put("enable.auto.commit", "false");
    defaults.put("commit-strategy", "throttled");
    defaults.put("failure-strategy", "dead-letter-queue");
    defaults.put("dead-letter-queue.topic", topic + ".dlt");
    defaults.put("auto.offset.reset", "earliest");
    String group = "${quarkus.application.name:onceonly}." + consumer;
    defaults.put("group.id", group);
    // The client id is the group's: the Kafka client's metrics (the lag) are labelled with it.
    defaults.put("client.id", group);
    defaults.put("tracing-enabled", "false");
  }
}
