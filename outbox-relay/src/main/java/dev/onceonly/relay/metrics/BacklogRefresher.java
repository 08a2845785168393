package dev.onceonly.relay.metrics;

import dev.onceonly.relay.lease.OutboxRepository;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * Refreshes the backlog gauges (in total and per destination) on a schedule, so a scrape never
 * queries the database.
 */
@ApplicationScoped
public class BacklogRefresher {

  private static final Logger LOG = Logger.getLogger(BacklogRefresher.class);

  private final OutboxRepository repository;
  private final RelayMetrics metrics;

  public BacklogRefresher(OutboxRepository repository, RelayMetrics metrics) {
    this.repository = repository;
    this.metrics = metrics;
  }

  @Scheduled(
      every = "${relay.stats-refresh:5s}",
      concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
      skipExecutionIf = Scheduled.ApplicationNotRunning.class)
  void refresh() {
    try {
      metrics.backlog(repository.backlogByDestination());
    } catch (RuntimeException e) {
      LOG.debugf(e, "outbox backlog not refreshed");
    }
  }
}
