package dev.onceonly.relay.lease;

import java.time.Instant;

/**
 * An outbox row this relay holds a lease on. {@code attempt} is the row's {@code attempts} after
 * the lease incremented it: together with the lease owner it fences the completion. {@code
 * budgetAttempt} counts attempts since an operator last retried the row (equal to {@code attempt}
 * for a row never retried): the retry policy's attempt budget applies to it. {@code traceParent} is
 * the W3C trace context of the message that wrote the row (null when it came without one).
 */
public record LeasedRow(
    long id,
    String kind,
    String payload,
    String idempotencyKey,
    String orderingKey,
    int attempt,
    int budgetAttempt,
    Instant createdAt,
    String traceParent) {}
