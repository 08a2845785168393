package dev.onceonly.internal.catalog;

import dev.onceonly.api.Decoded;
import dev.onceonly.internal.config.OnceOnlyConfig.QueueType;
import dev.onceonly.internal.config.OnceOnlyConfig.Queues;
import dev.onceonly.internal.processing.Submission;
import java.time.Instant;

/** Consumers and messages for unit tests, with no handler or decoder behind them. */
public final class Specs {

  private Specs() {}

  /** A consumer named {@code name} on channel {@code name}, queue {@code onceonly.<name>}. */
  public static ConsumerSpec consumer(String name) {
    return new ConsumerSpec(name, name, "onceonly." + name, true, Object.class, null, null);
  }

  /** A message of consumer {@code loyalty} keyed {@code key}, whose payload is its key. */
  public static Submission submission(String key) {
    return new Submission(
        consumer("loyalty"),
        new Decoded<>(key, "test:" + key, Instant.now(), "customer-" + key),
        "f".repeat(64),
        key);
  }

  /** Settings of {@code quarkus.onceonly.queues}. */
  public static Queues queues(QueueType type, int deliveryLimit) {
    return new Queues() {
      @Override
      public QueueType type() {
        return type;
      }

      @Override
      public int deliveryLimit() {
        return deliveryLimit;
      }
    };
  }
}
