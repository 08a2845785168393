package dev.onceonly.relay.retry;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Reads a {@code Retry-After} header: delay-seconds or an HTTP-date (RFC 9110 §10.2.3), honoured up
 * to a maximum. A provider that asks for more (68 years, or a number no long can hold) gets the
 * maximum, so one throttled row never parks itself and its ordering key for longer; every step
 * saturates instead of overflowing.
 */
public final class RetryAfter {

  private RetryAfter() {}

  /**
   * The wait the header asks for, measured from {@code now}, at most {@code max}; empty when the
   * header is absent or unreadable.
   */
  public static Optional<Duration> parse(String header, Instant now, Duration max) {
    if (header == null || header.isBlank()) {
      return Optional.empty();
    }
    String value = header.strip();
    if (!value.isEmpty() && value.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return Optional.of(seconds(value, max));
    }
    try {
      Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      return Optional.of(until(now, at, max));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /** Delay-seconds, saturating at {@code max} however many digits there are. */
  private static Duration seconds(String digits, Duration max) {
    String significant = digits.replaceFirst("^0+(?=.)", "");
    if (significant.length() > 18) { // more than any delay up to max could have
      return max;
    }
    long seconds = Long.parseLong(significant);
    return seconds >= max.getSeconds() ? max : Duration.ofSeconds(seconds);
  }

  /** From {@code now} to {@code at}, within {@code [0, max]}. */
  private static Duration until(Instant now, Instant at, Duration max) {
    if (!at.isAfter(now)) {
      return Duration.ZERO;
    }
    if (at.isAfter(now.plus(max))) {
      return max;
    }
    return Duration.between(now, at);
  }
}
