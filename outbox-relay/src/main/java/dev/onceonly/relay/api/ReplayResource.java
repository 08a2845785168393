package dev.onceonly.relay.api;

import dev.onceonly.model.OutboxStatus;
import dev.onceonly.relay.config.RelayConfig;
import dev.onceonly.relay.operations.OutboxFilter;
import dev.onceonly.relay.operations.OutboxOperations;
import dev.onceonly.relay.operations.ReplayOrder;
import dev.onceonly.relay.security.Roles;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Bulk replay of dead rows by filter, paced and one at a time. */
@Path("/outbox/replay")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "outbox")
public class ReplayResource {

  private final OutboxOperations operations;
  private final KnownKinds kinds;
  private final int maxRows;
  private final SecurityIdentity identity;

  public ReplayResource(
      OutboxOperations operations,
      KnownKinds kinds,
      RelayConfig config,
      SecurityIdentity identity) {
    this.operations = operations;
    this.kinds = kinds;
    this.maxRows = config.operations().replayMaxRows();
    this.identity = identity;
  }

  @POST
  @RolesAllowed(Roles.ADMIN)
  @Operation(
      summary = "Replay dead rows matching a filter",
      description =
          "Moves up to limit dead rows (oldest first) back to pending with a fresh attempt"
              + " budget, due one after another at relay.operations.replay-rate-per-second (after"
              + " any earlier replay still being paced), so a provider is never flooded. One"
              + " replay runs at a time (409 otherwise). dryRun reports what would move and"
              + " changes nothing. Audited either way.")
  public ReplayResult replay(ReplayRequest request) {
    return ReplayResult.from(operations.replay(order(request), identity.getPrincipal().getName()));
  }

  ReplayOrder order(ReplayRequest request) {
    if (request == null) {
      throw ProblemException.badRequest(
          "send a JSON filter body, e.g. {\"kind\":\"send_receipt\",\"dryRun\":true};"
              + " {} replays every dead row up to the limit");
    }
    OutboxStatus status = QueryParams.status(request.status());
    if (status != null && status != OutboxStatus.DEAD) {
      throw ProblemException.badRequest(
          "replay moves dead rows back to pending, so status must be dead or left out, was '"
              + request.status()
              + "' (cancelled rows are final; pending and in_flight rows are already on their"
              + " way)");
    }
    Instant after = QueryParams.timestamp("createdAfter", request.createdAfter());
    Instant before = QueryParams.timestamp("createdBefore", request.createdBefore());
    QueryParams.range(after, before);
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
            QueryParams.kind(request.kind(), kinds.all()),
            QueryParams.text(request.orderingKey()),
            QueryParams.text(request.idempotencyKey()),
            after,
            before);
    return new ReplayOrder(filter, limit, Boolean.TRUE.equals(request.dryRun()));
  }
}
