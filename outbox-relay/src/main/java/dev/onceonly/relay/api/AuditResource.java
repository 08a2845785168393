package dev.onceonly.relay.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceonly.relay.audit.AuditEntry;
import dev.onceonly.relay.audit.AuditRepository;
import dev.onceonly.web.Params;
import dev.onceonly.web.Roles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Who changed what through the API, newest first. */
@Path("/outbox/audit")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "audit", description = "Every retry, cancel and replay (dry runs too)")
public class AuditResource {

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
      @QueryParam("cursor")
          @Parameter(schema = @Schema(type = SchemaType.INTEGER, format = "int64"))
          String cursor,
      @QueryParam("size")
          @Parameter(
              description = "1 to 500, default 50",
              schema = @Schema(type = SchemaType.INTEGER))
          String size) {
    int pageSize = Params.size(size, OutboxResource.DEFAULT_SIZE, OutboxResource.MAX_SIZE);
    List<AuditEntry> entries = audit.list(Params.cursor(cursor), pageSize + 1);
    Long next = entries.size() > pageSize ? entries.get(pageSize - 1).id() : null;
    return new PageView<>(
        entries.stream().limit(pageSize).map(e -> AuditEntryView.of(e, json)).toList(), next);
  }
}
