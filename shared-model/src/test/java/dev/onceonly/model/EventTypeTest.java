package dev.onceonly.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class EventTypeTest {

  @Test
  void exchangeIsLoyaltyEvents() {
    assertThat(EventType.EXCHANGE).isEqualTo("loyalty.events");
  }

  @Test
  void routingKeysAreThoseOfTheContract() {
    assertThat(EventType.ORDER_COMPLETED.routingKey()).isEqualTo("order.completed");
    assertThat(EventType.REWARD_REDEEMED.routingKey()).isEqualTo("reward.redeemed");
    assertThat(EventType.CUSTOMER_PROFILE_CHANGED.routingKey())
        .isEqualTo("customer.profile-changed");
  }

  @Test
  void keyNamespacesAreThoseOfTheMessageKeys() {
    assertThat(EventType.ORDER_COMPLETED.keyNamespace()).isEqualTo("order-completed");
    assertThat(EventType.REWARD_REDEEMED.keyNamespace()).isEqualTo("reward-redeemed");
    assertThat(EventType.CUSTOMER_PROFILE_CHANGED.keyNamespace())
        .isEqualTo("customer-profile-changed");
  }

  @ParameterizedTest
  @EnumSource(EventType.class)
  void fromRoutingKeyRoundTrips(EventType type) {
    assertThat(EventType.fromRoutingKey(type.routingKey())).contains(type);
  }

  @Test
  void unknownRoutingKeyIsEmpty() {
    assertThat(EventType.fromRoutingKey("order.cancelled")).isEmpty();
    assertThat(EventType.fromRoutingKey("order-completed")).isEmpty();
    assertThat(EventType.fromRoutingKey("ORDER.COMPLETED")).isEmpty();
    assertThat(EventType.fromRoutingKey(null)).isEmpty();
  }
}
