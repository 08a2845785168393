package dev.onceonly.bench;

import dev.onceonly.model.EventCodec;
import dev.onceonly.model.OrderCompleted;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;

/**
 * The benchmark's events. Each one is a pure function of (run, series, index) and a fixed {@code
 * occurredAt}, so publishing a series again sends byte-identical bodies: the consumer must see
 * duplicates, never conflicts.
 */
final class EventFeed {

  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private final String run;
  private final String series;
  private final Instant occurredAt;
  private final int customers;

  EventFeed(String run, String series, Instant occurredAt, int customers) {
    this.run = run;
    this.series = series;
    this.occurredAt = occurredAt;
    this.customers = customers;
  }

  /** The {@code index}-th event of the series: a unique order of a customer spread over the ids. */
  OrderCompleted event(int index) {
    String orderId = "b" + run + "-" + series + "-" + index;
    int customer = (int) Math.floorMod(mix(orderId.hashCode() + (long) index), customers);
    return new OrderCompleted(
        UUID.nameUUIDFromBytes(orderId.getBytes(StandardCharsets.UTF_8)),
        orderId,
        "cust-" + customer,
        "cust-" + customer + "@bench.example",
        500 + Math.floorMod(mix(index), 20_000L),
        "EUR",
        occurredAt);
  }

  byte[] body(int index) {
    return EventCodec.encode(event(index));
  }

  /** Events {@code 0..count-1}, encoded: done before a measured phase, so that it costs nothing. */
  byte[][] bodies(int count) {
    byte[][] bodies = new byte[count][];
    for (int i = 0; i < count; i++) {
      bodies[i] = body(i);
    }
    return bodies;
  }

  private static long mix(long x) {
    long z = x * GOLDEN;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    return z ^ (z >>> 31);
  }
}
