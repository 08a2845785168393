package dev.onceonly.relay.dispatch;

import dev.onceonly.relay.lease.OutboxRepository.IdBounds;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The lowest outbox id a poller's next lease needs to look at. Every delivered row leaves dead
 * entries at the low end of the lease index until VACUUM removes them, and a lease that starts at
 * the first entry walks all of them: 4 ms and 996 index pages per lease with 400,000 dead entries,
 * measured here with autovacuum off, which took a 50,000-row drain from about 10,000 to 7,500 rows
 * per second. A lease that starts at the floor skips them.
 *
 * <p>The floor is the lower of the lowest id still pending or in flight and one past the highest id
 * seen at the reading before, taken at most {@code refresh} apart. A transaction that took its id
 * before the earlier reading and commits after the later one leaves a row below the floor: it is
 * found by the next reading (the poller also takes one at once when a lease comes back empty while
 * a row is due), so it is delivered late, never lost. So is a dead row an operator sends back.
 */
final class LeaseFloor {

  private final long refreshNanos;
  private final LongSupplier nanoTime;
  private volatile long floor; // written by the poller only; read by tests
  private long highestBefore;
  private long readAt;
  private boolean read;

  LeaseFloor(Duration refresh) {
    this(refresh, System::nanoTime);
  }

  LeaseFloor(Duration refresh, LongSupplier nanoTime) {
    this.refreshNanos = refresh.toNanos();
    this.nanoTime = nanoTime;
  }

  /** The id a lease starts at; 0 until the first reading. */
  long value() {
    return floor;
  }

  /** Whether a new reading is due. */
  boolean stale() {
    return !read || nanoTime.getAsLong() - readAt >= refreshNanos;
  }

  /** Takes a reading of the outbox's ids; returns whether the floor went down. */
  boolean update(IdBounds bounds) {
    long lowest = bounds.lowestWaiting().orElse(Long.MAX_VALUE);
    long next = Math.min(lowest, highestBefore + 1);
    boolean lowered = next < floor;
    floor = next;
    // The latest highest id, not the highest ever seen: ids may start again lower (a table
    // emptied or restored), and the floor must follow them down.
    highestBefore = bounds.highest();
    readAt = nanoTime.getAsLong();
    read = true;
    return lowered;
  }
}
