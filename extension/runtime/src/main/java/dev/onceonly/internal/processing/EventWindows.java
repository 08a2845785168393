package dev.onceonly.internal.processing;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;

/**
 * Which rule decides an event, by its date: a pure function of the event's {@code occurredAt} and
 * the service's clock. Days are UTC days, the days claim partitions are cut by.
 *
 * <ul>
 *   <li>{@link Window#FUTURE}: dated more than {@code maxFutureSkew} ahead. Not applied, no claim.
 *   <li>{@link Window#CLAIM}: its day is within the claim window (today and the {@code claimWindow}
 *       days before): claimed in that day's partition.
 *   <li>{@link Window#NATURAL_KEYS}: older, but within {@code replayHorizon} before the window:
 *       decided by the permanent natural keys alone (applied once if it never was).
 *   <li>{@link Window#STALE}: older still. Rejected, whatever the consumer (profiles too, though
 *       they take no claim): outbox keys may be gone by then.
 * </ul>
 *
 * Every comparison is made on instants before any date is computed, so that no date, however absurd
 * (year 300000, or before the calendar PostgreSQL knows), can throw.
 */
public record EventWindows(Duration claimWindow, Duration replayHorizon, Duration maxFutureSkew) {

  /** The rule that decides an event. */
  public enum Window {
    FUTURE,
    CLAIM,
    NATURAL_KEYS,
    STALE
  }

  public EventWindows {
    if (claimWindow.toDays() < 1) {
      throw new IllegalArgumentException(
          "quarkus.onceonly.claims.retention must be at least 1d, was " + claimWindow);
    }
    if (replayHorizon.isNegative() || maxFutureSkew.isNegative()) {
      throw new IllegalArgumentException(
          "quarkus.onceonly.claims.replay-horizon and max-future-skew must not be negative");
    }
  }

  public Window of(Instant occurredAt, Instant now) {
    if (occurredAt.isAfter(now.plus(maxFutureSkew))) {
      return Window.FUTURE;
    }
    // Far enough back to be stale whatever the day arithmetic says: no date is computed for it.
    if (occurredAt.isBefore(
        now.minus(claimWindow).minus(replayHorizon).minus(Duration.ofDays(2)))) {
      return Window.STALE;
    }
    LocalDate day = day(occurredAt);
    LocalDate firstClaimDay = firstClaimDay(now);
    if (!day.isBefore(firstClaimDay)) {
      return Window.CLAIM;
    }
    if (!day.isBefore(firstClaimDay.minusDays(replayHorizon.toDays()))) {
      return Window.NATURAL_KEYS;
    }
    return Window.STALE;
  }

  /** The oldest day still claimed: today minus the claim window's days. */
  public LocalDate firstClaimDay(Instant now) {
    return day(now).minusDays(claimWindow.toDays());
  }

  /** The UTC day of an instant: the claim's {@code event_date}. */
  public static LocalDate day(Instant instant) {
    return instant.atOffset(ZoneOffset.UTC).toLocalDate();
  }
}
