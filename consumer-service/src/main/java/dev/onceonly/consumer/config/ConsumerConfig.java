package dev.onceonly.consumer.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Every setting of consumer-service that is ours (Quarkus and connector keys aside). */
@ConfigMapping(prefix = "onceonly")
public interface ConsumerConfig {

  /** How orders turn into points. */
  Points points();

  /** Claim retention. */
  Claims claims();

  /** Retries of transient database failures inside the service. */
  Retry retry();

  /** The broker connection at start. */
  Broker broker();

  /** Several messages per transaction (DESIGN §4.6). */
  Batch batch();

  /**
   * Longest wait at start for a complete schema (both Flyway histories, nothing pending) before the
   * service stops, naming the migrations Job ({@code SCHEMA_WAIT}); meanwhile no message is taken.
   */
  @WithDefault("10m")
  Duration schemaWait();

  /** How often the queue-depth gauges are read from the broker ({@code QUEUE_DEPTH_REFRESH}). */
  @WithDefault("15s")
  Duration queueDepthRefresh();

  interface Batch {
    /**
     * Transactions running at once, each on its own thread: the consumer's database concurrency
     * ({@code CONSUMER_THREADS}).
     */
    @WithDefault("4")
    int committers();

    /**
     * Most messages one transaction takes ({@code CONSUMER_BATCH}). A committer takes what is
     * waiting, up to this, never waiting for more; 1 gives one transaction per message.
     */
    @WithDefault("16")
    int maxMessages();

    /**
     * How long a committer that found only a few messages waiting (under a quarter of the maximum)
     * waits for one more before it begins ({@code CONSUMER_BATCH_LINGER}). Fewer, fuller
     * transactions for at most this much latency; {@code 0ms} never waits.
     */
    @WithDefault("1ms")
    Duration linger();
  }

  interface Broker {
    /** How long the service waits for RabbitMQ at start before it refuses to start. */
    @WithDefault("30s")
    Duration startupTimeout();
  }

  interface Points {
    /** Cents of order total per loyalty point: 100 means one point per currency unit. */
    @WithDefault("100")
    long centsPerPoint();
  }

  interface Claims {
    /**
     * How long a claim is kept. A message whose event is older than this is rejected, because its
     * claim may already be gone. Ledger natural keys protect money beyond this window.
     */
    @WithDefault("30d")
    Duration retention();

    /** Rows deleted per retention transaction. */
    @WithDefault("1000")
    int retentionBatchSize();

    /** How often the retention job runs (a scheduler interval such as {@code 1h}). */
    @WithDefault("1h")
    String retentionInterval();

    /** Delay of the first retention run after start. */
    @WithDefault("1m")
    String retentionDelay();
  }

  interface Retry {
    /** Attempts for one message when the database answers 40001, 40P01 or drops the connection. */
    @WithDefault("5")
    int maxAttempts();

    /** Backoff before the second attempt; doubles each time. */
    @WithDefault("20ms")
    Duration initialBackoff();
  }
}
