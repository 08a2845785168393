package dev.onceonly.relay.dispatch;

import dev.onceonly.relay.destination.Destinations.Route;
import dev.onceonly.relay.isolation.Breaker;
import dev.onceonly.relay.isolation.TokenBucket;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One destination as one poller sees it: how many of its rows the poller holds (leased, their
 * outcome not written yet) against its {@code max-in-flight}, and what its breaker and rate limit
 * allow. A poller leases each destination's rows as far as its own room goes, so a destination that
 * hangs fills only its own room and never another's.
 */
final class Lane {

  private final String name;
  private final int maxInFlight;
  private final int worthLeasing;
  private final Breaker breaker;
  private final TokenBucket rate;
  private final AtomicInteger held = new AtomicInteger();

  /** Whether its last lease filled what it asked for (more may be due). Poller thread only. */
  private boolean mayHaveMore = true;

  Lane(Route route, int batchSize) {
    this.name = route.name();
    this.maxInFlight = route.maxInFlight();
    // Under load, wait for room for a good batch rather than leasing rows one by one as single
    // calls finish: fewer, fuller lease transactions. A finishing call wakes the loop.
    this.worthLeasing = Math.max(1, Math.min(batchSize, maxInFlight / 2));
    this.breaker = route.breaker();
    this.rate = route.rateLimit();
  }

  String name() {
    return name;
  }

  /** How many rows to lease now: 0 when its room, breaker or rate limit allows none. */
  int wanted(int batchSize, long nanoTime) {
    int holding = held.get();
    int room = maxInFlight - holding;
    if (room <= 0 || (room < worthLeasing && holding > 0)) {
      return 0;
    }
    int wanted = Math.min(batchSize, room);
    wanted = Math.min(wanted, breaker.permits(nanoTime));
    if (rate != null && wanted > 0) {
      wanted = Math.min(wanted, rate.available(nanoTime));
    }
    return wanted;
  }

  /** The poller leased {@code rows} of the {@code wanted} it asked for. */
  void leased(int rows, int wanted, long nanoTime) {
    held.addAndGet(rows);
    mayHaveMore = rows >= wanted;
    breaker.started(rows, nanoTime);
    if (rate != null) {
      rate.take(rows, nanoTime);
    }
  }

  /** {@code rows} of its rows no longer hold room: their outcome is written, or given up. */
  void released(int rows) {
    held.addAndGet(-rows);
  }

  int held() {
    return held.get();
  }

  /**
   * Nanoseconds until it may lease again though nothing of its own finishes (a finishing call wakes
   * the poller anyway): the rest of its breaker's cool-down, or the next token of its rate limit
   * while rows may be waiting; {@link Long#MAX_VALUE} when nothing but its room blocks it.
   */
  long nanosUntilUnblocked(long nanoTime) {
    long probe = breaker.nanosUntilProbe(nanoTime);
    if (probe > 0) {
      return probe;
    }
    if (rate != null && mayHaveMore && held.get() < maxInFlight) {
      // Wait for tokens worth a lease, not for each single one: a fast rate limit would otherwise
      // cost a lease transaction per row.
      long tokens = rate.nanosUntil(worthLeasing, nanoTime);
      if (tokens > 0) {
        return tokens;
      }
    }
    return Long.MAX_VALUE;
  }
}
