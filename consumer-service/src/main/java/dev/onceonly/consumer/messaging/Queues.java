package dev.onceonly.consumer.messaging;

import dev.onceonly.consumer.ConsumerName;

/**
 * Broker names this service declares (see application.properties): one durable queue per consumer,
 * {@code onceonly.<consumer>}, and its dead-letter queue {@code onceonly.<consumer>.dlq} bound to
 * the direct exchange {@value #DEAD_LETTER_EXCHANGE} with the queue's name as key.
 */
public final class Queues {

  public static final String DEAD_LETTER_EXCHANGE = "onceonly.dlx";

  private Queues() {}

  public static String queue(ConsumerName consumer) {
    return "onceonly." + consumer.value();
  }

  public static String deadLetterQueue(ConsumerName consumer) {
    return queue(consumer) + ".dlq";
  }
}
