package dev.onceonly.internal.processing;

import dev.onceonly.internal.config.OnceOnlyConfig;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Runs a whole transaction again when it failed for a transient reason (40001, 40P01, lost
 * connection), a bounded number of times with doubling backoff. Each run is a new transaction, so a
 * retry after a concurrent duplicate committed sees the claim and answers {@code duplicate}.
 */
@Singleton
public class TransactionRetry {

  private static final Logger LOG = Logger.getLogger(TransactionRetry.class);

  private final OnceOnlyConfig.Retry config;

  public TransactionRetry(OnceOnlyConfig config) {
    this.config = config.retry();
  }

  public <T> T run(String what, Supplier<T> transaction) {
    Duration backoff = config.initialBackoff();
    for (int attempt = 1; ; attempt++) {
      try {
        return transaction.get();
      } catch (RuntimeException e) {
        if (attempt >= config.maxAttempts() || !TransientFailures.isTransient(e)) {
          throw e;
        }
        LOG.debugf("transient failure on %s (attempt %d), retrying: %s", what, attempt, e);
        pause(backoff);
        backoff = backoff.multipliedBy(2);
      }
    }
  }

  private static void pause(Duration backoff) {
    try {
      Thread.sleep(backoff.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while backing off", e);
    }
  }
}
