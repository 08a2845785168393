package dev.onceonly.internal.catalog;

import dev.onceonly.api.IdempotentHandler;
import dev.onceonly.api.MessageDecoder;
import dev.onceonly.internal.config.ChannelDefaults;

/**
 * One consumer as the build found it ({@code @OnceOnlyConsumer}) and as it runs: its name, its
 * channel, the connector of that channel and the queue (RabbitMQ) or topics (Kafka, comma-separated
 * when the channel reads several) behind it, its dead-letter queue or topic, its handler and
 * decoder beans, its event type, whether it claims, and how many of its messages may be in hand at
 * once on Kafka.
 */
public record ConsumerSpec(
    String name,
    String channel,
    String queue,
    boolean claims,
    Class<?> eventType,
    IdempotentHandler<Object> handler,
    MessageDecoder<Object> decoder,
    String connector,
    int maxInFlight,
    String deadLetterQueue) {

  /** A consumer on RabbitMQ. */
  public ConsumerSpec(
      String name,
      String channel,
      String queue,
      boolean claims,
      Class<?> eventType,
      IdempotentHandler<Object> handler,
      MessageDecoder<Object> decoder) {
    this(
        name,
        channel,
        queue,
        claims,
        eventType,
        handler,
        decoder,
        ChannelDefaults.RABBITMQ,
        128,
        queue + ".dlq");
  }

  /** Whether its channel is on Kafka (else RabbitMQ). */
  public boolean kafka() {
    return ChannelDefaults.KAFKA.equals(connector);
  }
}
