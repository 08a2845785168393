package dev.onceonly.consumer;

import dev.onceonly.model.EventType;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/** The consumers of this service. Each has its own queue, dead-letter queue and claims. */
public enum ConsumerName {
  LOYALTY("loyalty", EnumSet.of(EventType.ORDER_COMPLETED, EventType.REWARD_REDEEMED)),
  RECEIPTS("receipts", EnumSet.of(EventType.ORDER_COMPLETED)),
  PROFILES("profiles", EnumSet.of(EventType.CUSTOMER_PROFILE_CHANGED));

  private final String value;
  private final Set<EventType> handles;

  ConsumerName(String value, Set<EventType> handles) {
    this.value = value;
    this.handles = handles;
  }

  /** The name stored in {@code processed_messages.consumer} and used as channel name. */
  public String value() {
    return value;
  }

  public boolean handles(EventType type) {
    return handles.contains(type);
  }

  public static Optional<ConsumerName> fromValue(String value) {
    return Arrays.stream(values()).filter(c -> c.value.equals(value)).findFirst();
  }
}
