package dev.onceonly.chaos;

import dev.onceonly.model.EventCodec;
import dev.onceonly.model.OrderCompleted;
import dev.onceonly.pipeline.FeedPlan;
import dev.onceonly.pipeline.FeedSummary;
import dev.onceonly.pipeline.Outgoing;
import dev.onceonly.pipeline.Sink;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * Publishes a scenario's stream: the pipeline's {@link FeedPlan} (orders with duplicates, copies
 * published from two channels at the same moment, a conflict, a poison and an invalid message,
 * profile versions out of order, then redemptions once loyalty has credited every order), its
 * middle spread over a time window so that the fault meets traffic, and optionally a share of extra
 * invalid messages. A chunk the broker does not confirm (a connection closed, the broker stopped)
 * is published again: copies are what the consumers absorb anyway. The stream goes to RabbitMQ's
 * exchange or to Kafka's topics, whichever {@link Sinks} opens.
 */
final class Traffic {

  /**
   * The stream of one scenario. With a {@code poisonShare}, the middle is cut into {@code blocks}
   * stretches and extra invalid messages make that share of every other pair of them, the first
   * pair or, {@code mirrored}, the second ({@link PoisonBlocks}).
   */
  record Spec(
      int customers,
      int orders,
      double hotShare,
      double poisonShare,
      int blocks,
      boolean mirrored,
      long seed) {

    Spec {
      if (poisonShare > 0) {
        PoisonBlocks.requireBalanced(blocks);
      }
    }

    /** A stream without extra invalid messages. */
    Spec(int customers, int orders, double hotShare, long seed) {
      this(customers, orders, hotShare, 0, 0, false, seed);
    }

    /** The same stream with the poisoned and clean stretches swapped, or not. */
    Spec mirrored(boolean swapped) {
      return new Spec(customers, orders, hotShare, poisonShare, blocks, swapped, seed);
    }
  }

  /**
   * What was sent: the plan's summary, the extra invalid messages, every publish counted, and the
   * stretches of the middle (empty unless the spec asked for them).
   */
  record Sent(
      FeedSummary summary,
      int extraInvalid,
      long published,
      long republished,
      List<PoisonBlocks.Block> blocks) {

    Sent(FeedSummary summary, int extraInvalid, long published, long republished) {
      this(summary, extraInvalid, published, republished, List.of());
    }

    /** Messages every order-consuming queue must dead-letter: the plan's bad ones and the extra. */
    int badPerOrderQueue() {
      return summary.poisonMessages() + summary.invalidMessages() + extraInvalid;
    }
  }

  /** Opens a publisher for one chunk: a connection or a producer of its own each time. */
  @FunctionalInterface
  interface Sinks {
    Sink open() throws Exception;
  }

  private static final int CHUNKS = 20;

  private final Sinks sinks;
  private final ChaosDb db;
  private final AtomicLong published = new AtomicLong();
  private final AtomicLong republished = new AtomicLong();
  private final BooleanSupplier settledShort;

  Traffic(Sinks sinks, ChaosDb db) {
    this(sinks, db, () -> false);
  }

  /**
   * A stream that may lose orders (a failover without a synchronous standby): phase 1 also ends
   * when {@code settledShort} says nothing more will be credited, and the redemptions follow.
   */
  Traffic(Sinks sinks, ChaosDb db, BooleanSupplier settledShort) {
    this.sinks = sinks;
    this.db = db;
    this.settledShort = settledShort;
  }

  static FeedPlan plan(Spec spec) {
    return FeedPlan.build(
        spec.customers(), spec.orders(), 100, spec.seed(), Instant.now(), spec.hotShare());
  }

  /** Something to do between the publishing steps of a run. */
  @FunctionalInterface
  interface Step {
    void run() throws Exception;
  }

  /**
   * Publishes phase 1 over {@code spread}, waits (at most {@code timeout}) until every order is
   * credited, runs {@code betweenPhases}, then publishes the redemptions.
   */
  Sent run(Spec spec, Duration spread, Duration timeout, Runnable betweenPhases) throws Exception {
    return run(spec, spread, timeout, () -> {}, betweenPhases::run);
  }

  /**
   * As {@link #run(Spec, Duration, Duration, Runnable)}, running {@code phaseOneOut} once phase 1
   * is out.
   */
  Sent run(Spec spec, Duration spread, Duration timeout, Step phaseOneOut, Step betweenPhases)
      throws Exception {
    FeedPlan plan = plan(spec);
    long deadline = System.nanoTime() + timeout.toNanos();
    List<Outgoing> middle = new ArrayList<>(plan.stream());
    Collections.shuffle(middle, new Random(spec.seed()));
    int extra = 0;
    List<PoisonBlocks.Block> blocks = List.of();
    if (spec.poisonShare() > 0) {
      Random rnd = new Random(spec.seed() ^ 0x5eed);
      AtomicInteger numbered = new AtomicInteger();
      PoisonBlocks.Layout layout =
          PoisonBlocks.layout(
              middle,
              PoisonBlocks.keys(plan.opening()),
              spec.blocks(),
              spec.mirrored(),
              spec.poisonShare(),
              count -> invalid(numbered.getAndAdd(count), count, rnd),
              new Random(spec.seed()));
      middle = layout.messages();
      blocks = layout.blocks();
      extra = blocks.stream().mapToInt(PoisonBlocks.Block::invalid).sum();
    }

    publish(plan.opening(), deadline, false);
    int chunk = Math.max(1, (middle.size() + CHUNKS - 1) / CHUNKS);
    long pause = spread.toMillis() / CHUNKS;
    for (int from = 0; from < middle.size(); from += chunk) {
      publish(middle.subList(from, Math.min(middle.size(), from + chunk)), deadline, false);
      Thread.sleep(pause);
    }
    publish(plan.twins(), deadline, true);
    publish(plan.closing(), deadline, false);
    phaseOneOut.run();
    awaitCredited(plan.summary().uniqueOrders(), deadline);
    betweenPhases.run();
    publish(plan.redemptions(), deadline, false);
    return new Sent(plan.summary(), extra, published.get(), republished.get(), blocks);
  }

  /**
   * {@code count} extra invalid messages on order.completed, numbered from {@code first}: half not
   * JSON, half with a negative amount.
   */
  static List<Outgoing> invalid(int first, int count, Random rnd) {
    List<Outgoing> bad = new ArrayList<>();
    for (int i = first; i < first + count; i++) {
      byte[] body =
          i % 2 == 0
              ? ("not JSON: chaos poison #" + i).getBytes(StandardCharsets.UTF_8)
              : EventCodec.encode(
                  new OrderCompleted(
                      new UUID(rnd.nextLong(), rnd.nextLong()),
                      String.format("ord-bad-%05d", i),
                      "cust-0001",
                      "x@example.com",
                      -100 - i,
                      "EUR",
                      Instant.now()));
      bad.add(new Outgoing("order.completed", body));
    }
    return bad;
  }

  private void publish(List<Outgoing> messages, long deadline, boolean twice) throws Exception {
    if (messages.isEmpty()) {
      return;
    }
    Exception last = null;
    for (int attempt = 0; System.nanoTime() < deadline; attempt++) {
      try (Sink sink = sinks.open()) {
        if (twice) {
          sink.publishTwice(messages);
        } else {
          sink.publish(messages);
        }
        published.addAndGet((long) messages.size() * (twice ? 2 : 1));
        if (attempt > 0) {
          republished.addAndGet(messages.size());
        }
        return;
      } catch (Exception e) {
        last = e;
        Thread.sleep(500);
      }
    }
    throw new IllegalStateException("the broker did not confirm a chunk before the deadline", last);
  }

  private void awaitCredited(int orders, long deadline) throws Exception {
    while (System.nanoTime() < deadline) {
      try {
        if (db.credited() >= orders || settledShort.getAsBoolean()) {
          return;
        }
      } catch (java.sql.SQLException e) {
        // the database is down in this scenario: ask again
      }
      Thread.sleep(250);
    }
    throw new IllegalStateException("loyalty did not credit all " + orders + " orders in time");
  }
}
