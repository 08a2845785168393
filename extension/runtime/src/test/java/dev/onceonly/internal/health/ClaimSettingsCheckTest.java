package dev.onceonly.internal.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Claim settings that would fail messages are refused at start, naming what to change. */
class ClaimSettingsCheckTest {

  private static final Duration WINDOW = Duration.ofDays(30);
  private static final Duration HORIZON = Duration.ofDays(365);
  private static final Duration HOURLY = Duration.ofHours(1);

  @Test
  void theDefaultsHold() {
    assertThatCode(() -> ClaimSettingsCheck.require(WINDOW, HORIZON, HOURLY, 7, HOURLY))
        .doesNotThrowAnyException();
  }

  @Test
  void aFutureSkewBeyondThePartitionsCreatedAheadIsRefusedNamingBothSettings() {
    assertThatThrownBy(
            () -> ClaimSettingsCheck.require(WINDOW, HORIZON, Duration.ofDays(8), 7, HOURLY))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("quarkus.onceonly.claims.max-future-skew is 8d")
        .hasMessageContaining("quarkus.onceonly.claims.partitions-ahead is 7 days")
        .hasMessageContaining("at most 6d23h");
  }

  @Test
  void theSkewMustLeaveRoomForTheHourlyPartitionRun() {
    // Exactly 7 days: just after midnight, before the next run, day 7 has no partition yet.
    assertThat(ClaimSettingsCheck.problems(WINDOW, HORIZON, Duration.ofDays(7), 7, HOURLY))
        .singleElement()
        .asString()
        .contains("max-future-skew", "partitions-ahead", "retention-interval (1h)");
    assertThat(
            ClaimSettingsCheck.problems(
                WINDOW, HORIZON, Duration.ofDays(7).minus(HOURLY), 7, HOURLY))
        .isEmpty();
    assertThat(
            ClaimSettingsCheck.problems(
                WINDOW, HORIZON, Duration.ofHours(23), 1, Duration.ofHours(2)))
        .singleElement()
        .asString()
        .contains("at most 22h");
  }

  @Test
  void settingsEveryMessageWouldFailOnAreRefusedToo() {
    assertThat(ClaimSettingsCheck.problems(Duration.ofHours(12), HORIZON, HOURLY, 7, HOURLY))
        .singleElement()
        .asString()
        .contains("quarkus.onceonly.claims.retention must be at least 1d, is 12h");
    assertThat(
            ClaimSettingsCheck.problems(
                WINDOW, Duration.ofDays(-1), Duration.ofHours(-1), 0, HOURLY))
        .hasSize(3)
        .anySatisfy(p -> assertThat(p).contains("replay-horizon must not be negative"))
        .anySatisfy(p -> assertThat(p).contains("max-future-skew must not be negative"))
        .anySatisfy(p -> assertThat(p).contains("partitions-ahead must be at least 1, is 0"));
  }
}
