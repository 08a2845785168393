package dev.onceonly.relay.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class ReplayPacingTest {

  private static final Instant NOW = Instant.parse("2026-05-01T12:00:00Z");

  @Test
  void rowsAreSpacedByTheInverseOfTheRate() {
    ReplayPacing pacing = new ReplayPacing(50);
    assertThat(pacing.stepMicros()).isEqualTo(20_000);
    assertThat(pacing.slot(NOW, 0)).isEqualTo(NOW);
    assertThat(pacing.slot(NOW, 3)).isEqualTo(Instant.parse("2026-05-01T12:00:00.060Z"));
    assertThat(pacing.last(NOW, 1000)).isEqualTo(Instant.parse("2026-05-01T12:00:19.980Z"));
    assertThat(pacing.last(NOW, 0)).isNull();
  }

  @Test
  void aReplayStartsAfterAnEarlierReplayStillBeingPacedSoTogetherTheyKeepTheRate() {
    ReplayPacing pacing = new ReplayPacing(50);
    Instant previousLast = NOW.plusSeconds(10);
    assertThat(pacing.start(NOW, previousLast))
        .isEqualTo(Instant.parse("2026-05-01T12:00:10.020Z"));
    assertThat(pacing.start(NOW, NOW.minusSeconds(1))).isEqualTo(NOW);
    assertThat(pacing.start(NOW, null)).isEqualTo(NOW);
  }

  @Test
  void veryHighRatesStillMoveForwardAndNonPositiveRatesAreRefused() {
    assertThat(new ReplayPacing(10_000_000).stepMicros()).isEqualTo(1);
    assertThatThrownBy(() -> new ReplayPacing(0))
        .hasMessageContaining("relay.operations.replay-rate-per-second must be > 0");
    assertThatThrownBy(() -> new ReplayPacing(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
