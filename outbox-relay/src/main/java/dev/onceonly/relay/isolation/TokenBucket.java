package dev.onceonly.relay.isolation;

/**
 * A rate limit: at most {@code ratePerSecond} calls a second on average, in bursts of at most a
 * second's worth (at least one). Pure: time comes in as {@code nanoTime} arguments.
 */
public final class TokenBucket {

  private final double perNano;
  private final double capacity;
  private double tokens;
  private long refilledAt;

  public TokenBucket(double ratePerSecond, long nanoTime) {
    if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
      throw new IllegalArgumentException("rate-limit must be > 0, was " + ratePerSecond);
    }
    this.perNano = ratePerSecond / 1e9;
    this.capacity = Math.max(1.0, ratePerSecond);
    this.tokens = capacity;
    this.refilledAt = nanoTime;
  }

  /** How many calls may start now (whole tokens available). */
  public synchronized int available(long nanoTime) {
    refill(nanoTime);
    return (int) Math.floor(tokens);
  }

  /** {@code calls} calls started now; each takes a token. */
  public synchronized void take(int calls, long nanoTime) {
    refill(nanoTime);
    tokens = Math.max(0, tokens - calls);
  }

  /** Nanoseconds until {@code count} whole tokens are there (at most a burst's worth); 0: now. */
  public synchronized long nanosUntil(int count, long nanoTime) {
    refill(nanoTime);
    double wanted = Math.min(Math.max(1, count), Math.floor(capacity));
    return tokens >= wanted ? 0 : (long) Math.ceil((wanted - tokens) / perNano);
  }

  @Override
  public String toString() {
    return (perNano * 1e9) + " calls/s";
  }

  private void refill(long nanoTime) {
    long elapsed = nanoTime - refilledAt;
    if (elapsed > 0) {
      tokens = Math.min(capacity, tokens + elapsed * perNano);
      refilledAt = nanoTime;
    }
  }
}
