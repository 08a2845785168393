package dev.onceonly.relay.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceonly.model.OutboxStatus;
import dev.onceonly.relay.api.AuditEntryView;
import dev.onceonly.relay.api.KnownDestinations;
import dev.onceonly.relay.api.ReplayOrders;
import dev.onceonly.relay.api.RowDetailView;
import dev.onceonly.relay.api.RowDetailViews;
import dev.onceonly.relay.api.RowView;
import dev.onceonly.relay.api.StatsView;
import dev.onceonly.relay.api.StatsViews;
import dev.onceonly.relay.audit.AuditEntry;
import dev.onceonly.relay.audit.AuditRepository;
import dev.onceonly.relay.console.Pages.AuditPage;
import dev.onceonly.relay.console.Pages.Header;
import dev.onceonly.relay.console.Pages.KindCounts;
import dev.onceonly.relay.console.Pages.Overview;
import dev.onceonly.relay.console.Pages.RowPage;
import dev.onceonly.relay.console.Pages.SearchPage;
import dev.onceonly.relay.operations.OperationRefused;
import dev.onceonly.relay.operations.OutboxFilter;
import dev.onceonly.relay.operations.OutboxQueryRepository;
import dev.onceonly.relay.operations.OutboxQueryRepository.Order;
import dev.onceonly.web.Params;
import dev.onceonly.web.Roles;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The operator console's pages (server-side Qute templates): the outbox at a glance, one row's
 * story, search, the audit. Reads need either role; the admin's buttons call {@link
 * ConsoleActions}. Every query is one the API runs too.
 */
@Path("/console")
@Produces(MediaType.TEXT_HTML)
@RolesAllowed({Roles.VIEWER, Roles.ADMIN})
@Tag(name = "console", description = "The operator console's pages (HTML)")
public class ConsoleResource {

  static final int DEAD_SHOWN = 50;
  static final int FOUND_SHOWN = 50;
  static final int AUDIT_SHOWN = 50;

  @CheckedTemplate
  static class Templates {
    static native TemplateInstance overview(Overview page);

    static native TemplateInstance row(RowPage page);

    static native TemplateInstance search(SearchPage page);

    static native TemplateInstance audit(AuditPage page);
  }

  private final OutboxQueryRepository queries;
  private final StatsViews stats;
  private final RowDetailViews rows;
  private final AuditRepository audit;
  private final KnownDestinations destinations;
  private final DestinationRows destinationRows;
  private final ReplayOrders replays;
  private final ObjectMapper json;
  private final SecurityIdentity identity;

  public ConsoleResource(
      OutboxQueryRepository queries,
      StatsViews stats,
      RowDetailViews rows,
      AuditRepository audit,
      KnownDestinations destinations,
      DestinationRows destinationRows,
      ReplayOrders replays,
      ObjectMapper json,
      SecurityIdentity identity) {
    this.queries = queries;
    this.stats = stats;
    this.rows = rows;
    this.audit = audit;
    this.destinations = destinations;
    this.destinationRows = destinationRows;
    this.replays = replays;
    this.json = json;
    this.identity = identity;
  }

  @GET
  @Operation(
      summary =
          "The outbox at a glance: counts, lag, each destination's figures, breaker and last hour,"
              + " parked keys, newest dead rows (of one destination with ?destination=)")
  public TemplateInstance overview(
      @QueryParam("destination")
          @Parameter(description = "Show the dead rows of this destination only")
          String destination) {
    String only = destinations.check(destination, null);
    StatsView now = stats.current();
    List<String> statuses = Arrays.stream(OutboxStatus.values()).map(OutboxStatus::value).toList();
    List<KindCounts> byKind = new ArrayList<>();
    now.byKind()
        .forEach(
            (kind, counts) ->
                byKind.add(new KindCounts(kind, statuses.stream().map(counts::get).toList())));
    List<RowView> dead =
        queries.list(deadRows(only), Order.NEWEST, null, DEAD_SHOWN).items().stream()
            .map(RowView::from)
            .toList();
    return Templates.overview(
        new Overview(
            header(null),
            statuses,
            statuses.stream().map(now.byStatus()::get).toList(),
            byKind,
            destinationRows.rows(now),
            Durations.age(now.oldestPendingAgeSeconds()),
            now.deliveriesLastMinute(),
            now.parkedOrderingKeys(),
            now.parkedOrderingKeysTotal(),
            only,
            dead,
            List.copyOf(destinations.configured()),
            replays.maxRows()));
  }

  @GET
  @Path("rows/{id}")
  @Operation(summary = "One row: redacted payload and every attempt with its trace id")
  public TemplateInstance row(
      @PathParam("id") @Parameter(schema = @Schema(type = SchemaType.INTEGER, format = "int64"))
          String id) {
    long rowId = Params.id("the outbox row id", id);
    RowDetailView detail =
        queries
            .find(rowId)
            .map(rows::view)
            .orElseThrow(
                () ->
                    new OperationRefused(
                        OperationRefused.Reason.NOT_FOUND, "no outbox row with id " + rowId));
    String status = detail.row().status();
    return Templates.row(
        new RowPage(
            header(null),
            detail.row(),
            pretty(detail),
            detail.attempts(),
            OutboxStatus.DEAD.value().equals(status),
            OutboxStatus.DEAD.value().equals(status) || OutboxStatus.PENDING.value().equals(status),
            OutboxStatus.PENDING.value().equals(status)
                || OutboxStatus.IN_FLIGHT.value().equals(status)));
  }

  @GET
  @Path("search")
  @Operation(summary = "Rows by order id, message key, idempotency key or trace id")
  public TemplateInstance search(@QueryParam("q") String q) {
    String text = Params.text("q", q);
    List<RowView> found =
        text == null
            ? List.of()
            : queries.search(text, FOUND_SHOWN).stream().map(RowView::from).toList();
    return Templates.search(new SearchPage(header(text), found, FOUND_SHOWN));
  }

  @GET
  @Path("audit")
  @Operation(summary = "Every change made through the API or the console, newest first")
  public TemplateInstance audit(
      @QueryParam("cursor")
          @Parameter(schema = @Schema(type = SchemaType.INTEGER, format = "int64"))
          String cursor) {
    List<AuditEntry> entries = audit.list(Params.cursor(cursor), AUDIT_SHOWN + 1);
    Long next = entries.size() > AUDIT_SHOWN ? entries.get(AUDIT_SHOWN - 1).id() : null;
    return Templates.audit(
        new AuditPage(
            header(null),
            entries.stream().limit(AUDIT_SHOWN).map(e -> AuditEntryView.of(e, json)).toList(),
            next));
  }

  private Header header(String query) {
    return new Header(
        identity.getPrincipal().getName(),
        identity.hasRole(Roles.ADMIN),
        query == null ? "" : query);
  }

  private String pretty(RowDetailView detail) {
    try {
      return json.writerWithDefaultPrettyPrinter().writeValueAsString(detail.payload());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot show the payload of row " + detail.row().id(), e);
    }
  }

  private static OutboxFilter deadRows(String destination) {
    return new OutboxFilter(OutboxStatus.DEAD, destination, null, null, null, null);
  }
}
