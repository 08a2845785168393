package dev.onceonly.sandbox.stats;

import java.util.concurrent.atomic.AtomicInteger;

/** The calls made with one idempotency key: how many, when, and how the last one ended. */
public final class KeyCalls {

  private final AtomicInteger count = new AtomicInteger();
  private final long firstReceivedAt;
  private volatile long lastReceivedAt;
  private volatile long lastAnsweredAt;
  private volatile String lastOutcome;

  KeyCalls(long receivedAt) {
    this.firstReceivedAt = receivedAt;
  }

  /** Counts a call received at {@code at} (epoch millis); returns its number, from 1. */
  int received(long at) {
    lastReceivedAt = at;
    return count.incrementAndGet();
  }

  /** Records how a call ended and when (epoch millis). */
  public void answered(long at, String outcome) {
    lastAnsweredAt = at;
    lastOutcome = outcome;
  }

  public int count() {
    return count.get();
  }

  public long firstReceivedAt() {
    return firstReceivedAt;
  }

  public long lastReceivedAt() {
    return lastReceivedAt;
  }

  /** Epoch millis of the last answer, 0 if none yet. */
  public long lastAnsweredAt() {
    return lastAnsweredAt;
  }

  /** Outcome of the last answered call, null if none yet. */
  public String lastOutcome() {
    return lastOutcome;
  }
}
