package dev.onceonly.relay.api;

import dev.onceonly.relay.operations.OutboxRow;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** An outbox row on the wire (without its payload: see {@code GET /outbox/{id}}). */
@Schema(name = "OutboxRow")
public record RowView(
    long id,
    @Schema(description = "Where the row goes (its kind)") String destination,
    @Schema(description = "The older name of destination") String kind,
    @Schema(enumeration = {"pending", "in_flight", "delivered", "dead", "cancelled"}) String status,
    String idempotencyKey,
    String orderingKey,
    @Schema(description = "Provider calls so far, over the row's whole life") int attempts,
    Instant availableAt,
    Instant createdAt,
    Instant deliveredAt,
    Instant cancelledAt,
    String leaseOwner,
    Instant leaseUntil,
    Integer lastHttpStatus,
    String lastError,
    @Schema(description = "The consumer that wrote the row") String sourceConsumer,
    @Schema(description = "The message whose effect wrote the row") String sourceMessageKey,
    @Schema(description = "Trace id of the message that wrote the row; null when not traced")
        String traceId) {

  public static RowView from(OutboxRow row) {
    return new RowView(
        row.id(),
        row.kind(),
        row.kind(),
        row.status(),
        row.idempotencyKey(),
        row.orderingKey(),
        row.attempts(),
        row.availableAt(),
        row.createdAt(),
        row.deliveredAt(),
        row.cancelledAt(),
        row.leaseOwner(),
        row.leaseUntil(),
        row.lastHttpStatus(),
        row.lastError(),
        row.sourceConsumer(),
        row.sourceMessageKey(),
        row.traceId());
  }
}
