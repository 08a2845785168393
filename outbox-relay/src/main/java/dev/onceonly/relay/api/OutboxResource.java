package dev.onceonly.relay.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceonly.relay.config.RelayConfig;
import dev.onceonly.relay.operations.OperationRefused;
import dev.onceonly.relay.operations.OutboxFilter;
import dev.onceonly.relay.operations.OutboxOperations;
import dev.onceonly.relay.operations.OutboxQueryRepository;
import dev.onceonly.relay.operations.OutboxQueryRepository.Order;
import dev.onceonly.relay.operations.OutboxRow;
import dev.onceonly.relay.operations.Page;
import dev.onceonly.relay.operations.Redactor;
import dev.onceonly.relay.operations.RowDetail;
import dev.onceonly.relay.security.Roles;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import java.time.Instant;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Outbox rows for operators: find them, look at one, retry or cancel it. */
@Path("/outbox")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "outbox", description = "Rows waiting for, in, or done with delivery")
public class OutboxResource {

  static final Set<String> LIST_PARAMETERS =
      Set.of(
          "status",
          "kind",
          "orderingKey",
          "idempotencyKey",
          "createdAfter",
          "createdBefore",
          "order",
          "cursor",
          "size");
  static final int MAX_SIZE = 500;
  static final int DEFAULT_SIZE = 50;

  private final OutboxQueryRepository queries;
  private final OutboxOperations operations;
  private final KnownKinds kinds;
  private final Redactor redactor;
  private final ObjectMapper json;
  private final SecurityIdentity identity;

  public OutboxResource(
      OutboxQueryRepository queries,
      OutboxOperations operations,
      KnownKinds kinds,
      RelayConfig config,
      ObjectMapper json,
      SecurityIdentity identity) {
    this.queries = queries;
    this.operations = operations;
    this.kinds = kinds;
    this.redactor = new Redactor(config.operations().redactFields());
    this.json = json;
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
      @QueryParam("kind") @Parameter(description = "e.g. send_receipt, issue_payout") String kind,
      @QueryParam("orderingKey") String orderingKey,
      @QueryParam("idempotencyKey") String idempotencyKey,
      @QueryParam("createdAfter") @Parameter(description = "ISO-8601, inclusive")
          String createdAfter,
      @QueryParam("createdBefore") @Parameter(description = "ISO-8601, exclusive")
          String createdBefore,
      @QueryParam("order") @Parameter(description = "newest (default) or oldest") String order,
      @QueryParam("cursor") @Parameter(description = "nextCursor of the previous page")
          String cursor,
      @QueryParam("size") @Parameter(description = "1 to 500, default 50") String size,
      @Context UriInfo uri) {
    QueryParams.onlyKnown(uri.getQueryParameters().keySet(), LIST_PARAMETERS);
    Instant after = QueryParams.timestamp("createdAfter", createdAfter);
    Instant before = QueryParams.timestamp("createdBefore", createdBefore);
    QueryParams.range(after, before);
    OutboxFilter filter =
        new OutboxFilter(
            QueryParams.status(status),
            QueryParams.kind(kind, kinds.all()),
            QueryParams.text(orderingKey),
            QueryParams.text(idempotencyKey),
            after,
            before);
    Page<OutboxRow> page =
        queries.list(
            filter,
            QueryParams.newestFirst(order) ? Order.NEWEST : Order.OLDEST,
            QueryParams.cursor(cursor),
            QueryParams.size(size, DEFAULT_SIZE, MAX_SIZE));
    return new PageView<>(page.items().stream().map(RowView::from).toList(), page.nextCursor());
  }

  @GET
  @Path("/{id}")
  @RolesAllowed({Roles.VIEWER, Roles.ADMIN})
  @Operation(summary = "One row with its redacted payload and every attempt")
  public RowDetailView one(@PathParam("id") String id) {
    long rowId = QueryParams.id(id);
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
  public RowDetailView retry(@PathParam("id") String id) {
    return view(operations.retry(QueryParams.id(id), actor()));
  }

  @POST
  @Path("/{id}/cancel")
  @RolesAllowed(Roles.ADMIN)
  @Operation(
      summary = "Cancel a pending or dead row",
      description = "It is never delivered and no longer parks its ordering key. 409 otherwise.")
  public RowDetailView cancel(@PathParam("id") String id) {
    return view(operations.cancel(QueryParams.id(id), actor()));
  }

  private String actor() {
    return identity.getPrincipal().getName();
  }

  private RowDetailView view(RowDetail detail) {
    JsonNode payload;
    try {
      payload = redactor.redact(json.readTree(detail.payload()));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(
          "stored payload of row " + detail.row().id() + " is not JSON", e);
    }
    return new RowDetailView(
        RowView.from(detail.row()),
        payload,
        detail.attempts().stream().map(AttemptView::from).toList());
  }
}
