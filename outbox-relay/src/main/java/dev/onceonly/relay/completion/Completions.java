package dev.onceonly.relay.completion;

import dev.onceonly.relay.destination.DeliveryResult;
import dev.onceonly.relay.lease.LeasedRow;
import dev.onceonly.relay.retry.Decision;
import dev.onceonly.relay.retry.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Turns what happened to a leased row into a {@link Completion}: the one place where the provider's
 * answer and the retry policy's verdict become the values the completion writes. Every value is
 * bounded here, so that one completion can never make a batch fail to write.
 */
public final class Completions {

  /**
   * The longest delay a completion writes; the retry policy already stays far below it (backoff
   * max, {@code relay.retry-after-max}), this guards the arithmetic of the write itself.
   */
  static final Duration LONGEST_DELAY = Duration.ofDays(365);

  /** How long a row waits when its outcome could not be decided (a defect, logged). */
  static final Duration UNDECIDED_DELAY = Duration.ofMinutes(1);

  private Completions() {}

  /**
   * The policy's verdict on an answered (or unanswered) call, as a completion; {@code counted} says
   * whether the attempt counts against the row's budget (not while its destination's breaker is
   * open). If the decision itself fails, the row is {@link #undecided} and retried a little later.
   */
  public static Completion decide(
      RetryPolicy policy,
      LeasedRow row,
      String relayId,
      DeliveryResult response,
      boolean counted,
      Instant startedAt,
      Instant finishedAt,
      String traceParent) {
    try {
      double random = ThreadLocalRandom.current().nextDouble();
      Decision decision = policy.decide(response, row.budgetAttempt(), counted, finishedAt, random);
      Completion made = of(row, relayId, response, decision, startedAt, finishedAt, traceParent);
      return counted ? made : uncounted(made);
    } catch (RuntimeException e) {
      return undecided(row, relayId, e, startedAt, finishedAt, traceParent);
    }
  }

  /**
   * A row of a destination not configured here: never called, back to pending a little later, its
   * attempt not counted. Only configured destinations are leased, so this is a defect, not an
   * operating condition; it never costs the row its budget.
   */
  public static Completion unrouted(
      LeasedRow row, String relayId, Instant startedAt, Instant finishedAt) {
    String text = "no destination '" + row.kind() + "' configured on relay " + relayId;
    return new Completion(
        row,
        relayId,
        Outcome.RETRY,
        UNDECIDED_DELAY,
        null,
        text,
        text,
        startedAt,
        finishedAt,
        row.traceParent(),
        false);
  }

  /** {@code done} with its attempt not counted against the row's budget. */
  static Completion uncounted(Completion done) {
    return new Completion(
        done.row(),
        done.relayId(),
        done.outcome(),
        done.retryIn(),
        done.httpStatus(),
        done.rowError(),
        done.attemptError(),
        done.startedAt(),
        done.finishedAt(),
        done.traceParent(),
        false);
  }

  /** An answered (or unanswered) call and the policy's verdict on it. */
  public static Completion of(
      LeasedRow row,
      String relayId,
      DeliveryResult response,
      Decision decision,
      Instant startedAt,
      Instant finishedAt,
      String traceParent) {
    Integer status = response.hasAnswer() ? response.status() : null;
    return switch (decision.verdict()) {
      case DELIVERED ->
          new Completion(
              row,
              relayId,
              Outcome.DELIVERED,
              Duration.ZERO,
              status,
              null,
              null,
              startedAt,
              finishedAt,
              traceParent,
              true);
      case RETRY ->
          new Completion(
              row,
              relayId,
              Outcome.RETRY,
              bounded(decision.retryIn()),
              status,
              DeliveryResult.shorten(response.describe()),
              DeliveryResult.shorten(response.describe()),
              startedAt,
              finishedAt,
              traceParent,
              true);
      case DEAD ->
          new Completion(
              row,
              relayId,
              Outcome.DEAD,
              Duration.ZERO,
              status,
              DeliveryResult.shorten(decision.reason()),
              DeliveryResult.shorten(response.describe()),
              startedAt,
              finishedAt,
              traceParent,
              true);
    };
  }

  /** A call that shutdown gave up waiting for: the row goes back to pending, due now. */
  public static Completion released(
      LeasedRow row, String relayId, String reason, Instant startedAt, Instant now) {
    String text = DeliveryResult.shorten(reason);
    return new Completion(
        row,
        relayId,
        Outcome.RELEASED,
        Duration.ZERO,
        null,
        text,
        text,
        startedAt,
        now,
        null,
        true);
  }

  /**
   * A call whose outcome could not be decided (the decision itself failed): retried a little later,
   * never lost and never holding up the other completions of its batch.
   */
  public static Completion undecided(
      LeasedRow row,
      String relayId,
      Throwable failure,
      Instant startedAt,
      Instant now,
      String traceParent) {
    String text = DeliveryResult.shorten("outcome could not be decided: " + failure);
    return new Completion(
        row,
        relayId,
        Outcome.RETRY,
        UNDECIDED_DELAY,
        null,
        text,
        text,
        startedAt,
        now,
        traceParent,
        true);
  }

  /** {@code delay} within {@code [0, LONGEST_DELAY]}. */
  static Duration bounded(Duration delay) {
    if (delay == null || delay.isNegative()) {
      return Duration.ZERO;
    }
    return delay.compareTo(LONGEST_DELAY) > 0 ? LONGEST_DELAY : delay;
  }
}
