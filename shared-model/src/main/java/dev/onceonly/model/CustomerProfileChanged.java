package dev.onceonly.model;

import java.time.Instant;
import java.util.UUID;

/** A new version of a customer's profile; applied by a version-guarded upsert. */
public record CustomerProfileChanged(
    UUID eventId, String customerId, long version, String tier, String email, Instant occurredAt)
    implements LoyaltyEvent {

  @Override
  public String messageKey() {
    return MessageKeys.customerProfileChanged(customerId, version);
  }

  @Override
  public EventType type() {
    return EventType.CUSTOMER_PROFILE_CHANGED;
  }
}
