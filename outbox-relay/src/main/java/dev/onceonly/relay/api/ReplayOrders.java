package dev.onceonly.relay.api;

import dev.onceonly.model.OutboxStatus;
import dev.onceonly.relay.config.RelayConfig;
import dev.onceonly.relay.operations.OutboxFilter;
import dev.onceonly.relay.operations.ReplayOrder;
import dev.onceonly.web.Params;
import dev.onceonly.web.ProblemException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/** Checks a replay request (from the API or the console) and turns it into a replay order. */
@ApplicationScoped
public class ReplayOrders {

  private final KnownKinds kinds;
  private final int maxRows;

  public ReplayOrders(KnownKinds kinds, RelayConfig config) {
    this.kinds = kinds;
    this.maxRows = config.operations().replayMaxRows();
  }

  /** The most rows one replay moves ({@code relay.operations.replay-max-rows}). */
  public int maxRows() {
    return maxRows;
  }

  public ReplayOrder order(ReplayRequest request) {
    if (request == null) {
      throw ProblemException.badRequest(
          "send a JSON filter body, e.g. {\"kind\":\"send_receipt\",\"dryRun\":true};"
              + " {} replays every dead row up to the limit");
    }
    OutboxStatus status = OutboxParams.status(request.status());
    if (status != null && status != OutboxStatus.DEAD) {
      throw ProblemException.badRequest(
          "replay moves dead rows back to pending, so status must be dead or left out, was '"
              + request.status()
              + "' (cancelled rows are final; pending and in_flight rows are already on their"
              + " way)");
    }
    Instant after = Params.timestamp("createdAfter", request.createdAfter());
    Instant before = Params.timestamp("createdBefore", request.createdBefore());
    Params.range(after, before);
    int limit = request.limit() == null ? maxRows : request.limit();
    if (limit < 1 || limit > maxRows) {
      throw ProblemException.badRequest(
          "limit must be from 1 to "
              + maxRows
              + " (relay.operations.replay-max-rows), was "
              + request.limit()
              + "; replay more in further calls");
    }
    OutboxFilter filter =
        new OutboxFilter(
            OutboxStatus.DEAD,
            OutboxParams.kind(request.kind(), kinds.all()),
            Params.text("orderingKey", request.orderingKey()),
            Params.text("idempotencyKey", request.idempotencyKey()),
            after,
            before);
    return new ReplayOrder(filter, limit, Boolean.TRUE.equals(request.dryRun()));
  }
}
