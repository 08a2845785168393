package dev.onceonly.model;

/**
 * Namespaced message keys (ARCHITECTURE.md §8). A key names one effect: the same order always
 * yields the same key, whatever broker delivery carried it.
 */
public final class MessageKeys {

  private MessageKeys() {}

  public static String orderCompleted(String orderId) {
    return EventType.ORDER_COMPLETED.keyNamespace() + ":" + orderId;
  }

  public static String rewardRedeemed(String redemptionId) {
    return EventType.REWARD_REDEEMED.keyNamespace() + ":" + redemptionId;
  }

  public static String customerProfileChanged(String customerId, long version) {
    return EventType.CUSTOMER_PROFILE_CHANGED.keyNamespace() + ":" + customerId + ":" + version;
  }
}
