package dev.onceonly.model;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The life of an outbox row (ARCHITECTURE.md §3):
 *
 * <pre>
 * pending ──lease──▶ in_flight ──2xx──▶ delivered
 *    ▲                  │ retryable failure ─▶ pending (backoff)
 *    │                  │ permanent failure or attempts exhausted ─▶ dead
 *    │                  └ lease expired ─▶ leased again by any relay
 *    └── operator retry ── dead
 * pending | dead ──operator cancel──▶ cancelled
 * </pre>
 */
public enum OutboxStatus {
  PENDING("pending"),
  IN_FLIGHT("in_flight"),
  DELIVERED("delivered"),
  DEAD("dead"),
  CANCELLED("cancelled");

  private final String value;

  OutboxStatus(String value) {
    this.value = value;
  }

  public String value() {
    return value;
  }

  /** The statuses a row may move to from this one. */
  public Set<OutboxStatus> next() {
    return switch (this) {
      case PENDING -> EnumSet.of(IN_FLIGHT, CANCELLED);
      case IN_FLIGHT -> EnumSet.of(DELIVERED, PENDING, DEAD, IN_FLIGHT);
      case DEAD -> EnumSet.of(PENDING, CANCELLED);
      case DELIVERED, CANCELLED -> EnumSet.noneOf(OutboxStatus.class);
    };
  }

  public boolean canMoveTo(OutboxStatus target) {
    return next().contains(target);
  }

  public boolean isFinal() {
    return next().isEmpty();
  }

  public static Optional<OutboxStatus> fromValue(String value) {
    return Arrays.stream(values()).filter(s -> s.value.equals(value)).findFirst();
  }
}
