package dev.onceonly.internal.catalog;

import dev.onceonly.api.IdempotentHandler;
import dev.onceonly.api.MessageDecoder;

/**
 * One consumer as the build found it ({@code @OnceOnlyConsumer}) and as it runs: its name, its
 * channel and the queue behind it, its handler and decoder beans, its event type, and whether it
 * claims.
 */
public record ConsumerSpec(
    String name,
    String channel,
    String queue,
    boolean claims,
    Class<?> eventType,
    IdempotentHandler<Object> handler,
    MessageDecoder<Object> decoder) {

  /** The dead-letter queue of this consumer's queue. */
  public String deadLetterQueue() {
    return queue + ".dlq";
  }
}
