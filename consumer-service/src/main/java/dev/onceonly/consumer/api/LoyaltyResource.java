package dev.onceonly.consumer.api;

import dev.onceonly.consumer.loyalty.Balance;
import dev.onceonly.consumer.loyalty.LedgerEntry;
import dev.onceonly.web.Params;
import dev.onceonly.web.ProblemException;
import dev.onceonly.web.Roles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/** Balances and the ledger behind them. */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({Roles.VIEWER, Roles.ADMIN})
public class LoyaltyResource {

  static final int MAX_SIZE = 500;

  /** A customer's balance on the wire. */
  public record BalanceView(String customerId, long points, Instant updatedAt) {}

  /** A ledger row on the wire. */
  public record LedgerView(
      long id,
      String customerId,
      String orderId,
      String redemptionId,
      long points,
      UUID eventId,
      String messageKey,
      Instant createdAt) {}

  @GET
  @Path("balances/{customerId}")
  @Operation(summary = "A customer's points; 404 if the customer has none yet")
  public BalanceView balance(@PathParam("customerId") String customerId) {
    Balance balance = Balance.findById(Params.requiredText("customerId", customerId));
    if (balance == null) {
      throw ProblemException.notFound("no balance for customer '" + customerId + "'");
    }
    return new BalanceView(balance.customerId, balance.points, balance.updatedAt);
  }

  @GET
  @Path("ledger")
  @Operation(summary = "A customer's ledger, oldest first, paginated (page from 0, size 1-500)")
  public List<LedgerView> ledger(
      @QueryParam("customerId") @Parameter(required = true) String customerId,
      @QueryParam("page")
          @Parameter(description = "from 0, default 0", schema = @Schema(type = SchemaType.INTEGER))
          String page,
      @QueryParam("size")
          @Parameter(
              description = "1 to 500, default 100",
              schema = @Schema(type = SchemaType.INTEGER))
          String size) {
    return LedgerEntry.page(
            Params.requiredText("customerId", customerId),
            Params.wholeNumber("page", page, 0, 0, Integer.MAX_VALUE),
            Params.size(size, 100, MAX_SIZE))
        .stream()
        .map(
            e ->
                new LedgerView(
                    e.id,
                    e.customerId,
                    e.orderId,
                    e.redemptionId,
                    e.points,
                    e.eventId,
                    e.messageKey,
                    e.createdAt))
        .toList();
  }
}
