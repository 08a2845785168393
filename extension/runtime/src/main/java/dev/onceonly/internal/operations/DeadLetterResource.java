package dev.onceonly.internal.operations;

import dev.onceonly.internal.catalog.ConsumerCatalog;
import dev.onceonly.internal.catalog.ConsumerSpec;
import dev.onceonly.web.Params;
import dev.onceonly.web.ProblemException;
import dev.onceonly.web.Roles;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.sql.SQLException;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/** Replays a consumer's dead-letter queue to the route each message first came through. */
@Path("/dead-letters")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.ADMIN)
public class DeadLetterResource {

  static final int MAX_BATCH = 1_000;

  private final DeadLetterReplayer replayer;
  private final AuditRepository audit;
  private final SecurityIdentity identity;
  private final ConsumerCatalog catalog;

  public DeadLetterResource(
      DeadLetterReplayer replayer,
      AuditRepository audit,
      SecurityIdentity identity,
      ConsumerCatalog catalog) {
    this.replayer = replayer;
    this.audit = audit;
    this.identity = identity;
    this.catalog = catalog;
  }

  @POST
  @Path("{queue}/replay")
  @Operation(
      summary =
          "Move up to 'limit' (1-1000, default 100) messages of a consumer's dead-letter queue back"
              + " to that consumer's queue alone, with their routing key; already applied"
              + " messages come out as duplicates. A replay the broker stops part way is audited"
              + " with what moved and answered 503")
  public DeadLetterReplayer.Report replay(
      @PathParam("queue") String queue,
      @QueryParam("limit")
          @Parameter(
              description = "1 to 1000, default 100",
              schema = @Schema(type = SchemaType.INTEGER))
          String limit)
      throws SQLException {
    int batch = Params.wholeNumber("limit", limit, 100, 1, MAX_BATCH);
    ConsumerSpec consumer = consumerOf(queue);
    DeadLetterReplayer.Report report = replayer.replay(consumer, batch);
    audit.record(
        identity.getPrincipal().getName(),
        "dead-letter-replay",
        report.queue(),
        "limit=" + batch + (report.complete() ? "" : "; stopped: " + report.problem()),
        report.moved());
    if (!report.complete()) {
      throw new ProblemException(
          Response.Status.SERVICE_UNAVAILABLE.getStatusCode(),
          "replay of "
              + report.queue()
              + " stopped after "
              + report.moved()
              + " message(s) moved: "
              + report.problem()
              + "; the others are still in the dead-letter queue, replay again once the broker"
              + " is well");
    }
    return report;
  }

  /**
   * Accepts a consumer name or its dead-letter queue's name, of a consumer on RabbitMQ; nothing
   * else (a Kafka consumer's dead-letter topic is replayed with Kafka's tools, docs/kafka.md).
   */
  private ConsumerSpec consumerOf(String queue) {
    ConsumerSpec found =
        catalog.all().stream()
            .filter(c -> c.name().equals(queue) || c.deadLetterQueue().equals(queue))
            .findFirst()
            .orElseThrow(
                () ->
                    ProblemException.badRequest(
                        "unknown dead-letter queue '"
                            + queue
                            + "'; one of "
                            + catalog.all().stream()
                                .filter(c -> !c.kafka())
                                .map(ConsumerSpec::deadLetterQueue)
                                .toList()));
    if (found.kafka()) {
      throw ProblemException.badRequest(
          "consumer "
              + found.name()
              + " reads from Kafka: its dead letters are in topic "
              + found.deadLetterQueue()
              + ", replayed with Kafka's tools (docs/kafka.md)");
    }
    return found;
  }
}
