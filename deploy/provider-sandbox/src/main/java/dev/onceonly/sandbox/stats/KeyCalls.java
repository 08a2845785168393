package dev.onceonly.sandbox.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The calls made with one idempotency key: how many, when, how the last one ended, and the W3C
 * {@code traceparent} each call came with (the first {@value #TRACEPARENTS_KEPT}).
 */
public final class KeyCalls {

  /** Traceparents kept per key; a key called more often than this is a broken caller anyway. */
  public static final int TRACEPARENTS_KEPT = 100;

  private final List<String> traceparents = new ArrayList<>();

  private final AtomicInteger count = new AtomicInteger();
  private final long firstReceivedAt;
  private volatile long lastReceivedAt;
  private volatile long lastAnsweredAt;
  private volatile String lastOutcome;

  KeyCalls(long receivedAt) {
    this.firstReceivedAt = receivedAt;
  }

  /**
   * Counts a call received at {@code at} (epoch millis) with its {@code traceparent} (null when it
   * had none); returns its number, from 1.
   */
  int received(long at, String traceparent) {
    lastReceivedAt = at;
    synchronized (traceparents) {
      if (traceparents.size() < TRACEPARENTS_KEPT) {
        traceparents.add(traceparent);
      }
    }
    return count.incrementAndGet();
  }

  /** The traceparent of each call, in the order received (null for a call without one). */
  public List<String> traceparents() {
    synchronized (traceparents) {
      return new ArrayList<>(traceparents);
    }
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
