package dev.onceonly.consumer;

/** What handling one message decided. Every outcome is acked after its transaction commits. */
public enum Outcome {
  /** Claimed now; the effect and its outbox rows committed with the claim. */
  APPLIED,
  /** Claimed before with the same payload; nothing done. */
  DUPLICATE,
  /** Claimed before with a different payload; quarantined in message_conflicts, nothing done. */
  CONFLICT,
  /** Decided without an effect (insufficient balance, older than the claim window); recorded. */
  REJECTED;

  public String tag() {
    return name().toLowerCase();
  }
}
