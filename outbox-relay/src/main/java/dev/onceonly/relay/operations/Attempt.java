package dev.onceonly.relay.operations;

import java.time.Instant;

/** One recorded provider call for a row ({@code outbox.outbox_attempts}). */
public record Attempt(
    int attempt,
    String relayId,
    String outcome,
    Integer httpStatus,
    String error,
    Instant startedAt,
    Instant finishedAt) {}
