package dev.onceonly.relay.api;

import dev.onceonly.relay.operations.OperationRefused;
import dev.onceonly.relay.operations.OutboxFilter;
import dev.onceonly.relay.operations.OutboxOperations;
import dev.onceonly.relay.operations.OutboxQueryRepository;
import dev.onceonly.relay.operations.OutboxQueryRepository.Order;
import dev.onceonly.relay.operations.OutboxRow;
import dev.onceonly.relay.operations.Page;
import dev.onceonly.relay.operations.RowDetail;
import dev.onceonly.web.Params;
import dev.onceonly.web.Roles;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Outbox rows for operators: find them, look at one, retry or cancel it. */
@Path("/outbox")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "outbox", description = "Rows waiting for, in, or done with delivery")
public class OutboxResource {

  static final int MAX_SIZE = 500;
  static final int DEFAULT_SIZE = 50;

  private final OutboxQueryRepository queries;
  private final OutboxOperations operations;
  private final KnownDestinations destinations;
  private final RowDetailViews views;
  private final SecurityIdentity identity;

  public OutboxResource(
      OutboxQueryRepository queries,
      OutboxOperations operations,
      KnownDestinations destinations,
      RowDetailViews views,
      SecurityIdentity identity) {
    this.queries = queries;
    this.operations = operations;
    this.destinations = destinations;
    this.views = views;
    this.identity = identity;
  }

  @GET
  @RolesAllowed({Roles.VIEWER, Roles.ADMIN})
  @Operation(
      summary = "List outbox rows",
      description =
          "Keyset pagination on id: pass nextCursor back as cursor until it is null. Each row"
              + " appears at most once across the pages of one listing, even while rows are"
              + " inserted; filters on status see each page as it is read.")
  public PageView<RowView> list(
      @QueryParam("status")
          @Parameter(description = "pending, in_flight, delivered, dead, cancelled")
          String status,
      @QueryParam("destination")
          @Parameter(description = "Where the rows go, e.g. send_receipt, issue_payout")
          String destination,
      @QueryParam("kind") @Parameter(description = "The older name of destination") String kind,
      @QueryParam("orderingKey") String orderingKey,
      @QueryParam("idempotencyKey") String idempotencyKey,
      @QueryParam("createdAfter")
          @Parameter(
              description = "ISO-8601, inclusive",
              schema = @Schema(type = SchemaType.STRING, format = "date-time"))
          String createdAfter,
      @QueryParam("createdBefore")
          @Parameter(
              description = "ISO-8601, exclusive",
              schema = @Schema(type = SchemaType.STRING, format = "date-time"))
          String createdBefore,
      @QueryParam("order") @Parameter(description = "newest (default) or oldest") String order,
      @QueryParam("cursor")
          @Parameter(
              description = "nextCursor of the previous page",
              schema = @Schema(type = SchemaType.INTEGER, format = "int64"))
          String cursor,
      @QueryParam("size")
          @Parameter(
              description = "1 to 500, default 50",
              schema = @Schema(type = SchemaType.INTEGER))
          String size) {
    Instant after = Params.timestamp("createdAfter", createdAfter);
    Instant before = Params.timestamp("createdBefore", createdBefore);
    Params.range(after, before);
    OutboxFilter filter =
        new OutboxFilter(
            OutboxParams.status(status),
            destinations.check(destination, kind),
            Params.text("orderingKey", orderingKey),
            Params.text("idempotencyKey", idempotencyKey),
            after,
            before);
    Page<OutboxRow> page =
        queries.list(
            filter,
            OutboxParams.newestFirst(order) ? Order.NEWEST : Order.OLDEST,
            Params.cursor(cursor),
            Params.size(size, DEFAULT_SIZE, MAX_SIZE));
    return new PageView<>(page.items().stream().map(RowView::from).toList(), page.nextCursor());
  }

  @GET
  @Path("/{id}")
  @RolesAllowed({Roles.VIEWER, Roles.ADMIN})
  @Operation(summary = "One row with its redacted payload and every attempt")
  public RowDetailView one(
      @PathParam("id") @Parameter(schema = @Schema(type = SchemaType.INTEGER, format = "int64"))
          String id) {
    long rowId = OutboxParams.rowId(id);
    return queries
        .find(rowId)
        .map(this::view)
        .orElseThrow(
            () ->
                new OperationRefused(
                    OperationRefused.Reason.NOT_FOUND, "no outbox row with id " + rowId));
  }

  @POST
  @Path("/{id}/retry")
  @RolesAllowed(Roles.ADMIN)
  @Operation(
      summary = "Retry a dead row",
      description =
          "dead → pending, due now, with a fresh attempt budget; attempts and their history are"
              + " kept and the idempotency key is the same. 409 if the row is not dead.")
  public RowDetailView retry(
      @PathParam("id") @Parameter(schema = @Schema(type = SchemaType.INTEGER, format = "int64"))
          String id) {
    return view(operations.retry(OutboxParams.rowId(id), actor()));
  }

  @POST
  @Path("/{id}/cancel")
  @RolesAllowed(Roles.ADMIN)
  @Operation(
      summary = "Cancel a pending or dead row",
      description = "It is never delivered and no longer parks its ordering key. 409 otherwise.")
  public RowDetailView cancel(
      @PathParam("id") @Parameter(schema = @Schema(type = SchemaType.INTEGER, format = "int64"))
          String id) {
    return view(operations.cancel(OutboxParams.rowId(id), actor()));
  }

  private String actor() {
    return identity.getPrincipal().getName();
  }

  private RowDetailView view(RowDetail detail) {
    return views.view(detail);
  }
}
