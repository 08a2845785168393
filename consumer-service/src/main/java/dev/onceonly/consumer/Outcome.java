package dev.onceonly.consumer;

/** What handling one message decided. Every outcome is acked after its transaction commits. */
public enum Outcome {
  /**
   * The effect and its outbox rows committed now: with the claim, or, for an event older than the
   * claim window, decided by the natural keys alone (ARCHITECTURE.md §9).
   */
  APPLIED,
  /**
   * Claimed before with the same payload, or its effect's natural key already taken; nothing done.
   */
  DUPLICATE,
  /** Claimed before with a different payload; quarantined in message_conflicts, nothing done. */
  CONFLICT,
  /**
   * Decided without an effect and recorded in rejections: a redemption the balance did not cover
   * ({@code insufficient_balance}), or an event refused by its date, dated too far ahead ({@code
   * future}) or beyond the claim window plus the replay horizon ({@code stale}). An event merely
   * older than the claim window is not rejected: the natural keys decide it.
   */
  REJECTED;

  public String tag() {
    return name().toLowerCase();
  }
}
