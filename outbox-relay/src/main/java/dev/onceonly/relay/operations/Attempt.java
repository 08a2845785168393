package dev.onceonly.relay.operations;

import java.time.Instant;

/**
 * One recorded provider call for a row ({@code outbox.outbox_attempts}); {@code traceId} is that of
 * the call's {@code traceparent}, null when it was not traced.
 */
public record Attempt(
    int attempt,
    String relayId,
    String outcome,
    Integer httpStatus,
    String error,
    Instant startedAt,
    Instant finishedAt,
    String traceId) {}
