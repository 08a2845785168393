package dev.onceonly.internal.processing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.internal.processing.EventWindows.Window;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

/** Which rule decides an event, by its date, as a pure function. */
class EventWindowsTest {

  private final EventWindows windows =
      new EventWindows(Duration.ofDays(30), Duration.ofDays(365), Duration.ofHours(1));
  private final Instant now = Instant.parse("2026-11-30T12:00:00Z");

  @Test
  void anEventUpToTheSkewAheadIsClaimedOneFurtherIsFuture() {
    assertThat(windows.of(now.plus(Duration.ofMinutes(59)), now)).isEqualTo(Window.CLAIM);
    assertThat(windows.of(now.plus(Duration.ofMinutes(61)), now)).isEqualTo(Window.FUTURE);
    assertThat(windows.of(now.plus(Duration.ofDays(10)), now)).isEqualTo(Window.FUTURE);
  }

  @Test
  void theClaimWindowCountsWholeUtcDaysTodayIncluded() {
    assertThat(windows.firstClaimDay(now)).isEqualTo(LocalDate.parse("2026-10-31"));
    assertThat(windows.of(Instant.parse("2026-10-31T00:00:00Z"), now)).isEqualTo(Window.CLAIM);
    assertThat(windows.of(Instant.parse("2026-10-30T23:59:59Z"), now))
        .isEqualTo(Window.NATURAL_KEYS);
  }

  @Test
  void beyondTheReplayHorizonAnEventIsStale() {
    assertThat(windows.of(Instant.parse("2025-10-31T00:00:00Z"), now))
        .isEqualTo(Window.NATURAL_KEYS);
    assertThat(windows.of(Instant.parse("2025-10-30T23:59:59Z"), now)).isEqualTo(Window.STALE);
  }

  @Test
  void datesNoCalendarHoldsAreDecidedWithoutComputingTheirDay() {
    assertThat(windows.of(Instant.MAX, now)).isEqualTo(Window.FUTURE);
    assertThat(windows.of(Instant.parse("+300000-01-01T00:00:00Z"), now)).isEqualTo(Window.FUTURE);
    assertThat(windows.of(Instant.MIN, now)).isEqualTo(Window.STALE);
    assertThat(windows.of(Instant.parse("-5000-01-01T00:00:00Z"), now)).isEqualTo(Window.STALE);
  }
}
