package dev.onceonly.internal.operations;

import dev.onceonly.web.Params;
import dev.onceonly.web.Roles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.sql.SQLException;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/** Who changed what through this API. */
@Path("/audit")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({Roles.VIEWER, Roles.ADMIN})
public class AuditResource {

  private final AuditRepository audit;

  public AuditResource(AuditRepository audit) {
    this.audit = audit;
  }

  @GET
  @Operation(summary = "Changes made through the API, newest first (size 1-500)")
  public List<AuditRepository.Entry> latest(
      @QueryParam("size")
          @Parameter(
              description = "1 to 500, default 100",
              schema = @Schema(type = SchemaType.INTEGER))
          String size)
      throws SQLException {
    return audit.latest(Params.size(size, 100, ClaimsResource.MAX_SIZE));
  }
}
