package dev.onceonly.internal.operations;

import dev.onceonly.internal.catalog.ConsumerCatalog;
import dev.onceonly.internal.claim.Claim;
import dev.onceonly.internal.claim.ClaimRepository;
import dev.onceonly.internal.claim.ConflictRepository;
import dev.onceonly.internal.claim.RejectionRepository;
import dev.onceonly.internal.config.OnceOnlyConfig;
import dev.onceonly.web.Params;
import dev.onceonly.web.ProblemException;
import dev.onceonly.web.Redactor;
import dev.onceonly.web.Roles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/**
 * What the consumers decided: claims, quarantined conflicts, rejections. Stored payloads are shown
 * with the fields of {@code quarkus.onceonly.api.redact-fields} masked; the stored rows keep them.
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({Roles.VIEWER, Roles.ADMIN})
public class ClaimsResource {

  /** The most rows one listing returns. */
  static final int MAX_SIZE = 500;

  /** A quarantined payload on the wire, redacted. */
  public record ConflictView(
      long id,
      String consumer,
      String messageKey,
      String storedSha256,
      String receivedSha256,
      @Schema(description = "The payload received, personal fields reading \"***\"") String payload,
      Instant detectedAt) {}

  /** A rejection on the wire; a detail that is a JSON payload is redacted like one. */
  public record RejectionView(
      long id,
      String consumer,
      String messageKey,
      String reason,
      String detail,
      Instant rejectedAt) {}

  private final ClaimRepository claims;
  private final ConflictRepository conflicts;
  private final RejectionRepository rejections;
  private final Redactor redactor;
  private final ConsumerCatalog catalog;

  public ClaimsResource(
      ClaimRepository claims,
      ConflictRepository conflicts,
      RejectionRepository rejections,
      ConsumerCatalog catalog,
      OnceOnlyConfig config) {
    this.claims = claims;
    this.conflicts = conflicts;
    this.rejections = rejections;
    this.catalog = catalog;
    this.redactor = new Redactor(config.api().redactFields());
  }

  @GET
  @Path("claims/{consumer}/{messageKey}")
  @Operation(summary = "One claim, e.g. /claims/loyalty/order-completed:9912")
  public Claim claim(
      @PathParam("consumer") String consumer, @PathParam("messageKey") String messageKey)
      throws SQLException {
    return claims
        .find(consumer(consumer), Params.requiredText("messageKey", messageKey))
        .orElseThrow(
            () ->
                ProblemException.notFound(
                    "no claim of '" + messageKey + "' by consumer '" + consumer + "'"));
  }

  @GET
  @Path("conflicts")
  @Operation(summary = "Payloads quarantined because their key was claimed with another payload")
  public List<ConflictView> conflicts(
      @QueryParam("consumer") String consumer,
      @QueryParam("size")
          @Parameter(
              description = "1 to 500, default 100",
              schema = @Schema(type = SchemaType.INTEGER))
          String size)
      throws SQLException {
    return conflicts.list(optionalConsumer(consumer), Params.size(size, 100, MAX_SIZE)).stream()
        .map(
            c ->
                new ConflictView(
                    c.id(),
                    c.consumer(),
                    c.messageKey(),
                    c.storedSha256(),
                    c.receivedSha256(),
                    redactor.redactText(c.payload()),
                    c.detectedAt()))
        .toList();
  }

  @GET
  @Path("rejections")
  @Operation(summary = "Messages decided without an effect (insufficient balance, stale)")
  public List<RejectionView> rejections(
      @QueryParam("consumer") String consumer,
      @QueryParam("size")
          @Parameter(
              description = "1 to 500, default 100",
              schema = @Schema(type = SchemaType.INTEGER))
          String size)
      throws SQLException {
    return rejections.list(optionalConsumer(consumer), Params.size(size, 100, MAX_SIZE)).stream()
        .map(
            r ->
                new RejectionView(
                    r.id(),
                    r.consumer(),
                    r.messageKey(),
                    r.reason(),
                    redactor.redactText(r.detail()),
                    r.rejectedAt()))
        .toList();
  }

  private String optionalConsumer(String value) {
    return Params.text("consumer", value) == null ? null : consumer(value);
  }

  private String consumer(String value) {
    return catalog
        .find(value)
        .map(c -> c.name())
        .orElseThrow(
            () ->
                ProblemException.badRequest(
                    "unknown consumer '" + value + "'; one of " + catalog.names()));
  }
}
