package dev.onceonly.internal.config;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithDefaults;
import io.smallrye.config.WithName;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every run-time setting of the platform, under {@code quarkus.onceonly}. Simple bounds are
 * declared here and all reported together at start; rules between settings are checked in code
 * ({@code ClaimSettingsCheck}).
 */
@ConfigMapping(prefix = "quarkus.onceonly")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface OnceOnlyConfig {

  /**
   * The PostgreSQL schema of the platform's own tables: claims ({@code processed_messages}, one
   * partition a day), {@code message_conflicts}, {@code rejections} and {@code audit_log}, with
   * their Flyway history {@code flyway_onceonly_history}.
   */
  @WithDefault("onceonly")
  @Pattern(regexp = "[a-z_][a-z0-9_]{0,62}", message = "must be a lower-case SQL identifier")
  String schema();

  /**
   * Whether the service migrates the platform's schema and the outbox at start. Off where a
   * migrations Job does it (Kubernetes): the consumers then wait for a complete schema.
   */
  @WithDefault("true")
  boolean migrateAtStart();

  /**
   * Longest wait at start for a complete schema (every Flyway history applied, nothing pending)
   * before the service stops, naming the migrations Job; meanwhile no message is taken.
   */
  @WithDefault("10m")
  Duration schemaWait();

  /** The claim window, the replay horizon and the daily partitions. */
  Claims claims();

  /** Several messages per transaction. */
  Batch batch();

  /** Retries of transient database failures. */
  Retry retry();

  /** Dead letters and the lines logged about invalid messages. */
  DeadLetters deadLetters();

  /** The broker connections of the platform's own (dead letters, replay, queue depths). */
  Broker broker();

  /** The queues the consumers' channels declare: their type and delivery limit. */
  Queues queues();

  /** The operator API, when enabled at build time ({@code quarkus.onceonly.api.enabled}). */
  Api api();

  /** Settings of one consumer, by its name; each has defaults. */
  @WithDefaults
  Map<String, Consumer> consumers();

  /** The claim window and its partitions. */
  interface Claims {
    /**
     * The claim window: a message whose event's UTC day lies within this many days before today
     * (today included) is claimed, and claims are kept that long, in daily partitions dropped once
     * beyond it. Older events are decided by the effects' permanent natural keys instead.
     */
    @WithDefault("30d")
    Duration retention();

    /**
     * How much older than the claim window an event may still be: within it, natural keys decide;
     * beyond it the event is rejected as {@code stale}. The relay keeps outbox keys for {@code
     * relay.retention.key-window}, which must be at least the claim window plus this.
     */
    @WithDefault("365d")
    Duration replayHorizon();

    /**
     * How far ahead of this service's clock an event may be dated; one dated later is rejected as
     * {@code future} and leaves no claim.
     */
    @WithDefault("1h")
    Duration maxFutureSkew();

    /** Daily claim partitions kept ready ahead of today. */
    @WithDefault("7")
    @Min(1)
    @Max(366)
    int partitionsAhead();

    /** How often partitions are created ahead and dropped beyond the window. */
    @WithDefault("1h")
    Duration retentionInterval();

    /** Delay of the first scheduled partition run after start (one runs at start as well). */
    @WithDefault("1m")
    String retentionDelay();
  }

  /** Group commit. */
  interface Batch {
    /** Transactions running at once, each on its own thread: the database concurrency. */
    @WithDefault("4")
    @Min(1)
    @Max(256)
    int committers();

    /** Most messages one transaction takes; 1 gives one transaction per message. */
    @WithDefault("16")
    @Min(1)
    @Max(10000)
    int maxMessages();

    /**
     * How long a committer that found only a few messages waiting (under a quarter of the maximum)
     * waits, at most, for a quarter of the maximum before it begins; {@code 0ms} never waits.
     */
    @WithDefault("1ms")
    Duration linger();
  }

  /** Retries of transient database failures. */
  interface Retry {
    /** Attempts for one message when the database answers 40001, 40P01 or drops the connection. */
    @WithDefault("5")
    @Min(1)
    @Max(100)
    int maxAttempts();

    /** Backoff before the second attempt; doubles each time. */
    @WithDefault("20ms")
    Duration initialBackoff();
  }

  /** Dead letters. */
  interface DeadLetters {
    /**
     * How long a dead letter waits for others to be published with it (64 waiting go at once); 0
     * publishes each at once. The original is acked only after the broker confirmed its dead
     * letter, so it holds its prefetch slot that long. 300 ms: with a tenth of the messages
     * invalid, batches of 100 ms left an invalid message costing 1.45 times a healthy one's CPU
     * over consumers, broker and database (chaos scenario 7), 300 ms brought it to 1.02.
     */
    @WithDefault("300ms")
    Duration linger();

    /**
     * At most one WARN line per consumer this often about invalid messages, the others summed up; 0
     * logs every one. Each is dead-lettered with its reason anyway.
     */
    @WithDefault("10s")
    Duration invalidLogInterval();

    /** The direct exchange every consumer's dead-letter queue is bound to, by its queue's name. */
    @WithDefault("onceonly.dlx")
    String exchange();

    /** The headers exchange replays go through, back to the one consumer that dead-lettered. */
    @WithDefault("onceonly.replay")
    String replayExchange();
  }

  /** The broker, as the platform's own connections see it. */
  interface Broker {
    /** How long the service waits for RabbitMQ at start before it refuses to start. */
    @WithDefault("30s")
    Duration startupTimeout();

    /** How often the queue-depth gauges are read from the broker. */
    @WithDefault("15s")
    Duration queueDepthRefresh();

    /**
     * Whether the messages a transaction committed share one {@code basic.ack} with {@code
     * multiple} ({@code docs/rabbitmq.md}, "Acks"); false acks each message on its own, as the
     * connector does.
     */
    @WithDefault("true")
    boolean coalesceAcks();

    /**
     * TLS (AMQPS) to the broker, for the messaging connector's channels and the platform's own
     * connections alike ({@code docs/tls.md}).
     */
    BrokerTls tls();
  }

  /** TLS to the broker. */
  interface BrokerTls {
    /** AMQPS on every broker connection ({@code rabbitmq-port} then names the TLS port, 5671). */
    @WithDefault("false")
    boolean enabled();

    /**
     * A PEM file of the CA certificates that may sign the broker's certificate (in Kubernetes, a
     * mounted Secret); absent: the JVM's trust store, right for a broker whose certificate a public
     * CA signed (Amazon MQ).
     */
    Optional<String> caFile();

    /** Whether the broker's certificate must name {@code rabbitmq-host}. */
    @WithDefault("true")
    boolean verifyHostname();
  }

  /**
   * The type of every queue the platform declares (each consumer's queue and its dead-letter queue)
   * and the consumer queues' delivery limit. RabbitMQ fixes a queue's type and arguments when it is
   * first declared: a service whose queues exist with another type refuses to start, naming the
   * move ({@code docs/rabbitmq.md}).
   */
  interface Queues {
    /**
     * {@code quorum}: replicated on a majority of a cluster's nodes, with a delivery limit; or
     * {@code classic}: declared as before quorum became the default, without a delivery limit.
     */
    @WithDefault("quorum")
    QueueType type();

    /**
     * How many times a message may come back to a consumer queue unacked (a crash, a lost
     * connection, a requeue) before RabbitMQ dead-letters it, on the next return, to the consumer's
     * dead-letter queue ({@code x-delivery-limit}, quorum queues only): a message that kills the
     * consumer every time stops doing it. Invalid messages are dead-lettered by the platform at
     * once, and a transient failure is requeued once only.
     */
    @WithDefault("20")
    @Min(1)
    @Max(1_000_000)
    int deliveryLimit();
  }

  /** The queue types the platform declares. */
  enum QueueType {
    QUORUM,
    CLASSIC;

    /** The value of {@code x-queue-type}. */
    public String argument() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** What the operator API shows. */
  interface Api {
    /**
     * Payload fields shown as {@code "***"} by the conflicts and rejections listings, matched by
     * name at any depth, ignoring case; the stored rows keep them.
     */
    @WithDefault("to,email,customerEmail,iban,accountNumber")
    List<String> redactFields();
  }

  /** One consumer's settings. */
  interface Consumer {
    /** The claim key's source when the event names none ({@code Keyed}). */
    Key key();

    /**
     * On Kafka, the most messages of this consumer in hand at once (decoded, waiting for or in a
     * claim transaction, not yet acked): the connector takes the next record only below it. On
     * RabbitMQ the channel's prefetch ({@code max-outstanding-messages}, 128) bounds them instead.
     */
    @WithDefault("128")
    @Min(1)
    int maxInFlight();
  }

  /** Where a consumer's message key comes from. */
  interface Key {
    /**
     * A top-level field of the JSON body holding the key; when set it wins over {@link #header}.
     */
    Optional<String> field();

    /**
     * The header holding the key: {@code message-id} means the AMQP {@code message-id} property on
     * RabbitMQ (a header of that name on Kafka).
     */
    @WithDefault("message-id")
    String header();

    /** Put before every key read, to keep one producer's keys apart from another's. */
    @WithName("prefix")
    Optional<String> prefix();
  }
}
