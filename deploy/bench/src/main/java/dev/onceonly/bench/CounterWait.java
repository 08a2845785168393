package dev.onceonly.bench;

import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * Waits until both consumers' counter of one outcome (applied, duplicate) has grown by a target. A
 * scrape of {@code /q/metrics} costs the consumer about 10 ms of CPU, so the poll interval adapts
 * to the expected time left: up to 1 s while far from the target, down to 25 ms near it; the end of
 * a phase is thus seen within a few tens of milliseconds at a cost of about 1 % of a core.
 */
final class CounterWait {

  private static final long MIN_SLEEP_MS = 25;
  private static final long MAX_SLEEP_MS = 1_000;

  private final MetricsProbe metrics;
  private final List<String> consumers;
  private final String outcome;
  private final boolean poisoned;
  private final long stallNanos;
  private final WindowQuantiles quantiles;

  /** {@code poisoned}: invalid messages are published too, so dead letters are expected. */
  CounterWait(
      MetricsProbe metrics,
      List<String> consumers,
      String outcome,
      boolean poisoned,
      long stallSeconds) {
    this.metrics = metrics;
    this.consumers = consumers;
    this.outcome = outcome;
    this.poisoned = poisoned;
    this.stallNanos = stallSeconds * 1_000_000_000L;
    this.quantiles = new WindowQuantiles(consumers, 10);
  }

  /** The handle-time quantiles read during the last {@link #await}. */
  WindowQuantiles quantiles() {
    return quantiles;
  }

  /**
   * Returns the first snapshot in which both counters grew by {@code count} since {@code before};
   * {@code check} runs before every poll (it throws if the publisher failed).
   */
  MetricsProbe.Snapshot await(
      MetricsProbe.Snapshot before, int count, long startedNanos, String label, Runnable check)
      throws IOException, InterruptedException {
    MetricsProbe.Snapshot after = before;
    double reached = 0;
    long lastMove = System.nanoTime();
    long lastReport = lastMove;
    while (reached < count) {
      double elapsed = Math.max(1e-3, (System.nanoTime() - startedNanos) / 1e9);
      double rate = Math.max(1, reached / elapsed);
      long sleep = (long) (500 * (count - reached) / rate); // half the expected time left
      Thread.sleep(Math.max(MIN_SLEEP_MS, Math.min(MAX_SLEEP_MS, sleep)));
      check.run();
      after = metrics.read();
      double now = progress(before, after);
      quantiles.read(after, (System.nanoTime() - startedNanos) / 1e9, now >= count);
      if (now > reached) {
        reached = now;
        lastMove = System.nanoTime();
      } else if (System.nanoTime() - lastMove > stallNanos) {
        throw new IllegalStateException(
            String.format(
                Locale.ROOT,
                "stalled: %s reached %.0f of %d for %d s; other outcomes: %s",
                outcome,
                reached,
                count,
                stallNanos / 1_000_000_000L,
                unexpected(before, after)));
      }
      if (System.nanoTime() - lastReport > 5_000_000_000L) {
        lastReport = System.nanoTime();
        System.err.printf(
            Locale.ROOT,
            "  %s %s: %.0f / %d after %.0f s%n",
            label,
            outcome,
            reached,
            count,
            elapsed);
      }
    }
    return after;
  }

  /** The smaller of the consumers' growth of the awaited counter. */
  double progress(MetricsProbe.Snapshot from, MetricsProbe.Snapshot to) {
    double least = Double.MAX_VALUE;
    for (String c : consumers) {
      least = Math.min(least, to.messages(c, outcome) - from.messages(c, outcome));
    }
    return least;
  }

  /** Outcomes that should not happen in a benchmark run, as {@code consumer:outcome:n,...}. */
  String unexpected(MetricsProbe.Snapshot from, MetricsProbe.Snapshot to) {
    StringBuilder s = new StringBuilder();
    for (String c : consumers) {
      for (String o : List.of("conflict", "rejected", "dead_lettered", "requeued")) {
        if (o.equals(outcome) || (poisoned && o.equals("dead_lettered"))) {
          continue;
        }
        double n = to.messages(c, o) - from.messages(c, o);
        if (n > 0) {
          s.append(s.length() == 0 ? "" : ",").append(c).append(':').append(o).append(':');
          s.append((long) n);
        }
      }
    }
    return s.length() == 0 ? "none" : s.toString();
  }
}
