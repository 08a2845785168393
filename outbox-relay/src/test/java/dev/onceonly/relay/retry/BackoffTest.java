package dev.onceonly.relay.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {

  private final Backoff backoff =
      new Backoff(Duration.ofMillis(100), 2.0, Duration.ofSeconds(1), 0.2);

  @Test
  void delayDoublesPerFailedAttemptWithoutJitterDraw() {
    assertThat(backoff.delay(1, 0.0)).isEqualTo(Duration.ofMillis(100));
    assertThat(backoff.delay(2, 0.0)).isEqualTo(Duration.ofMillis(200));
    assertThat(backoff.delay(3, 0.0)).isEqualTo(Duration.ofMillis(400));
  }

  @Test
  void delayIsCappedAtMax() {
    assertThat(backoff.delay(10, 0.0)).isEqualTo(Duration.ofSeconds(1));
    assertThat(backoff.delay(1_000, 0.0)).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void jitterRemovesAtMostItsShare() {
    assertThat(backoff.delay(2, 0.999)).isBetween(Duration.ofMillis(160), Duration.ofMillis(200));
    assertThat(backoff.delay(2, 0.5)).isEqualTo(Duration.ofMillis(180));
  }

  @Test
  void delaysGrowEvenWithWorstJitterWhenMultiplierOutrunsIt() {
    for (int attempt = 1; attempt < 4; attempt++) {
      assertThat(backoff.delay(attempt + 1, 0.999)).isGreaterThan(backoff.delay(attempt, 0.0));
    }
  }

  @Test
  void refusesSettingsThatMakeNoSense() {
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), 2, Duration.ofSeconds(1), 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(1), 0.5, Duration.ofSeconds(2), 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(1), 2, Duration.ofSeconds(2), 1.5))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
