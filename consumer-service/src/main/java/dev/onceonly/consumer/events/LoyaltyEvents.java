package dev.onceonly.consumer.events;

import dev.onceonly.model.EventType;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumSet;

/** What consumer {@code loyalty} reads: completed orders and redeemed rewards. */
@ApplicationScoped
public class LoyaltyEvents extends EventDecoder {

  public LoyaltyEvents() {
    super("loyalty", EnumSet.of(EventType.ORDER_COMPLETED, EventType.REWARD_REDEEMED));
  }
}
