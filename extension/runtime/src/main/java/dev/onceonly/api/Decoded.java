package dev.onceonly.api;

import java.time.Instant;
import java.util.Objects;

/**
 * An event and what the platform needs to decide it: its message key, when it happened, and the key
 * its effect locks ({@link LockOrdered}; the message key when null).
 */
public record Decoded<E>(E event, String messageKey, Instant occurredAt, String lockKey) {

  public Decoded {
    Objects.requireNonNull(event, "event");
    Objects.requireNonNull(messageKey, "messageKey");
    Objects.requireNonNull(occurredAt, "occurredAt");
  }
}
