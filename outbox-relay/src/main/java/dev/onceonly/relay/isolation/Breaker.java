package dev.onceonly.relay.isolation;

import java.time.Duration;
import java.util.function.BiConsumer;

/**
 * One destination's circuit breaker, in one relay: closed while the destination answers; open for a
 * cool-down after {@code threshold} outages in a row (no answer, timeout, 5xx), during which its
 * rows are not leased at all; then half-open, when one probe may go; the probe's success closes it,
 * an outage opens it again. Pure: time comes in as {@code nanoTime} arguments.
 *
 * <p>{@link #record} also says whether an attempt counts against its row's attempt budget: an
 * outage recorded while the breaker is not closed does not (a call that was already running when it
 * opened, or a failed probe). So a destination down for hours costs each row at most the attempts
 * that opened the breaker, never its whole budget.
 */
public final class Breaker {

  /** Where the breaker stands. */
  public enum State {
    CLOSED,
    OPEN,
    HALF_OPEN
  }

  private final boolean enabled;
  private final int threshold;
  private final long coolDownNanos;
  private final long probeTimeoutNanos;
  private final BiConsumer<State, State> transitions;
  private State state = State.CLOSED;
  private int outagesInARow;
  private long openUntil;
  private boolean probing;
  private long probeStartedAt;

  /**
   * @param probeTimeout after this, a probe whose result never came (its call was lost) no longer
   *     holds the next one back
   * @param transitions told of every change of state, {@code (from, to)}
   */
  public Breaker(
      boolean enabled,
      int threshold,
      Duration coolDown,
      Duration probeTimeout,
      BiConsumer<State, State> transitions) {
    if (threshold < 1) {
      throw new IllegalArgumentException("failure-threshold must be >= 1, was " + threshold);
    }
    if (coolDown.isNegative() || coolDown.isZero()) {
      throw new IllegalArgumentException("cool-down must be > 0, was " + coolDown);
    }
    this.enabled = enabled;
    this.threshold = threshold;
    this.coolDownNanos = coolDown.toNanos();
    this.probeTimeoutNanos = probeTimeout.toNanos();
    this.transitions = transitions;
  }

  /** How many calls may start now: any number while closed, one probe when half-open, else 0. */
  public synchronized int permits(long nanoTime) {
    if (state == State.OPEN && nanoTime - openUntil >= 0) {
      move(State.HALF_OPEN);
      probing = false;
    }
    return switch (state) {
      case CLOSED -> Integer.MAX_VALUE;
      case OPEN -> 0;
      case HALF_OPEN -> !probing || nanoTime - probeStartedAt >= probeTimeoutNanos ? 1 : 0;
    };
  }

  /** {@code calls} calls started now (after {@link #permits} allowed them). */
  public synchronized void started(int calls, long nanoTime) {
    if (state == State.HALF_OPEN && calls > 0) {
      probing = true;
      probeStartedAt = nanoTime;
    }
  }

  /**
   * One call ended: {@code outage} when the destination looked down. Returns whether the attempt
   * counts against its row's budget.
   */
  public synchronized boolean record(boolean outage, long nanoTime) {
    if (!enabled) {
      return true;
    }
    if (!outage) {
      outagesInARow = 0;
      probing = false;
      move(State.CLOSED);
      return true;
    }
    switch (state) {
      case CLOSED:
        if (++outagesInARow >= threshold) {
          open(nanoTime);
        }
        return true;
      case HALF_OPEN:
        open(nanoTime);
        return false;
      default:
        return false;
    }
  }

  /** Nanoseconds until a probe may go, while open; 0 otherwise. */
  public synchronized long nanosUntilProbe(long nanoTime) {
    return state == State.OPEN ? Math.max(0, openUntil - nanoTime) : 0;
  }

  public synchronized State state() {
    return state;
  }

  @Override
  public String toString() {
    return enabled
        ? "after " + threshold + " outages in a row, " + coolDownNanos / 1_000_000 + " ms cool-down"
        : "off";
  }

  private void open(long nanoTime) {
    openUntil = nanoTime + coolDownNanos;
    probing = false;
    move(State.OPEN);
  }

  private void move(State next) {
    State previous = state;
    if (previous != next) {
      state = next;
      transitions.accept(previous, next);
    }
  }
}
