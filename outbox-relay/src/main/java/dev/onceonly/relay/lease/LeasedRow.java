package dev.onceonly.relay.lease;

import java.time.Instant;

/**
 * An outbox row this relay holds a lease on. {@code attempt} is the row's {@code attempts} after
 * the lease incremented it: together with the lease owner it fences the completion. {@code
 * budgetAttempt} counts attempts since an operator last retried the row (equal to {@code attempt}
 * for a row never retried): the retry policy's attempt budget applies to it. {@code traceParent} is
 * the W3C trace context of the message that wrote the row (null when it came without one). {@code
 * leaseUntil} is the lease's end as the database wrote it: it fences the completion too, because
 * owner and attempt alone can be granted twice. A failover to a standby that never received a lease
 * (asynchronous replication, or the relay's own {@code synchronous_commit=off}) puts the row back
 * where it was, and the same relay may lease it again with the same attempt number while its first
 * call is still out; that call's completion must not write the row (chaos scenarios 13 and 14).
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
    String traceParent,
    Instant leaseUntil) {}
