package dev.onceonly.internal.metrics;

import dev.onceonly.internal.catalog.ConsumerCatalog;
import dev.onceonly.internal.processing.Verdict;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Meters of the consumers: {@code onceonly.consumer.messages{consumer,outcome}} counts each decided
 * message, outcome one of applied, duplicate, conflict, rejected, dead_lettered, requeued; {@code
 * onceonly.consumer.handle{consumer}} times decode + wait for a committer + transaction (p50, p99
 * published); {@code onceonly.consumer.batch.messages} is the size of each claim transaction;
 * {@code onceonly.consumer.acks{consumer}} counts the acks sent to RabbitMQ, each settling one
 * message or more (messages ÷ acks is how many one ack settles).
 */
@Singleton
public class ConsumerMetrics {

  private final Map<String, Meters> byConsumer = new HashMap<>();
  private final DistributionSummary batch;

  @Inject
  public ConsumerMetrics(MeterRegistry registry, ConsumerCatalog catalog) {
    this(registry, catalog.names());
  }

  ConsumerMetrics(MeterRegistry registry, List<String> consumers) {
    batch =
        DistributionSummary.builder("onceonly.consumer.batch.messages")
            .description("Messages per claim transaction (group commit)")
            .publishPercentiles(0.5, 0.99)
            .register(registry);
    for (String consumer : consumers) {
      byConsumer.put(consumer, new Meters(registry, consumer));
    }
  }

  public void outcome(String consumer, Verdict verdict, Duration took) {
    Meters meters = byConsumer.get(consumer);
    meters.outcomes.get(verdict).increment();
    meters.handle.record(took);
  }

  /** One transaction of the group commit and how many messages it took. */
  public void batch(int messages) {
    batch.record(messages);
  }

  public void deadLettered(String consumer) {
    byConsumer.get(consumer).deadLettered.increment();
  }

  public void requeued(String consumer) {
    byConsumer.get(consumer).requeued.increment();
  }

  /** One ack sent to the broker for {@code consumer}, settling one message or more. */
  public void ackSent(String consumer) {
    byConsumer.get(consumer).acks.increment();
  }

  /** The meters of one consumer, registered once. */
  private static final class Meters {
    final Map<Verdict, Counter> outcomes = new EnumMap<>(Verdict.class);
    final Counter deadLettered;
    final Counter requeued;
    final Counter acks;
    final Timer handle;

    Meters(MeterRegistry registry, String consumer) {
      for (Verdict verdict : Verdict.values()) {
        outcomes.put(verdict, counter(registry, consumer, verdict.tag()));
      }
      deadLettered = counter(registry, consumer, "dead_lettered");
      requeued = counter(registry, consumer, "requeued");
      acks =
          Counter.builder("onceonly.consumer.acks")
              .description("Acks sent to the broker, each settling one message or more")
              .tag("consumer", consumer)
              .register(registry);
      handle =
          Timer.builder("onceonly.consumer.handle")
              .description("Time to decode, claim and apply one message, commit included")
              .tag("consumer", consumer)
              .publishPercentiles(0.5, 0.99)
              .register(registry);
    }

    private static Counter counter(MeterRegistry registry, String consumer, String outcome) {
      return Counter.builder("onceonly.consumer.messages")
          .description("Messages decided per consumer and outcome")
          .tag("consumer", consumer)
          .tag("outcome", outcome)
          .register(registry);
    }
  }
}
