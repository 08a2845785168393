package dev.onceonly.relay.operations;

/**
 * One destination's attempts over a window of minutes, oldest minute first: how many delivered a
 * row and how many failed (retried or dead).
 */
public record Activity(long[] delivered, long[] failed) {

  static Activity empty(int minutes) {
    return new Activity(new long[minutes], new long[minutes]);
  }

  public long deliveredTotal() {
    long total = 0;
    for (long n : delivered) {
      total += n;
    }
    return total;
  }

  public long failedTotal() {
    long total = 0;
    for (long n : failed) {
      total += n;
    }
    return total;
  }
}
