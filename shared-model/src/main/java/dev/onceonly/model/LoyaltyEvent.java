package dev.onceonly.model;

import java.time.Instant;
import java.util.UUID;

/** An event on exchange {@code loyalty.events}; each type knows its routing key and message key. */
public sealed interface LoyaltyEvent
    permits OrderCompleted, RewardRedeemed, CustomerProfileChanged {

  UUID eventId();

  Instant occurredAt();

  /** The customer whose balance, ledger or profile the event touches. */
  String customerId();

  /**
   * The namespaced key that identifies one effect, never a broker delivery id (ARCHITECTURE.md §8).
   */
  String messageKey();

  EventType type();
}
