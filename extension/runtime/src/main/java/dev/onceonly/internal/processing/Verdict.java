package dev.onceonly.internal.processing;

/** What the platform decided for one message; every verdict is acked after its commit. */
public enum Verdict {
  /**
   * The effect and its outbox rows committed now: with the claim, or, for an event older than the
   * claim window, decided by the natural keys alone.
   */
  APPLIED,
  /** Claimed before with the same payload, or its effect's natural key already taken. */
  DUPLICATE,
  /** Claimed before with a different payload; quarantined in message_conflicts, nothing done. */
  CONFLICT,
  /**
   * Decided without an effect and recorded in rejections: by the handler, or by the event's date
   * ({@code future}, {@code stale}).
   */
  REJECTED;

  /** The metric and span tag. */
  public String tag() {
    return name().toLowerCase();
  }
}
