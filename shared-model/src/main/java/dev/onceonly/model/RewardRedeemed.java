package dev.onceonly.model;

import java.time.Instant;
import java.util.UUID;

/**
 * A customer redeemed points for a cash payout: debit if covered, then pay out through the outbox.
 */
public record RewardRedeemed(
    UUID eventId,
    String redemptionId,
    String customerId,
    long points,
    long payoutCents,
    String currency,
    Instant occurredAt)
    implements LoyaltyEvent {

  @Override
  public String messageKey() {
    return MessageKeys.rewardRedeemed(redemptionId);
  }

  @Override
  public EventType type() {
    return EventType.REWARD_REDEEMED;
  }
}
