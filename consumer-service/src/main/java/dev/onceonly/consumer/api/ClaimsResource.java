package dev.onceonly.consumer.api;

import dev.onceonly.consumer.ConsumerName;
import dev.onceonly.consumer.claim.Claim;
import dev.onceonly.consumer.claim.ClaimRepository;
import dev.onceonly.consumer.claim.ConflictRepository;
import dev.onceonly.consumer.claim.ConflictRepository.Conflict;
import dev.onceonly.consumer.claim.RejectionRepository;
import dev.onceonly.consumer.claim.RejectionRepository.Rejection;
import dev.onceonly.consumer.security.Roles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;

/** What the consumers decided: claims, quarantined conflicts, rejections. */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({Roles.VIEWER, Roles.ADMIN})
public class ClaimsResource {

  private final ClaimRepository claims;
  private final ConflictRepository conflicts;
  private final RejectionRepository rejections;

  public ClaimsResource(
      ClaimRepository claims, ConflictRepository conflicts, RejectionRepository rejections) {
    this.claims = claims;
    this.conflicts = conflicts;
    this.rejections = rejections;
  }

  @GET
  @Path("claims/{consumer}/{messageKey}")
  @Operation(summary = "One claim, e.g. /claims/loyalty/order-completed:9912")
  public Claim claim(
      @PathParam("consumer") String consumer, @PathParam("messageKey") String messageKey)
      throws SQLException {
    return claims
        .find(consumer(consumer), messageKey)
        .orElseThrow(
            () ->
                ProblemException.notFound(
                    "no claim of '" + messageKey + "' by consumer '" + consumer + "'"));
  }

  @GET
  @Path("conflicts")
  @Operation(summary = "Payloads quarantined because their key was claimed with another payload")
  public List<Conflict> conflicts(
      @QueryParam("consumer") String consumer, @QueryParam("size") Integer size)
      throws SQLException {
    return conflicts.list(consumer == null ? null : consumer(consumer), Paging.size(size, 100));
  }

  @GET
  @Path("rejections")
  @Operation(summary = "Messages decided without an effect (insufficient balance, stale)")
  public List<Rejection> rejections(
      @QueryParam("consumer") String consumer, @QueryParam("size") Integer size)
      throws SQLException {
    return rejections.list(consumer == null ? null : consumer(consumer), Paging.size(size, 100));
  }

  private static String consumer(String value) {
    return ConsumerName.fromValue(value)
        .map(ConsumerName::value)
        .orElseThrow(
            () ->
                ProblemException.badRequest(
                    "unknown consumer '"
                        + value
                        + "'; one of "
                        + Arrays.stream(ConsumerName.values()).map(ConsumerName::value).toList()));
  }
}
