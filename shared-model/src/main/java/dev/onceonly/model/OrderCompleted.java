package dev.onceonly.model;

import java.time.Instant;
import java.util.UUID;

/**
 * An order was paid: the loyalty consumer credits points, the receipts consumer sends a receipt.
 */
public record OrderCompleted(
    UUID eventId,
    String orderId,
    String customerId,
    String customerEmail,
    long totalCents,
    String currency,
    Instant occurredAt)
    implements LoyaltyEvent {

  @Override
  public String messageKey() {
    return MessageKeys.orderCompleted(orderId);
  }

  @Override
  public EventType type() {
    return EventType.ORDER_COMPLETED;
  }
}
