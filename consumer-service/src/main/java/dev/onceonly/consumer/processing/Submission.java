package dev.onceonly.consumer.processing;

import dev.onceonly.consumer.ConsumerName;
import dev.onceonly.model.DecodedEvent;
import io.opentelemetry.context.Context;
import java.util.Comparator;

/**
 * One valid message handed to a transaction: its consumer, the decoded event, the raw body, and its
 * trace (the message's span, whose context its outbox rows carry on to the provider).
 */
public record Submission(
    ConsumerName consumer, DecodedEvent decoded, String payload, Context trace) {

  /** A message outside any trace. */
  public Submission(ConsumerName consumer, DecodedEvent decoded, String payload) {
    this(consumer, decoded, payload, Context.root());
  }

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
