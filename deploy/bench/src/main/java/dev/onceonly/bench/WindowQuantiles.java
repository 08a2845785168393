package dev.onceonly.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Averages the consumer's handle-time quantile gauges over a phase. Micrometer publishes p50 and
 * p99 of a decaying window (about 10 s with the step the benchmark sets), so one reading at the end
 * describes only the phase's tail, and is empty for a consumer that finished early. Readings are
 * taken at every poll once the window holds only this phase (after {@code windowSeconds}), plus the
 * last one; the figures are the mean of the non-empty readings and the largest p99.
 */
final class WindowQuantiles {

  private final List<String> consumers;
  private final double windowSeconds;
  private final Map<String, double[]> sums = new HashMap<>(); // p50 sum, p99 sum, n, p99 max

  WindowQuantiles(List<String> consumers, double windowSeconds) {
    this.consumers = consumers;
    this.windowSeconds = windowSeconds;
  }

  /** One reading, taken {@code elapsed} seconds into the phase; {@code last} forces it in. */
  void read(MetricsProbe.Snapshot snapshot, double elapsed, boolean last) {
    if (elapsed < windowSeconds && !last) {
      return;
    }
    for (String c : consumers) {
      double p50 = snapshot.quantile(c, "0.5");
      double p99 = snapshot.quantile(c, "0.99");
      if (p99 > 0) {
        double[] s = sums.computeIfAbsent(c, k -> new double[4]);
        s[0] += p50;
        s[1] += p99;
        s[2]++;
        s[3] = Math.max(s[3], p99);
      }
    }
  }

  double p50Millis(String consumer) {
    double[] s = sums.get(consumer);
    return s == null ? 0 : 1000 * s[0] / s[2];
  }

  double p99Millis(String consumer) {
    double[] s = sums.get(consumer);
    return s == null ? 0 : 1000 * s[1] / s[2];
  }

  double p99MaxMillis(String consumer) {
    double[] s = sums.get(consumer);
    return s == null ? 0 : 1000 * s[3];
  }

  int readings(String consumer) {
    double[] s = sums.get(consumer);
    return s == null ? 0 : (int) s[2];
  }
}
