package dev.onceonly.relay.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Everything the relay can be told, under {@code relay.*} (see README "Configuration"). */
@ConfigMapping(prefix = "relay")
public interface RelayConfig {

  /** This relay's lease owner name; default: host name plus a random suffix. */
  Optional<String> id();

  /** Most rows leased in one lease transaction. */
  @WithDefault("50")
  int batchSize();

  /**
   * Most calls in flight at once to one destination, unless its own {@code max-in-flight} says
   * otherwise: each destination has room of its own, so one that hangs never takes another's.
   */
  @WithDefault("256")
  int maxInFlight();

  /** How long a lease lasts; after it, any relay may reclaim the row. Keep it above timeouts. */
  @WithDefault("60s")
  Duration leaseDuration();

  /** Longest wait between two polls when nothing wakes the relay earlier. */
  @WithDefault("2s")
  Duration pollInterval();

  /**
   * Under a trickle, the shortest time between two lease transactions and between two completion
   * writes: a stream of single-row commits then costs the database a bounded number of short
   * transactions a second instead of two per row, for at most this much added latency. A lease that
   * fills its batch is followed by the next at once, whatever this says. {@code 0ms} turns it off.
   */
  @WithDefault("5ms")
  Duration coalesce();

  /** Whether to {@code LISTEN outbox} and lease at once when a writer's commit notifies. */
  @WithDefault("true")
  boolean listenNotify();

  /** Whether rows sharing an {@code ordering_key} are delivered one at a time, oldest first. */
  @WithDefault("true")
  boolean ordering();

  /**
   * The longest {@code Retry-After} a provider's 429 or 5xx is honoured for ({@code
   * RELAY_RETRY_AFTER_MAX}). A longer one (a date years ahead, a number past any long) waits this
   * long: a throttled row, and its ordering key, are never parked for longer.
   */
  @WithDefault("15m")
  Duration retryAfterMax();

  /** How long shutdown waits for calls in flight before releasing their rows. */
  @WithDefault("10s")
  Duration shutdownTimeout();

  /**
   * Longest wait at start for the outbox schema (the migrations Job may still be running) before
   * the relay stops, naming the Job; meanwhile it is live and not ready.
   */
  @WithDefault("10m")
  Duration schemaWait();

  /** How often the pending-count and oldest-age gauges are refreshed from the database. */
  @WithDefault("15s")
  Duration statsRefresh();

  /**
   * One entry per destination this relay delivers to, by name: the outbox rows whose {@code kind}
   * is that name. Rows naming a destination configured nowhere wait, untouched.
   */
  Map<String, DestinationConfig> destinations();

  /** The operator API: redaction and replay limits. */
  OperationsConfig operations();

  /** Removal of delivered and cancelled rows. */
  RetentionConfig retention();

  /** What {@code /outbox} shows and how hard a replay may push a provider. */
  interface OperationsConfig {

    /** Payload fields shown as {@code "***"}, matched by name at any depth, ignoring case. */
    @WithDefault("to,email,customerEmail,iban,accountNumber")
    List<String> redactFields();

    /**
     * Rows a replay makes due per second: replayed rows get {@code available_at} this far apart.
     */
    @WithDefault("50")
    double replayRatePerSecond();

    /** Most rows one {@code POST /outbox/replay} moves (also its default {@code limit}). */
    @WithDefault("1000")
    int replayMaxRows();

    /** Most row ids listed in a replay's answer (a dry run lists every row it selected). */
    @WithDefault("100")
    int replayIdsShown();
  }

  /** Delivered and cancelled rows (with their attempts) are deleted once older than a window. */
  interface RetentionConfig {

    /** Whether the retention job runs. */
    @WithDefault("true")
    boolean enabled();

    /** How long delivered rows (from delivery) and cancelled rows (from cancellation) are kept. */
    @WithDefault("7d")
    Duration window();

    /**
     * How long an outbox key stays taken after its row was written ({@code
     * RELAY_RETENTION_KEY_WINDOW}): at least consumer-service's claim window plus its replay
     * horizon (30 + 365 days by default), so that every message it still accepts finds its key.
     */
    @WithDefault("400d")
    Duration keyWindow();

    /** Rows deleted per transaction. */
    @WithDefault("500")
    int batchSize();

    /** Most batches per run, so one run stays short; the next run goes on. */
    @WithDefault("200")
    int maxBatchesPerRun();

    /** How often the job runs. */
    @WithDefault("10m")
    Duration interval();
  }
}
