package dev.onceonly.relay.dispatch;

import dev.onceonly.relay.lease.Completion;
import dev.onceonly.relay.lease.LeasedRow;
import dev.onceonly.relay.lease.OutboxRepository;
import dev.onceonly.relay.logging.RowMdc;
import dev.onceonly.relay.metrics.RelayMetrics;
import dev.onceonly.relay.retry.Decision.Outcome;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import org.jboss.logging.Logger;

/** Writes finished attempts in one fenced transaction, then logs and counts what happened. */
@ApplicationScoped
public class Completer {

  private static final Logger LOG = Logger.getLogger(Completer.class);

  private final OutboxRepository repository;
  private final RelayMetrics metrics;

  public Completer(OutboxRepository repository, RelayMetrics metrics) {
    this.repository = repository;
    this.metrics = metrics;
  }

  public void complete(List<Completion> completions) {
    if (completions.isEmpty()) {
      return;
    }
    boolean[] held;
    try {
      held = repository.complete(completions);
    } catch (RuntimeException e) {
      LOG.warnf(
          e,
          "could not record %d outbox completions; their rows are retried when the lease expires",
          completions.size());
      return;
    }
    for (int i = 0; i < completions.size(); i++) {
      report(completions.get(i), held[i]);
    }
  }

  private void report(Completion c, boolean held) {
    LeasedRow row = c.row();
    Outcome outcome = held ? c.decision().outcome() : Outcome.LEASE_LOST;
    metrics.outcome(row.kind(), outcome);
    if (outcome == Outcome.DELIVERED) {
      metrics.delivered(row.kind(), Duration.between(row.createdAt(), c.finishedAt()));
    } else if (outcome != Outcome.RELEASED) {
      try (RowMdc mdc = RowMdc.of(row.id(), row.idempotencyKey())) {
        log(c, row, outcome);
      }
    }
  }

  private static void log(Completion c, LeasedRow row, Outcome outcome) {
    switch (outcome) {
      case LEASE_LOST:
        LOG.debugf(
            "outbox row %d (key %s) attempt %d: lease lost before completion, row left to its"
                + " new owner",
            (Object) row.id(), row.idempotencyKey(), row.attempt());
        break;
      case DEAD:
        LOG.errorf(
            "outbox row %d (%s, key %s) is dead after attempt %d: %s%s",
            row.id(),
            row.kind(),
            row.idempotencyKey(),
            row.attempt(),
            c.decision().reason(),
            row.orderingKey() == null
                ? ""
                : "; ordering key '" + row.orderingKey() + "' is parked until it is retried");
        break;
      case RETRY:
        LOG.debugf(
            "outbox row %d (key %s) attempt %d failed (%s), retry in %d ms",
            row.id(),
            row.idempotencyKey(),
            row.attempt(),
            c.response().describe(),
            c.decision().retryIn().toMillis());
        break;
      default:
        break;
    }
  }
}
