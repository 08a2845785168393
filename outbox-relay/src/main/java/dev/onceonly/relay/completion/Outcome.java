package dev.onceonly.relay.completion;

/** How one attempt ended, as stored in {@code outbox_attempts.outcome} and counted in metrics. */
public enum Outcome {
  /** The provider took it: the row is delivered. */
  DELIVERED("delivered"),
  /** A failure worth another attempt: the row is pending again, due after a delay. */
  RETRY("retry"),
  /** A failure that will not go away, or the attempt budget is spent: the row is dead. */
  DEAD("dead"),
  /** The relay lost its lease before completing: nothing was written to the row. */
  LEASE_LOST("lease_lost"),
  /** The relay stopped before the call ended: the row went back to pending, due now. */
  RELEASED("released");

  private final String value;

  Outcome(String value) {
    this.value = value;
  }

  public String value() {
    return value;
  }
}
