package dev.onceonly.it.shipping;

import dev.onceonly.api.Delivery;
import dev.onceonly.api.IdempotentHandler;
import dev.onceonly.api.OnceOnlyConsumer;
import dev.onceonly.api.Outbox;
import dev.onceonly.api.Outcome;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/**
 * Ships each order once: a shipment row (Hibernate ORM, in the claim's transaction) and a label to
 * create at the carrier (an outbox row, delivered by the relay). An order heavier than the carrier
 * takes is rejected, recorded for operators. A shipment that exists already means the order was
 * shipped under a claim that has since expired: nothing is done again.
 */
@ApplicationScoped
@OnceOnlyConsumer(name = "shipping", channel = "orders")
public class ShipOrder implements IdempotentHandler<OrderPlaced> {

  /** The heaviest parcel the carrier takes. */
  static final long MAX_WEIGHT_GRAMS = 30_000;

  private final Outbox outbox;
  private final CrashAfterCommit crash;

  public ShipOrder(Outbox outbox, CrashAfterCommit crash) {
    this.outbox = outbox;
    this.crash = crash;
  }

  @Override
  public Outcome handle(OrderPlaced order, Delivery delivery) {
    if (Shipment.findById(order.orderId()) != null) {
      return Outcome.DUPLICATE;
    }
    if (order.weightGrams() > MAX_WEIGHT_GRAMS) {
      return Outcome.rejected(
          "too_heavy",
          "order " + order.orderId() + " weighs " + order.weightGrams() + " g, over the limit");
    }
    Shipment.of(order).persist();
    outbox.enqueue(
        "create-label",
        delivery,
        Map.of("orderId", order.orderId(), "customerId", order.customerId()),
        "customer:" + order.customerId());
    crash.afterCommitOf(order.orderId());
    return Outcome.APPLIED;
  }
}
