package dev.onceonly.relay.api;

import dev.onceonly.relay.operations.OutboxOperations;
import dev.onceonly.web.Roles;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Bulk replay of dead rows by filter, paced and one at a time. */
@Path("/outbox/replay")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "outbox")
public class ReplayResource {

  private final OutboxOperations operations;
  private final ReplayOrders orders;
  private final SecurityIdentity identity;

  public ReplayResource(
      OutboxOperations operations, ReplayOrders orders, SecurityIdentity identity) {
    this.operations = operations;
    this.orders = orders;
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
    return ReplayResult.from(
        operations.replay(orders.order(request), identity.getPrincipal().getName()));
  }
}
