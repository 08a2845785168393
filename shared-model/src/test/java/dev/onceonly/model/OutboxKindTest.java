package dev.onceonly.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class OutboxKindTest {

  @Test
  void wireValuesAreTheContractKinds() {
    assertThat(OutboxKind.SEND_RECEIPT.value()).isEqualTo("send_receipt");
    assertThat(OutboxKind.ISSUE_PAYOUT.value()).isEqualTo("issue_payout");
    assertThat(Arrays.stream(OutboxKind.values()).map(OutboxKind::value))
        .containsExactlyInAnyOrder("send_receipt", "issue_payout");
  }

  @ParameterizedTest
  @EnumSource(OutboxKind.class)
  void fromValueRoundTrips(OutboxKind kind) {
    assertThat(OutboxKind.fromValue(kind.value())).contains(kind);
  }

  @Test
  void unknownOrDifferentlyCasedValueIsEmpty() {
    assertThat(OutboxKind.fromValue("send_email")).isEmpty();
    assertThat(OutboxKind.fromValue("SEND_RECEIPT")).isEmpty();
    assertThat(OutboxKind.fromValue(null)).isEmpty();
  }
}
