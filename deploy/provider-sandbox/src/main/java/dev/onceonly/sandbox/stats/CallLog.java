package dev.onceonly.sandbox.stats;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Per-key call counts of one API, kept small: a counter and three times per key, plus the two
 * figures that show keys were retried ({@code maxCallsForOneKey}, {@code keysCalledMoreThanOnce}).
 */
public final class CallLog {

  private final ConcurrentHashMap<String, KeyCalls> keys = new ConcurrentHashMap<>();
  private final LongAdder keysCalledMoreThanOnce = new LongAdder();
  private final AtomicInteger maxCallsForOneKey = new AtomicInteger();

  /**
   * Counts a call with {@code key} received at {@code at} with its {@code traceparent}; returns the
   * key's record.
   */
  public Received received(String key, long at, String traceparent) {
    KeyCalls calls = keys.get(key);
    if (calls == null) {
      calls = keys.computeIfAbsent(key, k -> new KeyCalls(at));
    }
    int number = calls.received(at, traceparent);
    if (number == 2) {
      keysCalledMoreThanOnce.increment();
    }
    if (number > maxCallsForOneKey.get()) {
      maxCallsForOneKey.accumulateAndGet(number, Math::max);
    }
    return new Received(calls, number);
  }

  public Optional<KeyCalls> calls(String key) {
    return Optional.ofNullable(keys.get(key));
  }

  public int keys() {
    return keys.size();
  }

  public long keysCalledMoreThanOnce() {
    return keysCalledMoreThanOnce.sum();
  }

  public int maxCallsForOneKey() {
    return maxCallsForOneKey.get();
  }

  public void clear() {
    keys.clear();
    keysCalledMoreThanOnce.reset();
    maxCallsForOneKey.set(0);
  }

  /** A received call: the key's record and the call's number with that key (from 1). */
  public record Received(KeyCalls calls, int number) {}
}
