package dev.onceonly.relay.completion;

import dev.onceonly.relay.lease.LeasedRow;
import java.time.Duration;
import java.time.Instant;

/**
 * One finished attempt, waiting to be written by a fenced completion: what becomes of the row and
 * what the attempt records. Built by {@link Completions} only, so every value here is one the
 * database can take (a bounded delay, texts without NUL bytes).
 *
 * @param retryIn how long a {@link Outcome#RETRY} row waits; zero otherwise
 * @param httpStatus the provider's status, null when it never answered
 * @param rowError the row's {@code last_error} after this completion (null when delivered)
 * @param attemptError the attempt's {@code error} (null when delivered)
 * @param traceParent the W3C trace context the attempt was sent with (null when none)
 * @param counted whether the attempt counts against the row's attempt budget: not when the
 *     destination's circuit breaker was open (the row waits for it without spending its budget)
 */
public record Completion(
    LeasedRow row,
    String relayId,
    Outcome outcome,
    Duration retryIn,
    Integer httpStatus,
    String rowError,
    String attemptError,
    Instant startedAt,
    Instant finishedAt,
    String traceParent,
    boolean counted) {}
