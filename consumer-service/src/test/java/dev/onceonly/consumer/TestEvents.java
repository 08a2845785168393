package dev.onceonly.consumer;

import dev.onceonly.model.CustomerProfileChanged;
import dev.onceonly.model.DecodedEvent;
import dev.onceonly.model.EventCodec;
import dev.onceonly.model.InvalidEventException;
import dev.onceonly.model.LoyaltyEvent;
import dev.onceonly.model.OrderCompleted;
import dev.onceonly.model.RewardRedeemed;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;

/** Builds contract events with ids unique to one test, so tests never see each other's rows. */
public final class TestEvents {

  private TestEvents() {}

  public static String unique(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 13);
  }

  public static OrderCompleted order(String orderId, String customerId, long totalCents) {
    return new OrderCompleted(
        UUID.randomUUID(),
        orderId,
        customerId,
        customerId + "@example.com",
        totalCents,
        "EUR",
        Instant.now());
  }

  public static RewardRedeemed redemption(String redemptionId, String customerId, long points) {
    return new RewardRedeemed(
        UUID.randomUUID(), redemptionId, customerId, points, points * 10, "EUR", Instant.now());
  }

  public static CustomerProfileChanged profile(String customerId, long version, String tier) {
    return new CustomerProfileChanged(
        UUID.randomUUID(), customerId, version, tier, customerId + "@example.com", Instant.now());
  }

  /** Decodes the event's own contract JSON, as the listener does with a broker body. */
  public static DecodedEvent decoded(LoyaltyEvent event) {
    try {
      return EventCodec.decode(event.type(), EventCodec.encode(event));
    } catch (InvalidEventException e) {
      throw new AssertionError("test event does not meet the contract: " + e.getMessage(), e);
    }
  }

  public static String json(LoyaltyEvent event) {
    return new String(EventCodec.encode(event), StandardCharsets.UTF_8);
  }
}
