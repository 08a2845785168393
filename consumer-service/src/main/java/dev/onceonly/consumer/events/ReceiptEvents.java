package dev.onceonly.consumer.events;

import dev.onceonly.model.EventType;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumSet;

/** What consumer {@code receipts} reads: completed orders. */
@ApplicationScoped
public class ReceiptEvents extends EventDecoder {

  public ReceiptEvents() {
    super("receipts", EnumSet.of(EventType.ORDER_COMPLETED));
  }
}
