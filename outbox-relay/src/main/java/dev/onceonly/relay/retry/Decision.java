package dev.onceonly.relay.retry;

import java.time.Duration;

/** What happens to a row after an attempt: delivered, retried after {@code retryIn}, or dead. */
public record Decision(Outcome outcome, Duration retryIn, String reason) {

  /** The outcome of one attempt as stored in {@code outbox_attempts.outcome} and metrics. */
  public enum Outcome {
    DELIVERED("delivered"),
    RETRY("retry"),
    DEAD("dead"),
    /** The relay lost its lease before completing: nothing was written to the row. */
    LEASE_LOST("lease_lost"),
    /** Shutdown gave up waiting for the call; the row went back to pending. */
    RELEASED("released");

    private final String value;

    Outcome(String value) {
      this.value = value;
    }

    public String value() {
      return value;
    }
  }

  public static Decision delivered() {
    return new Decision(Outcome.DELIVERED, Duration.ZERO, null);
  }

  public static Decision retry(Duration retryIn, String reason) {
    return new Decision(Outcome.RETRY, retryIn, reason);
  }

  public static Decision dead(String reason) {
    return new Decision(Outcome.DEAD, Duration.ZERO, reason);
  }
}
