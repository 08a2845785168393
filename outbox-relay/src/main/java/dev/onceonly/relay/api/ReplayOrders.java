package dev.onceonly.relay.api;

import dev.onceonly.model.OutboxStatus;
import dev.onceonly.relay.config.RelayConfig;
import dev.onceonly.relay.operations.OutboxFilter;
import dev.onceonly.relay.operations.ReplayOrder;
import dev.onceonly.web.Params;
import dev.onceonly.web.ProblemException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Checks a replay request (from the API or the console) and turns it into a replay order. */
@ApplicationScoped
public class ReplayOrders {

  private final KnownDestinations destinations;
  private final int maxRows;

  public ReplayOrders(KnownDestinations destinations, RelayConfig config) {
    this.destinations = destinations;
    this.maxRows = config.operations().replayMaxRows();
  }

  /** The most rows one replay moves ({@code relay.operations.replay-max-rows}). */
  public int maxRows() {
    return maxRows;
  }

  public ReplayOrder order(ReplayRequest request) {
    if (request == null) {
      throw ProblemException.badRequest(
          "send a JSON filter body, e.g. {\"destination\":\"send_receipt\",\"dryRun\":true};"
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
            destinations.check(request.destination(), request.kind()),
            Params.text("orderingKey", request.orderingKey()),
            Params.text("idempotencyKey", request.idempotencyKey()),
            after,
            before);
    return new ReplayOrder(
        filter, ids(request.ids()), limit, Boolean.TRUE.equals(request.dryRun()));
  }

  /** The rows a confirm names (a dry run's ids): 1 to max-rows distinct positive ids, or none. */
  private List<Long> ids(List<Long> ids) {
    if (ids == null) {
      return null;
    }
    if (ids.isEmpty() || ids.size() > maxRows) {
      throw ProblemException.badRequest(
          "ids must list 1 to "
              + maxRows
              + " row ids (relay.operations.replay-max-rows), those of a dry run, was "
              + ids.size()
              + "; leave it out to replay by filter alone");
    }
    Set<Long> seen = new HashSet<>();
    for (Long id : ids) {
      if (id == null || id < 1) {
        throw ProblemException.badRequest(
            "ids must be outbox row ids (positive whole numbers), found " + id);
      }
      if (!seen.add(id)) {
        throw ProblemException.badRequest(
            "ids lists row " + id + " more than once; name each row once");
      }
    }
    return ids;
  }
}
