package dev.onceonly.consumer.claim;

import dev.onceonly.consumer.config.ConsumerConfig;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * Deletes claims older than the retention window (default 30 days) in small batches, one short
 * transaction each, until none are left. Events older than the window are refused by {@link
 * IdempotentProcessor}, and ledger natural keys never expire.
 */
@ApplicationScoped
public class ClaimRetention {

  private static final Logger LOG = Logger.getLogger(ClaimRetention.class);

  private final ClaimRepository claims;
  private final Duration retention;
  private final int batchSize;

  public ClaimRetention(ClaimRepository claims, ConsumerConfig config) {
    this.claims = claims;
    this.retention = config.claims().retention();
    this.batchSize = config.claims().retentionBatchSize();
  }

  /** The instant before which claims are removed: a pure function of now and the window. */
  public static Instant cutoff(Instant now, Duration retention) {
    return now.minus(retention);
  }

  @Scheduled(
      identity = "claim-retention",
      every = "${onceonly.claims.retention-interval:1h}",
      delayed = "${onceonly.claims.retention-delay:1m}",
      concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
      skipExecutionIf = Scheduled.ApplicationNotRunning.class)
  void scheduled() {
    purge(Instant.now());
  }

  /** Removes every claim processed before the cut-off for {@code now}; returns how many. */
  public long purge(Instant now) {
    Instant cutoff = cutoff(now, retention);
    long total = 0;
    int deleted;
    do {
      deleted =
          QuarkusTransaction.requiringNew().call(() -> claims.deleteOlderThan(cutoff, batchSize));
      total += deleted;
    } while (deleted == batchSize);
    if (total > 0) {
      LOG.infof("claim retention removed %d claims processed before %s", total, cutoff);
    }
    return total;
  }
}
