package dev.onceonly.relay.lease;

import java.time.Instant;

/**
 * An outbox row this relay holds a lease on. {@code attempt} is the row's {@code attempts} after
 * the lease incremented it: together with the lease owner it fences the completion.
 */
public record LeasedRow(
    long id,
    String kind,
    String payload,
    String idempotencyKey,
    String orderingKey,
    int attempt,
    Instant createdAt) {}
