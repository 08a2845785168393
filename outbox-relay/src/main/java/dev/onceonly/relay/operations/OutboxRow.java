package dev.onceonly.relay.operations;

import java.time.Instant;

/**
 * An outbox row as an operator sees it (without its payload); {@code traceId} is that of the
 * writer's {@code traceparent}, null when the message was not traced.
 */
public record OutboxRow(
    long id,
    String kind,
    String status,
    String idempotencyKey,
    String orderingKey,
    int attempts,
    Instant availableAt,
    Instant createdAt,
    Instant deliveredAt,
    Instant cancelledAt,
    String leaseOwner,
    Instant leaseUntil,
    Integer lastHttpStatus,
    String lastError,
    String sourceConsumer,
    String sourceMessageKey,
    String traceId) {}
