package dev.onceonly.relay.retry;

import java.time.Duration;

/**
 * Exponential backoff with jitter: after failed attempt {@code n} the row waits {@code min(max,
 * initial * multiplier^(n-1))}, reduced by up to {@code jitter} of itself at random. With {@code
 * multiplier * (1 - jitter) > 1} each delay is longer than the one before.
 */
public record Backoff(Duration initial, double multiplier, Duration max, double jitter) {

  public Backoff {
    if (initial.isNegative() || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("backoff needs 0 <= initial <= max");
    }
    if (multiplier < 1.0) {
      throw new IllegalArgumentException("backoff multiplier must be >= 1, was " + multiplier);
    }
    if (jitter < 0.0 || jitter > 1.0) {
      throw new IllegalArgumentException("backoff jitter must be within [0, 1], was " + jitter);
    }
  }

  /**
   * @param failedAttempt the attempt that just failed, from 1
   * @param random a uniform draw from [0, 1)
   */
  public Duration delay(int failedAttempt, double random) {
    double exponent = Math.max(0, failedAttempt - 1);
    double base = Math.min(max.toMillis(), initial.toMillis() * Math.pow(multiplier, exponent));
    return Duration.ofMillis(Math.round(base * (1.0 - jitter * random)));
  }
}
