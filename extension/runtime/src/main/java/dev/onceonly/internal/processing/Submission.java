package dev.onceonly.internal.processing;

import dev.onceonly.api.Decoded;
import dev.onceonly.internal.catalog.ConsumerSpec;
import io.opentelemetry.context.Context;
import java.util.Comparator;

/**
 * One valid message handed to a transaction: its consumer, the decoded event with its key and date,
 * the body's fingerprint and text, and its trace (the message's span, whose context its outbox rows
 * carry on to the relay).
 */
public record Submission(
    ConsumerSpec consumer,
    Decoded<Object> decoded,
    String fingerprint,
    String payload,
    Context trace) {

  /** A message outside any trace. */
  public Submission(
      ConsumerSpec consumer, Decoded<Object> decoded, String fingerprint, String payload) {
    this(consumer, decoded, fingerprint, payload, Context.root());
  }

  public String key() {
    return decoded.messageKey();
  }

  /**
   * The order in which one transaction applies its messages: by the rows their effects lock first
   * (the event's lock key, or its message key), then key, then consumer. Two transactions that
   * touch the same rows lock them in the same order, so they queue behind each other instead of
   * deadlocking.
   */
  static final Comparator<Submission> LOCK_ORDER =
      Comparator.comparing(Submission::lockKey)
          .thenComparing(Submission::key)
          .thenComparing(s -> s.consumer().name());

  private String lockKey() {
    String lock = decoded.lockKey();
    return lock == null ? decoded.messageKey() : lock;
  }
}
