package dev.onceonly.consumer.receipts;

import dev.onceonly.consumer.ConsumerName;
import dev.onceonly.consumer.Outcome;
import dev.onceonly.consumer.outbox.OutboxWriter;
import dev.onceonly.consumer.processing.MessageEffect;
import dev.onceonly.model.LoyaltyEvent;
import dev.onceonly.model.OrderCompleted;
import dev.onceonly.model.OutboxKind;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.SQLException;
import java.util.Map;

/** Consumer {@code receipts}: queues a receipt e-mail for each completed order. */
@ApplicationScoped
public class ReceiptEffect implements MessageEffect {

  private final OutboxWriter outbox;

  public ReceiptEffect(OutboxWriter outbox) {
    this.outbox = outbox;
  }

  @Override
  public ConsumerName consumer() {
    return ConsumerName.RECEIPTS;
  }

  @Override
  public Outcome apply(LoyaltyEvent event, boolean claimedNow) throws SQLException {
    OrderCompleted order = (OrderCompleted) event;
    boolean queued =
        outbox.write(
            OutboxKind.SEND_RECEIPT,
            consumer().value(),
            order.messageKey(),
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
