package dev.onceonly.relay.retention;

import dev.onceonly.relay.config.RelayConfig;
import dev.onceonly.relay.config.RelayConfig.RetentionConfig;
import dev.onceonly.relay.metrics.RelayMetrics;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BiFunction;
import org.jboss.logging.Logger;

/**
 * Removes delivered rows older than {@code relay.retention.window} (from delivery) and cancelled
 * rows older than it (from cancellation), in batches of {@code relay.retention.batch-size}, at most
 * {@code max-batches-per-run} per run. Pending, in-flight and dead rows are never removed. Outbox
 * keys stay much longer, {@code relay.retention.key-window} from when they were taken: a message
 * replayed after its row is gone still finds its key taken.
 */
@ApplicationScoped
public class RetentionJob {

  private static final Logger LOG = Logger.getLogger(RetentionJob.class);

  private final RetentionRepository repository;
  private final RetentionConfig config;
  private final RelayMetrics metrics;

  /** Rows and keys deleted by one run. */
  public record Removed(long delivered, long cancelled, long keys) {}

  public RetentionJob(RetentionRepository repository, RelayConfig config, RelayMetrics metrics) {
    this.repository = repository;
    this.config = config.retention();
    this.metrics = metrics;
  }

  @Scheduled(
      every = "${relay.retention.interval:10m}",
      delayed = "${relay.retention.interval:10m}",
      concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
      skipExecutionIf = Scheduled.ApplicationNotRunning.class)
  void scheduled() {
    if (!config.enabled()) {
      return;
    }
    try {
      run(Instant.now());
    } catch (RuntimeException e) {
      LOG.warnf(e, "outbox retention failed; the next run tries again");
    }
  }

  /** One run as of {@code now}. */
  public Removed run(Instant now) {
    Instant cutoff = cutoff(now, config.window());
    long delivered = drain(repository::deleteDelivered, cutoff);
    long cancelled = drain(repository::deleteCancelled, cutoff);
    long keys = drain(repository::deleteKeys, keyCutoff(now, config.window(), config.keyWindow()));
    metrics.retained("delivered", delivered);
    metrics.retained("cancelled", cancelled);
    metrics.retained("keys", keys);
    if (delivered + cancelled + keys > 0) {
      LOG.infof(
          "outbox retention removed %d delivered and %d cancelled rows finished before %s, and %d"
              + " keys taken more than %s ago",
          delivered, cancelled, cutoff, keys, config.keyWindow());
    }
    return new Removed(delivered, cancelled, keys);
  }

  /** Keys taken before the returned instant are removed; never sooner than their rows. */
  static Instant keyCutoff(Instant now, Duration rowWindow, Duration keyWindow) {
    if (keyWindow.compareTo(rowWindow) < 0) {
      throw new IllegalArgumentException(
          "relay.retention.key-window ("
              + keyWindow
              + ") must not be shorter than relay.retention.window ("
              + rowWindow
              + ")");
    }
    return now.minus(keyWindow);
  }

  /** Rows that finished before the returned instant are removed. */
  static Instant cutoff(Instant now, Duration window) {
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("relay.retention.window must be > 0, was " + window);
    }
    return now.minus(window);
  }

  private long drain(BiFunction<Instant, Integer, Integer> batch, Instant cutoff) {
    int size = Math.max(1, config.batchSize());
    long total = 0;
    for (int i = 0; i < config.maxBatchesPerRun(); i++) {
      int deleted = batch.apply(cutoff, size);
      total += deleted;
      if (deleted < size) {
        break;
      }
    }
    return total;
  }
}
