package dev.onceonly.consumer.processing;

import dev.onceonly.consumer.ConsumerName;
import dev.onceonly.model.DecodedEvent;
import java.util.Comparator;

/** One valid message handed to a transaction: its consumer, the decoded event, the raw body. */
public record Submission(ConsumerName consumer, DecodedEvent decoded, String payload) {

  /**
   * The order in which one transaction applies its messages: by customer, then key. Two
   * transactions that touch the same balances lock them in the same order, so they queue behind
   * each other instead of deadlocking.
   */
  static final Comparator<Submission> LOCK_ORDER =
      Comparator.comparing((Submission s) -> s.decoded().event().customerId())
          .thenComparing(s -> s.decoded().event().messageKey())
          .thenComparing(Submission::consumer);
}
