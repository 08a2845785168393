package dev.onceonly.pipeline;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Publishes the demo stream (see {@link FeedPlan}) and writes what it sent to {@code --summary}.
 * Redemptions go out only after the loyalty consumer has decided every phase-1 delivery, so that
 * which ones the balance covers follows from the stream, not from timing.
 *
 * <p>Options: {@code --consumer-management-url= --summary= [--customers=300] [--orders=1500]
 * [--cents-per-point=100] [--seed=] [--transport=rabbitmq|kafka] [--amqp-host= --amqp-port=
 * --amqp-vhost= --amqp-user= --amqp-password=] [--kafka-bootstrap=host:port]}
 */
public final class Feed {

  private static final Duration PHASE_TIMEOUT = Duration.ofMinutes(2);

  private Feed() {}

  public static void main(String[] args) throws Exception {
    Options options = new Options(args);
    String consumerManagementUrl = options.required("consumer-management-url");
    Path summaryFile = Path.of(options.required("summary"));
    long seed =
        Long.parseLong(
            options.text("seed", Long.toString(ThreadLocalRandom.current().nextLong(1, 1 << 30))));
    FeedPlan plan =
        FeedPlan.build(
            options.number("customers", 300),
            options.number("orders", 1500),
            options.number("cents-per-point", 100),
            seed,
            Instant.now());
    FeedSummary s = plan.summary();
    say(
        "%d orders of %d customers (seed %d): %d copies, %d published twice at the same moment,"
            + " 1 conflicting payload, %d poison, %d invalid, %d profile versions",
        s.uniqueOrders(),
        s.customers(),
        seed,
        s.orderCopies(),
        s.concurrentPairs(),
        s.poisonMessages(),
        s.invalidMessages(),
        s.profileMessages());

    long started = System.nanoTime();
    int returned;
    try (Sink publisher = Sink.open(options)) {
      publisher.publish(plan.opening());
      publisher.publish(plan.stream());
      publisher.publishTwice(plan.twins());
      publisher.publish(plan.closing());
      int phase1 = plan.opening().size() + plan.stream().size() + 2 * plan.twins().size() + 1;
      say("phase 1: %d messages confirmed by the broker in %d ms", phase1, millisSince(started));

      awaitLoyalty(consumerManagementUrl, s.orderDeliveries());
      publisher.publish(plan.redemptions());
      say(
          "phase 2: %d redemption messages (%d covered by the balance, %d not, the rest copies)",
          plan.redemptions().size(), s.redemptionsCovered(), s.redemptionsUncovered());
      returned = publisher.returned();
    }
    s.withReturned(returned).write(summaryFile);
    say("summary written to %s", summaryFile);
    if (returned > 0) {
      say("%d messages were returned unroutable: are the consumer's queues bound?", returned);
      System.exit(2);
    }
  }

  /** Waits until loyalty has decided every phase-1 delivery, so that balances are final. */
  private static void awaitLoyalty(String consumerManagementUrl, int deliveries) throws Exception {
    long deadline = System.nanoTime() + PHASE_TIMEOUT.toNanos();
    long decided = 0;
    while (System.nanoTime() < deadline) {
      decided = OutcomeCounters.scrape(consumerManagementUrl).decided("loyalty");
      if (decided >= deliveries) {
        say("loyalty has decided all %d phase-1 deliveries: balances are credited", deliveries);
        return;
      }
      Thread.sleep(250);
    }
    throw new IllegalStateException(
        "loyalty decided only "
            + decided
            + " of "
            + deliveries
            + " phase-1 deliveries within "
            + PHASE_TIMEOUT.toSeconds()
            + " s; see the consumer's log");
  }

  private static long millisSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }

  static void say(String format, Object... args) {
    System.out.printf("  feed: " + format + "%n", args);
  }
}
