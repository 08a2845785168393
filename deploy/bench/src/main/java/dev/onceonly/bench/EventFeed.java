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

  /** The feed of {@code --run --series --occurred-at [--customers 10000]}. */
  static EventFeed of(Options o) {
    return new EventFeed(
        o.require("run"),
        o.require("series"),
        Instant.parse(o.require("occurred-at")),
        o.getInt("customers", 10_000));
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

  /**
   * The {@code index}-th invalid message of the series, as the chaos suite's poison flood sends
   * them: even indexes not JSON, odd ones an order with a negative amount. Each is dead-lettered by
   * both consumers, never claimed.
   */
  byte[] poison(int index) {
    if (index % 2 == 0) {
      return ("not JSON: bench poison " + run + "-" + series + "-" + index)
          .getBytes(StandardCharsets.UTF_8);
    }
    OrderCompleted valid = event(index);
    return EventCodec.encode(
        new OrderCompleted(
            valid.eventId(),
            valid.orderId(),
            valid.customerId(),
            valid.customerEmail(),
            -valid.totalCents(),
            valid.currency(),
            valid.occurredAt()));
  }

  /** Invalid messages {@code 0..count-1}, encoded before a measured phase. */
  byte[][] poisonBodies(int count) {
    byte[][] bodies = new byte[count][];
    for (int i = 0; i < count; i++) {
      bodies[i] = poison(i);
    }
    return bodies;
  }

  /**
   * Events {@code 0..count-1} with an invalid message after every ninth, so that a tenth of what is
   * published is poison, as in the chaos suite's poisoned stretches.
   */
  byte[][] bodiesWithPoison(int count) {
    byte[][] bodies = new byte[count + count / 9][];
    int next = 0;
    for (int i = 0; i < count; i++) {
      bodies[next++] = body(i);
      if (i % 9 == 8) {
        bodies[next++] = poison(i);
      }
    }
    return bodies;
  }

  private static long mix(long x) {
    long z = x * GOLDEN;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    return z ^ (z >>> 31);
  }
}
