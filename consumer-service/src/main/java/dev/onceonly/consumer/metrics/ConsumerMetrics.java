package dev.onceonly.consumer.metrics;

import dev.onceonly.consumer.ConsumerName;
import dev.onceonly.consumer.Outcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * Meters of the consumer: {@code onceonly.consumer.messages{consumer,outcome}} counts each decided
 * message, outcome one of applied, duplicate, conflict, rejected, dead_lettered, requeued; {@code
 * onceonly.consumer.handle{consumer}} times decode + wait for a committer + transaction (p50, p99
 * published); {@code onceonly.consumer.batch.messages} is the size of each claim transaction.
 */
@ApplicationScoped
public class ConsumerMetrics {

  private final Map<ConsumerName, Map<Outcome, Counter>> outcomes =
      new EnumMap<>(ConsumerName.class);
  private final Map<ConsumerName, Counter> deadLettered = new EnumMap<>(ConsumerName.class);
  private final Map<ConsumerName, Counter> requeued = new EnumMap<>(ConsumerName.class);
  private final Map<ConsumerName, Timer> handle = new EnumMap<>(ConsumerName.class);
  private final DistributionSummary batch;

  public ConsumerMetrics(MeterRegistry registry) {
    batch =
        DistributionSummary.builder("onceonly.consumer.batch.messages")
            .description("Messages per claim transaction (group commit)")
            .publishPercentiles(0.5, 0.99)
            .register(registry);
    for (ConsumerName consumer : ConsumerName.values()) {
      Map<Outcome, Counter> byOutcome = new EnumMap<>(Outcome.class);
      for (Outcome outcome : Outcome.values()) {
        byOutcome.put(outcome, counter(registry, consumer, outcome.tag()));
      }
      outcomes.put(consumer, byOutcome);
      deadLettered.put(consumer, counter(registry, consumer, "dead_lettered"));
      requeued.put(consumer, counter(registry, consumer, "requeued"));
      handle.put(
          consumer,
          Timer.builder("onceonly.consumer.handle")
              .description("Time to decode, claim and apply one message, commit included")
              .tag("consumer", consumer.value())
              .publishPercentiles(0.5, 0.99)
              .register(registry));
    }
  }

  public void outcome(ConsumerName consumer, Outcome outcome, Duration took) {
    outcomes.get(consumer).get(outcome).increment();
    handle.get(consumer).record(took);
  }

  /** One transaction of the group commit and how many messages it took. */
  public void batch(int messages) {
    batch.record(messages);
  }

  public void deadLettered(ConsumerName consumer) {
    deadLettered.get(consumer).increment();
  }

  public void requeued(ConsumerName consumer) {
    requeued.get(consumer).increment();
  }

  private static Counter counter(MeterRegistry registry, ConsumerName consumer, String outcome) {
    return Counter.builder("onceonly.consumer.messages")
        .description("Messages decided per consumer and outcome")
        .tag("consumer", consumer.value())
        .tag("outcome", outcome)
        .register(registry);
  }
}
