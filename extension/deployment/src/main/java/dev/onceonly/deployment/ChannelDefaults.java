package dev.onceonly.deployment;

import dev.onceonly.internal.messaging.QueueArguments;
import java.util.LinkedHashMap;
import java.util.Map;

/** The connector settings a consumer's channel gets unless the application sets them. */
final class ChannelDefaults {

  static final String RABBITMQ = "smallrye-rabbitmq";

  private ChannelDefaults() {}

  /** The defaults for a channel of {@code connector}; fails for a connector not supported. */
  static Map<String, String> of(String connector, FoundConsumer consumer) {
    if (!RABBITMQ.equals(connector)) {
      throw new IllegalStateException(
          "channel "
              + consumer.channel()
              + " of OnceOnly consumer "
              + consumer.name()
              + " uses connector "
              + connector
              + "; OnceOnly consumes from "
              + RABBITMQ);
    }
    Map<String, String> defaults = new LinkedHashMap<>();
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
    defaults.put("pausable", "true");
    defaults.put("pausable.initially-paused", "true");
    defaults.put("max-outstanding-messages", "128");
    return defaults;
  }
}
