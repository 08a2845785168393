package dev.onceonly.relay.completion;

import dev.onceonly.relay.lease.LeasedRow;
import dev.onceonly.relay.logging.RowMdc;
import dev.onceonly.relay.metrics.RelayMetrics;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Writes finished attempts in one fenced transaction, then logs and counts what happened. If the
 * batch cannot be written, each completion is written on its own, so one that the database refuses
 * never costs the others their write (their rows would otherwise wait for their leases to expire
 * and be sent again).
 */
@ApplicationScoped
public class Completer {

  private static final Logger LOG = Logger.getLogger(Completer.class);

  private final CompletionRepository repository;
  private final RelayMetrics metrics;

  public Completer(CompletionRepository repository, RelayMetrics metrics) {
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
      if (completions.size() == 1) {
        failed(completions.get(0), e);
        return;
      }
      LOG.warnf(
          e,
          "could not record %d outbox completions together; writing each alone",
          completions.size());
      completions.forEach(c -> complete(List.of(c)));
      return;
    }
    for (int i = 0; i < completions.size(); i++) {
      report(completions.get(i), held[i]);
    }
  }

  private static void failed(Completion c, RuntimeException e) {
    LeasedRow row = c.row();
    try (RowMdc mdc = RowMdc.of(row.id(), row.idempotencyKey())) {
      LOG.errorf(
          e,
          "could not record attempt %d of outbox row %d (key %s, %s); the row is sent again"
              + " with the same key when its lease expires",
          row.attempt(),
          row.id(),
          row.idempotencyKey(),
          c.outcome().value());
    }
  }

  private void report(Completion c, boolean held) {
    LeasedRow row = c.row();
    Outcome outcome = held ? c.outcome() : Outcome.LEASE_LOST;
    metrics.outcome(row.kind(), outcome.value());
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
            c.rowError(),
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
            c.attemptError(),
            c.retryIn().toMillis());
        break;
      default:
        break;
    }
  }
}
