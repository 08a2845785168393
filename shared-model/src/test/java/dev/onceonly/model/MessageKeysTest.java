package dev.onceonly.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class MessageKeysTest {

  private static final Instant AT = Instant.parse("2024-05-01T10:15:30Z");

  @Test
  void keysAreNamespacedAsInTheContract() {
    assertThat(MessageKeys.orderCompleted("9912")).isEqualTo("order-completed:9912");
    assertThat(MessageKeys.rewardRedeemed("r-77")).isEqualTo("reward-redeemed:r-77");
    assertThat(MessageKeys.customerProfileChanged("c-42", 3))
        .isEqualTo("customer-profile-changed:c-42:3");
  }

  @Test
  void sameIdInDifferentNamespacesGivesDifferentKeys() {
    assertThat(MessageKeys.orderCompleted("42")).isNotEqualTo(MessageKeys.rewardRedeemed("42"));
    assertThat(MessageKeys.customerProfileChanged("c-42", 3))
        .isNotEqualTo(MessageKeys.customerProfileChanged("c-42", 4));
  }

  @Test
  void orderCompletedKeyIsTheOrderNotTheEvent() {
    OrderCompleted first =
        new OrderCompleted(UUID.randomUUID(), "9912", "c-42", "a@b.io", 100, "EUR", AT);
    OrderCompleted republished =
        new OrderCompleted(UUID.randomUUID(), "9912", "c-42", "a@b.io", 100, "EUR", AT);

    assertThat(first.messageKey()).isEqualTo("order-completed:9912");
    assertThat(republished.messageKey()).isEqualTo(first.messageKey());
    assertThat(first.type()).isEqualTo(EventType.ORDER_COMPLETED);
  }

  @Test
  void rewardRedeemedKeyIsTheRedemption() {
    RewardRedeemed event =
        new RewardRedeemed(UUID.randomUUID(), "r-77", "c-42", 500, 250, "EUR", AT);

    assertThat(event.messageKey()).isEqualTo("reward-redeemed:r-77");
    assertThat(event.type()).isEqualTo(EventType.REWARD_REDEEMED);
  }

  @Test
  void customerProfileChangedKeyIsCustomerAndVersion() {
    CustomerProfileChanged event =
        new CustomerProfileChanged(UUID.randomUUID(), "c-42", 7, "gold", "a@b.io", AT);

    assertThat(event.messageKey()).isEqualTo("customer-profile-changed:c-42:7");
    assertThat(event.type()).isEqualTo(EventType.CUSTOMER_PROFILE_CHANGED);
  }
}
