package dev.onceonly.sandbox.fault;

/**
 * What to do to one call.
 *
 * @param fault the misbehaviour, {@link Fault#NONE} for none
 * @param errorStatus the status of an {@link Fault#ERROR} answer
 * @param latencyMs latency added to the answer, 0 for none
 * @param hangMs how long a {@link Fault#HANG} holds the answer
 * @param retryAfterSeconds the Retry-After of a {@link Fault#THROTTLE} answer
 * @param hangBeforeEffect a {@link Fault#HANG} takes nothing and never answers (else it takes the
 *     effect and holds the answer)
 */
public record FaultDecision(
    Fault fault,
    int errorStatus,
    long latencyMs,
    long hangMs,
    int retryAfterSeconds,
    boolean hangBeforeEffect) {}
