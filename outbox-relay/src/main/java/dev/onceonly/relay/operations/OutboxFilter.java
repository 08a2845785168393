package dev.onceonly.relay.operations;

import dev.onceonly.model.OutboxStatus;
import java.time.Instant;

/**
 * Which outbox rows an operator means; every field is optional (null: any). {@code createdAfter} is
 * inclusive, {@code createdBefore} exclusive.
 */
public record OutboxFilter(
    OutboxStatus status,
    String destination,
    String orderingKey,
    String idempotencyKey,
    Instant createdAfter,
    Instant createdBefore) {

  public static OutboxFilter any() {
    return new OutboxFilter(null, null, null, null, null, null);
  }
}
