package dev.onceonly.it.shipping;

import dev.onceonly.api.Dated;
import dev.onceonly.api.LockOrdered;
import java.time.Instant;

/**
 * An order to ship, as the shop publishes it. Its key is the producer's AMQP {@code message-id}
 * (the consumer's default key setting); its date says which claim window it falls in; the shipments
 * of one customer are locked in one order.
 */
public record OrderPlaced(String orderId, String customerId, long weightGrams, Instant occurredAt)
    implements Dated, LockOrdered {

  @Override
  public String lockKey() {
    return customerId;
  }
}
