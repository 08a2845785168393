package dev.onceonly.relay.operations;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * When replayed rows become due: one every {@code 1 / ratePerSecond} seconds, from now or, if an
 * earlier replay is still being paced, from one step after its last slot, so that back-to-back
 * replays together never go faster than the rate.
 */
public record ReplayPacing(double ratePerSecond) {

  public ReplayPacing {
    if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
      throw new IllegalArgumentException(
          "relay.operations.replay-rate-per-second must be > 0, was " + ratePerSecond);
    }
  }

  /** Time between two replayed rows, in microseconds (at least 1). */
  public long stepMicros() {
    return Math.max(1, Math.round(1_000_000 / ratePerSecond));
  }

  /** The first slot of a replay starting at {@code now} after a replay ending at {@code last}. */
  public Instant start(Instant now, Instant lastSlotOfPreviousReplay) {
    if (lastSlotOfPreviousReplay == null) {
      return now;
    }
    Instant afterPrevious = lastSlotOfPreviousReplay.plus(stepMicros(), ChronoUnit.MICROS);
    return afterPrevious.isAfter(now) ? afterPrevious : now;
  }

  /** The slot of the {@code index}-th replayed row (from 0). */
  public Instant slot(Instant start, long index) {
    return start.plus(stepMicros() * index, ChronoUnit.MICROS);
  }

  /** The last slot of {@code count} rows, or null when there are none. */
  public Instant last(Instant start, long count) {
    return count <= 0 ? null : slot(start, count - 1);
  }
}
