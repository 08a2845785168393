package dev.onceonly.consumer.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;

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

  /** Several messages per transaction (ARCHITECTURE.md §4.6). */
  Batch batch();

  /**
   * Longest wait at start for a complete schema (both Flyway histories, nothing pending) before the
   * service stops, naming the migrations Job ({@code SCHEMA_WAIT}); meanwhile no message is taken.
   */
  @WithDefault("10m")
  Duration schemaWait();

  /**
   * At most one WARN line per consumer this often about invalid messages, the others summed up
   * ({@code INVALID_LOG_INTERVAL}; 0 logs every one). Each is dead-lettered with its reason anyway.
   */
  @WithDefault("10s")
  Duration invalidLogInterval();

  /**
   * How long a dead letter waits for others to be published with it ({@code DEAD_LETTER_LINGER}; 0
   * publishes each at once). The original is acked only after the broker confirmed its dead letter.
   */
  @WithDefault("20ms")
  Duration deadLetterLinger();

  /** How often the queue-depth gauges are read from the broker ({@code QUEUE_DEPTH_REFRESH}). */
  @WithDefault("15s")
  Duration queueDepthRefresh();

  /** What the REST API shows. */
  Api api();

  interface Api {
    /**
     * Payload fields shown as {@code "***"} by {@code GET /conflicts} and {@code GET /rejections},
     * matched by name at any depth, ignoring case, as the relay's {@code
     * relay.operations.redact-fields} ({@code CONSUMER_REDACT_FIELDS}); the stored rows keep them.
     */
    @WithDefault("to,email,customerEmail,iban,accountNumber")
    List<String> redactFields();
  }

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
     * waits, at most, for a quarter of the maximum before it begins ({@code
     * CONSUMER_BATCH_LINGER}). Fewer, fuller transactions for at most this much latency; {@code
     * 0ms} never waits.
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
     * The claim window ({@code CLAIM_RETENTION}): a message whose event's UTC day lies within this
     * many days before today (today included) is claimed, and claims are kept that long, in daily
     * partitions dropped once beyond it. Older events are decided by the permanent natural keys
     * (ledger order and redemption ids, outbox keys) instead.
     */
    @WithDefault("30d")
    Duration retention();

    /**
     * How much older than the claim window an event may still be ({@code CLAIM_REPLAY_HORIZON}):
     * within it, natural keys decide (applied once if it never was, a duplicate otherwise); beyond
     * it the event is rejected as {@code stale}. The relay keeps outbox keys for {@code
     * relay.retention.key-window}, which must be at least the claim window plus this.
     */
    @WithDefault("365d")
    Duration replayHorizon();

    /**
     * How far ahead of this service's clock an event may be dated ({@code CLAIM_MAX_FUTURE_SKEW}).
     * One dated later is not applied and leaves no claim: it is rejected as {@code future}. At most
     * {@code partitions-ahead} days minus {@code retention-interval} (6d23h by default), so that
     * every event accepted finds its day's claim partition ({@link ClaimSettingsCheck}).
     */
    @WithDefault("1h")
    Duration maxFutureSkew();

    /**
     * Daily claim partitions kept ready ahead of today. {@code max-future-skew} plus {@code
     * retention-interval} must fit within these days, or the service refuses to start ({@link
     * ClaimSettingsCheck}).
     */
    @WithDefault("7")
    int partitionsAhead();

    /** How often partitions are created ahead and dropped beyond the window ({@code 1h}). */
    @WithDefault("1h")
    Duration retentionInterval();

    /** Delay of the first partition run after start (one runs at start as well). */
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
