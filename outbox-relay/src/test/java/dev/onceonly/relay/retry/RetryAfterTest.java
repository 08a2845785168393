package dev.onceonly.relay.retry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RetryAfterTest {

  private static final Duration MAX = Duration.ofMinutes(15);

  private final Instant now = Instant.parse("2025-03-01T10:00:00Z");

  @Test
  void readsDelaySeconds() {
    assertThat(RetryAfter.parse("120", now, MAX)).contains(Duration.ofSeconds(120));
    assertThat(RetryAfter.parse(" 3 ", now, MAX)).contains(Duration.ofSeconds(3));
    assertThat(RetryAfter.parse("0", now, MAX)).contains(Duration.ZERO);
  }

  @Test
  void readsHttpDateRelativeToNow() {
    assertThat(RetryAfter.parse("Sat, 01 Mar 2025 10:00:30 GMT", now, MAX))
        .contains(Duration.ofSeconds(30));
  }

  @Test
  void httpDateInThePastMeansNoWait() {
    assertThat(RetryAfter.parse("Sat, 01 Mar 2025 09:00:00 GMT", now, MAX)).contains(Duration.ZERO);
  }

  @Test
  void aLongerDelayIsHonouredUpToTheMaximum() {
    assertThat(RetryAfter.parse("900", now, MAX)).contains(MAX);
    assertThat(RetryAfter.parse("901", now, MAX)).contains(MAX);
    assertThat(RetryAfter.parse("2147483647", now, MAX)).contains(MAX);
  }

  @Test
  void delaysPastAnyNumberSaturateInsteadOfOverflowing() {
    assertThat(RetryAfter.parse("9223372036854775807", now, MAX)).contains(MAX);
    assertThat(RetryAfter.parse("99999999999999999999999", now, MAX)).contains(MAX);
    assertThat(RetryAfter.parse("000000000000000000000000000000042", now, MAX))
        .contains(Duration.ofSeconds(42));
  }

  @Test
  void aDateFarAheadWaitsTheMaximum() {
    assertThat(RetryAfter.parse("Fri, 31 Dec 9999 23:59:59 GMT", now, MAX)).contains(MAX);
    assertThat(RetryAfter.parse("Sat, 01 Mar 2025 10:14:59 GMT", now, MAX))
        .contains(Duration.ofSeconds(899));
  }

  @Test
  void ignoresMissingOrUnreadableValues() {
    assertThat(RetryAfter.parse(null, now, MAX)).isEmpty();
    assertThat(RetryAfter.parse("", now, MAX)).isEmpty();
    assertThat(RetryAfter.parse("soon", now, MAX)).isEmpty();
    assertThat(RetryAfter.parse("-5", now, MAX)).isEmpty();
    assertThat(RetryAfter.parse("1.5", now, MAX)).isEmpty();
  }
}
