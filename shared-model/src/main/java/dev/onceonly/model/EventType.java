package dev.onceonly.model;

import java.util.Arrays;
import java.util.Optional;

/** The three event types and their broker routing keys (ARCHITECTURE.md §8). */
public enum EventType {
  ORDER_COMPLETED("order.completed", "order-completed"),
  REWARD_REDEEMED("reward.redeemed", "reward-redeemed"),
  CUSTOMER_PROFILE_CHANGED("customer.profile-changed", "customer-profile-changed");

  /** The exchange every event is published to: topic, durable. */
  public static final String EXCHANGE = "loyalty.events";

  private final String routingKey;
  private final String keyNamespace;

  EventType(String routingKey, String keyNamespace) {
    this.routingKey = routingKey;
    this.keyNamespace = keyNamespace;
  }

  public String routingKey() {
    return routingKey;
  }

  /** The prefix of this type's message keys, e.g. {@code order-completed}. */
  public String keyNamespace() {
    return keyNamespace;
  }

  public static Optional<EventType> fromRoutingKey(String routingKey) {
    return Arrays.stream(values()).filter(t -> t.routingKey.equals(routingKey)).findFirst();
  }
}
