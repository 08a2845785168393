package dev.onceonly.relay.retry;

import java.time.Duration;

/** The retry policy's verdict on an attempt: delivered, retried after {@code retryIn}, or dead. */
public record Decision(Verdict verdict, Duration retryIn, String reason) {

  /** What the provider's answer means for the row. */
  public enum Verdict {
    DELIVERED,
    RETRY,
    DEAD
  }

  public static Decision delivered() {
    return new Decision(Verdict.DELIVERED, Duration.ZERO, null);
  }

  public static Decision retry(Duration retryIn, String reason) {
    return new Decision(Verdict.RETRY, retryIn, reason);
  }

  public static Decision dead(String reason) {
    return new Decision(Verdict.DEAD, Duration.ZERO, reason);
  }
}
