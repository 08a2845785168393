package dev.onceonly.relay.retry;

import dev.onceonly.relay.destination.DeliveryResult;
import java.time.Duration;
import java.time.Instant;

/**
 * Decides a row's fate after an attempt, from the result as its destination classified it: success
 * is delivered; a final failure is dead at once; a retryable one waits for the longer of the
 * backoff and the provider's {@code Retry-After} (the latter honoured up to {@code retryAfterMax}),
 * unless it was the last allowed attempt, which makes the row dead.
 */
public record RetryPolicy(Backoff backoff, int maxAttempts, Duration retryAfterMax) {

  public RetryPolicy {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("max attempts must be >= 1, was " + maxAttempts);
    }
    if (retryAfterMax.isNegative()) {
      throw new IllegalArgumentException(
          "relay.retry-after-max must not be negative, was " + retryAfterMax);
    }
  }

  /**
   * @param attempt the number of the attempt that produced {@code response}, from 1
   * @param random a uniform draw from [0, 1) for the jitter
   */
  public Decision decide(DeliveryResult response, int attempt, Instant now, double random) {
    return decide(response, attempt, true, now, random);
  }

  /**
   * As {@link #decide(DeliveryResult, int, Instant, double)}; an attempt that does not {@code
   * count} against the budget (its destination's breaker is open) is retried whatever its number,
   * after the backoff of {@code attempt}, never made dead by it.
   */
  public Decision decide(
      DeliveryResult response, int attempt, boolean counts, Instant now, double random) {
    switch (response.classification()) {
      case SUCCESS:
        return Decision.delivered();
      case FINAL:
        return Decision.dead("permanent failure: " + response.describe());
      default:
        break;
    }
    if (attempt >= maxAttempts && counts) {
      return Decision.dead(
          "attempts exhausted (" + attempt + "/" + maxAttempts + "): " + response.describe());
    }
    Duration delay = backoff.delay(attempt, random);
    Duration asked =
        RetryAfter.parse(response.retryAfter(), now, retryAfterMax).orElse(Duration.ZERO);
    return Decision.retry(asked.compareTo(delay) > 0 ? asked : delay, response.describe());
  }
}
