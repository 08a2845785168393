package dev.onceonly.consumer;

/**
 * The example's broker names, as its configuration declares them: the queue {@code
 * onceonly.<consumer>} and its dead-letter queue {@code onceonly.<consumer>.dlq} on the platform's
 * dead-letter exchange.
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
