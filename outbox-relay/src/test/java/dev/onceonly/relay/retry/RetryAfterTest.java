package dev.onceonly.relay.retry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RetryAfterTest {

  private final Instant now = Instant.parse("2025-03-01T10:00:00Z");

  @Test
  void readsDelaySeconds() {
    assertThat(RetryAfter.parse("120", now)).contains(Duration.ofSeconds(120));
    assertThat(RetryAfter.parse(" 3 ", now)).contains(Duration.ofSeconds(3));
  }

  @Test
  void readsHttpDateRelativeToNow() {
    assertThat(RetryAfter.parse("Sat, 01 Mar 2025 10:00:30 GMT", now))
        .contains(Duration.ofSeconds(30));
  }

  @Test
  void httpDateInThePastMeansNoWait() {
    assertThat(RetryAfter.parse("Sat, 01 Mar 2025 09:00:00 GMT", now)).contains(Duration.ZERO);
  }

  @Test
  void ignoresMissingOrUnreadableValues() {
    assertThat(RetryAfter.parse(null, now)).isEmpty();
    assertThat(RetryAfter.parse("", now)).isEmpty();
    assertThat(RetryAfter.parse("soon", now)).isEmpty();
    assertThat(RetryAfter.parse("-5", now)).isEmpty();
    assertThat(RetryAfter.parse("99999999999999999999999", now)).isEmpty();
  }
}
