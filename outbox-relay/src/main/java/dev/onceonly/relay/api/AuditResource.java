package dev.onceonly.relay.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceonly.relay.audit.AuditEntry;
import dev.onceonly.relay.audit.AuditRepository;
import dev.onceonly.relay.security.Roles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Who changed what through the API, newest first. */
@Path("/outbox/audit")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "audit", description = "Every retry, cancel and replay (dry runs too)")
public class AuditResource {

  static final Set<String> PARAMETERS = Set.of("cursor", "size");

  private final AuditRepository audit;
  private final ObjectMapper json;

  public AuditResource(AuditRepository audit, ObjectMapper json) {
    this.audit = audit;
    this.json = json;
  }

  @GET
  @RolesAllowed({Roles.VIEWER, Roles.ADMIN})
  @Operation(summary = "Audited operator changes, newest first (keyset pages like /outbox)")
  public PageView<AuditEntryView> list(
      @QueryParam("cursor") String cursor, @QueryParam("size") String size, @Context UriInfo uri) {
    QueryParams.onlyKnown(uri.getQueryParameters().keySet(), PARAMETERS);
    int pageSize = QueryParams.size(size, OutboxResource.DEFAULT_SIZE, OutboxResource.MAX_SIZE);
    List<AuditEntry> entries = audit.list(QueryParams.cursor(cursor), pageSize + 1);
    Long next = entries.size() > pageSize ? entries.get(pageSize - 1).id() : null;
    return new PageView<>(entries.stream().limit(pageSize).map(this::view).toList(), next);
  }

  private AuditEntryView view(AuditEntry e) {
    return new AuditEntryView(
        e.id(),
        e.actor(),
        e.action(),
        e.targetId(),
        filter(e.filter()),
        e.affectedCount(),
        e.dryRun(),
        e.at(),
        e.scheduledUntil());
  }

  private JsonNode filter(String text) {
    if (text == null) {
      return null;
    }
    try {
      return json.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("audit filter is not JSON: " + text, e);
    }
  }
}
