package dev.onceonly.relay.console;

import dev.onceonly.relay.api.ReplayOrders;
import dev.onceonly.relay.api.ReplayRequest;
import dev.onceonly.relay.api.ReplayResult;
import dev.onceonly.relay.api.RowView;
import dev.onceonly.relay.operations.OutboxOperations;
import dev.onceonly.web.Params;
import dev.onceonly.web.Roles;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * What the console's buttons do, for {@code outbox-admin} only: the same audited operations as the
 * API ({@link OutboxOperations}). Only the console's own script calls these: each request must
 * carry {@value ConsoleGuard#HEADER} ({@link ConsoleGuard}), which a page of another site cannot
 * send, on top of the cross-site check every change gets.
 */
@Path("/console/actions")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.ADMIN)
@Tag(name = "console")
public class ConsoleActions {

  private final OutboxOperations operations;
  private final ReplayOrders replays;
  private final SecurityIdentity identity;

  public ConsoleActions(
      OutboxOperations operations, ReplayOrders replays, SecurityIdentity identity) {
    this.operations = operations;
    this.replays = replays;
    this.identity = identity;
  }

  @POST
  @Path("rows/{id}/retry")
  @Operation(summary = "Retry a dead row (as POST /outbox/{id}/retry)")
  public RowView retry(
      @PathParam("id") @Parameter(schema = @Schema(type = SchemaType.INTEGER, format = "int64"))
          String id) {
    return RowView.from(operations.retry(Params.id("the outbox row id", id), actor()).row());
  }

  @POST
  @Path("rows/{id}/cancel")
  @Operation(summary = "Cancel a pending or dead row (as POST /outbox/{id}/cancel)")
  public RowView cancel(
      @PathParam("id") @Parameter(schema = @Schema(type = SchemaType.INTEGER, format = "int64"))
          String id) {
    return RowView.from(operations.cancel(Params.id("the outbox row id", id), actor()).row());
  }

  @POST
  @Path("replay")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(summary = "Replay dead rows by filter, dry run first (as POST /outbox/replay)")
  public ReplayResult replay(ReplayRequest request) {
    return ReplayResult.from(operations.replay(replays.order(request), actor()));
  }

  private String actor() {
    return identity.getPrincipal().getName();
  }
}
