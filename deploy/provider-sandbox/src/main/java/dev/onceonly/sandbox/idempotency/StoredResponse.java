package dev.onceonly.sandbox.idempotency;

/** The answer given to the call that took an effect, replayed to every retry with its key. */
public record StoredResponse(int status, byte[] body) {}
