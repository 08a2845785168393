package dev.onceonly.consumer.receipts;

import dev.onceonly.api.Delivery;
import dev.onceonly.api.IdempotentHandler;
import dev.onceonly.api.OnceOnlyConsumer;
import dev.onceonly.api.Outbox;
import dev.onceonly.api.Outcome;
import dev.onceonly.consumer.events.ReceiptEvents;
import dev.onceonly.model.LoyaltyEvent;
import dev.onceonly.model.OrderCompleted;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/**
 * Consumer {@code receipts}: queues a receipt e-mail for each completed order. The outbox key is
 * its natural key: taken once, forever.
 */
@ApplicationScoped
@OnceOnlyConsumer(name = "receipts", channel = "receipts", decoder = ReceiptEvents.class)
public class ReceiptHandler implements IdempotentHandler<LoyaltyEvent> {

  /** The destination of receipt e-mails (the e-mail provider), as the relay declares it. */
  public static final String RECEIPTS = "send_receipt";

  private final Outbox outbox;

  public ReceiptHandler(Outbox outbox) {
    this.outbox = outbox;
  }

  @Override
  public Outcome handle(LoyaltyEvent event, Delivery delivery) {
    OrderCompleted order = (OrderCompleted) event;
    boolean queued =
        outbox.enqueue(
            RECEIPTS,
            delivery,
            Map.of(
                "to", order.customerEmail(),
                "template", "order-receipt",
                "orderId", order.orderId(),
                "customerId", order.customerId(),
                "totalCents", order.totalCents(),
                "currency", order.currency()),
            null);
    return queued ? Outcome.APPLIED : Outcome.DUPLICATE;
  }
}
